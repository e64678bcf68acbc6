"""The graph factories a LangGraph server (``langgraph dev``, see ``langgraph.json``) calls.

The server calls a factory for every run (and to read schemas): it hands out the process's served
graph (``dmem.graphs.served``, compiled on first use) after checking the run's context exactly as an
in-process run would. The server itself keeps only the context keys the schema names, so without
this check a misspelt setting (``gate_polcy``) would be dropped silently; here it is the same
``ConfigError`` as in-process.

Importing this module applies the ``trace_redaction`` setting of the server's environment
(``DMEM_TRACE_REDACTION`` or the ``DMEM_CONFIG`` file; default ``pii``) to the process's LangSmith
client with ``dmem.tracing.configure_tracing``, so every traced run of the server is redacted.

The first factory call (the server's start-up is done by then) freezes the process's heap for the
garbage collector once (``dmem.runtime``): full collections then skip the ~140,000 objects the server,
LangGraph and dmem loaded, which otherwise pause the event loop ~100 ms each.
``DMEM_FREEZE_HEAP=false`` leaves the collector as it is. It also starts, on glibc, a daemon thread that
hands the C allocator's free pages back every ``DMEM_MALLOC_TRIM`` seconds (``dmem.allocator``; default
10, ``0`` turns it off).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.graph.state import CompiledStateGraph
from langgraph_sdk.runtime import ServerRuntime

from dmem.allocator import AllocatorTrim
from dmem.graphs.served import GraphName, served
from dmem.runtime import StartupFreeze
from dmem.state.context import Context
from dmem.tracing import configure_tracing

trace_client = configure_tracing()
"""The redacting LangSmith client installed for this process (None when tracing is off)."""
startup_freeze = StartupFreeze()
"""Freezes the server's start-up heap on the first factory call (``DMEM_FREEZE_HEAP``, default true)."""
allocator_trim = AllocatorTrim()
"""Starts the allocator's trimming thread on the first factory call (``DMEM_MALLOC_TRIM``, default 10 s)."""

__all__ = ["allocator_trim", "check_run_context", "deliberation_graph", "ingestion_graph", "query_graph",
           "startup_freeze", "trace_client"]


def check_run_context(context: Any) -> None:
    """Refuse a run context an in-process run would refuse (unknown setting, bad value): ``ConfigError``."""
    if isinstance(context, Mapping) and context:
        Context(**dict(context))


def _served(name: GraphName, runtime: ServerRuntime) -> CompiledStateGraph[Any, Any, Any, Any]:
    execution = runtime.execution_runtime
    if execution is not None:
        check_run_context(execution.context)
    graph = served.graph(name)
    startup_freeze.once()
    allocator_trim.once()
    return graph


def ingestion_graph(runtime: ServerRuntime) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The served ingestion graph, for a run whose context is checked."""
    return _served("ingestion", runtime)


def query_graph(runtime: ServerRuntime) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The served query graph, for a run whose context is checked."""
    return _served("query", runtime)


def deliberation_graph(runtime: ServerRuntime) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The served deliberation graph, for a run whose context is checked."""
    return _served("deliberation", runtime)
