"""Pacing the start of graph runs on an event loop, so a burst of calls does not stall the loop.

``asyncio.gather`` of 100 ``aask`` starts all of them in one turn of the loop, and each runs until
its first real wait: about 1.4 ms of LangGraph set-up and the first nodes each, 140 ms in one turn,
during which no other task on the loop (a server's request handler, a heartbeat) runs. ``start()``
lets at most ``RUNS_PER_TURN`` runs begin in one turn; the others wait for later turns (a few
microseconds each), so a burst costs a turn at most ``RUNS_PER_TURN`` run starts. Runs that started
together then move in step, so this also bounds the later turns of the burst.
"""

from __future__ import annotations

import asyncio
import weakref

RUNS_PER_TURN = 8
"""Graph runs that may begin in one turn of an event loop (about 11 ms of loop time on a 2-core machine)."""

_started: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, int] = weakref.WeakKeyDictionary()


async def start() -> None:
    """Wait for a turn of the running loop in which fewer than ``RUNS_PER_TURN`` runs began, and count this one."""
    loop = asyncio.get_running_loop()
    while True:
        count = _started.get(loop, 0)
        if count < RUNS_PER_TURN:
            if count == 0:
                loop.call_soon(_new_turn, loop)  # runs first in the next turn, before the runs that yield now
            _started[loop] = count + 1
            return
        await asyncio.sleep(0)  # a later turn


def _new_turn(loop: asyncio.AbstractEventLoop) -> None:
    _started.pop(loop, None)
