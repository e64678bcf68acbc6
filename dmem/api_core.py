"""What ``Memory``'s mixins need of the object they are mixed into, as a protocol.

``api_async``, ``api_reset`` and ``api_transfer`` type ``self`` by ``MemoryCore`` (a self-type
protocol), not by ``Memory``: they import nothing of ``dmem/api.py``, which alone composes them, and
mypy still checks that ``Memory`` has every member they use wherever one of their methods is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph

from dmem.batches import BatchForming
from dmem.services import Services
from dmem.services.resources import Resources
from dmem.state.context import Context
from dmem.state.graphs import QueryInput, QueryOutput, QueryState
from dmem.state.results import AddResult
from dmem.state.schemas import HistoryEntry, MemoryRecord, Message
from dmem.store import MemoryStore, Routing


class MemoryCore(Protocol):
    """The members of ``Memory`` its async, reset and transfer methods call."""

    store: MemoryStore
    """The open store."""
    resources: Resources
    """What the memory opened and built (stores, embeddings, indexes), closed with it."""
    embedding: str
    """The name of the embeddings the store was filled with."""
    query_graph: CompiledStateGraph[QueryState, Context, QueryInput, QueryOutput]
    """The compiled query graph."""
    _forming: BatchForming
    """Runs the ingestion graph over a batch's exchanges."""

    @property
    def services(self) -> Services:
        """The decider, store and embeddings of the memory's own settings."""
        ...

    def add(self, *args: Any, **kwargs: Any) -> AddResult:
        """Record and form messages."""
        ...

    def get(self, *args: Any, **kwargs: Any) -> MemoryRecord:
        """One live memory by id."""
        ...

    def get_all(self, *args: Any, **kwargs: Any) -> list[MemoryRecord]:
        """Every live memory of a namespace."""
        ...

    def history(self, *args: Any, **kwargs: Any) -> list[HistoryEntry]:
        """Every operation on one memory."""
        ...

    def update(self, *args: Any, **kwargs: Any) -> MemoryRecord:
        """Change one memory's text or labels."""
        ...

    def delete(self, *args: Any, **kwargs: Any) -> MemoryRecord:
        """Remove one memory from retrieval."""
        ...

    def delete_all(self, *args: Any, **kwargs: Any) -> int:
        """Remove every memory of a namespace."""
        ...

    def _ctx(self, overrides: dict[str, Any]) -> Context:
        """The memory's settings with a call's overrides."""
        ...

    def _record(self, messages: Any, namespace: str, conversation_id: str | None,
                speakers: dict[str, str] | None, metadata: Mapping[str, Any] | None,
                overrides: dict[str, Any], key: str | None = None) -> tuple[Context, list[Message], Routing]:
        """Check an add's inputs and record its turns."""
        ...

    def _query(self, question: str, namespaces: list[str], metadata: Mapping[str, Any] | None,
               overrides: dict[str, Any], config: RunnableConfig | None) -> tuple[Context, QueryInput, RunnableConfig]:
        """Settings, graph input and run config of one ``ask``."""
        ...
