"""dmem.store: the memory store (FAISS vectors + SQLite history and transcript by default)."""

from dmem.store.base import HistoryLog, Hit, MemoryStore, SearchFilter, StoreInfo, TranscriptLog, VectorIndex
from dmem.store.local import LocalStore, open_store
from dmem.store.namespaces import Claim, Routing, TurnKey, UnformedTurn, validate_namespace

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
    "open_store",
    "validate_namespace",
]
