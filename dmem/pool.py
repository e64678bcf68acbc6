"""Progress callbacks and the bounded pool that runs named jobs, each failure kept apart."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from typing import TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


class Progress:
    """Progress callbacks of a run; the CLI draws them with rich, the default ignores them."""

    def start(self, name: str, total: int, description: str) -> None:
        """A phase of ``total`` steps begins."""

    def advance(self, name: str, amount: int = 1) -> None:
        """``amount`` more steps of a phase are done."""


def run_parallel(jobs: Mapping[str, Callable[[], T]], on_result: Callable[[T], None], workers: int,
                 on_done: Callable[[], None] | None = None) -> list[str]:
    """Run jobs on at most ``workers`` threads; failures are logged and returned, never fatal to the others."""
    errors: list[str] = []
    pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="dmem-eval")
    try:
        futures: dict[Future[T], str] = {pool.submit(job): name for name, job in jobs.items()}
        for fut in as_completed(futures):
            try:
                on_result(fut.result())
            except Exception as exc:
                log.error("%s failed: %s: %s", futures[fut], type(exc).__name__, exc)
                errors.append(f"{futures[fut]}: {type(exc).__name__}: {exc}")
            if on_done:
                on_done()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return errors
