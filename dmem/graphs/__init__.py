"""The compiled graphs and their builders.

``ingestion_graph``, ``query_graph`` and ``deliberation_graph`` are compiled without a
checkpointer (LangGraph Studio and ``langgraph.json`` load them); compile your own from the
builders to add a checkpointer or a store.
"""

from dmem.graphs.deliberation import build_deliberation_graph, compile_deliberation_graph
from dmem.graphs.ingestion import build_ingestion_graph, compile_ingestion_graph
from dmem.graphs.query import build_query_graph, compile_query_graph

ingestion_graph = compile_ingestion_graph()
query_graph = compile_query_graph()
deliberation_graph = compile_deliberation_graph()

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
]
