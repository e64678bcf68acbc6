"""System 1 retrieval: top-K memories per namespace asked about, and the paper's optional Filter."""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from dmem.errors import ModelError
from dmem.services import services_for
from dmem.state.context import Context
from dmem.state.graphs import QueryState

log = logging.getLogger(__name__)


def retrieve(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Top-K per namespace (K = retrieval_top_k each), merged best first, rendered with event times."""
    svc = services_for(runtime.context)
    question = state["question"]
    namespaces = list(state.get("namespaces") or ["default"])
    vector = svc.embed([question])[0]
    hits = []
    for ns in namespaces:
        hits.extend(svc.store.vectors.search([ns], vector, svc.context.retrieval_top_k))
    hits.sort(key=lambda h: h.score, reverse=True)
    memories = [h.record for h in hits]
    return {
        "memories": memories,
        "scores": [h.score for h in hits],
        "context": [m.render() for m in memories],
        "memory_ids": [m.id for m in memories],
        "answer": "",
        "route": "system1",
        "facts_used": [],
    }


def filter_memories(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Keep only the memories strictly needed; an empty selection keeps the unfiltered context."""
    svc = services_for(runtime.context)
    memories = state.get("memories", [])
    try:
        out = svc.decider.filter_memories(state["question"], memories)
    except ModelError as exc:  # malformed, or a provider failing after retries: the optional step is skipped
        log.warning("filter failed, using the unfiltered context: %s", exc)
        return {"usage": [exc.usage] if exc.usage is not None else []}
    keep = [memories[i - 1] for i in dict.fromkeys(out.value.keep) if 1 <= i <= len(memories)]
    if not keep:
        return {"usage": [out.usage]}
    return {"context": [m.render() for m in keep], "memory_ids": [m.id for m in keep], "usage": [out.usage]}
