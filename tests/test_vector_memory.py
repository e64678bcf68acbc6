"""Vectors stay float32 matrices on dmem's own paths: no Python float per dimension is kept or built.

A 384-dim vector as a list of Python floats costs about 12 KB (a pointer and a float object a
dimension), as float32 1.5 KB. A long-running server kept its embedding cache as packed doubles
(3 KB a text) and built each transcript index's matrix through lists of Python floats (12 KB a turn
while it lasted, pages the allocator then kept); these tests hold the byte costs to float32's.
"""

from __future__ import annotations

import gc
import tracemalloc
from datetime import UTC, datetime, timedelta

import numpy as np

from dmem.evidence.indexes import EvidenceIndexes
from dmem.models.embeddings import CachedEmbeddings, HashEmbeddings
from dmem.models.embeddings_base import ArrayEmbeddings, as_matrix
from dmem.state.schemas import Message
from dmem.text.lexical import cosines

DIM = 384
ROW = DIM * 4  # one float32 vector


def texts(n: int, tag: str = "t") -> list[str]:
    return [f"Ines {tag} planted {i} tulips by the canal on day {i % 31}" for i in range(n)]


def held_by(make: object) -> tuple[object, int]:
    """What ``make()`` returns and the traced bytes still held once its transients are gone."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = make()  # type: ignore[operator]
        gc.collect()
        return kept, tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_the_cache_keeps_a_text_in_about_a_float32_row() -> None:
    emb = CachedEmbeddings(HashEmbeddings(DIM), max_items=1_000)

    def fill() -> CachedEmbeddings:
        for start in range(0, 1_300, 100):  # more texts than the bound, in calls as runs make them
            emb.embed_array(texts(1_300)[start:start + 100])
        return emb

    _, held = held_by(fill)
    assert len(emb._cache) == 1_000 and emb.held_bytes == 1_000 * ROW
    # the row, its text as key and the key's entry; packed doubles (3 KB) or float lists (12 KB) fail
    assert held < 1_000 * (ROW + 300), f"{held / 1_000:.0f} bytes a kept text"


def test_embed_array_is_a_new_float32_matrix_the_caller_may_change() -> None:
    emb = CachedEmbeddings(HashEmbeddings(DIM))
    first = emb.embed_array(["a red kite", "tea", "a red kite"])
    assert first.dtype == np.float32 and first.shape == (3, DIM)
    assert np.array_equal(first[0], first[2])
    first[:] = 0.0  # normalising in place (as the indexes do) must not reach the cache
    again = emb.embed_array(["a red kite", "tea"])
    assert emb.hits >= 2 and np.allclose(np.linalg.norm(again, axis=1), 1.0, atol=1e-6)
    assert emb.embed_array([]).shape == (0, DIM)


def test_the_langchain_methods_return_the_same_vectors_as_lists() -> None:
    emb = CachedEmbeddings(HashEmbeddings(DIM))
    rows = emb.embed_array(["Ines waters the tulips", "the canal froze"])
    assert emb.embed_documents(["Ines waters the tulips", "the canal froze"]) == rows.tolist()
    assert emb.embed_query("the canal froze") == rows[1].tolist()
    assert HashEmbeddings(DIM).embed_documents(["the canal froze"]) == [rows[1].tolist()]


def test_hash_vectors_are_float32_unit_rows_and_deterministic() -> None:
    rows = HashEmbeddings(DIM).embed_array(["Ines planted tulips", "", "Ines planted tulips"])
    assert rows.dtype == np.float32
    assert np.array_equal(rows[0], rows[2]) and abs(float(np.linalg.norm(rows[0])) - 1.0) < 1e-6
    assert not rows[1].any()  # no words: the zero vector, as before


def test_a_subclass_that_overrides_embed_documents_is_still_called() -> None:
    class Counting(HashEmbeddings):
        seen: list[str] = []

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            self.seen.extend(texts)
            return super().embed_documents(texts)

    inner = Counting(8)
    out = CachedEmbeddings(inner).embed_array(["one", "two"])
    assert inner.seen == ["one", "two"] and out.dtype == np.float32 and out.shape == (2, 8)


def test_any_langchain_embeddings_become_a_float32_matrix() -> None:
    class Lists(ArrayEmbeddings):
        def embed_array(self, texts: object) -> np.ndarray:
            raise AssertionError("not called: embed_documents is overridden")

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[1.0, float(len(t))] for t in texts]

    assert as_matrix(Lists(), ["ab", "abc"]).tolist() == [[1.0, 2.0], [1.0, 3.0]]
    assert as_matrix(Lists(), ["ab"]).dtype == np.float32


def test_cosines_read_the_float32_rows_without_lists() -> None:
    emb = CachedEmbeddings(HashEmbeddings(DIM))
    calls: list[str] = []
    real = emb.embed_documents
    emb.embed_documents = lambda t: calls.append("lists") or real(t)  # type: ignore[method-assign]
    sims = cosines(emb, "tulips by the canal", ["Ines planted tulips by the canal", "a red kite"])
    assert calls == [] and sims[0] > sims[1]
    rows = emb.embed_array(["tulips by the canal", "Ines planted tulips by the canal"]).astype(float)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)  # float64 arithmetic on the float32 rows, as before
    assert sims[0] == float(rows[1] @ rows[0])


def _turns(n: int) -> list[Message]:
    start = datetime(2026, 3, 1, tzinfo=UTC)
    return [Message(turn_id=f"t{i}", conversation_id="c1", speaker="Ines", text=line,
                    timestamp=start + timedelta(minutes=i)) for i, line in enumerate(texts(n, "turn"))]


def test_a_transcript_matrix_is_built_without_python_floats() -> None:
    emb = CachedEmbeddings(HashEmbeddings(DIM), max_items=100)  # smaller than the transcript, as at a bound
    indexes = EvidenceIndexes(store=None, max_entries=4)  # type: ignore[arg-type]
    turns = _turns(400)
    index = indexes.turns(["ines"], turns)
    gc.collect()
    tracemalloc.start()
    try:
        matrix = index.matrix(emb.embed_array)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert matrix.dtype == np.float32 and matrix.shape == (400, DIM)
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)
    # the matrix, the inner model's block and the stacked copy: a few float32 copies, never 12 KB a turn
    assert peak < 400 * 5 * ROW, f"peak {peak / 400:.0f} bytes a turn"
