"""Focused Deliberation's reading plan: windows of the transcript around seed turns, packed into chunks.

Positions index the transcript in time order. A plan is a set of windows (half-open ranges). The
transcript is cut on a fixed grid of ``size`` positions, as the full scan cuts it; each piece of a
window inside one grid cell is read with the ``history`` positions before it as read-only context.
A plan's cost is the tokens of its pieces and their contexts: exactly what the full scan sends for
the window over everything, and an upper bound on what packing sends for any other plan (packing
never sends a context position twice in one chunk). A budget is therefore a share of the full scan.

Seeds are read best first, each with the ``SEED_AFTER`` turns that follow it; budget left over
widens the windows one turn at a time, nearest the best seeds first. How many seeds are read grows
with the square root of the budget in turns (``SEED_SCALE``): a bigger budget reads both more
seeds and wider windows. Without the cap, on a long transcript the weak tail of the seed list
spends the whole budget on narrow windows and nothing widens. Two windows whose gap is at
most ``history`` turns merge (the gap is read rather than sent as context).
"""

from __future__ import annotations

import bisect
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

import numpy as np

SEED_DECAY = 4.0  # distance (turns) at which a turn near a seed counts half as much as the seed itself
SEED_RANK_OFFSET = 10  # seed weight is 1 / (offset + rank): the top seeds lead, the tail still counts
SEED_AFTER = 2  # turns read after each seed before any window widens: the reply and its follow-up
SEED_SCALE = 3.5  # seeds read: SEED_SCALE * sqrt(budget in mean-sized turns), e.g. 49 for 200 turns


@dataclass(frozen=True)
class Chunk:
    """One worker's reading: read-only context positions, then the positions it extracts facts from."""

    preceding: tuple[int, ...]
    content: tuple[int, ...]


def _prefix(tokens: Sequence[int]) -> list[int]:
    return [0, *accumulate(tokens)]


def pieces(window: range, size: int) -> list[range]:
    """The parts of a window inside each cell of the ``size`` grid, in order."""
    cuts = [window.start, *range((window.start // size + 1) * size, window.stop, size), window.stop]
    return [range(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if a < b]


def window_cost(prefix: Sequence[int], start: int, end: int, size: int, history: int) -> int:
    """Tokens sent at most to read positions [start, end): each grid piece and the context before it."""
    cost = prefix[end] - prefix[start]
    for piece in pieces(range(start, end), size):
        cost += prefix[piece.start] - prefix[max(0, piece.start - history)]
    return cost


def plan_cost(tokens: Sequence[int], windows: Sequence[range], size: int, history: int) -> int:
    """Tokens a plan sends (its chunks' content and context)."""
    prefix = _prefix(tokens)
    return sum(window_cost(prefix, w.start, w.stop, size, history) for w in windows)


def full_cost(tokens: Sequence[int], size: int, history: int) -> int:
    """Tokens the full scan sends: the plan with one window over the whole transcript."""
    return plan_cost(tokens, [range(0, len(tokens))] if tokens else [], size, history)


def seed_count(tokens: Sequence[int], budget: int) -> int:
    """How many of the best seeds a budget reads: ``SEED_SCALE`` * sqrt(its size in mean-sized turns), at least 1."""
    if not tokens:
        return 0
    mean = max(1.0, sum(tokens) / len(tokens))
    return max(1, int(SEED_SCALE * math.sqrt(max(0, budget) / mean)))


def candidate_order(n: int, seeds: Sequence[int]) -> list[int]:
    """Positions near seeds, most promising first: weight 1/(offset + seed rank), halved every SEED_DECAY turns."""
    ranked = [s for s in dict.fromkeys(seeds) if 0 <= s < n]
    if not ranked:
        return []
    positions = np.arange(n)
    best = np.zeros(n)
    for rank, seed in enumerate(ranked):
        weight = 1.0 / (SEED_RANK_OFFSET + rank) * np.power(0.5, np.abs(positions - seed) / SEED_DECAY)
        np.maximum(best, weight, out=best)
    return [int(i) for i in np.lexsort((positions, -best))]


class _Runs:
    """Disjoint sorted windows within a token budget; windows whose gap is at most ``history`` merge."""

    def __init__(self, prefix: Sequence[int], budget: int, size: int, history: int) -> None:
        self.prefix, self.budget, self.size, self.history = prefix, budget, size, history
        self.spent = 0
        self.starts: list[int] = []
        self.ends: list[int] = []

    def holds(self, p: int) -> bool:
        i = bisect.bisect_right(self.starts, p) - 1
        return i >= 0 and p < self.ends[i]

    def touches(self, p: int) -> bool:
        """True if p is right next to a window."""
        return self.holds(p - 1) or self.holds(p + 1)

    def _cost(self, start: int, end: int) -> int:
        return window_cost(self.prefix, start, end, self.size, self.history)

    def add(self, start: int, end: int) -> bool:
        """Read [start, end) too, merged with the windows it reaches, if the budget allows."""
        lo = bisect.bisect_left(self.ends, start - self.history)
        hi = bisect.bisect_right(self.starts, end + self.history)
        if lo < hi:
            start, end = min(start, self.starts[lo]), max(end, self.ends[hi - 1])
        old = sum(self._cost(self.starts[i], self.ends[i]) for i in range(lo, hi))
        delta = self._cost(start, end) - old
        if self.spent + delta > self.budget:
            return False
        self.starts[lo:hi], self.ends[lo:hi] = [start], [end]
        self.spent += delta
        return True

    def windows(self) -> list[range]:
        return [range(s, e) for s, e in zip(self.starts, self.ends, strict=True)]


def _seed_windows(prefix: Sequence[int], ordered: Sequence[int], budget: int, size: int, history: int,
                  after: int, n: int) -> _Runs:
    """Every seed with its ``after`` turns if they all fit, else seeds best first (alone if the window does not fit)."""
    runs = _Runs(prefix, sys.maxsize, size, history)
    for s in ordered:
        runs.add(s, min(n, s + after + 1))
    if runs.spent <= budget:
        runs.budget = budget
        return runs
    runs = _Runs(prefix, budget, size, history)
    for s in ordered:
        if not runs.add(s, min(n, s + after + 1)):
            runs.add(s, s + 1)
    return runs


def plan_windows(tokens: Sequence[int], seeds: Sequence[int], budget: int, size: int, history: int,
                 after: int = SEED_AFTER) -> list[range]:
    """Windows around the seeds (best first) that cost at most ``budget`` tokens, in time order.

    The ``seed_count`` best seeds are read, best first, each with the ``after`` turns that follow it
    (the ``history`` turns before a window are read with it anyway), or alone when that no longer
    fits: many narrow windows around many seeds cover more evidence than a few wide ones, up to
    ``seed_count`` seeds, which grows slower than the budget. Then windows widen turn by turn, the turns
    nearest the best seeds first; a turn is added only next to a window.
    """
    n = len(tokens)
    ordered = [s for s in dict.fromkeys(seeds) if 0 <= s < n][: seed_count(tokens, budget)]
    runs = _seed_windows(_prefix(tokens), ordered, budget, size, history, after, n)
    for p in candidate_order(n, ordered):
        if not runs.holds(p) and runs.touches(p):
            runs.add(p, p + 1)
    return runs.windows()


def pack(windows: Sequence[range], size: int, history: int) -> list[Chunk]:
    """Chunks of at most ``size`` content positions in time order, sending at most what the plan costs.

    ``windows`` are sorted and disjoint (as ``plan_windows`` returns them). Each grid piece goes
    with the ``history`` positions before it; consecutive pieces share a chunk while they fit: the
    first piece's context is the chunk's read-only context, a later piece's context is read inline
    before it, without the positions the chunk already holds.
    """
    chunks: list[Chunk] = []
    preceding: tuple[int, ...] = ()
    content: list[int] = []
    for window in windows:
        for piece in pieces(window, size):
            context = range(max(0, piece.start - history), piece.start)
            inline = [p for p in context if not content or p > content[-1]]
            if content and len(content) + len(inline) + len(piece) <= size:
                content.extend([*inline, *piece])
                continue
            if content:
                chunks.append(Chunk(preceding, tuple(content)))
            preceding, content = tuple(context), list(piece)
    if content:
        chunks.append(Chunk(preceding, tuple(content)))
    return chunks
