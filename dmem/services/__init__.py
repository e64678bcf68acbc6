"""What nodes work with (decider, store, embeddings, knowledge, indexes), and the object that owns it all.

``Resources`` owns the live objects that a graph's runs share. ``Memory`` makes one over its store;
``dmem.graphs`` makes one for the served graphs (``served_resources``, settings from ``DMEM_*``, opened
on first run). Whoever makes a ``Resources`` closes it; nothing is cached at module level.

A graph is built over its owner (``build_query_graph(resources=...)``): every node and router is
closed over it (``dmem.graphs.wiring``), so the binding travels with the graph into a host agent or
a LangGraph server, and never into a schema or a config key. Each run's
settings are the owner's, changed by the settings its context sets (our ``Context``, or a host
context carrying one as ``dmem``). Runs with different settings share the owner's store and
embeddings; settings that only change decisions never reopen anything.
"""

from dmem.services.resources import Resources
from dmem.services.run import Services, dmem_context

__all__ = ["Resources", "Services", "dmem_context"]
