"""Deferred memory formation: ingestion runs in a worker thread, after the host has replied.

One worker keeps exchanges in submission order (a later turn may refer to an earlier one). Nothing
is lost: every failure is logged when it happens and returned by the ``flush()`` that waits for it;
``close()`` flushes, then stops the worker. Use it as a context manager, or close it when the host shuts down.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from langgraph.graph.state import CompiledStateGraph

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class IngestionFailure:
    """One background ingestion that raised."""

    label: str
    """Which exchange it was (user/thread)."""
    error: BaseException
    """What it raised."""


class BackgroundIngestion:
    """Runs ingestion graph invocations in one worker thread; ``flush()`` waits for them."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dmem-remember")
        self._lock = threading.Lock()
        self._pending: list[tuple[Future[Any], str]] = []
        self._closed = False

    def submit(self, graph: CompiledStateGraph[Any, Any, Any, Any], payload: Mapping[str, Any], *,
               context: Any = None, label: str = "") -> Future[Any]:
        """Queue one ingestion run; returns its future (the graph's output, or the error)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("BackgroundIngestion is closed; make a new one")
            config: dict[str, Any] = {"run_name": "dmem.remember", "tags": ["dmem:remember", "background"],
                                      "metadata": {"exchange": label}}
            future = self._executor.submit(_invoke, graph, dict(payload), config, context)
            self._pending.append((future, label))
        future.add_done_callback(lambda f: _log_failure(f, label))
        return future

    def flush(self, timeout: float | None = None) -> list[IngestionFailure]:
        """Wait for everything submitted so far; return the failures among the runs that finished."""
        with self._lock:
            pending, self._pending = self._pending, []
        wait([f for f, _ in pending], timeout=timeout)
        unfinished = [(f, label) for f, label in pending if not f.done()]
        if unfinished:
            log.warning("%d background ingestion run(s) still running after %ss", len(unfinished), timeout)
            with self._lock:
                self._pending = unfinished + self._pending
        return [IngestionFailure(label, error) for f, label in pending
                if f.done() and (error := f.exception()) is not None]

    @property
    def pending(self) -> int:
        """Runs submitted and not finished yet."""
        with self._lock:
            return sum(not f.done() for f, _ in self._pending)

    def close(self, timeout: float | None = None) -> list[IngestionFailure]:
        """Flush, then stop the worker; returns the failures not yet returned by ``flush``."""
        failures = self.flush(timeout)
        with self._lock:
            self._closed = True
        self._executor.shutdown(wait=True)
        return failures

    def __enter__(self) -> BackgroundIngestion:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _invoke(graph: CompiledStateGraph[Any, Any, Any, Any], payload: dict[str, Any], config: dict[str, Any],
            context: Any) -> Any:
    return graph.invoke(payload, config, context=context)  # type: ignore[call-overload]


def _log_failure(future: Future[Any], label: str) -> None:
    """Log a failed run the moment it fails (``flush`` returns it too)."""
    error = future.exception()
    if error is not None:
        log.error("background memory formation failed for %s: %s", label or "an exchange", error,
                  exc_info=(type(error), error, error.__traceback__))
