"""Process-wide tuning a long-running process may opt into: freezing its start-up heap for the garbage collector.

A process that has loaded LangChain, LangGraph and dmem tracks about 140,000 objects. A full
(generation 2) garbage collection walks every one of them, on whichever thread allocates, while
holding the interpreter: on an async server that is a pause of the event loop (60-120 ms on a 2-core
machine). ``gc.freeze()`` moves the objects alive now to a permanent generation that collections
skip, so a full collection walks only what requests created since. Garbage collection stays on.

It changes the whole process, so dmem calls it only where it owns the process's start-up: the
served graphs of ``langgraph.json`` (``dmem.server``, once, on the first factory call; set
``DMEM_FREEZE_HEAP=false`` to keep the server's collector as it is). ``Memory`` never calls it; an
in-process server calls :func:`freeze_startup_heap` itself once its start-up is done.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
from collections.abc import Mapping

from dmem.errors import ConfigError
from dmem.state.sources import FREEZE_HEAP_ENV

logger = logging.getLogger(__name__)


def freeze_startup_heap() -> int:
    """Collect once, then exempt every object alive now from later collections; the number exempted in all.

    Call it when start-up is done (models, store and graphs loaded), before serving requests. What is
    frozen is never collected: objects created at start-up that later become unreachable only through
    reference cycles stay in memory (those freed by reference counting are freed as usual). Calling
    it again freezes what has been created since; ``gc.unfreeze()`` undoes it.
    """
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    logger.info("froze %d start-up objects: full garbage collections skip them (gc.freeze)", frozen)
    return frozen


def freeze_heap_enabled(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the served entry freezes its start-up heap: ``DMEM_FREEZE_HEAP``, default true."""
    raw = (os.environ if environ is None else environ).get(FREEZE_HEAP_ENV, "true").strip().lower()
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{FREEZE_HEAP_ENV} must be true or false; got {raw!r}")


class StartupFreeze:
    """Freezes the start-up heap once per process, on the first call that asks for it (the served entry's)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.frozen: int | None = None
        """Objects frozen by the one freeze; None before it (or when ``DMEM_FREEZE_HEAP`` is false)."""
        self._done = False

    def once(self, environ: Mapping[str, str] | None = None) -> int | None:
        """Freeze on the first call if ``DMEM_FREEZE_HEAP`` allows it; later calls do nothing."""
        with self._lock:
            if not self._done:
                enabled = freeze_heap_enabled(environ)  # a bad value is refused on every call, never skipped
                self._done = True
                if enabled:
                    self.frozen = freeze_startup_heap()
            return self.frozen
