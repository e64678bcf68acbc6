"""Issue 25 on PostgreSQL: as_store(), its agents, mem0 parity, reset and complete exports, on a fresh schema."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.graphs import served_resources
from dmem.store.postgres import PostgresStore
from tests.test_export_complete import *  # noqa: F403
from tests.test_export_streaming import (  # noqa: F401  (the 6,000-memory memory test stays on SQLite: slow here)
    test_a_bad_row_after_the_first_pages_leaves_nothing_imported,
    test_an_import_writes_before_it_has_read_the_whole_file,
    test_rows_reach_the_file_while_the_store_is_still_being_read,
)
from tests.test_langgraph_store import *  # noqa: F403
from tests.test_langgraph_store_agents import *  # noqa: F403
from tests.test_mem0_parity import *  # noqa: F403
from tests.test_reset import *  # noqa: F403

pytestmark = pytest.mark.postgres


@pytest.fixture
def memory_factory(postgres_server: Any, tmp_path: Path) -> Iterator[Any]:
    """Like conftest's, but each ``sub`` store is a fresh PostgreSQL schema."""
    urls: dict[str, str] = {}
    opened: list[Memory] = []

    def make(llm: Any = None, sub: str = "store", **settings: Any) -> Memory:
        url = urls.setdefault(sub, postgres_server.fresh_url())
        mem = Memory(tmp_path / sub, llm=llm, embeddings="hash", store_url=url, **settings)
        assert isinstance(mem.store, PostgresStore)
        opened.append(mem)
        return mem

    yield make
    for mem in opened:
        mem.close()
    served_resources.close()
    for url in urls.values():
        postgres_server.drop(url)
