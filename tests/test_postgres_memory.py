"""The Memory API and both graphs on PostgreSQL: the ingestion, query, isolation, labels and read-labels suites, rerun.

Importing those modules' tests here runs each of them again with ``memory_factory`` overridden to
put every store in a fresh schema of the session's real PostgreSQL server.
"""

from __future__ import annotations

from typing import Any

import pytest

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
def memory_factory(postgres_memory_factory: Any) -> Any:
    """Every ``sub`` store in a fresh PostgreSQL schema (conftest's ``postgres_memory_factory``)."""
    return postgres_memory_factory
