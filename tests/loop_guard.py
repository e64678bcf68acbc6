"""The event-loop guard ``langgraph dev`` runs (without ``--allow-blocking``), for in-process tests.

The in-memory server activates blockbuster with a few calls allowed (os.stat, os.path.*, buffered
file reads and writes, ``threading.Lock.acquire``); the same set here, so what fails under the
server fails in a unit test: any other blocking call on the loop (a socket, sqlite, a sleep) raises
``BlockingError``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from blockbuster import BlockBuster

ALLOWED = ["os.stat", "os.listdir", "os.remove", "io.BufferedReader.read", "io.BufferedWriter.write",
           "io.TextIOWrapper.read", "io.TextIOWrapper.write", "threading.Lock.acquire"]


@contextmanager
def server_loop_guard() -> Iterator[BlockBuster]:
    """Blocking calls on the running event loop raise ``BlockingError``, as under ``langgraph dev``."""
    bb = BlockBuster(excluded_modules=[])
    for name in [*ALLOWED, *(f for f in bb.functions if f.startswith("os.path."))]:
        found = bb.functions.pop(name, None)
        if found:
            found.deactivate()
    bb.activate()
    try:
        yield bb
    finally:
        bb.deactivate()
