"""A retrieved memory's episode: the memories formed from the turns said right next to the best ones' (past K).

A question about an episode ('What did Maya bring to the fair?', 'How did Theo's first race go?') has its
evidence spread over a run of neighbouring turns. Retrieval finds the lines that say the question's words
('Maya: I am bringing the plum chutney to the fair') and misses the members said next to them in other words
('and two jars of pickled beans. and leeks'), which share no word with the question and sit in the flat tail of
the fused ranks, where one weak rank decides which line is the 30th (RESULTS, h66e and h71e). Re-ranking inside
the K slots swaps such a member for another question's line as often as not (h69b's feedback); here the K
slots stay as they are and at most ``Context.episode_neighbours`` memories are added after them: those formed from
a turn at most ``REACH`` turns from a source turn of one of the ``ANCHORS`` best retrieved memories, in the same
conversation and day, the best anchor's first, the nearer turn first. A question kept as asked states no fact
and is never added. Positions are read from the transcript index each namespace already keeps: no embedding and
no search; each namespace's memories by source turn are mapped once per version of its index
(``MemoryIndex.by_turn``).
"""

from __future__ import annotations

from collections.abc import Sequence

from dmem.decisions.offline.frames import is_asked
from dmem.evidence.indexes import MemoryIndex, TurnIndex
from dmem.state.schemas import MemoryRecord, Message

ANCHORS = 5
"""The best retrieved memories whose turns' neighbours are read (chosen on batch 30 and the tuning halves:
RESULTS, h71e)."""
REACH = 2
"""Turns either side of an anchor's source turn that belong to its episode (RESULTS, h71e)."""

Held = tuple[MemoryIndex, TurnIndex]
"""One namespace's memory index and its transcript's index."""


def neighbours(retrieved: Sequence[MemoryRecord], held: dict[str, Held], limit: int) -> list[MemoryRecord]:
    """At most ``limit`` memories of ``held`` not in ``retrieved``, formed from turns next to its best ones'.

    ``retrieved``: the memories kept for the question, best first (the first ``ANCHORS`` are the anchors).
    ``held``: by namespace, the memory index (the candidates, as the question's labels filter them) and the
    transcript index (where each turn is). An anchor of a namespace not in ``held`` is skipped.
    """
    if limit <= 0 or not retrieved:
        return []
    near: list[tuple[str, str]] = []  # the anchors' neighbouring turns, the best anchor's first, nearest first
    for anchor in retrieved[:ANCHORS]:
        if anchor.namespace in held:
            turns = held[anchor.namespace][1]
            near.extend((turns.messages[p].conversation_id, turns.messages[p].turn_id)
                        for p in nearby(turns, turns.positions.of(anchor)))
    kept = {r.id for r in retrieved}
    out: dict[str, MemoryRecord] = {}
    for conversation, turn in near:  # each namespace's memories of the turn, then those stored with no conversation
        for key in ((conversation, turn), ("", turn)):
            for memories, _ in held.values():
                for record in memories.by_turn.get(key, ()):
                    if record.id in kept or is_asked(record.text):
                        continue
                    out.setdefault(record.id, record)
                    if len(out) == limit:
                        return list(out.values())
    return list(out.values())


def nearby(turns: TurnIndex, sources: Sequence[int], reach: int = REACH) -> list[int]:
    """Positions at most ``reach`` turns from one of ``sources``, of its conversation and day, nearest first.

    The source turns themselves are left out; at one distance the turn before comes first.
    """
    out: list[int] = []
    for distance in range(1, reach + 1):
        for p in sources:
            for q in (p - distance, p + distance):
                if 0 <= q < len(turns.messages) and q not in sources and q not in out \
                        and same_episode(turns.messages[q], turns.messages[p]):
                    out.append(q)
    return out


def same_episode(one: Message, other: Message) -> bool:
    """Whether two turns are of one conversation and day (untimed turns: of one conversation)."""
    if one.conversation_id != other.conversation_id:
        return False
    return one.timestamp is None or other.timestamp is None or one.timestamp.date() == other.timestamp.date()
