"""LangSmith tracing for dmem: redaction of what leaves (``trace_redaction``) and readable run trees."""

from dmem.tracing.clients import TraceClients, configure_tracing, redacting_client
from dmem.tracing.outcome import annotate_graph_run, outcome_metadata, reports_outcome

__all__ = [
    "TraceClients",
    "annotate_graph_run",
    "configure_tracing",
    "outcome_metadata",
    "redacting_client",
    "reports_outcome",
]
