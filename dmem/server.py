"""The graphs as a LangGraph server (``langgraph dev``, see ``langgraph.json``) serves them.

Importing this module first applies the ``trace_redaction`` setting of the server's environment
(``DMEM_TRACE_REDACTION`` or the ``DMEM_CONFIG`` file; default ``pii``) to the process's LangSmith
client with ``dmem.tracing.configure_tracing``, so every traced run of the server is redacted;
then it exposes the compiled graphs.
"""

from dmem.graphs import deliberation_graph, ingestion_graph, query_graph
from dmem.tracing import configure_tracing

trace_client = configure_tracing()
"""The redacting LangSmith client installed for this process (None when tracing is off)."""

__all__ = ["deliberation_graph", "ingestion_graph", "query_graph", "trace_client"]
