"""A failing ingestion node releases the run's claim first: its turns become pending with the reason.

Without this, a run that fails after ``record`` claimed its turns (the store full, locked or
unreachable; a bug) would leave them claimed by a live process until the lease lapses, so a resend
or ``retry_pending()`` in that process would answer ``claimed`` and form nothing. Per-fact workers
get the run's worker token in their ``FactTask``.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime

from dmem.services import services_for
from dmem.state.context import Context

log = logging.getLogger(__name__)

Node = TypeVar("Node", bound=Callable[..., Any])


def release_claim(state: Any, runtime: Runtime[Context] | None, exc: BaseException) -> None:
    """A node of the run raised: its claimed turns become pending with the reason, in this process, now."""
    worker = state.get("claim_token") if isinstance(state, dict) else None
    if not worker or runtime is None or isinstance(exc, GraphBubbleUp):
        return
    try:
        transcript = services_for(runtime.context).store.transcript
    except Exception:  # noqa: BLE001 - the services themselves failed; the claim's lease is the fallback
        log.warning("could not reach the store to release the failed run's claim", exc_info=True)
        return
    transcript.fail(str(worker), f"{type(exc).__name__}: {exc}")


def releasing_claims(node: Node) -> Node:
    """``node``, releasing the run's claim before any exception it raises reaches the caller (sync or async)."""
    if inspect.iscoroutinefunction(node):
        @functools.wraps(node)
        async def arun(state: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return await node(state, *args, **kwargs)
            except BaseException as exc:
                await asyncio.to_thread(release_claim, state, kwargs.get("runtime"), exc)  # store I/O off the loop
                raise
        return arun  # type: ignore[return-value]

    @functools.wraps(node)
    def run(state: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return node(state, *args, **kwargs)
        except BaseException as exc:
            release_claim(state, kwargs.get("runtime"), exc)
            raise
    return run  # type: ignore[return-value]
