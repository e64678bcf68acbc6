"""The evidence trace of an answer: the turns behind the memories it says it used.

A memory that keeps a reply with the question it answers has the question's turn (another speaker's)
among its source turns. The trace names that turn only when the answer needs it: when the answer has
words the question's turn says and the memory's own statement turns do not ('Did you sail to Vlieland?'
answered 'Twice!' gives 'Vlieland'). Otherwise the statement turns stand for the memory.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dmem.state.schemas import MemoryRecord, Message
from dmem.state.verdicts import AnswerDraft
from dmem.store.base import TranscriptLog
from dmem.text.lexical import content_stems


def used_memories(used: Sequence[int], memory_ids: Sequence[str], memories: Sequence[MemoryRecord]
                  ) -> list[MemoryRecord]:
    """The memories of the context lines ``used`` names (numbers from 1, in context order), each once."""
    by_id = {m.id: m for m in memories}
    lines = [memory_ids[n - 1] for n in dict.fromkeys(used) if 1 <= n <= len(memory_ids)]
    return [by_id[i] for i in dict.fromkeys(lines) if i in by_id]


def cited_turns(used: Sequence[int], memory_ids: Sequence[str], memories: Sequence[MemoryRecord],
                said: Mapping[str, Mapping[str, Message]] | None = None, answer: str = "") -> list[str] | None:
    """The turns of the context lines ``used`` names, each once.

    ``said`` holds each memory's source turns as recorded (by memory id, then turn id): with it a
    linked question's turn is cited only when ``answer`` needs it (``memory_turns``); without it,
    every source turn. None when no valid line is named: the caller keeps its whole-context trace
    rather than claim the answer used nothing.
    """
    return _turns_of(used_memories(used, memory_ids, memories), said or {}, answer)


def _turns_of(cited: Sequence[MemoryRecord], said: Mapping[str, Mapping[str, Message]], answer: str
              ) -> list[str] | None:
    """``memory_turns`` of each memory, each turn once; None when there is no memory."""
    if not cited:
        return None
    return list(dict.fromkeys(t for m in cited for t in memory_turns(m, said.get(m.id, {}), answer)))


def memory_turns(memory: MemoryRecord, said: Mapping[str, Message], answer: str) -> list[str]:
    """The source turns of ``memory`` an answer drew on: its statement turns, a linked question's when needed.

    A statement turn is one said by the speaker of the memory's last source turn; the others are the
    questions it answers. With a source turn not in ``said`` (not recorded), every source turn.
    """
    turns = memory.source_turn_ids
    if len(turns) < 2 or any(t not in said for t in turns):
        return list(turns)
    own = said[turns[-1]].speaker
    statement = [t for t in turns if said[t].speaker == own]
    asked = [t for t in turns if said[t].speaker != own]
    if not asked:
        return list(turns)
    fresh = set(content_stems(answer)) - {s for t in statement for s in content_stems(said[t].text)}
    needed = {t for t in asked if fresh & set(content_stems(said[t].text))}
    return [t for t in turns if t in statement or t in needed]


def turns_said(transcript: TranscriptLog, memories: Sequence[MemoryRecord]) -> dict[str, dict[str, Message]]:
    """Each memory's source turns as its namespace recorded them (of its conversation when it names one).

    Only memories with several source turns need them (``memory_turns``); one read per namespace.
    """
    linked = [m for m in memories if len(m.source_turn_ids) > 1]
    wanted: dict[str, dict[str, None]] = {}
    for m in linked:
        wanted.setdefault(m.namespace, {}).update(dict.fromkeys(m.source_turn_ids))
    found = {ns: transcript.with_ids(ns, list(ids)) for ns, ids in wanted.items()}
    return {m.id: {t.turn_id: t for t in found[m.namespace]
                   if t.turn_id in m.source_turn_ids and m.conversation_id in (None, t.conversation_id)}
            for m in linked}


def answer_trace(transcript: TranscriptLog, draft: AnswerDraft, memory_ids: Sequence[str],
                 memories: Sequence[MemoryRecord]) -> list[str] | None:
    """``cited_turns`` for an answer draft, its memories' source turns read from ``transcript``."""
    cited = used_memories(draft.used, memory_ids, memories)
    return _turns_of(cited, turns_said(transcript, cited), draft.answer)
