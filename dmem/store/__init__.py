"""dmem.store: the memory store (FAISS vectors + SQLite history and transcript by default)."""

from dmem.store.base import HistoryLog, Hit, MemoryStore, SearchFilter, StoreInfo, TranscriptLog, VectorIndex
from dmem.store.local import LocalStore, open_store

__all__ = [
    "Hit",
    "HistoryLog",
    "LocalStore",
    "MemoryStore",
    "SearchFilter",
    "StoreInfo",
    "TranscriptLog",
    "VectorIndex",
    "open_store",
]
