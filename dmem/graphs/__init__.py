"""The compiled graphs and their builders.

``ingestion_graph``, ``query_graph`` and ``deliberation_graph`` are what ``langgraph.json`` serves
(see ``dmem.graphs.served``). They are compiled without a checkpointer (the server supplies
persistence) and share one owner, ``served_resources``: its settings come from ``DMEM_*`` (and
``DMEM_CONFIG``) on the first run, which opens the store and logs where it is; a run's context
changes only the settings it names. ``served_resources.close()`` closes the store.

``Memory(...)`` compiles its own graphs over its own store and models; compile yours with
``compile_query_graph(resources=..., checkpointer=...)``.
"""

from dmem.graphs.deliberation import build_deliberation_graph, compile_deliberation_graph
from dmem.graphs.ingestion import build_ingestion_graph, compile_ingestion_graph
from dmem.graphs.query import build_query_graph, compile_query_graph
from dmem.graphs.served import deliberation_graph, ingestion_graph, query_graph, served_resources

__all__ = [
    "build_deliberation_graph",
    "build_ingestion_graph",
    "build_query_graph",
    "compile_deliberation_graph",
    "compile_ingestion_graph",
    "compile_query_graph",
    "deliberation_graph",
    "ingestion_graph",
    "query_graph",
    "served_resources",
]
