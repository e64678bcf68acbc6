"""The Memory API and both graphs on PostgreSQL: the ingestion, query, isolation, labels and read-labels suites, rerun.

Importing those modules' tests here runs each of them again with ``memory_factory`` overridden to
put every store in a fresh schema of the session's real PostgreSQL server.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.graphs import served_resources
from dmem.store.postgres import PostgresStore
from tests.test_ingestion_graph import *  # noqa: F403
from tests.test_ingestion_labels import *  # noqa: F403
from tests.test_isolation import *  # noqa: F403
from tests.test_metadata_labels import *  # noqa: F403
from tests.test_query_graph import *  # noqa: F403
from tests.test_read_labels import *  # noqa: F403

pytestmark = pytest.mark.postgres  # every test here runs on a real PostgreSQL (pgserver)

LOCAL_ONLY = {"test_cli_users_with_the_same_file_name_stay_apart"}
for _name in LOCAL_ONLY:
    globals().pop(_name, None)


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
