"""The served graphs and their one owner: nothing is opened or compiled at import.

``langgraph.json`` names the graph factories of ``dmem.server``, which hand out these graphs. A
server may load the file it names once per graph; the owner lives here, in a module imported once,
so every served graph shares one store and one set of models. Each graph is compiled on its first
use; the owner's settings come from ``DMEM_*`` (and ``DMEM_CONFIG``) on the first run, which opens the
store and logs where it is. ``served_resources.close()`` closes the store (the next run opens it again).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Literal

from langgraph.graph.state import CompiledStateGraph

from dmem.graphs.deliberation import compile_deliberation_graph
from dmem.graphs.ingestion import compile_ingestion_graph
from dmem.graphs.query import compile_query_graph
from dmem.services import Resources

GraphName = Literal["ingestion", "query", "deliberation"]
_COMPILERS: dict[str, Callable[..., CompiledStateGraph[Any, Any, Any, Any]]] = {
    "ingestion": compile_ingestion_graph, "query": compile_query_graph, "deliberation": compile_deliberation_graph}


class ServedGraphs:
    """The graphs a server serves, compiled on first use over one ``Resources`` (settings from DMEM_*)."""

    def __init__(self, resources: Resources | None = None) -> None:
        self.resources = resources or Resources()
        """Owner of the served graphs' store and models (opens nothing until a run needs it)."""
        self._graphs: dict[str, CompiledStateGraph[Any, Any, Any, Any]] = {}
        self._lock = threading.Lock()

    def graph(self, name: GraphName) -> CompiledStateGraph[Any, Any, Any, Any]:
        """The compiled graph ``name`` (compiled once, on the first call)."""
        with self._lock:
            if name not in self._graphs:
                self._graphs[name] = _COMPILERS[name](resources=self.resources)
            return self._graphs[name]


served = ServedGraphs()
"""The process's served graphs (what ``dmem.server``'s factories and the host pieces without a Memory use)."""
served_resources = served.resources
"""Owner of the served graphs' store and models (settings from DMEM_*, read on first use)."""
