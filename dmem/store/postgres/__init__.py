"""The PostgreSQL + pgvector backend of the memory store (``store_url = "postgresql://..."``).

Install it with ``pip install 'dmem[postgres]'``. One database (or one schema of it) holds one
store that any number of processes and machines read and write at once.
"""

from dmem.state.hnsw import HnswSettings
from dmem.store.postgres.store import PostgresStore, is_postgres_url, open_postgres_store

__all__ = ["HnswSettings", "PostgresStore", "is_postgres_url", "open_postgres_store"]
