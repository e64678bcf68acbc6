"""Where Focused Deliberation reads: seed turns from System 1 and a raw-turn search, then a reading plan.

Seeds, best first by reciprocal rank fusion of four lists: the source turns of System 1's
memories (in retrieval order), the hybrid raw-turn hits for the question, and the turns naming
the question's rarer names or dated where its time cues point. The plan widens windows around
them within the budget (see ``windows``); the full scan is the same plan with one window.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dmem.evidence import hybrid
from dmem.evidence.indexes import TurnIndex
from dmem.evidence.search import fuse
from dmem.evidence.windows import Chunk, full_cost, pack, plan_cost, plan_windows
from dmem.models.structured import estimate_tokens
from dmem.state.schemas import MemoryRecord, Message

RAW_HITS = 30  # raw-turn hits that seed reading (the papers' top-K, applied to turns)


@dataclass(frozen=True)
class ReadingPlan:
    """The chunks to read (positions in the transcript) and what share of the full scan they send."""

    chunks: list[Chunk]
    share: float
    seeds: int


def memory_turns(messages: Sequence[Message], memories: Sequence[MemoryRecord]) -> list[int]:
    """Positions of the memories' source turns, in memory order (a memory without a conversation id matches any)."""
    exact = {(m.conversation_id, m.turn_id): i for i, m in enumerate(messages)}
    loose: dict[str, int] = {}
    for i, m in enumerate(messages):
        loose.setdefault(m.turn_id, i)
    found = []
    for record in memories:
        for turn in record.source_turn_ids:
            p = exact.get((record.conversation_id, turn)) if record.conversation_id else loose.get(turn)
            if p is not None:
                found.append(p)
    return found


def seed_turns(question: str, index: TurnIndex, memories: Sequence[MemoryRecord],
               embed: Callable[[list[str]], list[list[float]]]) -> list[int]:
    """Seed positions, best first: memories' source turns, raw-turn hits, name and time-cue matches, fused."""
    lists = [memory_turns(index.messages, memories), hybrid.turns(question, index, embed, RAW_HITS),
             index.docs.named(question, hybrid.POOL), index.docs.timed(question, hybrid.POOL)]
    return [p for p, _ in fuse(lists)]


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
