"""Hand the C allocator's free pages back to the system now and then, off the event loop (glibc only).

glibc's ``malloc`` keeps pages freed inside its heaps (one per thread arena) resident: a served
process's passing allocations (a run's rows, arrays and strings) leave free chunks scattered among live
ones, and only the top of each heap is returned by itself. ``malloc_trim(0)`` walks every arena and
gives the whole free pages among them back (``madvise``); it frees nothing in use. The served entry
(``dmem.server``) starts one daemon thread that calls it every ``DMEM_MALLOC_TRIM`` seconds (default
10; ``0`` or ``off``: never). The call runs on that thread with the interpreter released (``ctypes``),
so the event loop keeps running; an arena is locked only while it is trimmed (0.03-9 ms a trim,
measured: ``AllocatorTrim.longest``). It returns what glibc holds free, not pymalloc's arenas or memory
in use: in ten-minute soaks it took about a fifth off the local store's last-third growth and nothing
measurable off PostgreSQL's (benchmarks/RESULTS.md).
Elsewhere than glibc (musl, macOS) there is nothing to call and no thread starts. ``Memory`` never
starts it.
"""

from __future__ import annotations

import ctypes
import logging
import os
import platform
import threading
import time
from collections.abc import Callable, Mapping

from dmem.errors import ConfigError
from dmem.state.sources import MALLOC_TRIM_ENV

logger = logging.getLogger(__name__)

DEFAULT_TRIM_SECONDS = 10.0
"""Seconds between two trims when ``DMEM_MALLOC_TRIM`` is not set."""


def trim_interval(environ: Mapping[str, str] | None = None) -> float:
    """Seconds between trims from ``DMEM_MALLOC_TRIM`` (0: off); ``ConfigError`` for anything else."""
    raw = (os.environ if environ is None else environ).get(MALLOC_TRIM_ENV, "").strip().lower()
    if not raw:
        return DEFAULT_TRIM_SECONDS
    if raw in ("off", "false", "no"):
        return 0.0
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise ConfigError(f"{MALLOC_TRIM_ENV} must be seconds between trims (e.g. 10) or 0 for off; got {raw!r}")
    return seconds


def glibc_trim() -> Callable[[int], int] | None:
    """The C library's ``malloc_trim`` when it is glibc, else None."""
    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim  # type: ignore[no-any-return]


class AllocatorTrim:
    """One daemon thread per process calling ``malloc_trim(0)`` every interval, started by the first ``once``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None
        """The trimming thread; None before ``once`` started it, or when it is off or not on glibc."""
        self.trims = 0
        """Trims done so far."""
        self.longest = 0.0
        """The longest trim so far, in seconds."""
        self._decided = False

    def once(self, environ: Mapping[str, str] | None = None) -> bool:
        """Start the thread on the first call if ``DMEM_MALLOC_TRIM`` and the C library allow; then nothing."""
        with self._lock:
            interval = trim_interval(environ)  # a bad value is refused on every call, never skipped
            if self._decided:
                return self.thread is not None
            self._decided = True
            trim = glibc_trim() if interval > 0 else None
            if trim is None:
                return False
            self.thread = threading.Thread(target=self._run, args=(trim, interval), name="dmem-malloc-trim",
                                           daemon=True)
            self.thread.start()
            logger.info("returning the C allocator's free pages every %g s (malloc_trim; %s=0 turns it off)",
                        interval, MALLOC_TRIM_ENV)
            return True

    def trim_now(self, trim: Callable[[int], int]) -> float:
        """One trim; returns its duration in seconds."""
        began = time.perf_counter()
        trim(0)
        took = time.perf_counter() - began
        self.trims += 1
        self.longest = max(self.longest, took)
        return took

    def stop(self) -> None:
        """Stop the thread after its current wait (tests; a server process simply exits)."""
        self._stop.set()
        if self.thread is not None:
            self.thread.join()

    def _run(self, trim: Callable[[int], int], interval: float) -> None:
        while not self._stop.wait(interval):
            took = self.trim_now(trim)
            logger.debug("malloc_trim took %.1f ms (longest %.1f ms)", took * 1000, self.longest * 1000)
