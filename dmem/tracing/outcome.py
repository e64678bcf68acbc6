"""Traces that read well: the route and the gate's verdict on the graph's own run; routers not traced.

LangGraph runs each conditional-edge function as a child run named after it (a third of a query
trace). ``quiet_routers`` makes them run without a run of their own; the route a query took is
reported instead, with the gate's verdict, on the graph run (its outputs carry them too).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from langchain_core.callbacks import BaseCallbackManager
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import set_config_context
from langchain_core.tracers.base import BaseTracer
from langgraph._internal._runnable import RunnableCallable
from langgraph.graph import StateGraph

from dmem.state.graphs import QueryState

Node = Callable[[QueryState], dict[str, Any]]
G = TypeVar("G", bound="StateGraph[Any, Any, Any, Any]")


class ConfiguredNode(Protocol):
    """A node LangGraph calls with the state and the run config."""

    def __call__(self, state: QueryState, config: RunnableConfig) -> dict[str, Any]: ...


def quiet_routers(builder: G) -> G:
    """The builder with every conditional-edge function run without a trace run of its own.

    LangGraph wraps each router in a traced runnable; the same runnable, untraced, keeps the
    injection of state and runtime, and ``in_run_config`` keeps the run's config visible to the
    router (``get_config()``, which finds the graph's owner). Call it last in a builder function.
    """
    for branches in builder.branches.values():
        for name, spec in branches.items():
            path = spec.path
            if isinstance(path, RunnableCallable) and path.trace and path.func is not None:
                untraced = RunnableCallable(in_run_config(path.func), name=path.name, trace=False)
                branches[name] = spec._replace(path=untraced)
    return builder


def in_run_config(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` called with the run's config set as the current one, as a traced runnable would."""
    params = list(inspect.signature(func).parameters.values())
    takes_config = "config" in {p.name for p in params}

    def run(*args: Any, config: RunnableConfig, **kwargs: Any) -> Any:
        if takes_config:
            kwargs["config"] = config
        with set_config_context(config) as context:
            return context.run(func, *args, **kwargs)

    if not takes_config:
        params.append(inspect.Parameter("config", inspect.Parameter.KEYWORD_ONLY, annotation=RunnableConfig))
    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__name__ = run.__qualname__ = getattr(func, "__name__", "router")
    run.__doc__ = func.__doc__
    return run


def outcome_metadata(values: dict[str, Any]) -> dict[str, Any]:
    """Route and gate verdict as flat metadata keys (filterable in LangSmith)."""
    meta: dict[str, Any] = {"route": values.get("route")}
    gate = values.get("gate") or {}
    if gate:
        meta.update(gate_policy=gate.get("policy"), gate_passed=gate.get("passed"),
                    gate_reasons=list(gate.get("reasons") or []))
    return {k: v for k, v in meta.items() if v is not None}


def annotate_graph_run(config: RunnableConfig, metadata: dict[str, Any]) -> None:
    """Add metadata to the run of the graph whose node is running (sent when that run ends)."""
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


def reports_outcome(node: Node) -> ConfiguredNode:
    """A terminal query node that also reports the route and gate verdict on the graph run."""

    def run(state: QueryState, config: RunnableConfig) -> dict[str, Any]:
        update = node(state)
        annotate_graph_run(config, outcome_metadata({**state, **update}))
        return update

    run.__name__ = run.__qualname__ = node.__name__
    run.__doc__ = node.__doc__
    return run
