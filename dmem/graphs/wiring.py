"""Nodes and routers closed over the ``Resources`` that own their graph: wiring visible where a graph is built.

A node body is ``(state, svc)``: the state, and the ``Services`` of its owner for this run's settings
(the owner's, changed by the run's context). A router body is ``(state)`` or ``(state, ctx)``: the
state and this run's settings, nothing it could do I/O with. ``Wiring`` turns a node body into the
``(state, runtime)`` callable LangGraph calls, and a router into a ``Router``: a runnable that runs
inline on the caller's thread or event loop and makes no trace run of its own (a third of a query's
trace were router runs; the route taken is reported on the graph run instead).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langchain_core.runnables.config import ensure_config, set_config_context
from langgraph.runtime import Runtime, get_runtime

from dmem.services import Resources
from dmem.state.context import Context

NodeBody = Callable[..., dict[str, Any]]
AsyncNodeBody = Callable[..., Awaitable[dict[str, Any]]]


class Wiring:
    """Builds the nodes and routers of graphs owned by one ``Resources``."""

    def __init__(self, resources: Resources) -> None:
        self.resources = resources

    def node(self, body: NodeBody, abody: AsyncNodeBody | None = None) -> Any:
        """``body(state, svc)`` (or ``body(state, svc, runtime)``) as a LangGraph node over this owner.

        With ``abody`` (an ``async def`` twin over the same pure logic), the node has both paths: a
        ``RunnableLambda`` whose ``invoke`` runs ``body`` and whose ``ainvoke`` awaits ``abody`` on the
        caller's event loop (LangGraph runs a sync-only node in its thread pool under ``ainvoke``).
        """
        resources = self.resources
        if abody is not None:
            def run_sync(state: Any, config: RunnableConfig) -> dict[str, Any]:
                return body(state, resources.services(get_runtime().context))

            async def run_async(state: Any, config: RunnableConfig) -> dict[str, Any]:
                return await abody(state, resources.services(get_runtime().context))

            return RunnableLambda(run_sync, run_async, name=body.__name__)
        wants_runtime = "runtime" in inspect.signature(body).parameters

        def run(state: Any, runtime: Runtime[Context]) -> dict[str, Any]:
            svc = resources.services(runtime.context)
            return body(state, svc, runtime) if wants_runtime else body(state, svc)

        return _named(run, body)

    def router(self, body: Callable[..., Any]) -> Router:
        """``body(state)`` or ``body(state, ctx)`` as a LangGraph router (pass it to ``add_conditional_edges``)."""
        return Router(body, self.resources)


class Router(Runnable[Any, Any]):
    """A conditional edge's function: run inline, untraced, with the run's settings when it takes them."""

    def __init__(self, body: Callable[..., Any], resources: Resources) -> None:
        self.body = body
        self.name = body.__name__
        self._resources = resources
        self._takes_settings = len(inspect.signature(body).parameters) > 1

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """The route for ``input`` (the state); the run's context is read from ``config`` (LangGraph's runtime)."""
        if not self._takes_settings:
            return self.body(input)
        with set_config_context(ensure_config(config)) as context:
            runtime: Runtime[Context] = context.run(get_runtime)
        return self.body(input, self._resources.settings_for(runtime.context))

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """As ``invoke``, on the event loop: a router reads state and settings only, it never blocks."""
        return self.invoke(input, config)


def _named(run: Callable[..., Any], body: Callable[..., Any]) -> Any:
    """``run`` named and documented as ``body``, taking the state type ``body`` declares (LangGraph reads it)."""
    run.__name__ = run.__qualname__ = body.__name__
    run.__doc__ = body.__doc__
    hints = typing.get_type_hints(body)
    first = next(iter(inspect.signature(body).parameters))
    run.__annotations__ = {"state": hints.get(first, Any), "runtime": Runtime[Context],
                           "return": hints.get("return", Any)}
    return run

