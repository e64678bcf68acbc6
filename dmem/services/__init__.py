"""What nodes work with (decider, store, embeddings, knowledge, indexes), and the object that owns it all.

``Resources`` owns the live objects that a graph's runs share. ``Memory`` makes one over its store;
``dmem.graphs`` makes one for the served graphs (``served_resources``, settings from ``DMEM_*``, opened
on first run). Whoever makes a ``Resources`` closes it; nothing is cached at module level.

A compiled graph is bound to its owner through its config (``bind_resources``), so the binding
travels with the graph into a host agent or a LangGraph server, and never into a schema. Each run's
settings are the owner's, changed by the settings its context sets (our ``Context``, or a host
context carrying one as ``dmem``). Runs with different settings share the owner's store and
embeddings; settings that only change decisions never reopen anything.
"""

from dmem.services.binding import RESOURCES_KEY, bind_resources, bound_resources, context_of, services_for
from dmem.services.resources import Resources
from dmem.services.run import Services, dmem_context

__all__ = ["RESOURCES_KEY", "Resources", "Services", "bind_resources", "bound_resources", "context_of",
           "dmem_context", "services_for"]
