"""The graphs' builders and compilers, and the served graphs.

``ingestion_graph``, ``query_graph`` and ``deliberation_graph`` are the served graphs (see
``dmem.graphs.served``): compiled on first access, without a checkpointer (the server supplies
persistence), over one owner, ``served_resources``, whose settings come from ``DMEM_*`` (and
``DMEM_CONFIG``) on the first run. A run's context changes only the settings it names.
``served_resources.close()`` closes the store. Importing this package compiles and opens nothing.

``Memory(...)`` compiles its own graphs over its own store and models; compile yours with
``compile_query_graph(resources=..., checkpointer=...)``.
"""

from typing import Any

from dmem.graphs.deliberation import build_deliberation_graph, compile_deliberation_graph
from dmem.graphs.ingestion import build_ingestion_graph, compile_ingestion_graph
from dmem.graphs.query import build_query_graph, compile_query_graph
from dmem.graphs.served import ServedGraphs, served, served_resources

__all__ = [
    "ServedGraphs",
    "build_deliberation_graph",
    "build_ingestion_graph",
    "build_query_graph",
    "compile_deliberation_graph",
    "compile_ingestion_graph",
    "compile_query_graph",
    "deliberation_graph",
    "ingestion_graph",
    "query_graph",
    "served",
    "served_resources",
]
_SERVED = {"ingestion_graph": "ingestion", "query_graph": "query", "deliberation_graph": "deliberation"}


def __getattr__(name: str) -> Any:
    """The served graphs, compiled on first access (``served.graph``), never at import."""
    if name in _SERVED:
        return served.graph(_SERVED[name])  # type: ignore[arg-type]
    raise AttributeError(f"module 'dmem.graphs' has no attribute {name!r}")
