"""What a question points at besides its words: the people and things it names, and the times it gives.

Both are matched against what is indexed: names against a document's words, time cues against
the days a memory or a turn is dated. A cue is only as precise as the question ('in 2023' matches
a whole year, 'on 8 May 2023' a day give or take ``DAY_SLACK``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from dmem.grounding.deixis import MONTHS

DAY_SLACK = 3  # days around a day cue that still match (a fact is often dated by when it was told)

_MONTH = "|".join(MONTHS)
_MON3 = "|".join(m[:3] for m in MONTHS)
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m>{_MONTH}|{_MON3})\.?,?\s+(?P<y>\d{{4}})\b", re.I), "d"),
    (re.compile(rf"\b(?P<m>{_MONTH}|{_MON3})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b", re.I), "d"),
    (re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b"), "d"),
    (re.compile(r"\b(?P<d>\d{1,2})[./](?P<m>\d{1,2})[./](?P<y>\d{4})\b"), "d"),
    (re.compile(rf"\b(?P<m>{_MONTH})\.?,?\s+(?:of\s+)?(?P<y>\d{{4}})\b", re.I), "m"),
    (re.compile(r"\b(?P<y>(?:19|20)\d\d)\b"), "y"),
    (re.compile(rf"\b(?:in|during|since|of|early|mid|late|last)\s+(?P<m>{_MONTH})\b", re.I), "month"),
]


@dataclass(frozen=True)
class TimeCue:
    """A time the question gives: a day, a month, a year, or a month of any year (``year`` None)."""

    year: int | None
    month: int | None = None
    day: int | None = None

    def distance(self, when: date) -> int | None:
        """Days from ``when`` to this cue (0 inside a month or year cue); None when it does not match."""
        if self.year is not None and self.month is not None and self.day is not None:
            gap = abs((when - date(self.year, self.month, self.day)).days)
            return gap if gap <= DAY_SLACK else None
        if self.year is not None and when.year != self.year:
            return None
        if self.month is not None and when.month != self.month:
            return None
        return 0


def _month_number(raw: str) -> int:
    return int(raw) if raw.isdigit() else [m[:3].lower() for m in MONTHS].index(raw[:3].lower()) + 1


def time_cues(question: str) -> list[TimeCue]:
    """Time cues written in the question, most precise first ('on 8 May 2023', 'May 2023', '2023', 'in May')."""
    cues: list[TimeCue] = []
    taken: list[range] = []
    for pattern, kind in _PATTERNS:
        for m in pattern.finditer(question):
            if any(m.start() in span or m.end() - 1 in span for span in taken):
                continue
            try:
                year = int(m["y"]) if kind != "month" else None
                month = _month_number(m["m"]) if kind != "y" else None
                day = int(m["d"]) if kind == "d" else None
                if day is not None and month is not None and year is not None:
                    date(year, month, day)  # reject 31 February
            except (ValueError, IndexError):
                continue
            if month is not None and not 1 <= month <= 12:
                continue
            cues.append(TimeCue(year, month, day))
            taken.append(range(m.start(), m.end()))
    return cues


def time_distance(cues: list[TimeCue], days: tuple[date, ...]) -> int | None:
    """Smallest distance of any of the days to any cue; None when none matches."""
    found = [d for cue in cues for day in days if (d := cue.distance(day)) is not None]
    return min(found) if found else None


def date_words(day: date) -> str:
    """How a day is written in an indexed document, so 'May 2023' in a question matches it lexically."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
