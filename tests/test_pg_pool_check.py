"""The PostgreSQL pool checks a connection before handing it out only when it has been idle a while.

The check is a round trip; a busy process handed back its connections a moment ago, so checking each
checkout doubled the round trips of every query. A connection idle for ``TRUSTED_SECONDS`` (an
outage, a restart) is still checked.
"""

from __future__ import annotations

from typing import Any

import pytest

from dmem.store.postgres import db, handback


def handed_back_at(handed_back: handback.HandedBack, now: list[float], conn: object, when: float) -> None:
    """Hand ``conn`` back at the (patched) clock's ``when``, then set the clock back to now."""
    current, now[0] = now[0], when
    handed_back.note(conn, limit=16)
    now[0] = current


class _Conn:
    """Stands in for a pooled connection: the check runs ``execute('')`` on it."""

    def __init__(self) -> None:
        self.autocommit = True
        self.checks = 0

    def execute(self, sql: str) -> None:
        assert sql == ""
        self.checks += 1


def test_a_connection_handed_back_a_moment_ago_is_not_checked_an_idle_one_is(monkeypatch: pytest.MonkeyPatch) -> None:
    database = db.PgDatabase("postgresql://u@localhost/x", read_only=False, pool_size=2, timeout=1.0)
    now = [1000.0]
    monkeypatch.setattr(handback.time, "monotonic", lambda: now[0])
    fresh, idle, unknown = _Conn(), _Conn(), _Conn()
    handed_back_at(database._handed_back, now, fresh, now[0] - 0.1)
    handed_back_at(database._handed_back, now, idle, now[0] - handback.TRUSTED_SECONDS - 0.1)
    conn: Any
    for conn in (fresh, idle, unknown):
        database._check(conn)
    assert (fresh.checks, idle.checks, unknown.checks) == (0, 1, 1)


class _AsyncConn:
    """Stands in for a connection of an async pool: the check awaits ``execute('')`` on it."""

    def __init__(self) -> None:
        self.autocommit = True
        self.checks = 0

    async def execute(self, sql: str) -> None:
        assert sql == ""
        self.checks += 1


def test_the_async_pools_skip_the_check_of_a_connection_handed_back_a_moment_ago(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same rule on the loop's pools, where a check also holds the connection for a turn of a busy loop."""
    import asyncio

    from dmem.store.postgres import aio

    pools = aio.AsyncPools("postgresql://u@localhost/x", "postgresql://localhost/x", pool_size=2, timeout=1.0)
    now = [1000.0]
    monkeypatch.setattr(handback.time, "monotonic", lambda: now[0])
    fresh, idle, unknown = _AsyncConn(), _AsyncConn(), _AsyncConn()
    handed_back_at(pools._handed_back, now, fresh, now[0] - 0.1)
    handed_back_at(pools._handed_back, now, idle, now[0] - handback.TRUSTED_SECONDS - 0.1)

    async def check_all() -> None:
        conn: Any
        for conn in (fresh, idle, unknown):
            await pools._check(conn)

    asyncio.run(check_all())
    assert (fresh.checks, idle.checks, unknown.checks) == (0, 1, 1)
