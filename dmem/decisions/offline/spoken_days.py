"""Days said without a year, as chat says them: "the 21st of August", "4th September", "Thursday the 29th".

The offline answerer reads a when-question's date from what a line says before the date it was said on;
``spans`` reads full dates ("4 September 2027") and ``grounding.deixis`` relative ones ("last friday"). A day
said with its month but no year is placed in the year that puts it nearest the line's date (a plan in May
for "the 21st of August" is that August); a weekday with a day of the month ("Thursday the 29th") is the
nearest such day within SPOKEN_DAY_REACH_DAYS of the line's date. A bare "the 18th" is not placed: the
month before and the month after are equally near, and tense decides (tried: as many answers lost as won).
Without the line's date nothing is placed.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from dmem.grounding.deixis import MONTHS, WEEKDAYS

SPOKEN_DAY_REACH_DAYS = 62  # "Thursday the 29th" is looked for this far either side of the line's date

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
             "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth",
             "nineteenth", "twentieth")
_ORDINAL_WORDS = {w: n for n, w in enumerate(_ORDINALS, start=1)} | {"thirtieth": 30}
_ORDINAL_WORDS |= {f"twenty{sep}{w}": 20 + n for n, w in enumerate(_ORDINALS[:9], start=1) for sep in (" ", "-")}
_ORDINAL_WORDS |= {f"thirty{sep}first": 31 for sep in (" ", "-")}
_WORD_DAY = "|".join(sorted(_ORDINAL_WORDS, key=len, reverse=True)).replace(" ", r"\s")
_DAY = rf"(?P<d>\d{{1,2}})(?P<th>st|nd|rd|th)?|(?P<w>{_WORD_DAY})"
_MONTH = "|".join(MONTHS)
# "May" and "March" are verbs too: a month that opens the phrase keeps its capital or has an ordinal after it.
_SPOKEN = re.compile(
    rf"(?<![\w-])(?:the\s+)?(?:{_DAY})\s+(?:of\s+)?(?P<m>{_MONTH})\b(?:,?\s+(?P<y>\d{{4}})\b)?"
    rf"|(?<![\w-])(?P<m2>(?-i:{_MONTH})|(?:{_MONTH})(?=\s+\d{{1,2}}(?:st|nd|rd|th)))\s+(?:the\s+)?"
    rf"(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?(?!\d|:)(?:,?\s+(?P<y2>\d{{4}})\b)?"
    rf"|\b(?P<wd>{'|'.join(WEEKDAYS)})\s+(?:the\s+)?(?:(?P<d3>\d{{1,2}})(?:st|nd|rd|th)|(?P<w3>{_WORD_DAY}))\b", re.I)


_BARE_DAY = re.compile(rf"(?<![\w-])the\s+(?:\d{{1,2}}(?:st|nd|rd|th)|{_WORD_DAY})\b(?!\s+(?:of\s+)?[a-z])", re.I)


def names_bare_day(text: str) -> bool:
    """Whether the text names a day of the month alone ("back on the eighteenth"), which is not placed."""
    return bool(_BARE_DAY.search(text))


def _number(digits: str | None, word: str | None) -> int:
    """A day of the month in digits or as an ordinal word ("twenty-first")."""
    return int(digits) if digits else _ORDINAL_WORDS[" ".join((word or "").lower().split())]


def _month_day(month: str, day: int, year: str | None, said_on: date) -> date | None:
    """The day of that month in the year said, else in the year that puts it nearest the line's date."""
    number = MONTHS.index(month.title()) + 1
    years = [int(year)] if year else [said_on.year - 1, said_on.year, said_on.year + 1]
    days = []
    for y in years:
        try:
            days.append(date(y, number, day))
        except ValueError:
            continue
    return min(days, key=lambda d: abs((d - said_on).days)) if days else None


def _weekday_day(weekday: str, day: int, said_on: date) -> date | None:
    """The nearest day within SPOKEN_DAY_REACH_DAYS that is that weekday and that day of the month."""
    wanted = WEEKDAYS.index(weekday.lower())
    near = [said_on + timedelta(days=k) for k in range(-SPOKEN_DAY_REACH_DAYS, SPOKEN_DAY_REACH_DAYS + 1)]
    fits = [d for d in near if d.day == day and d.weekday() == wanted]
    return min(fits, key=lambda d: abs((d - said_on).days)) if fits else None


def spoken_days(text: str, said_on: date | None) -> list[tuple[int, date]]:
    """(offset, day) of each day said without a full date, placed by the date the line was said on."""
    if said_on is None:
        return []
    found = []
    for m in _SPOKEN.finditer(text):
        if m["wd"]:
            day = _weekday_day(m["wd"], _number(m["d3"], m["w3"]), said_on)
        elif m["m2"]:
            day = _month_day(m["m2"], int(m["d2"]), m["y2"], said_on)
        else:
            day = _month_day(m["m"], _number(m["d"], m["w"]), m["y"], said_on)
        if day is not None:
            found.append((m.start(), day))
    return found
