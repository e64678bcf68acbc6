"""The HNSW settings of a PostgreSQL store: defaults from HnswSettings, every source, clear errors.

What they do to a real database is in tests/test_postgres_hnsw_settings.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dmem.errors import ConfigError
from dmem.state.context import Context, build_context
from dmem.state.hnsw import HnswSettings, memory_kb


def test_the_defaults_are_hnsw_settings_own() -> None:
    assert Context().hnsw() == HnswSettings()
    assert (Context().hnsw_threshold, Context().hnsw_m, Context().hnsw_build_memory) == (10_000, 32, "512MB")


def test_each_source_sets_them_and_kwargs_win(tmp_path: Path) -> None:
    cfg = tmp_path / "dmem.toml"
    cfg.write_text('[dmem]\nhnsw_m = 12\nhnsw_ef_construction = 48\nhnsw_build_memory = "1GB"\nhnsw_ef_search = 70\n')
    env = {"DMEM_HNSW_THRESHOLD": "2500", "DMEM_HNSW_EF_SEARCH": "80"}
    hnsw = build_context(config_file=cfg, environ=env, hnsw_ef_search=90).hnsw()
    assert hnsw == HnswSettings(threshold=2500, m=12, ef_construction=48, ef_search=90, build_memory="1GB")
    assert build_context(config_file=cfg, environ=env).hnsw_ef_search == 80  # env beats the file


@pytest.mark.parametrize("settings, message", [
    ({"hnsw_threshold": 0}, "'hnsw_threshold' must be at least 1; got 0"),
    ({"hnsw_threshold": "many"}, "'hnsw_threshold' must be int"),
    ({"hnsw_m": 1}, "'hnsw_m' must be between 2 and 100"),
    ({"hnsw_m": 101}, "'hnsw_m' must be between 2 and 100"),
    ({"hnsw_m": 2.5}, "'hnsw_m' must be a whole number"),
    ({"hnsw_m": 80}, r"'hnsw_ef_construction' must be between 2 \* hnsw_m \(160\) and 1000; got 128"),
    ({"hnsw_ef_construction": 1001}, "'hnsw_ef_construction' must be between"),
    ({"hnsw_ef_search": 0}, "'hnsw_ef_search' must be between 1 and 1000; got 0"),
    ({"hnsw_ef_search": 1001}, "'hnsw_ef_search' must be between 1 and 1000"),
    ({"hnsw_build_memory": "512mb"}, "'hnsw_build_memory' must be a PostgreSQL memory size"),
    ({"hnsw_build_memory": "lots"}, "'hnsw_build_memory' must be a PostgreSQL memory size"),
    ({"hnsw_build_memory": "512"}, "'hnsw_build_memory' must be a PostgreSQL memory size"),
    ({"hnsw_build_memory": "512kB"}, "'hnsw_build_memory' must be between 1MB"),
    ({"hnsw_build_memory": 512}, "'hnsw_build_memory' must be text"),
])
def test_bad_values_name_the_setting_from_kwargs(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        build_context(environ={}, **settings)


def test_bad_values_from_the_environment_and_the_file_are_errors_too(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="'hnsw_ef_search' must be between 1 and 1000; got 0"):
        build_context(environ={"DMEM_HNSW_EF_SEARCH": "0"})
    with pytest.raises(ConfigError, match="'hnsw_m' must be int"):
        build_context(environ={"DMEM_HNSW_M": "thirty-two"})
    cfg = tmp_path / "c.toml"
    cfg.write_text('hnsw_build_memory = "2 GB"\n')
    with pytest.raises(ConfigError, match="'hnsw_build_memory' must be a PostgreSQL memory size"):
        build_context(config_file=cfg, environ={})
    with pytest.raises(ConfigError, match="hnsw_m"):  # a run's context, as a server receives it
        Context(**{"hnsw_m": "0"})


def test_memory_sizes_are_read_as_postgresql_reads_them() -> None:
    assert [memory_kb(v) for v in ("1MB", "1024kB", "512MB", "2GB", "1TB")] == [
        1024, 1024, 512 * 1024, 2 * 1024**2, 1024**3]
    with pytest.raises(ConfigError, match="between 1MB and 2147483647kB"):
        memory_kb("2TB")  # past maintenance_work_mem's ceiling
    with pytest.raises(ConfigError, match="memory size"):
        memory_kb(" 512MB")


def test_a_store_keeps_all_but_ef_search_from_its_opening() -> None:
    assert HnswSettings(ef_search=7).build_settings() == HnswSettings().build_settings()
    assert HnswSettings(m=8, ef_construction=16).build_settings() != HnswSettings().build_settings()
