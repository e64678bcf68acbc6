"""How the PostgreSQL backend indexes and searches a crowded namespace (pgvector HNSW parameters).

Defaults come from ``benchmarks/hnsw_tuning.py`` on this project's 2-core machines (README,
"Scaling out"): one user of 100,000 vectors, clustered (fitted to MiniLM) or real MiniLM
embeddings. Recall@30 stops growing with ``ef_search`` early, at a level the graph sets: with
``m`` 16 one or two queries in 50 found none of their true neighbours (recall 0.96 to 0.98) at
any ``ef_search``; ``m`` 32 with ``ef_construction`` 128 reached 0.999 / 0.991 to 1.000 (clustered /
MiniLM) at ``ef_search`` 100, a 1 to 2 ms p50, for a 36 s build.
"""

from __future__ import annotations

from dataclasses import dataclass

from dmem.errors import StoreError


@dataclass(frozen=True)
class HnswSettings:
    """When a namespace gets its own HNSW index, how it is built, and how widely a search looks."""

    threshold: int = 10_000
    """Live memories from which a namespace gets (and is searched through) its own HNSW index."""
    m: int = 32
    """Graph links per vector (pgvector ``m``): more means better recall, a bigger and slower-built index."""
    ef_construction: int = 128
    """Candidates kept while building (pgvector ``ef_construction``): more means better graph, slower build."""
    ef_search: int = 100
    """Candidates a search keeps (``hnsw.ef_search``; at least k is used): recall against latency."""
    build_memory: str = "512MB"
    """``maintenance_work_mem`` for a build: the graph must fit in it, or the build slows many times over."""

    def __post_init__(self) -> None:
        if self.threshold < 1:
            raise StoreError(f"hnsw threshold must be at least 1, got {self.threshold}")
        if not 2 <= self.m <= 100:
            raise StoreError(f"hnsw m must be between 2 and 100 (pgvector's range), got {self.m}")
        if not 2 * self.m <= self.ef_construction <= 1000:
            raise StoreError(f"hnsw ef_construction must be between 2 * m ({2 * self.m}) and 1000, "
                             f"got {self.ef_construction}")
        if not 1 <= self.ef_search <= 1000:
            raise StoreError(f"hnsw ef_search must be between 1 and 1000, got {self.ef_search}")

    def search_width(self, k: int) -> int:
        """The ``hnsw.ef_search`` for a top-``k`` search (pgvector returns at most ef_search rows)."""
        return min(1000, max(self.ef_search, k))
