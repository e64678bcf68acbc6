"""Vectors for the store benchmark: random, clustered (calibrated on MiniLM), or real MiniLM embeddings.

- ``random``: uniform unit vectors, the worst case for a graph index (no neighbour is much nearer).
- ``clustered``: unit vectors around topics and subtopics that share a common direction, as sentence
  embeddings do; the parameters are fitted so that cosine statistics (random pairs, 1st, 10th
  and 30th neighbour within 3,000 vectors) match MiniLM on invented personal facts
  (``python benchmarks/_scale_vectors.py`` prints both).
- ``minilm``: the large user's memories and the queries are MiniLM embeddings of invented facts
  (cached under ``--cache``, since embedding 100,000 sentences takes minutes); typical users are
  clustered, as embedding a million sentences does not fit on these machines.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fact_sentences import fact_sentences  # noqa: E402

DIM = 384
KINDS = ("random", "clustered", "minilm")


def unit_rows(rows: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (float32)."""
    rows = rows.astype(np.float32, copy=False)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def random_units(n: int, seed: int) -> np.ndarray:
    """``n`` uniformly random unit vectors."""
    return unit_rows(np.random.default_rng(seed).standard_normal((n, DIM)))


@dataclass(frozen=True)
class Clusters:
    """Topics with subtopics around a shared direction; a vector is topic + subtopic + noise.

    The defaults were fitted (grid search) to MiniLM on invented facts at 3,000 vectors: mean cosine
    of random pairs 0.217 (MiniLM 0.216), of the 1st/10th/30th neighbour 0.89/0.73/0.53 (0.90/0.73/0.60).
    """

    topics: int = 100
    subtopics: int = 30
    """Subtopics per topic."""
    shared: float = 0.65
    """Weight of the direction every vector shares (sets the cosine of unrelated vectors)."""
    sub_weight: float = 0.7
    """Weight of the subtopic direction beside the topic's (unit) direction."""
    noise: float = 0.25
    """Weight of each vector's own random direction (sets the cosine of near-duplicates)."""

    def centre_matrix(self) -> np.ndarray:
        """The centre of every subtopic (topic-major), shared direction included."""
        rng = np.random.default_rng(20_261_201)
        common = unit_rows(rng.standard_normal((1, DIM)))
        topic = unit_rows(rng.standard_normal((self.topics, DIM)))
        sub = unit_rows(rng.standard_normal((self.topics * self.subtopics, DIM)))
        return self.shared * common + np.repeat(topic, self.subtopics, axis=0) + self.sub_weight * sub

    def draw(self, n: int, seed: int, centres: np.ndarray | None = None) -> np.ndarray:
        """``n`` unit vectors, each near a subtopic drawn uniformly (the same for the same seed)."""
        centres = self.centre_matrix() if centres is None else centres
        rng = np.random.default_rng(seed)
        picks = centres[rng.integers(len(centres), size=n)]
        return unit_rows(picks + self.noise * unit_rows(rng.standard_normal((n, DIM))))


CLUSTERS = Clusters()


def minilm(texts: list[str]) -> np.ndarray:
    """MiniLM embeddings of the texts (the offline model dmem ships with)."""
    from dmem.models.embeddings_onnx import OnnxMiniLMEmbeddings

    return np.asarray(OnnxMiniLMEmbeddings().embed_documents(texts), dtype=np.float32)


def cached_minilm(n: int, seed: int, cache: Path) -> np.ndarray:
    """MiniLM embeddings of ``n`` invented facts of this seed, computed once and kept in ``cache``."""
    path = cache / f"minilm-facts-{n}-{seed}.npy"
    if path.exists():
        return np.load(path)
    cache.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    vecs = minilm(fact_sentences(n, seed))
    print(f"embedded {n} sentences with MiniLM in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    np.save(path, vecs)
    return vecs


class VectorSource:
    """The benchmark's vectors of one kind: memories by (namespace, index), and queries."""

    def __init__(self, kind: str, large_size: int, cache: Path) -> None:
        if kind not in KINDS:
            raise ValueError(f"vector kind must be one of {KINDS}, got {kind!r}")
        self.kind = kind
        self._centres = CLUSTERS.centre_matrix()
        self._large = cached_minilm(large_size, 1, cache) if kind == "minilm" else None
        self._cache = cache

    def memories(self, chunk: list[tuple[str, int]], seed: int) -> np.ndarray:
        """Vectors of these (namespace, index) memories (reproducible from the seed and the indexes)."""
        if self.kind == "random":
            return random_units(len(chunk), seed)
        vecs = CLUSTERS.draw(len(chunk), seed, self._centres)
        if self._large is not None:
            for row, (ns, i) in enumerate(chunk):
                if ns == "large":
                    vecs[row] = self._large[i]
        return vecs

    def queries(self, n: int, seed: int, large: bool) -> np.ndarray:
        """Query vectors: of the same kind as the memories searched (MiniLM ones for the large user)."""
        if self.kind == "random":
            return random_units(n, seed)
        if large and self.kind == "minilm":
            return cached_minilm(n, 1000 + seed, self._cache)
        return CLUSTERS.draw(n, 1000 + seed, self._centres)


def neighbour_stats(vecs: np.ndarray) -> dict[str, float]:
    """Mean cosine of random pairs and of each vector's 1st, 10th and 30th nearest other vector."""
    sims = vecs @ vecs.T
    np.fill_diagonal(sims, -2.0)
    ranked = -np.sort(-sims, axis=1)
    off = sims[~np.eye(len(vecs), dtype=bool)]
    return {"pairs": float(off.mean()), "nn1": float(ranked[:, 0].mean()),
            "nn10": float(ranked[:, 9].mean()), "nn30": float(ranked[:, 29].mean())}


def main() -> None:
    """Print the cosine statistics of MiniLM facts beside those of the clustered vectors."""
    n = 3000
    print("minilm   ", {k: round(v, 3) for k, v in neighbour_stats(minilm(fact_sentences(n, 5))).items()})
    print("clustered", {k: round(v, 3) for k, v in neighbour_stats(CLUSTERS.draw(n, 5)).items()})
    print("random   ", {k: round(v, 3) for k, v in neighbour_stats(random_units(n, 5)).items()})


if __name__ == "__main__":
    main()
