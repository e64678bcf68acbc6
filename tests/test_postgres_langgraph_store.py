"""Issue 25 on PostgreSQL: as_store(), its agents, mem0 parity, reset and complete exports, on a fresh schema."""

from __future__ import annotations

from typing import Any

import pytest

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
def memory_factory(postgres_memory_factory: Any) -> Any:
    """Every ``sub`` store in a fresh PostgreSQL schema (conftest's ``postgres_memory_factory``)."""
    return postgres_memory_factory
