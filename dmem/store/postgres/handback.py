"""Which pooled connections were handed back a moment ago: both pools hand those out again unchecked.

A pool's check before a checkout costs a round trip (on the async path also a turn of the busy loop
while the connection is held), so a busy process paid it on every transaction. A connection handed
back less than ``TRUSTED_SECONDS`` ago is trusted; one idle for longer (an outage, a restart) or never
seen is still checked. The sync pool (``db``) and the loops' async pools (``aio``) share this rule.
"""

from __future__ import annotations

import time

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
        """True unless ``conn`` was handed back less than ``TRUSTED_SECONDS`` ago."""
        at = self._at.get(id(conn))
        return at is None or time.monotonic() - at >= TRUSTED_SECONDS
