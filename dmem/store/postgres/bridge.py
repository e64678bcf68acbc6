"""Sync store code run on the event loop with every database call awaited: one body for both paths.

The store's queries, transactions, advisory locks and claim decisions are written once, as sync
code over ``PgDatabase``. ``run`` executes such a body in a greenlet on the caller's loop; when the
body reaches the database, ``PgDatabase`` sees it runs bridged and hands the awaitable (a checkout
of the loop's ``AsyncConnectionPool``, a statement, a fetch) to ``wait``, which switches back to the
loop's coroutine to await it and resumes the body with its result. So the async path awaits the
async pool on the loop, uses no worker thread and no sync-pool connection, and still runs exactly
the sync path's SQL and logic. Work that would block the loop and is not the database (embedding,
building an HNSW index on a dedicated connection) goes through ``blocking``: a worker thread.
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from greenlet import getcurrent, greenlet

T = TypeVar("T")


class Bridged(greenlet):  # type: ignore[misc]
    """A greenlet running a sync store body for a coroutine on the loop; it keeps the body's transaction."""

    def __init__(self, body: Callable[[], Any], parent: greenlet) -> None:
        super().__init__(body, parent)
        self.tx: Any = None
        """The body's open ``PgDatabase`` transaction (a thread keeps its own in thread-local storage)."""


def current() -> Bridged | None:
    """The bridged greenlet the caller runs in, or None (a thread, or the loop itself)."""
    here = getcurrent()
    return here if isinstance(here, Bridged) else None


def wait(awaitable: Awaitable[T]) -> T:
    """Await ``awaitable`` on the loop from inside a bridged body, and return its result (or raise its error)."""
    here = current()
    if here is None:
        raise RuntimeError("wait() runs inside a body started by dmem.store.postgres.bridge.run()")
    return here.parent.switch(awaitable)  # type: ignore[no-any-return]


async def run(fn: Callable[..., T], *args: Any) -> T:
    """Run the sync ``fn(*args)`` on the running loop, awaiting each database call it makes.

    The body sees the caller's context variables (LangGraph's config and runtime, tracing).
    """
    body = Bridged(lambda: fn(*args), getcurrent())
    body.gr_context = contextvars.copy_context()
    step = body.switch()
    while not body.dead:
        try:
            value = await step
        except BaseException:  # the awaited call failed: raise it inside the body, where it was awaited
            step = body.throw(*sys.exc_info())
        else:
            step = body.switch(value)
    return step  # type: ignore[no-any-return]


def blocking(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, which blocks (not database work): in a worker thread when bridged, else right here."""
    if current() is None:
        return fn(*args)
    return wait(asyncio.to_thread(fn, *args))
