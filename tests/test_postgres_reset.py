"""A reset on PostgreSQL: the namespace's HNSW index goes with its rows, and store versions keep growing."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmem.api import Memory
from dmem.store.postgres import PostgresStore

pytestmark = pytest.mark.postgres


def indexes(store: PostgresStore) -> set[str]:
    with store._db.reading() as conn:
        rows = conn.execute("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
                            " AND indexname LIKE 'memories_hnsw_%'").fetchall()
    return {row["indexname"] for row in rows}


def test_reset_drops_the_hnsw_index_and_never_moves_a_version_back(tmp_path: Path, postgres_url: str) -> None:
    with Memory(tmp_path, embeddings="hash", store_url=postgres_url, hnsw_threshold=2) as mem:
        store = mem.store
        assert isinstance(store, PostgresStore)
        mem.add(["Theo carves spoons.", "Theo sails.", "Theo fixes radios."], user_id="theo", infer=False)
        mem.add(["Maya keeps bees.", "Maya bakes rye bread.", "Maya rows at dawn."], user_id="maya", infer=False)
        assert store.index.indexed_namespaces() == ["maya", "theo"]
        assert indexes(store) == {store.index.index_name("maya"), store.index.index_name("theo")}
        whole, maya, theo = store.version(), store.version("maya"), store.version("theo")
        assert maya == whole  # maya wrote last: the store's version is hers
        assert mem.reset(user_id="maya", confirm="maya") == 3
        assert indexes(store) == {store.index.index_name("theo")}
        assert store.index.indexed_namespaces() == ["theo"]
        assert store.version() > whole and store.version("maya") > maya and store.version("theo") > theo
        assert [r.memory.text for r in mem.search("spoons", user_id="theo", limit=1)] == ["Theo carves spoons."]
        mem.add(["Maya paints.", "Maya knits.", "Maya hikes."], user_id="maya", infer=False)
        assert store.index.indexed_namespaces() == ["maya", "theo"]  # a crowded namespace is indexed again
        assert [r.memory.text for r in mem.search("knits", user_id="maya", limit=1)] == ["Maya knits."]
        mem.reset(confirm="everything")
        assert indexes(store) == set() and store.index.indexed_namespaces() == []
