"""The soak's control: graphs named like dmem's served ones that do no memory work, only wait.

``soak.py --host-only`` serves these instead of dmem's graphs, so the same clients at about the same run
rate measure what `langgraph dev` itself keeps per run (its in-memory runtime's records) apart from
dmem. Each run waits ``SOAK_HOST_SECONDS`` (default 1.0, about a soak's p50 per run) on the event loop.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class Sent(TypedDict, total=False):
    """Whatever a soak client sends; kept only as the run's input."""

    messages: list[dict[str, Any]]
    user_id: str
    idempotency_key: str
    question: str
    namespaces: list[str]
    status: str


async def wait(state: Sent) -> dict[str, Any]:
    """Take about as long as a dmem run, doing nothing else."""
    await asyncio.sleep(float(os.environ.get("SOAK_HOST_SECONDS", "1.0")))
    return {"status": "ok"}


def _graph() -> Any:
    builder = StateGraph(Sent)
    builder.add_node("wait", wait)
    builder.add_edge(START, "wait")
    builder.add_edge("wait", END)
    return builder.compile()


ingestion_graph = _graph()
query_graph = _graph()
