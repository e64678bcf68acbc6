"""Where Focused Deliberation reads: seed turns from a raw-turn search, then a reading plan.

Seeds are the hybrid raw-turn hits for the question, best first (``hybrid.turns``: dense without
the question's names, BM25, time cues, the turns said by a speaker the question names, and the
source turns of the memories closest to the whole question). Turns naming the question's people
and the source turns of System 1's answer (its top K) were seeds too; measured, they lowered
coverage (README, development data). The plan reads the seeds best first
with their replies and widens windows within the budget (see ``windows``); the full scan is the
same plan with one window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dmem.evidence import hybrid
from dmem.evidence.indexes import TurnIndex
from dmem.evidence.windows import Chunk, full_cost, pack, plan_cost, plan_windows
from dmem.models.structured import estimate_tokens
from dmem.state.schemas import Message

SEED_HITS = hybrid.POOL  # raw-turn hits that seed reading; the budget decides how many are read


@dataclass(frozen=True)
class ReadingPlan:
    """The chunks to read (positions in the transcript) and what share of the full scan they send."""

    chunks: list[Chunk]
    share: float
    seeds: int


def seed_turns(question: str, index: TurnIndex, embed: hybrid.Embed,
               told: Sequence[int] = ()) -> list[int]:
    """Seed positions, best first: the hybrid raw-turn hits for the question (``hybrid.turns``).

    ``told`` (the turns behind the memories closest to it, ``hybrid.told_turns``) is one more ranking.
    """
    return hybrid.turns(question, index, embed, SEED_HITS, told)


def budget_tokens(setting: float, full: int, turns: int, size: int) -> int:
    """A budget setting in tokens: a share of the full scan (<= 1) or a token count (> 1).

    Never less than one chunk's share of the full scan: reading fewer than ``size`` turns saves no
    call, so a transcript of up to one chunk is read whole.
    """
    floor = full * min(1.0, size / turns) if turns else 0
    return int(max(setting * full if setting <= 1 else setting, floor))


def reading_plan(messages: Sequence[Message], seeds: Sequence[int] | None, budget: float,
                 size: int, history: int) -> ReadingPlan:
    """Chunks around the seeds within the budget; ``seeds=None`` is the full scan."""
    tokens = [estimate_tokens(m.render()) for m in messages]
    full = full_cost(tokens, size, history)
    if seeds is None:
        windows = [range(0, len(messages))] if messages else []
    else:
        windows = plan_windows(tokens, seeds, budget_tokens(budget, full, len(messages), size), size, history)
    share = plan_cost(tokens, windows, size, history) / full if full else 0.0
    return ReadingPlan(pack(windows, size, history), share, 0 if seeds is None else len(seeds))
