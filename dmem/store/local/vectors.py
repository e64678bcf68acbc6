"""In-memory FAISS indexes of the namespaces a process uses, one flat index per namespace.

The indexes are derived data: SQLite is authoritative. A namespace is in memory only once it is
loaded (:mod:`dmem.store.local.sync` decides when); writes to a namespace that is not loaded leave no
trace here, because loading it later reads SQLite.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import faiss
import numpy as np

# Searches are single queries over small flat indexes: OpenMP threads only add overhead
# (measured: 8.3 ms -> 0.13 ms per top-30 search over 5,000 vectors on 2 cores).
faiss.omp_set_num_threads(1)


@dataclass
class _Space:
    """One namespace's flat inner-product index with its label <-> memory id maps."""

    index: faiss.IndexIDMap2
    id_of: dict[int, str] = field(default_factory=dict)
    label_of: dict[str, int] = field(default_factory=dict)


class FaissIndexes:
    """Cosine search over unit vectors, one FAISS index per loaded namespace (isolation by construction).

    Loaded namespaces are kept in least-recently-used order (``touch`` marks one used), and
    ``changed`` collects the namespaces whose vectors changed since the caller last cleared it.
    """

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._spaces: OrderedDict[str, _Space] = OrderedDict()
        self._namespace_of: dict[str, str] = {}
        self._next_label = 0
        self.changed: set[str] = set()
        """Loaded namespaces whose vectors changed since the owner last saved them."""

    def loaded(self, namespace: str) -> bool:
        """True when the namespace's index is in memory."""
        return namespace in self._spaces

    def namespaces(self) -> list[str]:
        """The loaded namespaces, least recently used first."""
        return list(self._spaces)

    def touch(self, namespace: str) -> None:
        """Mark a loaded namespace as the most recently used."""
        self._spaces.move_to_end(namespace)

    def load(self, namespace: str, ids: list[str], units: np.ndarray) -> None:
        """Make ``namespace`` loaded with exactly these unit vectors (one bulk add), most recently used."""
        self.drop(namespace)
        space = self._new_space()
        labels = np.arange(self._next_label, self._next_label + len(ids), dtype=np.int64)
        self._next_label += len(ids)
        if ids:
            space.index.add_with_ids(np.ascontiguousarray(units, dtype=np.float32), labels)
        for memory_id in [m for m in ids if m in self._namespace_of]:
            self.remove(memory_id)  # an id is in one namespace only
        space.id_of = dict(zip(labels.tolist(), ids, strict=True))
        space.label_of = dict(zip(ids, labels.tolist(), strict=True))
        self._namespace_of.update(dict.fromkeys(ids, namespace))
        self._spaces[namespace] = space

    def drop(self, namespace: str) -> None:
        """Forget a namespace's index (its vectors stay in SQLite); a no-op when it is not loaded."""
        space = self._spaces.pop(namespace, None)
        self.changed.discard(namespace)
        if space is not None:
            for memory_id in space.label_of:
                del self._namespace_of[memory_id]

    def put(self, memory_id: str, namespace: str, unit: np.ndarray) -> None:
        """Insert or replace one memory's vector when its namespace is loaded (else only forget it)."""
        self.remove(memory_id)
        space = self._spaces.get(namespace)
        if space is None:
            return
        label = self._next_label
        self._next_label += 1
        space.index.add_with_ids(unit.reshape(1, -1), np.array([label], dtype=np.int64))
        space.id_of[label] = memory_id
        space.label_of[memory_id] = label
        self._namespace_of[memory_id] = namespace
        self.changed.add(namespace)

    def remove(self, memory_id: str) -> None:
        """Drop one memory's vector, if indexed."""
        namespace = self._namespace_of.pop(memory_id, None)
        if namespace is None:
            return
        space = self._spaces[namespace]
        label = space.label_of.pop(memory_id)
        del space.id_of[label]
        # faiss's Python wrapper accepts an id array here, although its stubs only name IDSelector.
        space.index.remove_ids(np.array([label], dtype=np.int64))  # type: ignore[arg-type]
        self.changed.add(namespace)

    def search(self, namespace: str, unit: np.ndarray, k: int | None = None) -> list[tuple[str, float]]:
        """(memory id, cosine) pairs of one namespace, best first; every vector when k is None."""
        space = self._spaces.get(namespace)
        if space is None:
            return []
        total = space.index.ntotal
        k = total if k is None else min(k, total)
        if k <= 0:
            return []
        scores, labels = space.index.search(unit.reshape(1, -1), k)
        return [
            (space.id_of[int(label)], float(np.clip(score, -1.0, 1.0)))
            for score, label in zip(scores[0], labels[0], strict=True)
            if label >= 0
        ]

    def size(self, namespace: str | None = None) -> int:
        """Count indexed vectors, in one namespace or over every loaded one."""
        if namespace is None:
            return len(self._namespace_of)
        space = self._spaces.get(namespace)
        return 0 if space is None else int(space.index.ntotal)

    def ids(self, namespace: str) -> set[str]:
        """The memory ids indexed in a namespace."""
        space = self._spaces.get(namespace)
        return set() if space is None else set(space.label_of)

    def export(self, namespace: str) -> tuple[list[str], np.ndarray]:
        """Ids and unit vectors of one namespace, for its snapshot."""
        space = self._spaces.get(namespace)
        if space is None or space.index.ntotal == 0:
            return [], np.zeros((0, self.dim), dtype=np.float32)
        labels = faiss.vector_to_array(space.index.id_map)
        vectors = space.index.index.reconstruct_n(0, space.index.ntotal)
        return [space.id_of[int(label)] for label in labels], vectors.astype(np.float32, copy=False)

    def _new_space(self) -> _Space:
        return _Space(faiss.IndexIDMap2(faiss.IndexFlatIP(self.dim)))
