"""Issue 25 on PostgreSQL: as_store(), the agents over it, mem0 parity and complete exports, rerun on a fresh schema."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_export_complete import *  # noqa: F403
from tests.test_langgraph_store import *  # noqa: F403
from tests.test_langgraph_store_agents import *  # noqa: F403
from tests.test_mem0_parity import *  # noqa: F403

pytestmark = pytest.mark.postgres


@pytest.fixture
def memory_factory(postgres_memory_factory: Any) -> Any:
    """Every ``sub`` store in a fresh PostgreSQL schema (conftest's ``postgres_memory_factory``)."""
    return postgres_memory_factory
