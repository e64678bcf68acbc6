"""benchmarks/redundancy.py: each rule removes or merges what it names, through the store's public API, on a copy.

The stores are tiny and invented: memories written straight into a store (each rule's case made exact), and one
store the offline engine ingests from invented turns. The copied tree leaves held-out stores out and the source
tree is never written.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from dmem.api import Memory
from dmem.state.schemas import MemoryRecord, Message, Provenance
from dmem.store.local.store import open_store
from tests.conftest import benchmark_module

T0 = datetime(2031, 3, 4, 18, 0, tzinfo=UTC)
ADA, BRAM = "c/ada", "c/bram"


@pytest.fixture(scope="module")
def redundancy() -> Iterator[ModuleType]:
    """benchmarks/redundancy.py imported with benchmarks/ on the path (it imports formation.py)."""
    yield from benchmark_module("redundancy")


def _fill(directory: Path, memories: list[tuple[str, str, list[str], Provenance]]) -> None:
    """A store holding these (namespace, text, source turns, provenance) memories, ids m0, m1, ... oldest first."""
    rng = np.random.default_rng(7)
    with open_store(directory) as store:
        for i, (namespace, text, turns, provenance) in enumerate(memories):
            when = T0 + timedelta(minutes=i)
            record = MemoryRecord(id=f"m{i}", namespace=namespace, text=text, source_turn_ids=turns,
                                  provenance=provenance, created_at=when, updated_at=when)
            store.vectors.add(record, rng.normal(size=store.dim).tolist())


def _live(directory: Path) -> dict[str, str]:
    """Live memories of a store by id: their texts."""
    with open_store(directory, dim=None) as store:
        return {r.id: r.text for ns in store.vectors.namespaces() for r in store.vectors.list(ns)}


S, INF = Provenance.STATED, Provenance.INFERRED
CASES = {
    # A (m0) is held by a same-namespace memory with all its turns and stems; the copy in Bram's namespace is not.
    "subset": ([(ADA, "Ada keeps a kayak", ["t1"], S), (ADA, "Ada keeps a red kayak at the lake", ["t1", "t2"], S),
                (BRAM, "Ada keeps a kayak", ["t1"], S)], {"m0"}),
    # the inferred memory stays even when held; the stated one goes.
    "subset_stated": ([(ADA, "Ada has a sister", ["t1"], INF), (ADA, "Ada's sister Hesper has a sister", ["t1"], S),
                       (ADA, "Ada bakes rye", ["t2"], S), (ADA, "Ada bakes rye on sundays", ["t2"], S)], {"m2"}),
    # a question kept as asked goes when other memories (any namespace) source all its turns; not when one is new.
    "asked": ([(BRAM, 'Bram asked Ada: "where is the kayak?"', ["t1", "t2"], S),
               (ADA, "Ada keeps the kayak at the lake", ["t2"], S), (BRAM, "Bram asked about it", ["t1"], S),
               (BRAM, 'Bram asked Ada: "how old is the dog?"', ["t3"], S)], {"m0"}),
    # the memories sharing its turns together hold its turns and stems.
    "covered": ([(ADA, "Ada keeps a kayak and a tent", ["t1", "t2"], S), (ADA, "Ada keeps a kayak", ["t1"], S),
                 (ADA, "Ada bought a tent", ["t2"], S), (ADA, "Ada sings", ["t3"], S)], {"m0"}),
}


@pytest.mark.parametrize("rule", sorted(CASES))
def test_each_dropping_rule_soft_deletes_what_it_names(redundancy: ModuleType, tmp_path: Path, rule: str) -> None:
    memories, removed = CASES[rule]
    _fill(tmp_path / "s", memories)
    assert redundancy.edit_store(tmp_path / "s", rule, 2, lambda _: []) == (len(memories), len(removed))
    assert set(_live(tmp_path / "s")) == {f"m{i}" for i in range(len(memories))} - removed


def test_merge_turn_joins_one_namespaces_same_turn_memories_and_embeds_the_join(redundancy: ModuleType,
                                                                                 tmp_path: Path) -> None:
    _fill(tmp_path / "s", [(ADA, "Ada moved to Tarsk.", ["t1"], S), (ADA, "Ada rents a loft", ["t1"], S),
                           (BRAM, "Ada rents a loft", ["t1"], S), (ADA, "Ada sings", ["t2"], S)])
    embedded: list[str] = []
    vector = np.ones(384).tolist()
    assert redundancy.edit_store(tmp_path / "s", "merge_turn", 2, lambda t: embedded.append(t) or vector) == (4, 1)
    assert embedded == ["Ada moved to Tarsk. Ada rents a loft"]
    assert _live(tmp_path / "s") == {"m0": "Ada moved to Tarsk. Ada rents a loft", "m2": "Ada rents a loft",
                                     "m3": "Ada sings"}
    with open_store(tmp_path / "s", dim=None) as store:
        assert store.vectors.vector(ADA, "m0") == pytest.approx(np.full(384, 384 ** -0.5).tolist())


def test_merge_fragments_joins_a_small_stated_memory_into_a_full_sibling_only(redundancy: ModuleType,
                                                                               tmp_path: Path) -> None:
    _fill(tmp_path / "s", [(ADA, "Ada: grey one", ["t1"], S), (ADA, "Ada's cat Moss sleeps on the boiler", ["t1"], S),
                           (ADA, "Ada: tiny", ["t1"], INF), (ADA, "Ada: green tandem", ["t2"], S)])
    assert redundancy.edit_store(tmp_path / "s", "merge_fragments", 2, lambda _: np.ones(384).tolist()) == (4, 1)
    assert _live(tmp_path / "s") == {"m1": "Ada's cat Moss sleeps on the boiler. Ada: grey one", "m2": "Ada: tiny",
                                     "m3": "Ada: green tandem"}


def _digest(tree: Path) -> str:
    """A hash of every file's path and bytes below ``tree``."""
    digest = hashlib.sha1()
    for path in sorted(p for p in tree.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(tree)).encode() + path.read_bytes())
    return digest.hexdigest()


def test_main_edits_a_copy_without_held_out_stores_and_leaves_the_source_alone(
        redundancy: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "work" / "abc123"
    memories = CASES["subset"][0]
    for name in ("Invented_1_Ada_Bram", "Invented9_2_Ada_Bram", "Invented36_1_Ada_Bram"):
        _fill(source / "invented" / name, memories)
    before = _digest(source)
    monkeypatch.setattr(sys, "argv", ["redundancy.py", str(source), str(tmp_path / "sim"), "subset"])
    redundancy.main()
    assert capsys.readouterr().out == "subset invented: 6 memories, 2 removed (33.3 %)\n"
    assert sorted(p.name for p in (tmp_path / "sim" / "subset" / "invented").iterdir()) == \
        ["Invented9_2_Ada_Bram", "Invented_1_Ada_Bram"]
    assert _digest(source) == before


def test_a_store_the_offline_engine_ingested_is_edited_the_same_way(redundancy: ModuleType, tmp_path: Path) -> None:
    lines = [("Ada", "I keep a red kayak at the lake near Tarsk."), ("Bram", "Nice! Where do you launch it?"),
             ("Ada", "From the old jetty. I paddle there every Sunday with my sister Hesper.")]
    with Memory(tmp_path / "s", embeddings="hash") as mem:
        mem.add([Message(conversation_id="c1", turn_id=f"t{i}", speaker=who, text=text,
                         timestamp=T0 + timedelta(minutes=i), seq=i) for i, (who, text) in enumerate(lines)],
                user_id="c", conversation_id="c1", speaker_namespaces={"Ada": ADA, "Bram": BRAM})
    live = _live(tmp_path / "s")
    with open_store(tmp_path / "s", dim=None) as store:
        dim = store.dim
        memos = [redundancy.Memo(r.id, r.namespace, r.text, frozenset(r.source_turn_ids), frozenset(), "stated")
                 for ns in store.vectors.namespaces() for r in store.vectors.list(ns)]
    groups = redundancy.merged("merge_turn", memos, 2)
    removed = sum(len(g) - 1 for g in groups)
    assert removed, live  # the engine drafts more than one memory of a turn here: something to merge
    assert redundancy.edit_store(tmp_path / "s", "merge_turn", 2, lambda _: np.ones(dim).tolist()) == \
        (len(live), removed)
    after = _live(tmp_path / "s")
    assert len(after) == len(live) - removed
    for group in groups:
        assert after[group[0].id] == ". ".join(m.text.rstrip(".") for m in group)
