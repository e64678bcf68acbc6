"""How the PostgreSQL backend indexes and searches a crowded namespace (pgvector HNSW parameters).

The one definition of their defaults: ``Context``'s ``hnsw_*`` settings take them from here, and the
store is opened with ``Context.hnsw()``. They live with the settings, not the store, so reading
settings never imports the PostgreSQL backend (an optional install).

Defaults come from ``benchmarks/hnsw_tuning.py`` on this project's 2-core machines (README,
"Scaling out"): one user of 100,000 vectors, clustered (fitted to MiniLM) or real MiniLM
embeddings. Recall@30 stops growing with ``ef_search`` early, at a level the graph sets: with
``m`` 16 one or two queries in 50 found none of their true neighbours (recall 0.96 to 0.98) at
any ``ef_search``; ``m`` 32 with ``ef_construction`` 128 reached 0.999 / 0.991 to 1.000 (clustered /
MiniLM) at ``ef_search`` 100, a 1 to 2 ms p50, for a 36 s build.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dmem.errors import ConfigError

_MEMORY = re.compile(r"([1-9][0-9]*)(kB|MB|GB|TB)")
_KB_PER_UNIT = {"kB": 1, "MB": 1024, "GB": 1024**2, "TB": 1024**3}
_MAX_KB = 2_147_483_647
"""PostgreSQL's ceiling for ``maintenance_work_mem`` (in kB); its floor is 1MB."""


@dataclass(frozen=True)
class HnswSettings:
    """When a namespace gets its own HNSW index, how it is built, and how widely a search looks.

    ``threshold``, ``m``, ``ef_construction`` and ``build_memory`` are used when an index is built
    (an index keeps what it was built with); ``ef_search`` is read by every search.
    """

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
            raise ConfigError(f"setting 'hnsw_threshold' must be at least 1; got {self.threshold}")
        if not 2 <= self.m <= 100:
            raise ConfigError(f"setting 'hnsw_m' must be between 2 and 100 (pgvector's range); got {self.m}")
        if not 2 * self.m <= self.ef_construction <= 1000:
            raise ConfigError(f"setting 'hnsw_ef_construction' must be between 2 * hnsw_m ({2 * self.m}) "
                              f"and 1000; got {self.ef_construction}")
        if not 1 <= self.ef_search <= 1000:
            raise ConfigError(f"setting 'hnsw_ef_search' must be between 1 and 1000; got {self.ef_search}")
        memory_kb(self.build_memory)

    def search_width(self, k: int) -> int:
        """The ``hnsw.ef_search`` for a top-``k`` search (pgvector returns at most ef_search rows)."""
        return min(1000, max(self.ef_search, k))

    def build_settings(self) -> dict[str, int | str]:
        """What a store keeps from its opening: all but ``ef_search``, which each search may choose."""
        return {"threshold": self.threshold, "m": self.m, "ef_construction": self.ef_construction,
                "build_memory": self.build_memory}


def memory_kb(value: str) -> int:
    """Kilobytes of a PostgreSQL memory size such as '512MB' (units kB, MB, GB, TB, as PostgreSQL spells them)."""
    found = _MEMORY.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        raise ConfigError(f"setting 'hnsw_build_memory' must be a PostgreSQL memory size such as '512MB' or "
                          f"'2GB' (a whole number and kB, MB, GB or TB); got {value!r}")
    kb = int(found.group(1)) * _KB_PER_UNIT[found.group(2)]
    if not 1024 <= kb <= _MAX_KB:
        raise ConfigError(f"setting 'hnsw_build_memory' must be between 1MB and {_MAX_KB}kB "
                          f"(maintenance_work_mem's range); got {value!r}")
    return kb
