"""Days said without a year, as chat says them: "the 21st of August", "4th September", "Thursday the 29th".

The offline answerer reads a when-question's date from what a line says before the date it was said on;
``spans`` reads full dates ("4 September 2027") and ``grounding.deixis`` relative ones ("last friday"). A day
said with its month but no year is placed in the year that puts it nearest the line's date (a plan in May
for "the 21st of August" is that August); a weekday with a day of the month ("Thursday the 29th") is the
nearest such day within SPOKEN_DAY_REACH_DAYS of the line's date. A bare "the 18th" or a bare weekday
("thursday is her birthday", a quoted "saturday?") is placed by the tense of its clause (``bare_days``): behind
the line's date when the clause tells a past ("came in the end, the 24th", "since monday"), else ahead ("coming
back on the 18th"); the nearest month was tried for the bare day and lost as many answers as it won, since the
month before and the month after are equally near. A month said alone ("in november", "one in may") is placed in
the year nearest the line's date (``spoken_months``). Without the line's date nothing is placed.
"""

from __future__ import annotations

import contextlib
import re
from datetime import date, timedelta

from dmem.grounding.deixis import MONTHS, WEEKDAYS
from dmem.text.verbs import IRREGULAR_PASTS, PAST_STEMS
from dmem.text.words import wordset

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
# A bare day that is placed: "the first" and "the second" are also ranks ("she was the first"), so only in digits.
_PLACED_DAY = re.compile(rf"(?<![\w-])the\s+(?:(?P<d>\d{{1,2}})(?:st|nd|rd|th)|(?!first\b|second\b)(?P<w>{_WORD_DAY}))"
                         r"\b(?!\s+(?:of\s+)?[a-z])", re.I)
# A weekday alone ("thursday is her birthday", "saturday?"): not "last/this/next/on <weekday>" (``deixis`` grounds
# those), not "a monday" or "every monday", not a plural ("on sundays"), not "Thursday the 29th" (``_SPOKEN``).
_BARE_WEEKDAY = re.compile(rf"(?<![\w'-])(?<!\blast\s)(?<!\bthis\s)(?<!\bnext\s)(?<!\bcoming\s)(?<!\bon\s)(?<!\ba\s)"
                           rf"(?<!\bevery\s)(?P<wd>{'|'.join(WEEKDAYS)})\b(?!'|\s+(?:the\s+)?(?:\d|{_WORD_DAY}))",
                           re.I)
# Words that tell a clause's past; a future marker overrides them ("I said I'll come on the 18th").
_PAST_WORDS = (wordset("was were wasn't weren't did didn't had hadn't ago since last") | IRREGULAR_PASTS
               | set(PAST_STEMS))
_REGULAR_PAST = re.compile(r"\b[a-z]{2,}[^e\W]ed\b|\b[a-z]+ied\b", re.I)
_FUTURE = re.compile(r"\b(?:will|'ll|going\s+to|gonna|shall|next|tomorrow)\b", re.I)
_CLAUSE_END = re.compile(r"[.!?;:\"\n\u201c\u201d]")


def names_bare_day(text: str) -> bool:
    """Whether the text names a day of the month alone ("back on the eighteenth"), which is not placed."""
    return bool(_BARE_DAY.search(text))


def tells_past(clause: str) -> bool:
    """Whether a clause tells something past ("came in the end", "since monday"), with no future marker."""
    if _FUTURE.search(clause):
        return False
    words = {w.strip("'") for w in re.findall(r"[a-z']+", clause.lower())}
    return bool(words & _PAST_WORDS or _REGULAR_PAST.search(clause))


def _clause(text: str, at: int) -> str:
    """The clause around offset ``at``: up to the nearest sentence end, semicolon, colon or quote mark."""
    starts = [m.end() for m in _CLAUSE_END.finditer(text, 0, at)]
    end = _CLAUSE_END.search(text, at)
    return text[starts[-1] if starts else 0 : end.start() if end else len(text)]


def bare_days(text: str, said_on: date) -> list[tuple[int, date]]:
    """(offset, day) of each bare day of the month ("the 30th") or weekday ("saturday?"), placed by tense.

    Behind the line's date when its clause tells a past (``tells_past``), else ahead: a day of the month on
    or before / on or after it, a weekday strictly before / after it (as ``deixis`` places "last" / "next").
    """
    found = []
    for m in _PLACED_DAY.finditer(text):
        number, past = _number(m["d"], m["w"]), tells_past(_clause(text, m.start()))
        if 1 <= number <= 31:
            found.append((m.start(), _month_of_day(number, said_on, past)))
    for m in _BARE_WEEKDAY.finditer(text):
        step = -1 if tells_past(_clause(text, m.start())) else 1
        wanted = WEEKDAYS.index(m["wd"].lower())
        day = said_on + timedelta(days=step)
        while day.weekday() != wanted:
            day += timedelta(days=step)
        found.append((m.start(), day))
    return sorted(found)


_SPOKEN_MONTH = re.compile(rf"\b(?:in|since|until|till|by|from|end\s+of|early|late|mid)\s+(?P<m>{_MONTH})\b"
                           r"(?!\s*(?:\d|the\s+\d))", re.I)


def spoken_months(text: str, said_on: date | None) -> list[tuple[int, date]]:
    """(offset, first day) of each month said alone ("in november", "one in may"), in the year nearest the line's.

    Not by tense: a plan's month is told in the past as often as not ("it was in may; now june 3rd").
    Without the line's date nothing is placed.
    """
    if said_on is None:
        return []
    found = []
    for m in _SPOKEN_MONTH.finditer(text):
        number = MONTHS.index(m["m"].title()) + 1
        months_away = {y: abs((y - said_on.year) * 12 + number - said_on.month) for y in
                       (said_on.year - 1, said_on.year, said_on.year + 1)}
        found.append((m.start("m"), date(min(months_away, key=months_away.__getitem__), number, 1)))
    return found


def _month_of_day(number: int, said_on: date, past: bool) -> date:
    """That day of the month, in the nearest month behind (``past``) or ahead of the line's date that has it."""
    year, month, step = said_on.year, said_on.month, -1 if past else 1
    while True:
        with contextlib.suppress(ValueError):
            day = date(year, month, number)
            if (day <= said_on) if past else (day >= said_on):
                return day
        month += step
        year, month = (year - 1, 12) if month == 0 else (year + 1, 1) if month == 13 else (year, month)


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
    return sorted((at, day) for _, at, day in told_days(text, said_on))


def told_days(text: str, said_on: date | None) -> list[tuple[bool, int, date]]:
    """(bare, offset, day) of each day said without a full date (``spoken_days``), days with their month first.

    A bare day or weekday (``bare_days``) is told less than a day with its month: "the 17th, no, the 10th of
    October" means the 10th of October, so ``spans.said_date`` takes a day with its month first.
    """
    if said_on is None:
        return []
    found, taken = [], []
    for m in _SPOKEN.finditer(text):
        taken.append(range(m.start(), m.end()))
        if m["wd"]:
            day = _weekday_day(m["wd"], _number(m["d3"], m["w3"]), said_on)
        elif m["m2"]:
            day = _month_day(m["m2"], int(m["d2"]), m["y2"], said_on)
        else:
            day = _month_day(m["m"], _number(m["d"], m["w"]), m["y"], said_on)
        if day is not None:
            found.append((False, m.start(), day))
    found += [(True, at, day) for at, day in bare_days(text, said_on) if not any(at in span for span in taken)]
    return sorted(found)
