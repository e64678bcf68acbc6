"""Deterministic deictic grounding: relative times and 'here' become absolute, once, at formation.

Both decision engines use these pure functions, so "yesterday" said on 8 May 2023 is stored as
"on 7 May 2023" whatever model (or none) formed the fact. Rules, all against the anchor:
weeks start on Monday; 'last <weekday>' is the most recent such day strictly before the anchor,
'next <weekday>' the first strictly after, 'this <weekday>' that day of the anchor's week, and
'on <weekday>' is past unless its sentence has a future marker ('will', 'going to', ...);
'last/this/next weekend' is the Saturday of the previous/current/next week; vague phrases
('a few days ago') become "a few days before <anchor>" and take the anchor as event time; 'in <n>
<units>' is that far ahead unless its clause makes it a stretch of time ('for the first time in ten
years', "haven't been back in two years", 'twice in three days'), which stays as said.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

log = logging.getLogger(__name__)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
                "a couple of": 2, "couple of": 2}
# A word before the phrase that already carries the preposition ("since yesterday").
_PREPOSITIONS = {"on", "in", "since", "until", "till", "by", "from", "before", "after", "during",
                 "of", "for", "to", "at", "over", "around", "through"}
_COPULA = re.compile(r"\s+(?:was|is|has been|had been|will be|seemed|felt)\b", re.I)
_FUTURE = re.compile(r"\b(will|'ll|going to|gonna|plan(?:ning)? to|about to|shall)\b", re.I)

_NUM = r"(?P<n>\d{1,3}|a couple of|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|an|a)"
_UNIT = r"(?P<unit>day|week|month|year)s?"
_WDAY = r"(?P<wd>" + "|".join(WEEKDAYS) + r")"
# Capitalized abbreviations after last/this/next only ("last Fri"): "this sun" stays a word.
_WDAY_SHORT = r"(?-i:(?P<short>Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun))\.?"
_PART = r"(?P<part>morning|afternoon|evening|night)"
_MONTH_RE = "|".join(MONTHS)


@dataclass(frozen=True)
class Grounded:
    """Text with relative times made absolute, the date the fact refers to, and what changed."""

    text: str
    event_time: datetime | None = None
    spans: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class _Hit:
    core: str  # the absolute phrase ("7 May 2023")
    prep: str  # preposition to put before it when the sentence has none ("on")
    when: date


def format_day(d: date) -> str:
    """'7 May 2023'."""
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def _monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


def _shift_month(d: date, n: int) -> date:
    index = d.year * 12 + d.month - 1 + n
    return date(index // 12, index % 12 + 1, 1)


def _count(raw: str) -> int:
    return int(raw) if raw.isdigit() else NUMBER_WORDS[raw.lower()]


def _day(d: date, prep: str = "on") -> _Hit:
    return _Hit(format_day(d), prep, d)


def _week(d: date) -> _Hit:
    start = _monday(d)
    return _Hit(f"the week of {format_day(start)}", "in", start)


def _month(d: date) -> _Hit:
    return _Hit(f"{MONTHS[d.month - 1]} {d.year}", "in", date(d.year, d.month, 1))


def _year(y: int) -> _Hit:
    return _Hit(str(y), "in", date(y, 1, 1))


def _part_of(part: str, d: date) -> _Hit:
    return _Hit(f"the {part.lower()} of {format_day(d)}", "on", d)


def _unit_hit(unit: str, d: date, n: int) -> _Hit:
    """A day/week/month/year n units away from d (n may be negative)."""
    unit = unit.lower()
    if unit == "day":
        return _day(d + timedelta(days=n))
    if unit == "week":
        return _week(d + timedelta(weeks=n))
    if unit == "month":
        return _month(_shift_month(d, n))
    return _year(d.year + n)


def _relative(word: str, d: date) -> date:
    return d + timedelta(days={"yesterday": -1, "today": 0, "tomorrow": 1}[word.lower()])


def _weekday(which: str, wd: str, d: date, sentence: str) -> _Hit:
    target = next(i for i, day in enumerate(WEEKDAYS) if day.startswith(wd.lower()))
    which = which.lower()
    if which == "this":
        return _day(_monday(d) + timedelta(days=target))
    if which == "on":
        which = "next" if _FUTURE.search(sentence) else "last"
    if which in ("next", "coming"):
        return _day(d + timedelta(days=(target - d.weekday() - 1) % 7 + 1))
    return _day(d - timedelta(days=(d.weekday() - target - 1) % 7 + 1))


def _weekend(which: str, d: date) -> _Hit:
    offset = {"last": -1, "this": 0, "next": 1, "coming": 0}[which.lower()]
    saturday = _monday(d) + timedelta(days=5 + 7 * offset)
    return _Hit(f"the weekend of {format_day(saturday)}", "on", saturday)


class _NotAPoint(ValueError):
    """The phrase measures a stretch of time, not a moment: it stays as said."""


# Before "in <n> <units>", words that make it the stretch something happened (or not) within, not a time
# ahead: "for the first time in ten years", "haven't seen her in two years", "twice in three weeks",
# "the wettest summer in 40 years".
_STRETCH_BEFORE = re.compile(
    r"\b(?:first|second|third|last|only|once|twice|times|not|never|no|nobody|nothing|best|worst|most|least|"
    r"longest|biggest|highest|lowest|coldest|hottest|warmest|wettest|driest|busiest|quietest)\b|n't\b",
    re.I,
)


def _in_units(m: re.Match[str], d: date) -> _Hit:
    """'in three weeks' is three weeks ahead, unless its clause makes it a stretch of time."""
    head = m.string[: m.start()]
    head = re.split(r"[.!?\n,;:]|\b(?:but|and|so)\b", head, flags=re.I)[-1]  # its own clause only
    if _STRETCH_BEFORE.search(head):
        raise _NotAPoint(m.group(0))
    return _unit_hit(m["u3"], d, _count(m["n2"]))


def _vague(unit: str, d: date) -> _Hit:
    return _Hit(f"{unit.lower()} before {format_day(d)}", "", d)


_Rule = tuple[str, Callable[[re.Match[str], date, str], _Hit]]
_RULES: list[_Rule] = [
    (r"(?:the )?day before yesterday", lambda m, d, s: _day(d - timedelta(days=2))),
    (r"(?:the )?day after tomorrow", lambda m, d, s: _day(d + timedelta(days=2))),
    (r"(?P<vague>(?:a few|several) (?:days|weeks|months|years)) ago", lambda m, d, s: _vague(m["vague"], d)),
    (r"(?P<rel>yesterday|tomorrow) " + _PART, lambda m, d, s: _part_of(m["part"], _relative(m["rel"], d))),
    (r"last night", lambda m, d, s: _part_of("night", d - timedelta(days=1))),
    (r"this (?P<p2>morning|afternoon|evening)", lambda m, d, s: _part_of(m["p2"], d)),
    (r"tonight", lambda m, d, s: _part_of("night", d)),
    (r"(?P<r2>yesterday|today|tomorrow)", lambda m, d, s: _day(_relative(m["r2"], d))),
    (r"(?<!the )(?:this )?past weekend", lambda m, d, s: _weekend("last", d)),
    (r"(?<!the )this past (?P<u5>week|month|year)", lambda m, d, s: _unit_hit(m["u5"], d, -1)),
    (r"(?<!the )(?P<w>last|this|next|coming) weekend", lambda m, d, s: _weekend(m["w"], d)),
    (r"(?<!the )(?P<w2>last|this|next) (?P<u2>week|month|year)",
     lambda m, d, s: _unit_hit(m["u2"], d, {"last": -1, "this": 0, "next": 1}[m["w2"].lower()])),
    (r"(?P<w3>last|this|next|coming|on) " + _WDAY, lambda m, d, s: _weekday(m["w3"], m["wd"], d, s)),
    (r"(?P<w4>last|this|next|coming) " + _WDAY_SHORT, lambda m, d, s: _weekday(m["w4"], m["short"], d, s)),
    (_NUM + " " + _UNIT + " ago", lambda m, d, s: _unit_hit(m["unit"], d, -_count(m["n"]))),
    (r"in " + _NUM.replace("?P<n>", "?P<n2>") + " " + _UNIT.replace("?P<unit>", "?P<u3>"),
     lambda m, d, s: _in_units(m, d)),
]
_COMBINED = re.compile("|".join(f"(?P<rule{i}>\\b{pat}\\b)" for i, (pat, _) in enumerate(_RULES)), re.I)

_ABSOLUTE = [
    (re.compile(rf"\b(?P<d>\d{{1,2}}) (?P<m>{_MONTH_RE}),? (?P<y>\d{{4}})\b", re.I), "dmy"),
    (re.compile(rf"\b(?P<m>{_MONTH_RE}) (?P<d>\d{{1,2}})(?:st|nd|rd|th)?,? (?P<y>\d{{4}})\b", re.I), "dmy"),
    (re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b"), "iso"),
    (re.compile(rf"\b(?P<m>{_MONTH_RE}) (?P<y>\d{{4}})\b", re.I), "my"),
    (re.compile(r"(?:(?<=\bin )|(?<=\bduring )|(?<=\bsince )|(?<=\bof )|^)(?P<y>(?:19|20)\d\d)\b", re.I), "y"),
]


def absolute_dates(text: str) -> list[tuple[int, date]]:
    """Absolute dates written in text, as (position, date), in text order."""
    return [(at, day) for at, day, _ in absolute_periods(text)]


def absolute_periods(text: str) -> list[tuple[int, date, str]]:
    """Absolute dates written in text with what they name, as (position, first day, 'day'|'month'|'year').

    "in August 2023" names a month (its first day, 'month'); "5 August 2023" a day; "in 2022" a year.
    """
    found: list[tuple[int, date, str]] = []
    taken: list[range] = []
    for pattern, kind in _ABSOLUTE:
        for m in pattern.finditer(text):
            if any(m.start() in span for span in taken):
                continue
            try:
                found.append((m.start(), _parse_absolute(m, kind), _NAMES[kind]))
            except ValueError:
                continue
            taken.append(range(m.start(), m.end()))
    return sorted(found)


_NAMES = {"dmy": "day", "iso": "day", "my": "month", "y": "year"}


def _parse_absolute(m: re.Match[str], kind: str) -> date:
    year = int(m["y"])
    if kind == "y":
        return date(year, 1, 1)
    month = int(m["m"]) if kind == "iso" else [x.lower() for x in MONTHS].index(m["m"].lower()) + 1
    return date(year, month, int(m["d"]) if kind != "my" else 1)


def _sentence_around(text: str, start: int, end: int) -> str:
    left = max(text.rfind(p, 0, start) for p in ".!?\n")
    right = min((i for i in (text.find(p, end) for p in ".!?\n") if i >= 0), default=len(text))
    return text[left + 1 : right]


def _phrase(hit: _Hit, text: str, m: re.Match[str]) -> str:
    """The replacement, with a preposition only where the sentence lacks one."""
    before = text[: m.start()].rsplit(None, 1)
    prev = before[-1].lower() if before and text[: m.start()].endswith((" ", "\t")) else ""
    possessive = text[m.end() : m.end() + 1] in ("'", "\u2019")
    as_subject = bool(_COPULA.match(text, m.end()))  # "yesterday was fun": a noun, no preposition
    if m.group(0).lower().startswith(("in ", "on ")):  # the match carries its own preposition
        out = f"{hit.prep} {hit.core}"
    elif not hit.prep or prev in _PREPOSITIONS or possessive or as_subject:
        out = hit.core
    else:
        out = f"{hit.prep} {hit.core}"
    head = text[: m.start()].rstrip()
    opens_sentence = not head or head[-1] in ".!?\n"
    return out[0].upper() + out[1:] if opens_sentence and m.group(0)[0].isupper() else out


def ground_time(text: str, anchor: datetime) -> Grounded:
    """Replace relative time expressions with absolute ones, against the utterance's timestamp."""
    day = anchor.date()
    pieces: list[str] = []
    spans: list[tuple[str, str]] = []
    dated: list[tuple[int, date]] = []
    last = 0
    for m in _COMBINED.finditer(text):
        rule = int((m.lastgroup or "rule0").removeprefix("rule"))
        try:
            hit = _RULES[rule][1](m, day, _sentence_around(text, m.start(), m.end()))
        except _NotAPoint:
            continue
        except (OverflowError, ValueError):  # before year 1 or after 9999: leave the phrase as said
            log.info("left %r ungrounded: it falls outside the calendar from %s", m.group(0), day)
            continue
        replacement = _phrase(hit, text, m)
        pieces.append(text[last : m.start()] + replacement)
        spans.append((m.group(0), replacement))
        dated.append((m.start(), hit.when))
        last = m.end()
    grounded = "".join(pieces) + text[last:]
    dated += absolute_dates(text)
    first = min(dated, default=None)
    when = datetime(first[1].year, first[1].month, first[1].day, tzinfo=anchor.tzinfo) if first else None
    return Grounded(grounded, when, spans)


_HERE = re.compile(r"\b(?P<lead>(?:over|right|out|down|up|back) )?here\b", re.I)
_PLACE_PREPOSITIONS = {"in", "at", "from", "to", "near", "around", "of", "outside", "toward", "towards",
                       "across", "beyond", "through"}
_PRESENTING = re.compile(r"(?:'s|\u2019s| is\b| are\b| you go\b| we go\b| it is\b)", re.I)


def ground_place(text: str, location: str | None) -> str:
    """Replace standalone 'here' with 'in <location>' ('from here' -> 'from <location>').

    'there' is left alone: its antecedent is another place, not the request location.
    A clause-initial 'Here is/are/you go' presents something and is kept.
    """
    if not location:
        return text

    def swap(m: re.Match[str]) -> str:
        head = text[: m.start()].rstrip()
        if (not head or head[-1] in ".!?:;,\n") and _PRESENTING.match(text, m.end()):
            return m.group(0)
        before = head.rsplit(None, 1)
        prev = before[-1].lower() if before else ""
        out = location if prev in _PLACE_PREPOSITIONS and not m["lead"] else f"in {location}"
        return out[0].upper() + out[1:] if m.group(0)[0].isupper() else out

    return _HERE.sub(swap, text)
