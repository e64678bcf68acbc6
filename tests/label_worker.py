"""Subprocess target: add invented turns with metadata, and die by SIGKILL at the apply step.

Usage: python tests/label_worker.py STORE_DIR STORE_URL|- USER_ID N_TURNS MODE K

``in_apply``: killed inside the K-th exchange's write transaction, once its memories are written
and its turns marked formed but before the commit. ``after_apply``: killed as soon as the K-th
exchange's graph run has returned (its commit done, the ``add`` call not finished).
Never returns normally: a clean exit (status 3) means the kill point was never reached.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

from dmem.api import Memory
from dmem.batches import BatchForming
from dmem.nodes import lifecycle
from dmem.testing import FakeChatModel, echo_formation_script
from tests.add_worker import turns

LABELS = {"source": "chat", "batch": 7, "checked": False}
"""The metadata every ``add`` of this worker gives."""


def die_on(k: int) -> Any:
    """A callable that kills this process (SIGKILL, no cleanup) on its ``k``-th call."""
    calls = [0]

    def tick() -> None:
        calls[0] += 1
        if calls[0] == k:
            os.kill(os.getpid(), signal.SIGKILL)

    return tick


def main() -> None:
    store, url, user, n, mode, k = sys.argv[1:7]
    tick = die_on(int(k))
    if mode == "in_apply":
        mark = lifecycle.mark_processed

        def mark_then_die(state: Any, runtime: Any) -> None:
            mark(state, runtime)
            tick()

        lifecycle.mark_processed = mark_then_die  # type: ignore[assignment]
    else:
        exchange = BatchForming.exchange

        def exchange_then_die(self: BatchForming, *args: Any, **kwargs: Any) -> Any:
            out = exchange(self, *args, **kwargs)
            tick()
            return out

        BatchForming.exchange = exchange_then_die  # type: ignore[method-assign]
    where = {} if url == "-" else {"store_url": url}
    with Memory(store, llm=FakeChatModel(script=echo_formation_script()), embeddings="hash", **where) as mem:
        mem.add(turns(int(n)), user_id=user, metadata=LABELS)
    sys.exit(3)


if __name__ == "__main__":
    main()
