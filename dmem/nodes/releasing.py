"""A failing ingestion node releases the run's claim first: its turns become pending with the reason.

Without this, a run that fails after ``record`` claimed its turns (the store full, locked or
unreachable; a bug) would leave them claimed by a live process until the lease lapses, so a resend
or ``retry_pending()`` in that process would answer ``claimed`` and form nothing. Per-fact workers
get the run's worker token in their ``FactTask``. The wrappers take a node body ``(state, svc, ...)``
as ``dmem.graphs.wiring.Wiring.node`` does, so the release goes to the store the node worked with.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from langgraph.errors import GraphBubbleUp

from dmem.services import Services

log = logging.getLogger(__name__)

Body = Callable[..., dict[str, Any]]
AsyncBody = Callable[..., Awaitable[dict[str, Any]]]


def release_claim(state: Any, svc: Services, exc: BaseException) -> None:
    """A node of the run raised: its claimed turns become pending with the reason, in this process, now."""
    worker = state.get("claim_token") if isinstance(state, dict) else None
    if not worker or isinstance(exc, GraphBubbleUp):
        return
    try:
        svc.store.transcript.fail(str(worker), f"{type(exc).__name__}: {exc}")
    except Exception:  # noqa: BLE001 - the store itself failed; the transcript replays it on its next claim
        log.warning("could not release the failed run's claim", exc_info=True)


def releasing(body: Body) -> Body:
    """``body``, releasing the run's claim before any exception it raises reaches the caller."""

    @functools.wraps(body)
    def run(state: Any, svc: Services, *args: Any) -> dict[str, Any]:
        try:
            return body(state, svc, *args)
        except BaseException as exc:
            release_claim(state, svc, exc)
            raise

    return run


def areleasing(abody: AsyncBody) -> AsyncBody:
    """The async ``abody``, releasing the claim (``store.arun``: not blocking the loop) before its error propagates."""

    @functools.wraps(abody)
    async def arun(state: Any, svc: Services, *args: Any) -> dict[str, Any]:
        try:
            return await abody(state, svc, *args)
        except BaseException as exc:
            await svc.store.arun(release_claim, state, svc, exc)  # awaited on PostgreSQL, a thread on SQLite
            raise

    return arun
