"""The local backend: SQLite rows, per-namespace FAISS indexes, snapshots, the write lock."""
