"""The LangGraph server's store: ``"store": {"path": "dmem.langgraph_store.platform.dmem_store"}`` in langgraph.json.

With that entry every graph the server runs (dmem's and your own agents beside them) gets dmem as
``runtime.store`` / ``get_store()``, and the server's ``/store`` API reads and writes dmem memories.
The store is the served graphs' own (``dmem.graphs.served_resources``: the one the ``DMEM_*`` settings
name, ``DMEM_STORE_DIR`` or ``DMEM_STORE_URL`` with ``DMEM_EMBEDDING_MODEL``), so the server opens it
once and dmem's graphs and the store see the same memories through one handle. The namespace rule
is the default one (``("memories", user_id)``); for another, point the entry at a factory of your
own that returns ``Memory(...).as_store(rule)``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from dmem.langgraph_store.store import DmemStore
from dmem.services import Resources


@asynccontextmanager
async def dmem_store() -> AsyncIterator[DmemStore]:
    """The served graphs' store as a LangGraph ``BaseStore``, for the server's lifetime (their owner closes it)."""
    from dmem.graphs import served_resources

    yield await asyncio.to_thread(store_of, served_resources)


def store_of(resources: Resources) -> DmemStore:
    """A ``DmemStore`` over an owner's store and embeddings, with the owner's settings (opening the store if needed)."""
    settings = resources.settings
    return DmemStore(resources.store_for(settings), resources.embeddings_for(settings))
