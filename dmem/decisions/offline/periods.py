"""A question's time period, and the context lines that fall in it.

"What happened to Theo's job in March 2024?" names a period. The line that answers it often says
when only through its date ('[2024-03-12] Theo lost his job at the bakery'), while a line from
another month that writes a date out ('On 2 March 2024, Maya...') or a month's name matches the
question's words. BM25 matches words, so a line whose time falls in the period counts, for BM25, as
naming it (as a line naming a topic word's family counts as naming the word, ``topics.kin_words``).
A line's time is the dates it writes out, else the day it was said (its tag).

The period also decides among the lines that can answer (``within``): "What did Theo borrow in March
2024?" is answered from the March line, not from a line of another month about another loan that
ranks higher; a line with no time, or one whose time may overlap the period, is never set aside.
"""

from __future__ import annotations

__all__ = ["Period", "asked_period", "period_words", "within"]

import re
from dataclasses import dataclass
from datetime import date, timedelta

from dmem.grounding.deixis import MONTHS, absolute_periods

_UNITS = ("day", "month", "year")  # finest first
_NOT_WITHIN = re.compile(r"\b(?:before|after|since|until|till|by|from|between|around|than)\s+(?:the\s+)?"
                         r"(?:(?:early|mid|late|end\s+of|start\s+of)\s+)?$", re.I)


_YEAR_RANGE = re.compile(r"\s*(?:-|\u2013|to|through|and)\s*(?:19|20)\d\d\b", re.I)  # "in 2028-2029" spans two years


@dataclass(frozen=True)
class Period:
    """A day, month or year a question asks within."""

    first: date
    unit: str

    def holds(self, day: date, unit: str) -> bool:
        """True if a time of this unit starting on ``day`` lies within the period."""
        if _UNITS.index(unit) > _UNITS.index(self.unit):
            return False  # "in 2024" does not fall within "March 2024"
        if self.unit == "year":
            return day.year == self.first.year
        if self.unit == "month":
            return (day.year, day.month) == (self.first.year, self.first.month)
        return day == self.first

    def overlaps(self, day: date, unit: str) -> bool:
        """True if a time of this unit starting on ``day`` shares a day with the period."""
        return day <= _last_day(self.first, self.unit) and self.first <= _last_day(day, unit)

    def words(self) -> str:
        """The period written out ('March 2024', '12 March 2024', '2024')."""
        month = MONTHS[self.first.month - 1]
        return {"day": f"{self.first.day} {month} {self.first.year}", "month": f"{month} {self.first.year}",
                "year": str(self.first.year)}[self.unit]


def _last_day(first: date, unit: str) -> date:
    """The last day of the day, month or year starting on ``first``."""
    if unit == "year":
        return date(first.year, 12, 31)
    if unit == "month":
        return (first.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
    return first


def asked_period(question: str) -> Period | None:
    """The one period a question asks within ('in March 2024'); none for two dates, years' span, 'before/after ...'."""
    found = absolute_periods(question)
    if len(found) != 1:
        return None
    at, first, unit = found[0]
    if _NOT_WITHIN.search(question[:at]) or (unit == "year" and _YEAR_RANGE.match(question, at + 4)):
        return None
    return Period(first, unit)


def _times(text: str, tag: date | None) -> list[tuple[date, str]]:
    """A line's times: the dates it writes out, else the day it was said."""
    said = [(day, unit) for _, day, unit in absolute_periods(text)]
    return said or ([(tag, "day")] if tag else [])


def period_words(question: str, lines: list[tuple[str, date | None]]) -> list[str]:
    """Per line, the question's period written out if the line's time falls in it, else ''."""
    period = asked_period(question)
    if period is None:
        return [""] * len(lines)
    return [period.words() if any(period.holds(day, unit) for day, unit in _times(text, tag)) else ""
            for text, tag in lines]


def within(question: str, lines: list[tuple[str, date | None]], ranked: list[tuple[int, float]],
           margin: float) -> list[tuple[int, float]]:
    """The ranked lines without those clearly outside the question's period, when a close one falls in it.

    Close: within ``margin`` of the best line's relevance (the lines the answer is drawn from); a far
    line in the period does not displace a close one outside it. A line is clearly outside when it has
    a time and none of its times shares a day with the period; a line without a time stays. No period,
    or no close line in it: the ranking as it was.
    """
    period = asked_period(question)
    if period is None or not ranked:
        return ranked
    times = {i: _times(*lines[i]) for i, _ in ranked}
    close = [i for i, score in ranked if score >= ranked[0][1] - margin]
    if not any(period.holds(day, unit) for i in close for day, unit in times[i]):
        return ranked
    return [(i, score) for i, score in ranked
            if not times[i] or any(period.overlaps(day, unit) for day, unit in times[i])]
