"""Ready pieces for host agents: recall and remember nodes for a ``MessagesState`` graph, and agent tools.

- ``make_recall_node``: asks dmem about the last human message and puts what it recalls into the
  host's ``messages`` (one system message, replaced each turn).
- ``make_remember_node``: hands the last exchange to the ingestion graph, now or in the background
  (``BackgroundIngestion``) after the host has replied.
- ``memory_tools``: ``search_memory``, ``ask_memory`` and ``remember`` for LangChain's ``create_agent``.

The remember node and tool take the host developer's ``metadata`` (``HostLabels``: fixed labels, or
a function of the host's state and runtime context) for the memories they form; the recall node and
the search/ask tools take ``read_metadata`` (the same kinds of value): they read only memories and
transcript turns carrying every one of those labels.

Each piece works over a ``Memory`` (its store and models) or, without one, over the served graphs
(``dmem.graphs``, settings from ``DMEM_*``). The user is the host's: a ``user_id`` in its state, its
runtime context or ``config["configurable"]``; dmem settings travel in the host context's ``dmem`` field.
"""

from dmem.host.background import BackgroundIngestion
from dmem.host.binding import HostLabels, MemoryGraphs, graphs_of, host_user
from dmem.host.recall import RECALL_NAME, make_recall_node, recall_text
from dmem.host.remember import last_exchange, make_remember_node
from dmem.host.tools import memory_tools

__all__ = [
    "RECALL_NAME",
    "BackgroundIngestion",
    "HostLabels",
    "MemoryGraphs",
    "graphs_of",
    "host_user",
    "last_exchange",
    "make_recall_node",
    "make_remember_node",
    "memory_tools",
    "recall_text",
]
