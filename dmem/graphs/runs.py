"""Run boundaries on a thread: a run starts from its own input and leaves none of it for the next run.

On a LangGraph server (or any checkpointer) a thread's state carries over from run to run, and a new
run's input only overwrites the keys it names. So the entry node resets what one run accumulates
(``usage`` and the workers' lists, bypassing their reducers with ``Overwrite``), and the terminal
nodes clear the optional input keys, which the next run may leave out (its ``user_id``,
``metadata``, ...). Input and working keys are not in the output schemas: callers never see the reset.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from langgraph.types import Overwrite

Node = Callable[..., dict[str, Any]]
INGEST_INPUTS = ("messages", "turns", "user_id", "conversation_id", "speaker_namespaces", "metadata")
QUERY_INPUTS = ("namespaces", "metadata")
DELIBERATION_INPUTS = ("namespaces", "metadata", "memories")


def fresh(state: Mapping[str, Any], lists: tuple[str, ...], values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The start of a run: every reducer list in ``lists`` a previous run filled emptied, the keys in ``values`` set.

    A run without a previous one on its thread writes no ``Overwrite`` (its streamed updates stay plain).
    """
    return {**{name: Overwrite([]) for name in lists if state.get(name)}, **(values or {})}


def starts_run(node: Node, lists: tuple[str, ...], values: Mapping[str, Any] | None = None) -> Node:
    """The entry ``node`` (a body), also resetting what the previous run on the thread accumulated."""

    @functools.wraps(node)
    def run(state: Mapping[str, Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
        return {**fresh(state, lists, values), **node(state, *args, **kwargs)}

    return run


def ends_run(node: Any, inputs: tuple[str, ...], when: Callable[[dict[str, Any]], bool] | None = None) -> Any:
    """A terminal ``node`` body (sync or ``async def``), also clearing the run's input keys (when ``when(update)``)."""

    def cleared(update: dict[str, Any]) -> dict[str, Any]:
        if when is not None and not when(update):
            return update
        return {**update, **dict.fromkeys(inputs)}

    if inspect.iscoroutinefunction(node):
        @functools.wraps(node)
        async def arun(*args: Any, **kwargs: Any) -> dict[str, Any]:
            return cleared(await node(*args, **kwargs))

        return arun

    @functools.wraps(node)
    def run(*args: Any, **kwargs: Any) -> dict[str, Any]:
        return cleared(node(*args, **kwargs))

    return run
