"""A served ingestion run cut off by a PostgreSQL outage releases its claim: a resend forms its turns at once.

A real ``langgraph dev`` serves dmem on a private PostgreSQL (pgserver). The test holds a ``SHARE`` lock
on the ``memories`` table, so a run records and claims its turns and then waits at its commit; while it
waits, PostgreSQL is stopped in immediate mode and the client reads the outage as
``StoreUnavailableError``. (Immediate, not fast: a fast shutdown may end the lock holder's backend
before the server's, and then the waiting write gets the lock and commits before its own backend
ends; the run rightly succeeds, with its memories, and there is no outage to test.) The server
cannot write the release while the database is down: it remembers it and writes it before its
next claim. Once PostgreSQL is back, that next claim (another user's run)
makes the turns pending with the reason for everyone, and resending the failed run forms them at once,
not after the claim's 600 s lease.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient

from dmem.api import Memory
from tests.test_langgraph_server import langgraph_dev, server_env

pytestmark = [pytest.mark.postgres, pytest.mark.server, pytest.mark.slow]

MAYA = [{"role": "user", "content": "I adopted a beagle named Rex last week."},
        {"role": "assistant", "content": "Congratulations on Rex!"}]
OTHER = [{"role": "user", "content": "My sister Ines moved to Porto in May."},
         {"role": "assistant", "content": "Porto is lovely."}]
DEADLINE = 120  # seconds: a bound for a loaded machine, not a timing assertion


@pytest.fixture(scope="module")
def served_on_postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SyncLangGraphClient, Any]]:
    from tests.postgres_server import stoppable_postgres

    tmp = tmp_path_factory.mktemp("served-claim")
    with stoppable_postgres() as pg:
        env = server_env(tmp / "store", "http://127.0.0.1:9")
        env.update(DMEM_STORE_URL=pg.url, DMEM_LOCK_TIMEOUT="3")
        with langgraph_dev(tmp, env, jobs=2) as (url, _):
            yield get_sync_client(url=url), pg


def wait_until(condition: Any, what: str) -> None:
    """Poll ``condition`` until it holds (a deadline for a loaded machine, not a timing)."""
    done = threading.Event()
    for _ in range(DEADLINE * 10):
        if condition():
            return
        done.wait(0.1)
    pytest.fail(f"never happened within {DEADLINE} s: {what}")


def claimed_and_waiting(url: str, user: str, holder: int) -> bool:
    """The user's turns are recorded and claimed, and the server's write of memories waits for ``holder``'s lock."""
    with psycopg.connect(url, autocommit=True) as conn:
        claimed = conn.execute("SELECT count(*) FROM messages WHERE namespace = %s AND claimed_by IS NOT NULL",
                               (user,)).fetchone()
        waiting = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                               "AND query LIKE 'INSERT INTO memories%%' AND %s = ANY(pg_blocking_pids(pid))",
                               (holder,)).fetchone()
    return bool(claimed and claimed[0] == 2 and waiting and waiting[0] >= 1)


def test_a_served_run_cut_off_by_an_outage_is_formed_by_its_resend(
        served_on_postgres: tuple[SyncLangGraphClient, Any]) -> None:
    client, pg = served_on_postgres
    sent = {"messages": MAYA, "user_id": "maya", "idempotency_key": "maya-rex-1"}
    first = client.runs.wait(None, "ingestion", input={"messages": OTHER, "user_id": "warm"}, raise_error=True)
    assert isinstance(first, dict) and first["status"] == "formed"  # the store is open and its tables exist

    holder = psycopg.connect(pg.url)
    holder.execute("LOCK TABLE memories IN SHARE MODE")  # writes of memories wait; reads go on
    failed: list[BaseException] = []
    returned: list[Any] = []

    def send() -> None:
        try:
            returned.append(client.runs.wait(None, "ingestion", input=sent, raise_error=True))
        except Exception as exc:  # noqa: BLE001 - the error the client reads is the subject of the test
            failed.append(exc)
    run = threading.Thread(target=send)
    run.start()
    try:
        wait_until(lambda: claimed_and_waiting(pg.url, "maya", holder.info.backend_pid),
                   "maya's run claimed its turns and its write of memories waits for the lock")
        pg.stop("immediate")  # a fast one may let the waiting write commit (see the module docstring)
        run.join(DEADLINE)
        assert not run.is_alive()
    finally:
        pg.start()
        holder.close()
    assert len(failed) == 1, f"the run cut off by the outage did not fail; it returned {returned}"
    text = str(failed[0])
    assert text.startswith("StoreUnavailableError: ") and "unreachable" in text, text

    with Memory(store_url=pg.url, embeddings="hash") as mem:
        other = client.runs.wait(None, "ingestion", input={"messages": OTHER, "user_id": "noor"}, raise_error=True)
        assert isinstance(other, dict) and other["status"] == "formed"  # the server's next claim wrote the release
        pending = mem.pending(user_id="maya")
        assert len(pending) == 2 and all(p.reason.startswith("StoreUnavailableError: ") for p in pending), pending

        resent = client.runs.wait(None, "ingestion", input=sent, raise_error=True)
        assert isinstance(resent, dict) and resent["status"] == "formed", resent
        assert mem.pending(user_id="maya") == []
        assert mem.store.transcript.unformed("maya") == [] and mem.store.transcript.count("maya") == 2
        sources = [t for m in mem.get_all(user_id="maya") for t in m.source_turn_ids]
        assert sources and len(sources) == len(set(sources))  # formed once
