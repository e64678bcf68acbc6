"""Which dmem graphs a host piece drives, whose memory a host run is about, the labels it writes and reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph

from dmem.metadata import check_metadata
from dmem.nodes.inputs import DEFAULT_USER, user_of
from dmem.services import Resources
from dmem.state.schemas import MetadataValue

HostLabels: TypeAlias = Mapping[str, Any] | Callable[[Mapping[str, Any], Any], Mapping[str, Any] | None]
"""Labels bound by the host developer: fixed ones, or a function of the host's state and runtime context
returning them for one run (None: no labels). As ``metadata=`` they label what a piece stores; as
``read_metadata=`` they filter what it reads (only memories and turns carrying all of them)."""
LabelsOf: TypeAlias = Callable[[Mapping[str, Any], Any], dict[str, MetadataValue] | None]
"""A host piece's checked labels for one run, from the host's state and runtime context."""


class MemoryGraphs(Protocol):
    """A store's owner and the graphs bound to it (``Memory`` is one)."""

    @property
    def resources(self) -> Resources: ...

    @property
    def ingestion_graph(self) -> CompiledStateGraph[Any, Any, Any, Any]: ...

    @property
    def query_graph(self) -> CompiledStateGraph[Any, Any, Any, Any]: ...


@dataclass(frozen=True)
class ServedGraphs:
    """The served graphs of ``dmem.graphs`` and their owner (settings from ``DMEM_*``)."""

    resources: Resources
    ingestion_graph: CompiledStateGraph[Any, Any, Any, Any]
    query_graph: CompiledStateGraph[Any, Any, Any, Any]


def graphs_of(memory: MemoryGraphs | None) -> MemoryGraphs:
    """A ``Memory``'s graphs, or the served ones when there is no Memory."""
    if memory is not None:
        return memory
    from dmem import graphs

    return ServedGraphs(graphs.served_resources, graphs.ingestion_graph, graphs.query_graph)


def host_user(state: Mapping[str, Any] | None, runtime_context: Any, config: RunnableConfig | None) -> str:
    """The host's user: ``user_id`` in its state, its runtime context or its configurable, else 'default'."""
    found = (state or {}).get("user_id")
    if isinstance(found, str) and found:
        return found
    return user_of(runtime_context, config) or DEFAULT_USER


def ingestion_input(messages: list[Any], user: str, thread: object, labels: dict[str, MetadataValue] | None
                    ) -> dict[str, Any]:
    """The ingestion graph's input for a host's exchange: its user, its thread (else the user), its labels."""
    payload: dict[str, Any] = {"messages": messages, "user_id": user, "conversation_id": str(thread or user)}
    if labels:
        payload["metadata"] = labels
    return payload


def query_input(question: str, user: str, labels: dict[str, MetadataValue] | None) -> dict[str, Any]:
    """The query graph's input for a host's question: its user, and its read filter when it has one."""
    payload: dict[str, Any] = {"question": question, "namespaces": [user]}
    if labels:
        payload["metadata"] = labels
    return payload


def labels_of(metadata: HostLabels | None) -> LabelsOf:
    """The labels of one host run, checked like ``Memory.add``'s: fixed ones now, computed ones on each run."""
    if metadata is None:
        return lambda state, context: None
    if callable(metadata):
        compute = metadata

        def computed(state: Mapping[str, Any], context: Any) -> dict[str, MetadataValue] | None:
            found = compute(state, context)
            return None if found is None else check_metadata(found)

        return computed
    fixed = check_metadata(metadata)
    return lambda state, context: fixed
