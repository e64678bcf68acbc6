"""An episode's other members: the memories of the turns next to the best retrieved ones', added past K."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from dmem.api import Memory
from dmem.evidence.documents import MemoryIndex, build_turn_index
from dmem.evidence.episodes import nearby, neighbours
from dmem.evidence.indexes import EvidenceIndexes
from dmem.models.embeddings import HashEmbeddings
from dmem.nodes.retrieval import aretrieved_memories, retrieved_memories
from dmem.state.schemas import MemoryRecord, Message
from dmem.store.namespaces import Routing
from tests.test_wide_retrieval import _ingest

T0 = datetime(2041, 5, 3, 18, 0)
SAID = [("Wenna", "how was the fair?"), ("Idris", "I brought the plum chutney"), ("Idris", "and two jars of beans"),
        ("Wenna", "nice"), ("Idris", "and leeks. far too many"), ("Idris", "the next morning my van broke down")]


def _turns(day_break_at: int | None = None) -> list[Message]:
    out = []
    for i, (who, text) in enumerate(SAID):
        when = T0 + timedelta(minutes=i) + (timedelta(days=1) if day_break_at is not None and i >= day_break_at
                                             else timedelta())
        out.append(Message(conversation_id="c9", turn_id=f"D1:{i}", speaker=who, text=text, timestamp=when, seq=i))
    return out


def _memory(n: int, text: str, *turns: int, namespace: str = "c/idris") -> MemoryRecord:
    return MemoryRecord(id=f"m{n}", namespace=namespace, text=text, source_turn_ids=[f"D1:{t}" for t in turns],
                        conversation_id="c9", created_at=T0, updated_at=T0)


class _Held:
    """The fields of a memory index ``neighbours`` reads: its records and their map by source turn."""

    def __init__(self, records: list[MemoryRecord]) -> None:
        self.records = tuple(records)
        self.by_turn = MemoryIndex.by_turn.func(self)  # type: ignore[arg-type]


def test_the_turns_near_a_source_turn_are_of_its_day_nearest_first_the_source_turns_left_out() -> None:
    turns = build_turn_index(_turns(), "t")
    assert nearby(turns, [1], 2) == [0, 2, 3]
    assert nearby(turns, [1, 2], 1) == [0, 3]
    assert nearby(build_turn_index(_turns(day_break_at=3), "t"), [2], 2) == [1, 0]  # turn 3 is the next day's


def test_the_neighbours_are_the_memories_of_those_turns_best_anchor_first_none_retrieved_or_asked_and_at_most_the_limit(
        ) -> None:
    turns = build_turn_index(_turns(), "t")
    chutney = _memory(1, "Idris brought the plum chutney to the fair", 1)
    beans = _memory(2, "Idris brought two jars of beans", 2)
    leeks = _memory(3, "Idris brought far too many leeks", 4)
    van = _memory(4, "The next morning Idris's van broke down", 5)
    asked = _memory(5, 'Wenna asked Idris: "how was the fair?"', 0, namespace="c/wenna")
    held = {"c/idris": (_Held([chutney, beans, leeks, van]), turns), "c/wenna": (_Held([asked]), turns)}
    found = neighbours([chutney], held, 3)  # type: ignore[arg-type]
    assert [r.id for r in found] == ["m2"]  # turn 0 is a question kept as asked, turn 3 formed nothing
    assert [r.id for r in neighbours([leeks, chutney], held, 3)] == ["m4", "m2"]  # type: ignore[arg-type]
    assert [r.id for r in neighbours([leeks, chutney], held, 1)] == ["m4"]  # type: ignore[arg-type]
    assert neighbours([chutney, beans], held, 0) == []  # type: ignore[arg-type]
    assert [r.id for r in neighbours([chutney, beans], held, 3)] == ["m3"]  # type: ignore[arg-type]


def test_retrieval_adds_the_episode_past_the_k_memories_and_the_answerer_reads_those_first(tmp_path: Path) -> None:
    with Memory(tmp_path / "m", embeddings="hash", retrieval_top_k=3, wide_retrieval_factor=1) as mem:
        _ingest(mem)
        svc, spaces = mem.services, ["c/i", "c/p"]
        paper = dataclasses.replace(svc, context=svc.context.with_overrides(episode_neighbours=0))
        question = "What do they bake?"
        same_k, k = retrieved_memories(paper, question, spaces)
        hits, core = retrieved_memories(svc, question, spaces)
        assert k == core == len(same_k) == 6 and 6 < len(hits) <= 6 + svc.context.episode_neighbours
        assert [(r.id, s) for r, s in hits[:core]] == [(r.id, s) for r, s in same_k]
        assert all(s == hits[core - 1][1] for _, s in hits[core:])
        turns = svc.indexes.transcript("c/i")
        anchored = {p for r, _ in same_k[:5] for p in nearby(turns, turns.positions.of(r))}
        assert all(set(turns.positions.of(r)) & anchored for r, _ in hits[core:])
        ahits, acore = asyncio.run(aretrieved_memories(svc, question, spaces))
        assert acore == core and [(r.id, s) for r, s in ahits] == [(r.id, s) for r, s in hits]
        dense = dataclasses.replace(svc, context=svc.context.with_overrides(retrieval_mode="dense"))
        plain, _ = retrieved_memories(dense, question, spaces)
        assert len(plain) == 6  # the papers' dense retrieval is left as it is


def test_the_memories_by_turn_are_mapped_once_per_index_version_and_anew_when_a_memory_is_written(
        memory_factory: Any) -> None:
    store, embed = memory_factory().store, HashEmbeddings(384)
    turns = _turns()
    store.transcript.append(Routing.of("c/idris"), turns)
    for record in (_memory(1, "Idris brought the plum chutney to the fair", 1),
                   _memory(3, "Idris brought far too many leeks", 4)):
        store.vectors.add(record, embed.embed_query(record.text))
    indexes = EvidenceIndexes(store)
    first = indexes.memories("c/idris")
    mapped = first.by_turn
    assert {k: [r.id for r in v] for k, v in mapped.items()} == {("c9", "D1:1"): ["m1"], ("c9", "D1:4"): ["m3"]}
    assert indexes.memories("c/idris").by_turn is mapped  # the same version: the map is not built again
    held = {"c/idris": (first, indexes.transcript("c/idris"))}
    chutney = first.records[0]
    assert neighbours([chutney], held, 3) == []  # turn 2 formed nothing yet
    beans = _memory(2, "Idris brought two jars of beans", 2)
    store.vectors.add(beans, embed.embed_query(beans.text))
    grown = indexes.memories("c/idris")
    assert grown is not first and grown.by_turn is not mapped
    assert [r.id for r in grown.by_turn[("c9", "D1:2")]] == ["m2"] and ("c9", "D1:2") not in first.by_turn
    held = {"c/idris": (grown, indexes.transcript("c/idris"))}
    assert [r.id for r in neighbours([chutney], held, 3)] == ["m2"]
