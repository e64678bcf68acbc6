"""The hnsw_* settings reach a real PostgreSQL from every path that opens a store, and what changing them does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest

from dmem.api import Memory
from dmem.cli import main
from dmem.errors import ConfigError
from dmem.graphs import served_resources
from dmem.services import Resources
from dmem.state.context import Context
from dmem.state.hnsw import HnswSettings, memory_kb
from dmem.store.postgres import PostgresStore, open_postgres_store
from dmem.store.postgres.memories import PgVectorIndex
from dmem.store.postgres.upkeep import build_index
from tests.test_postgres_store import DIM, rec, unit_rows
from tests.test_store_copy import build_source

pytestmark = pytest.mark.postgres  # every test here runs on a real PostgreSQL (pgserver)

SMALL = {"hnsw_threshold": 50, "hnsw_m": 8, "hnsw_ef_construction": 24, "hnsw_build_memory": "64MB"}


def fill(store: Any, namespace: str, n: int, seed: int) -> None:
    """``n`` memories in ``namespace``, in one transaction (its commit builds the index past the threshold)."""
    rows = np.random.default_rng(seed).normal(size=(n, store.dim)).astype(np.float32)
    with store.transaction():
        for i, row in enumerate(rows):
            store.vectors.add(rec(f"{namespace}-{seed}-{i}", namespace), row)


def index_options(url: str, store: Any, namespace: str) -> str:
    """The namespace's HNSW index definition as PostgreSQL holds it ('' when it has none)."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s",
                           (store.index.index_name(namespace),)).fetchone()
    return row[0] if row else ""


def search_width_seen(store: Any, k: int) -> str:
    """``hnsw.ef_search`` inside the transaction a top-``k`` search of ``store`` runs in."""
    with store._db.reading() as conn, store.index.hnsw_session(conn, k):
        return str(conn.execute("SHOW hnsw.ef_search").fetchone()["hnsw.ef_search"])


@pytest.fixture
def widths(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every HNSW search width the store sets (the real session still runs)."""
    seen: list[int] = []
    real = PgVectorIndex.hnsw_session

    def spy(self: PgVectorIndex, conn: Any, k: int) -> Any:
        seen.append(self.hnsw.search_width(k))
        return real(self, conn, k)

    monkeypatch.setattr(PgVectorIndex, "hnsw_session", spy)
    yield seen


def test_memory_settings_build_the_index_and_set_the_build_memory(postgres_url: str, tmp_path: Path) -> None:
    with Memory(tmp_path, embeddings="hash", store_url=postgres_url, **SMALL) as mem:
        assert isinstance(mem.store, PostgresStore)
        assert mem.store.index.hnsw == HnswSettings(threshold=50, m=8, ef_construction=24, build_memory="64MB")
        fill(mem.store, "many", 49, 1)
        assert index_options(postgres_url, mem.store, "many") == ""  # below the threshold: exact
        fill(mem.store, "many", 1, 2)
        assert "m='8'" in index_options(postgres_url, mem.store, "many")
        assert "ef_construction='24'" in index_options(postgres_url, mem.store, "many")
        fill(mem.store, "other", 10, 3)
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.row_factory = psycopg.rows.dict_row
            assert build_index(conn, mem.store._db, "other", mem.store.index.hnsw)
            assert conn.execute("SHOW maintenance_work_mem").fetchone()["maintenance_work_mem"] == "64MB"


def test_a_run_s_ef_search_reaches_the_search_and_build_settings_stay_the_owner_s(
        postgres_url: str, tmp_path: Path, widths: list[int]) -> None:
    with Memory(tmp_path, embeddings="hash", store_url=postgres_url, hnsw_threshold=5) as mem:
        assert isinstance(mem.store, PostgresStore)
        vector = mem.services.embed(["the blue canoe"])[0]
        with mem.store.transaction():
            for i in range(8):
                mem.store.vectors.add(rec(f"c{i}", "lake", text=f"canoe trip {i}"), vector)
        assert mem.store.info().extra["hnsw_namespaces"] == ["lake"]
        assert search_width_seen(mem.store, 5) == "100"  # the default
        run = mem.resources.services(Context(hnsw_ef_search=250))
        assert search_width_seen(run.store, 5) == "250" and search_width_seen(run.store, 400) == "400"
        assert run.store.index.hnsw.build_settings() == mem.store.index.hnsw.build_settings()
        assert run.store.searching(100) is mem.store and run.store.searching(250) is run.store  # views of views
        assert search_width_seen(mem.store, 5) == "100"  # the owner's store is unchanged
        widths.clear()
        mem.ask("Which canoe?", user_id="lake", gate_policy="never", hnsw_ef_search=250)
        assert widths and set(widths) == {250}
        widths.clear()
        mem.ask("Which canoe?", user_id="lake", gate_policy="never")
        assert widths and set(widths) == {100}
        with pytest.raises(ConfigError, match="fixed when the store opens"):
            mem.resources.services(Context(hnsw_m=8))
        with pytest.raises(ConfigError, match="hnsw_ef_search may change per run"):
            mem.ask("Which canoe?", user_id="lake", hnsw_threshold=7)


def test_served_graphs_and_resources_read_dmem_hnsw_variables(postgres_url: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DMEM_STORE_URL", postgres_url)
    monkeypatch.setenv("DMEM_EMBEDDING_MODEL", "hash")
    monkeypatch.setenv("DMEM_HNSW_M", "6")
    monkeypatch.setenv("DMEM_HNSW_EF_CONSTRUCTION", "12")
    monkeypatch.setenv("DMEM_HNSW_EF_SEARCH", "77")
    served_resources.close()
    try:
        store = served_resources.store
        assert isinstance(store, PostgresStore)
        assert store.index.hnsw == HnswSettings(m=6, ef_construction=12, ef_search=77)
        assert search_width_seen(store, 10) == "77"
    finally:
        served_resources.close()
    monkeypatch.setenv("DMEM_HNSW_BUILD_MEMORY", "lots")
    with pytest.raises(ConfigError, match="hnsw_build_memory"), Resources() as owner:
        owner.store  # noqa: B018 - opening is what fails


def test_cli_commands_open_postgres_with_the_settings(postgres_url: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    build_source(tmp_path / "src")
    cfg = tmp_path / "dmem.toml"
    cfg.write_text("hnsw_threshold = 1\nhnsw_m = 6\nhnsw_ef_construction = 12\n")
    assert main(["--config", str(cfg), "store", "copy", str(tmp_path / "src"), postgres_url]) == 0
    with open_postgres_store(postgres_url, dim=None, read_only=True) as store:
        assert store.index.indexed_namespaces() == ["lake", "lake/Liv"]
        assert "m='6'" in index_options(postgres_url, store, "lake")
    monkeypatch.setenv("DMEM_HNSW_EF_SEARCH", "0")
    capsys.readouterr()
    assert main(["--store-url", postgres_url, "users"]) == 2
    assert "'hnsw_ef_search' must be between 1 and 1000" in capsys.readouterr().err
    monkeypatch.setenv("DMEM_HNSW_EF_SEARCH", "64")
    assert main(["--store-url", postgres_url, "--embeddings", "hash", "--json", "search", "canoe",
                 "--user-id", "lake"]) == 0
    assert "canoe" in capsys.readouterr().out


def test_build_settings_apply_to_new_indexes_only_and_the_threshold_when_a_namespace_is_written(
        postgres_url: str) -> None:
    first = HnswSettings(threshold=50, m=8, ef_construction=24)
    with open_postgres_store(postgres_url, dim=DIM, hnsw=first) as store:
        fill(store, "old", 60, 1)
        fill(store, "few", 30, 2)
    later = HnswSettings(threshold=20, m=16, ef_construction=64)
    with open_postgres_store(postgres_url, dim=DIM, hnsw=later) as store:
        fill(store, "old", 5, 3)
        assert "m='8'" in index_options(postgres_url, store, "old")  # built once, never rebuilt
        assert store.index.indexed_namespaces() == ["old"]  # 'few' crossed the lower threshold unwritten
        fill(store, "few", 1, 4)
        assert store.index.indexed_namespaces() == ["few", "old"]  # its next write built it
        assert "m='16'" in index_options(postgres_url, store, "few")
    with open_postgres_store(postgres_url, dim=DIM, hnsw_threshold=10**6) as store:
        query = unit_rows(1, 9)[0]
        assert "Index Scan using memories_hnsw_" in store.index.explain("old", query, 5)  # kept above
        with psycopg.connect(postgres_url, autocommit=True) as conn:  # the way to rebuild with new settings
            conn.execute(psycopg.sql.SQL("DROP INDEX CONCURRENTLY {}").format(
                psycopg.sql.Identifier(store.index.index_name("old"))))
            conn.execute("DELETE FROM namespace_indexes WHERE namespace = 'old'")
        store.index.hnsw = HnswSettings(threshold=10**6, m=12, ef_construction=40)
        assert store.index.build_index("old")
        assert "m='12'" in index_options(postgres_url, store, "old")


def test_build_memory_sizes_agree_with_postgresql(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for value in ("1MB", "1024kB", "2GB", "1TB", "2147483647kB"):
            memory_kb(value)
            conn.execute("SELECT set_config('maintenance_work_mem', %s, false)", (value,))
        for value in ("512mb", "1023kB", "2TB"):
            with pytest.raises(ConfigError):
                memory_kb(value)
            with pytest.raises(psycopg.errors.InvalidParameterValue), conn.transaction():
                conn.execute("SELECT set_config('maintenance_work_mem', %s, false)", (value,))


def test_a_commit_stands_when_the_index_check_after_it_cannot_read(postgres_url: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The server going away right after a commit fails the HNSW check's count, not the committed write."""
    from dmem.errors import StoreUnavailableError

    store = open_postgres_store(postgres_url, dim=DIM)
    try:
        def gone(self: PgVectorIndex, namespace: str | None = None) -> int:
            raise StoreUnavailableError("cannot read store: the database server is unreachable (test)")
        with monkeypatch.context() as patched:
            patched.setattr(PgVectorIndex, "count", gone)
            with store.transaction():  # before the fix: the after-commit check raised out of the committed block
                store.vectors.add(rec("kept-after-commit", "ana"), unit_rows(1, 3)[0])
        assert store.vectors.get("ana", "kept-after-commit") is not None
    finally:
        store.close()
