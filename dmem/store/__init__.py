"""dmem.store: the memory store (FAISS vectors + SQLite by default; PostgreSQL + pgvector for a URL)."""

from dmem.state.namespaces import validate_namespace
from dmem.store.base import HistoryLog, Hit, MemoryStore, SearchFilter, StoreInfo, TranscriptLog, VectorIndex
from dmem.store.local.store import LocalStore, open_store
from dmem.store.namespaces import Claim, Routing, TurnKey, UnformedTurn
from dmem.store.opening import open_any_store
from dmem.store.urls import is_postgres_url

__all__ = [
    "Claim",
    "Hit",
    "HistoryLog",
    "LocalStore",
    "MemoryStore",
    "Routing",
    "SearchFilter",
    "StoreInfo",
    "TranscriptLog",
    "TurnKey",
    "UnformedTurn",
    "VectorIndex",
    "is_postgres_url",
    "open_any_store",
    "open_store",
    "validate_namespace",
]
