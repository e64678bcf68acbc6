"""Nodes and routers closed over the ``Resources`` that own their graph: wiring visible where a graph is built.

A node body is ``(state, svc)`` (or ``(state, svc, runtime)``): the state, and the ``Services`` of its
owner for this run's settings (the owner's, changed by the run's context). A pure node body, one
that does no I/O, is ``(state)``, ``(state, ctx)`` or ``(state, ctx, runtime)``: the state and this
run's settings only. A router body is ``(state)`` or ``(state, ctx)``, with nothing it could do I/O with.

``Wiring`` turns bodies into ``Node`` and ``Router`` runnables. Neither makes a trace run of its own:
LangGraph's run of the node is the trace (a third of a query's trace were router runs; the route is
reported on the graph run instead), and neither pays LangChain's per-call callback and signature
work on the event loop. On the async path a node awaits its async body, runs a pure body inline,
and runs a sync store body through the store's ``arun`` (a worker thread for SQLite and FAISS, the
loop's async pool for PostgreSQL); nothing blocks the loop.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import var_child_runnable_config
from langgraph.runtime import Runtime, get_runtime

from dmem.services import Resources, Services
from dmem.state.context import Context

NodeBody = Callable[..., dict[str, Any]]
AsyncNodeBody = Callable[..., Awaitable[dict[str, Any]]]
Update = dict[str, Any]


class Wiring:
    """Builds the nodes and routers of graphs owned by one ``Resources``."""

    def __init__(self, resources: Resources) -> None:
        self.resources = resources

    def node(self, body: NodeBody, abody: AsyncNodeBody | None = None) -> Node:
        """``body(state, svc[, runtime])`` as a LangGraph node over this owner.

        With ``abody`` (an ``async def`` twin over the same pure logic) the async path awaits it on the
        caller's event loop; without, the async path runs ``body`` (store work) through ``store.arun``:
        in a worker thread on the local store, on the loop with its queries awaited on PostgreSQL.
        """
        resources = self.resources
        call = _caller(body)

        def run(state: Any, runtime: Runtime[Any]) -> Update:
            return call(state, resources.services(runtime.context), runtime)

        async def services(runtime: Runtime[Any]) -> Services:
            svc = resources.known_services(runtime.context)
            if svc is None:  # the first run with these settings may open the store: off the loop
                svc = await asyncio.to_thread(resources.services, runtime.context)
            return svc

        if abody is None:
            async def offloaded(state: Any, runtime: Runtime[Any]) -> Update:
                svc = await services(runtime)
                return await svc.store.arun(call, state, svc, runtime)

            return Node(body.__name__, run, offloaded)
        acall = _acaller(abody)

        async def arun(state: Any, runtime: Runtime[Any]) -> Update:
            return await acall(state, await services(runtime), runtime)

        return Node(body.__name__, run, arun)

    def pure(self, body: NodeBody) -> Node:
        """``body(state[, ctx[, runtime]])``, which does no I/O, as a node run inline on both paths."""
        resources = self.resources
        call = _caller(body)

        def run(state: Any, runtime: Runtime[Any]) -> Update:
            return call(state, resources.settings_for(runtime.context), runtime)

        async def arun(state: Any, runtime: Runtime[Any]) -> Update:
            return run(state, runtime)

        return Node(body.__name__, run, arun)

    def router(self, body: Callable[..., Any]) -> Router:
        """``body(state)`` or ``body(state, ctx)`` as a LangGraph router (pass it to ``add_conditional_edges``)."""
        return Router(body, self.resources)


class Node(Runnable[Any, Update]):
    """A node's sync and async paths over the run's ``Runtime`` (read where LangGraph set it for the node)."""

    def __init__(self, name: str, run: Callable[[Any, Runtime[Any]], Update],
                 arun: Callable[[Any, Runtime[Any]], Awaitable[Update]]) -> None:
        self.name = name
        self._run = run
        self._arun = arun

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Update:
        """The node's update for ``input`` (the state), on the caller's thread."""
        return self._run(input, _runtime(config))

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Update:
        """The node's update for ``input`` on the caller's event loop (I/O awaited or in a worker thread)."""
        return await self._arun(input, _runtime(config))


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
        return self.body(input, self._resources.settings_for(_runtime(config).context))

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """As ``invoke``, on the event loop: a router reads state and settings only, it never blocks."""
        return self.invoke(input, config)


def _runtime(config: RunnableConfig | None) -> Runtime[Context]:
    """The run's ``Runtime``: ``get_runtime()`` read with ``config`` as the current config (no context copy)."""
    if config is None:
        return get_runtime()
    token = var_child_runnable_config.set(config)
    try:
        return get_runtime()
    finally:
        var_child_runnable_config.reset(token)


def _arity(body: Callable[..., Any]) -> tuple[int, bool]:
    params = inspect.signature(body).parameters
    return len(params), "runtime" in params


def _caller(body: NodeBody) -> Callable[[Any, Any, Runtime[Any]], Update]:
    """``body`` called as ``(state, owned, runtime)``, passing what it declares of them."""
    n, wants_runtime = _arity(body)
    if wants_runtime:
        return lambda state, owned, runtime: body(state, owned, runtime)
    if n == 1:
        return lambda state, owned, runtime: body(state)
    return lambda state, owned, runtime: body(state, owned)


def _acaller(abody: AsyncNodeBody) -> Callable[[Any, Services, Runtime[Any]], Awaitable[Update]]:
    n, wants_runtime = _arity(abody)
    if wants_runtime:
        return lambda state, svc, runtime: abody(state, svc, runtime)
    return lambda state, svc, runtime: abody(state, svc)
