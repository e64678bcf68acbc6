"""The served graphs and their one owner, built once per process.

``langgraph.json`` names these graphs (through ``dmem.graphs``). A server may load the file it names
once per graph; the owner lives here, in a module imported once, so every served graph shares
one store and one set of models. Settings come from ``DMEM_*`` (and ``DMEM_CONFIG``) on the first
run, which opens the store and logs where it is. ``served_resources.close()`` closes the store
(the next run opens it again).
"""

from dmem.graphs.deliberation import compile_deliberation_graph
from dmem.graphs.ingestion import compile_ingestion_graph
from dmem.graphs.query import compile_query_graph
from dmem.services import Resources

served_resources = Resources()
"""Owner of the served graphs' store and models (settings from DMEM_*, read on first use)."""
ingestion_graph = compile_ingestion_graph(resources=served_resources)
query_graph = compile_query_graph(resources=served_resources)
deliberation_graph = compile_deliberation_graph(resources=served_resources)
