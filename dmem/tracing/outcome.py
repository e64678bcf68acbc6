"""Traces that read well: the route and the gate's verdict on the graph's own run.

Routers make no run of their own (``dmem.graphs.wiring.Router``); the route a query took is reported
instead, with the gate's verdict, as metadata of the graph run (its outputs carry them too), and
each terminal node carries its route in its node metadata (``add_node(..., metadata=...)``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import BaseCallbackManager
from langchain_core.runnables import RunnableConfig
from langchain_core.tracers.base import BaseTracer
from langgraph.config import get_config

from dmem.state.graphs import QueryState

Node = Callable[[QueryState], dict[str, Any]]


def outcome_metadata(values: dict[str, Any]) -> dict[str, Any]:
    """Route and gate verdict as flat metadata keys (filterable in LangSmith)."""
    meta: dict[str, Any] = {"route": values.get("route")}
    gate = values.get("gate") or {}
    if gate:
        meta.update(gate_policy=gate.get("policy"), gate_passed=gate.get("passed"),
                    gate_reasons=list(gate.get("reasons") or []))
    return {k: v for k, v in meta.items() if v is not None}


def annotate_graph_run(config: RunnableConfig, metadata: dict[str, Any]) -> None:
    """Add metadata to the run of the graph whose node is running (sent when that run ends).

    It goes through each tracer's ``run_map`` because no public API reaches the graph run from a node:
    ``langsmith.get_current_run_tree()`` / ``set_run_metadata()`` see the node's own run (and only under
    ``LangChainTracer``, whose runs carry no ``parent_run``), and a config's metadata and tags are fixed
    when the graph run starts, before the route is known (langsmith 0.15, langchain-core 1.8).
    """
    manager = config.get("callbacks")
    if not isinstance(manager, BaseCallbackManager) or manager.parent_run_id is None:
        return
    for handler in manager.handlers:
        if not isinstance(handler, BaseTracer):
            continue
        node_run = handler.run_map.get(str(manager.parent_run_id))
        parent_id = node_run.parent_run_id if node_run else None
        graph_run = handler.run_map.get(str(parent_id)) if parent_id else None
        if graph_run is not None:
            graph_run.extra.setdefault("metadata", {}).update(metadata)


def reports_outcome(node: Node) -> Node:
    """A terminal query node that also reports the route and gate verdict on the graph run (it does no I/O)."""

    def run(state: QueryState) -> dict[str, Any]:
        update = node(state)
        annotate_graph_run(get_config(), outcome_metadata({**state, **update}))
        return update

    run.__name__ = run.__qualname__ = node.__name__
    run.__doc__ = node.__doc__
    return run
