"""Which pooled connections were handed back a moment ago: both pools hand those out again unchecked.

A pool's check before a checkout costs a round trip (on the async path also a turn of the busy loop
while the connection is held), so a busy process paid it on every transaction. A connection handed
back less than ``TRUSTED_SECONDS`` ago is trusted; one idle for longer (an outage, a restart) or never
seen is still checked. The sync pool (``db``) and the loops' async pools (``aio``) share this rule.

Trust never outlives the socket: a server restarted within the window (an immediate stop and a start
take well under a second) ends every backend, so the idle connection's socket turns readable (the
end of the stream). ``needs_check`` looks for that without a round trip (a zero-timeout poll) and
checks such a connection; without the look, the first query after a quick restart failed.
"""

from __future__ import annotations

import select
import time

import psycopg

TRUSTED_SECONDS = 1.0
"""A pooled connection handed back less than this long ago is handed out again without a check query."""


class HandedBack:
    """When each pooled connection (by id) was last handed back to its pool."""

    def __init__(self) -> None:
        self._at: dict[int, float] = {}

    def note(self, conn: object, limit: int) -> None:
        """``conn`` goes back to its pool now; past ``limit`` ids (closed connections among them) all are forgotten.

        Forgetting only means the next checkouts are checked again: nothing is ever skipped wrongly.
        """
        if len(self._at) > limit:
            self._at.clear()
        self._at[id(conn)] = time.monotonic()

    def needs_check(self, conn: object) -> bool:
        """True unless ``conn`` was handed back less than ``TRUSTED_SECONDS`` ago and the server sent nothing since."""
        at = self._at.get(id(conn))
        return at is None or time.monotonic() - at >= TRUSTED_SECONDS or server_spoke(conn)


def server_spoke(conn: object) -> bool:
    """True when an idle connection's socket is readable: the server ended it, or sent a notice; no round trip.

    A pooled connection that waits for nothing has nothing to read, unless its backend ended (the end of
    the stream, a goodbye) or the server reported something unasked. Either way the pool's check query
    runs, and reads it. A connection without a socket to look at (closed) counts as spoken.
    """
    fileno = getattr(conn, "fileno", None)
    if fileno is None:
        return False  # not a socket-backed connection: the time rule alone
    try:
        fd = fileno()
        if hasattr(select, "poll"):
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            return bool(poller.poll(0))
        readable, _, _ = select.select([fd], [], [], 0)
        return bool(readable)
    except (OSError, ValueError, psycopg.Error):  # a closed connection has no socket: check it
        return True
