"""A PostgreSQL restart quicker than the pools' trust window: the first read after it succeeds.

Both pools hand a connection back out unchecked when it came back less than ``TRUSTED_SECONDS`` ago
(``dmem/store/postgres/handback.py``). An immediate stop and a start take well under a second, so
a process's next query could land on a connection whose backend the restart ended: the query failed
with "server closed the connection unexpectedly" although the server was up (a served run after an
outage did, in CI). Here the window is stretched to an hour, so every pooled connection is trusted
across the restart, on the sync pool and on an event loop's async pool.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from dmem.api import Memory
from dmem.store.postgres import handback
from dmem.testing import FakeChatModel
from tests.conftest import conversation, default_script

pytestmark = [pytest.mark.postgres]


@pytest.fixture(scope="module")
def restartable() -> Iterator[Any]:
    from tests.postgres_server import stoppable_postgres

    with stoppable_postgres() as server:
        yield server


def test_an_idle_connection_whose_server_ended_it_is_checked_even_inside_the_window() -> None:
    ours, servers = socket.socketpair()
    try:
        assert not handback.server_spoke(ours)  # idle, nothing sent: trusted
        servers.close()  # the backend ends: the end of the stream is readable
        assert handback.server_spoke(ours)
    finally:
        ours.close()
    assert handback.server_spoke(ours)  # closed: no socket to look at, so checked


def test_reads_right_after_a_quick_restart_succeed_on_both_pools(restartable: Any,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(handback, "TRUSTED_SECONDS", 3600.0)
    mem = Memory(store_url=restartable.url, llm=FakeChatModel(script=default_script()), embeddings="hash")
    try:
        mem.add(conversation(2), user_id="maya")
        stored = {m.id for m in mem.get_all(user_id="maya")}
        assert stored

        async def on_one_loop() -> None:
            assert {m.id for m in await mem.aget_all(user_id="maya")} == stored  # the loop's pool is filled
            restartable.stop("immediate")
            restartable.start()
            assert {m.id for m in await mem.aget_all(user_id="maya")} == stored
            assert {m.id for m in mem.get_all(user_id="maya")} == stored  # the sync pool, the same way

        asyncio.run(on_one_loop())
    finally:
        restartable.start()
        mem.close()
