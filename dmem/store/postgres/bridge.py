"""Sync store code run on the event loop with every database call awaited: one body for both paths.

The store's queries, transactions, advisory locks and claim decisions are written once, as sync
code over ``PgDatabase``. ``run`` executes such a body in a greenlet on the caller's loop; when the
body reaches the database, ``PgDatabase`` sees it runs bridged and hands the awaitable (a checkout
of the loop's ``AsyncConnectionPool``, a statement, a fetch) to ``wait``, which switches back to the
loop's coroutine to await it and resumes the body with its result. So the async path awaits the
async pool on the loop, uses no worker thread and no sync-pool connection, and still runs exactly
the sync path's SQL and logic. Work that would block the loop and is not the database (embedding,
building an HNSW index on a dedicated connection) goes through ``blocking``: a worker thread.

``offload`` is the other way round, for bodies that are mostly CPU work with a few reads (a lexical
index refresh, Focused Deliberation's seeds): the body runs in a worker thread, and each database
call it makes is awaited on the caller's loop (the thread waits for it), so it too reads through the
loop's async pool and never checks out a sync-pool connection.
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from greenlet import getcurrent, greenlet

T = TypeVar("T")

_home = threading.local()
"""``loop``: the event loop whose async pool a worker thread started by ``offload`` awaits its queries on."""


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


def awaiting() -> bool:
    """True when the caller's database calls are awaited on a loop (inside ``run`` or ``offload``)."""
    return current() is not None or getattr(_home, "loop", None) is not None


async def _awaited(awaitable: Awaitable[T]) -> T:
    return await awaitable


def wait(awaitable: Awaitable[T]) -> T:
    """Await ``awaitable`` on the loop from a ``run`` or ``offload`` body; return its result or raise its error."""
    here = current()
    if here is not None:
        return here.parent.switch(awaitable)  # type: ignore[no-any-return]
    loop = getattr(_home, "loop", None)
    if loop is None:
        raise RuntimeError("wait() runs inside a body started by dmem.store.postgres.bridge.run() or offload()")
    return asyncio.run_coroutine_threadsafe(_awaited(awaitable), loop).result()


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


async def offload(fn: Callable[..., T], *args: Any) -> T:
    """Run the sync ``fn(*args)`` in a worker thread, its database calls awaited on the running loop."""
    loop = asyncio.get_running_loop()

    def body() -> T:
        _home.loop = loop
        try:
            return fn(*args)
        finally:
            _home.loop = None

    return await asyncio.to_thread(body)


def blocking(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, which blocks (not database work): in a worker thread when bridged, else right here."""
    if current() is None:
        return fn(*args)
    return wait(asyncio.to_thread(fn, *args))
