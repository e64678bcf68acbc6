"""dmem as LangGraph's memory store: a ``BaseStore`` over dmem's memories (see ``docs/langgraph-store.md``)."""

from dmem.langgraph_store.namespaces import NamespaceRule
from dmem.langgraph_store.store import DmemStore
from dmem.langgraph_store.values import TEXT_FIELDS

__all__ = ["TEXT_FIELDS", "DmemStore", "NamespaceRule"]
