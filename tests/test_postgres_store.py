"""What only the PostgreSQL backend has: schema migrations, its own checks, and per-namespace HNSW."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import numpy as np
import psycopg
import pytest
from psycopg import sql as pg_sql

from dmem.errors import ConfigError, EmbeddingMismatchError, StoreError
from dmem.state.context import Context
from dmem.state.schemas import Category, MemoryRecord, Message
from dmem.store import Routing, SearchFilter, open_any_store
from dmem.store.opening import stored_embedding
from dmem.store.postgres import HnswSettings, PostgresStore, open_postgres_store
from dmem.store.postgres import schema as pg_schema

DIM = 16
T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def rec(mid: str, ns: str, **fields: object) -> MemoryRecord:
    return MemoryRecord.model_validate({"id": mid, "namespace": ns, "text": f"memory {mid}", "created_at": T0,
                                        "updated_at": T0, **fields})


def unit_rows(n: int, seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.mark.postgres
def test_a_new_database_gets_the_current_schema_and_a_newer_one_is_refused(postgres_url: str) -> None:
    open_postgres_store(postgres_url, dim=DIM).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM dmem_migrations ORDER BY version")]
        assert versions == list(range(1, pg_schema.SCHEMA_VERSION + 1))
        conn.execute("INSERT INTO dmem_migrations (version) VALUES (%s)", (pg_schema.SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match=rf"schema version {pg_schema.SCHEMA_VERSION + 1}.*upgrade dmem"):
        open_postgres_store(postgres_url, dim=DIM)


@pytest.mark.postgres
def test_an_older_schema_is_upgraded_in_place_once(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_postgres_store(postgres_url, dim=DIM)
    store.vectors.add(rec("kept", "ana"), unit_rows(1, 1)[0])
    store.close()
    steps: list[int] = []

    def add_column(conn: psycopg.Connection, dim: int) -> None:  # type: ignore[type-arg]
        steps.append(dim)
        conn.execute("ALTER TABLE memories ADD COLUMN pinned boolean NOT NULL DEFAULT false")

    newer = pg_schema.SCHEMA_VERSION + 1
    monkeypatch.setattr(pg_schema, "SCHEMA_VERSION", newer)
    monkeypatch.setitem(pg_schema.MIGRATIONS, newer, add_column)
    for _ in range(2):  # the second open finds nothing to do
        store = open_postgres_store(postgres_url, dim=DIM)
        assert store.info().extra["schema_version"] == newer and store.vectors.get("ana", "kept") is not None
        store.close()
    assert steps == [DIM]


@pytest.mark.postgres
def test_a_version_1_database_gains_turn_labels_and_keeps_its_turns(postgres_url: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as old:
        old.setattr(pg_schema, "SCHEMA_VERSION", 1)
        store = open_postgres_store(postgres_url, dim=DIM)
        store.transcript.append(Routing.of("ana"), [Message(conversation_id="c", turn_id="t1", speaker="Ana",
                                                            text="I sail on Fridays")])
        store.close()
    store = open_postgres_store(postgres_url, dim=DIM)
    try:
        assert store.info().extra["schema_version"] == pg_schema.SCHEMA_VERSION == 2
        [turn] = store.transcript.unformed("ana")
        assert turn.message.text == "I sail on Fridays" and turn.labels == {}
        store.transcript.append(Routing.of("ana"), [turn.message], {"source": "chat"})
        assert [u.labels for u in store.transcript.unformed("ana")] == [{"source": "chat"}]
    finally:
        store.close()


@pytest.mark.postgres
def test_dimension_embedding_and_read_only_are_enforced(postgres_url: str) -> None:
    open_postgres_store(postgres_url, dim=DIM, embedding="hash:16").close()
    with pytest.raises(StoreError, match="holds 16-dimensional vectors but dim=8"):
        open_postgres_store(postgres_url, dim=8)
    with pytest.raises(EmbeddingMismatchError, match="built with embedding model 'hash:16'.*--embeddings hash:16"):
        open_postgres_store(postgres_url, dim=DIM, embedding="openai:text-embedding-3-small")
    assert stored_embedding(postgres_url) == "hash:16"
    reader = open_any_store(postgres_url, dim=None, read_only=True)
    try:
        assert isinstance(reader, PostgresStore) and reader.dim == DIM and reader.read_only
        assert reader.info().extra["embedding"] == "hash:16"
        with pytest.raises(StoreError, match="read-only"):
            reader.vectors.add(rec("x", "ana"), unit_rows(1, 2)[0])
    finally:
        reader.close()
    with pytest.raises(StoreError, match="is closed"):
        reader.vectors.count()


def test_an_unreachable_server_is_one_actionable_error() -> None:
    with pytest.raises(StoreError, match="unreachable or refused.*check store_url") as err:
        open_postgres_store("postgresql://dmem:secret@127.0.0.1:1/none", dim=DIM, timeout=2)
    assert "secret" not in str(err.value)


@pytest.mark.postgres
def test_store_url_must_be_a_postgres_url_and_never_echoes_it() -> None:
    with pytest.raises(ConfigError, match="store_url.*postgresql://") as err:
        Context(store_url="mysql://root:hunter2@db/x")
    assert "hunter2" not in str(err.value)
    assert Context(store_url="postgresql://u@h/db").store_url == "postgresql://u@h/db"


@pytest.mark.postgres
def test_a_crowded_namespace_gets_its_own_hnsw_index_and_searches_through_it(postgres_url: str) -> None:
    store = open_postgres_store(postgres_url, dim=DIM, hnsw_threshold=150)
    big, small = unit_rows(200, 3), unit_rows(20, 4)
    try:
        with store.transaction():
            for i, row in enumerate(big):
                store.vectors.add(rec(f"b{i}", "big", categories=[Category.PREFERENCE if i % 50 == 0
                                                                 else Category.EVENT],
                                      metadata={"tier": "gold" if i % 40 == 0 else "plain"}), row)
            for i, row in enumerate(small):
                store.vectors.add(rec(f"s{i}", "small"), row)
        assert store.info().extra["hnsw_namespaces"] == ["big"]
        query = unit_rows(1, 5)[0]
        exact = [f"b{i}" for i in np.argsort(-(big @ query), kind="stable")[:10]]
        hits = store.vectors.search(["big"], query, 10)
        assert [h.record.id for h in hits] == exact  # HNSW recall on 200 vectors is complete
        assert "Index Scan using memories_hnsw_" in store.index.explain("big", query, 10)
        assert "memories_hnsw_" not in store.index.explain("small", query, 10)
        rare = store.vectors.search(["big"], query, 10, where=SearchFilter(categories=frozenset({"preference"})))
        assert sorted(h.record.id for h in rare) == ["b0", "b100", "b150", "b50"]  # filters still fill k
        gold = store.vectors.search(["big"], query, 10, where=SearchFilter.with_metadata({"tier": "gold"}))
        assert sorted(h.record.id for h in gold) == ["b0", "b120", "b160", "b40", "b80"]  # so do label filters
        both = store.vectors.search(["big", "small"], query, 5)
        assert [h.score for h in both] == sorted((h.score for h in both), reverse=True)
    finally:
        store.close()



def test_hnsw_settings_are_checked_and_a_search_looks_at_least_k_wide() -> None:
    assert HnswSettings(ef_search=40).search_width(30) == 40
    assert HnswSettings(ef_search=20).search_width(30) == 30  # pgvector returns at most ef_search rows
    assert HnswSettings(ef_search=20).search_width(5000) == 1000  # pgvector's ceiling
    with pytest.raises(ConfigError, match="ef_construction' must be between 2 \\* hnsw_m"):
        HnswSettings(m=16, ef_construction=16)
    with pytest.raises(ConfigError, match="m' must be between 2 and 100"):
        HnswSettings(m=1)
    with pytest.raises(ConfigError, match="ef_search' must be between 1 and 1000"):
        HnswSettings(ef_search=0)


@pytest.mark.postgres
def test_the_hnsw_settings_given_at_open_build_and_search_the_index(postgres_url: str) -> None:
    settings = HnswSettings(threshold=10**9, m=8, ef_construction=24, ef_search=33)
    store = open_postgres_store(postgres_url, dim=DIM, hnsw=settings, hnsw_threshold=50)
    try:
        assert store.index.hnsw == replace(settings, threshold=50)  # hnsw_threshold overrides just that
        with store.transaction():
            for i, row in enumerate(unit_rows(60, 8)):
                store.vectors.add(rec(f"m{i}", "many"), row)
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            (definition,) = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s",
                                         (store.index.index_name("many"),)).fetchone() or ("",)
        assert "m='8'" in definition and "ef_construction='24'" in definition
        query = unit_rows(1, 9)[0]
        with store._db.reading() as conn:
            rows = store.index._search_hnsw(conn, "many", query, 5, pg_sql.SQL(""), [])
            assert conn.execute("SHOW hnsw.ef_search").fetchone()["hnsw.ef_search"] == "40"  # the default again
        assert len(rows) == 5
        assert "Index Scan using memories_hnsw_" in store.index.explain("many", query, 5)
    finally:
        store.close()
