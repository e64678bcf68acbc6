"""What a question points at besides its words: the people and things it names, and the times it gives.

Both are matched against what is indexed: names against a document's words, time cues against
the days a memory or a turn is dated. A cue is only as precise as the question ('in 2023' matches
a whole year, 'on 8 May 2023' a day give or take ``DAY_SLACK``). A day without a year ('on 4 June')
is that day in any year, a span ('14-16 May') those days, and part of a month ('in early April') its
third of the month, each give or take ``DAY_SLACK``: chats rarely repeat the year, and a month alone
spreads a question over weeks of memories.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from dmem.grounding.deixis import MONTHS

DAY_SLACK = 3  # days around a day cue that still match (a fact is often dated by when it was told)
PARTS = {"early": (1, 10), "beginning": (1, 10), "start": (1, 10), "mid": (11, 20), "middle": (11, 20),
         "late": (21, 31), "end": (21, 31)}
"""The days of the month a part of it names ('early April': 1-10; 'late' runs to the month's last day)."""

_MONTH = "|".join(MONTHS)
_MON3 = "|".join(m[:3] for m in MONTHS)
_PART = r"(?:(?P<p>early|mid|late)[\s-]+|(?:the\s+)?(?P<q>beginning|start|middle|end)\s+of\s+)"
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>{_MONTH}|{_MON3})\.?,?\s+(?P<y>\d{{4}})\b",
                re.I), "d"),
    (re.compile(rf"\b(?P<m>{_MONTH}|{_MON3})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b", re.I), "d"),
    (re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b"), "d"),
    (re.compile(r"\b(?P<d>\d{1,2})[./](?P<m>\d{1,2})[./](?P<y>\d{4})\b"), "d"),
    (re.compile(rf"\b{_PART}(?P<m>{_MONTH})\b(?:,?\s+(?:of\s+)?(?P<y>\d{{4}})\b)?", re.I), "part"),
    (re.compile(rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s*(?:-|–|to)\s*(?P<e>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?"
                rf"(?P<m>{_MONTH}|{_MON3})\b", re.I), "span"),
    (re.compile(rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>{_MONTH}|{_MON3})\b", re.I), "day"),
    (re.compile(rf"\b(?P<m>{_MONTH})\s+(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b"), "day"),
    (re.compile(rf"\b(?P<m>{_MONTH})\.?,?\s+(?:of\s+)?(?P<y>\d{{4}})\b", re.I), "m"),
    (re.compile(r"\b(?P<y>(?:19|20)\d\d)\b"), "y"),
    (re.compile(rf"\b(?:in|during|since|of|last)\s+(?P<m>{_MONTH})\b", re.I), "month"),
]


@dataclass(frozen=True)
class TimeCue:
    """A time the question gives: a day, a month, a year, or a month of any year (``year`` None).

    A day or part of a month without a year (``year`` None with ``day`` or ``days``) is that day or part in any year.
    """

    year: int | None
    month: int | None = None
    day: int | None = None
    days: tuple[int, int] | None = None
    """The first and last day of a span or part of the month ('4-6 May': (4, 6), 'early April': (1, 10)); None
    for one day or a whole month."""

    def distance(self, when: date) -> int | None:
        """Days from ``when`` to this cue (0 inside a month or year cue); None when it does not match."""
        if self.month is not None and (self.day is not None or self.days is not None):
            gaps = [gap for year in self._years(when) if (gap := self._gap(year, when)) is not None]
            return min(gaps) if gaps and min(gaps) <= DAY_SLACK else None
        if self.year is not None and when.year != self.year:
            return None
        if self.month is not None and when.month != self.month:
            return None
        return 0

    def _years(self, when: date) -> tuple[int, ...]:
        """The years the cue's day may fall in: its own, else ``when``'s and the two beside it (a cue near New Year)."""
        return (self.year,) if self.year is not None else (when.year - 1, when.year, when.year + 1)

    def _gap(self, year: int, when: date) -> int | None:
        """Days from ``when`` to the cue's day or part of the month in ``year``; None when that day does not exist."""
        assert self.month is not None
        first, last = (self.day, self.day) if self.day is not None else self.days or (1, 31)
        try:
            start = date(year, self.month, first)
        except ValueError:
            return None
        end = min(date(year, self.month, 28) + timedelta(days=last - 28), _month_end(year, self.month))
        return max((start - when).days, (when - end).days, 0)


def _month_end(year: int, month: int) -> date:
    """The last day of the month."""
    return date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)


def _month_number(raw: str) -> int:
    return int(raw) if raw.isdigit() else [m[:3].lower() for m in MONTHS].index(raw[:3].lower()) + 1


def _cue(m: re.Match[str], kind: str) -> TimeCue | None:
    """The cue one pattern's match gives, None when its date does not exist (31 February)."""
    year = int(m["y"]) if kind in ("d", "m", "y") or (kind == "part" and m["y"]) else None
    if kind == "y":
        return TimeCue(year)
    try:
        month = _month_number(m["m"])
        day = int(m["d"]) if kind in ("d", "day") else None
        days = (int(m["d"]), int(m["e"])) if kind == "span" else PARTS[(m["p"] or m["q"]).lower()] if kind == "part" \
            else None
        for named in [day] if day is not None else list(days) if kind == "span" and days else []:
            date(year or 2000, month, named)  # reject 31 February (2000 has a 29 February)
    except (ValueError, IndexError):
        return None
    if days is not None and days[0] > days[1]:
        return None
    return TimeCue(year, month, day, days)


def time_cues(question: str) -> list[TimeCue]:
    """Time cues written in the question, most precise first ('on 8 May 2023', 'early May', '4 May', 'May 2023')."""
    cues: list[TimeCue] = []
    taken: list[range] = []
    for pattern, kind in _PATTERNS:
        for m in pattern.finditer(question):
            if any(m.start() in span or m.end() - 1 in span for span in taken):
                continue
            if (cue := _cue(m, kind)) is not None:
                cues.append(cue)
                taken.append(range(m.start(), m.end()))
    return cues


def time_distance(cues: list[TimeCue], days: tuple[date, ...]) -> int | None:
    """Smallest distance of any of the days to any cue; None when none matches."""
    found = [d for cue in cues for day in days if (d := cue.distance(day)) is not None]
    return min(found) if found else None


def date_words(day: date) -> str:
    """How a day is written in an indexed document, so 'May 2023' in a question matches it lexically."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
