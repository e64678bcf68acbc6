"""The evidence trace of an answer: the source turns of the memories it says it used."""

from __future__ import annotations

from collections.abc import Sequence

from dmem.state.schemas import MemoryRecord


def cited_turns(used: Sequence[int], memory_ids: Sequence[str], memories: Sequence[MemoryRecord]) -> list[str] | None:
    """Source turns of the context lines ``used`` names (numbers from 1, in context order), each once.

    ``memory_ids`` is the answer's context, line by line. None when no valid line is named: the caller
    keeps its whole-context trace rather than claim the answer used nothing.
    """
    by_id = {m.id: m for m in memories}
    lines = [memory_ids[n - 1] for n in dict.fromkeys(used) if 1 <= n <= len(memory_ids)]
    cited = [by_id[i] for i in lines if i in by_id]
    if not cited:
        return None
    return list(dict.fromkeys(t for m in cited for t in m.source_turn_ids))
