"""A second round of System 1 retrieval that follows the first round's hits, replayed over ingested stores.

No ingestion and no chat model (like ``s1_ranking.py``, whose store loading it uses). Per question and
namespace, the first round is main's hybrid retrieval (dense, BM25, time cues, closest source turn,
fused by reciprocal rank); the second round uses its top ``m`` memories:
- ``rocchio+``: the dense query moved toward the mean of their stored vectors (weight ``b``), searched
  again, added to the fusion as one more ranking; ``rocchio=`` replaces the first dense ranking with it;
  ``away`` moves it away from that mean instead (what the question asks that the first hits do not say);
- ``prf``: BM25 over the question plus the ``t`` most distinctive stems of their texts (in >= 2 of them,
  by count x idf), one more ranking;
- ``neighbours``: memories ranked by their closest cosine to any of them, one more ranking;
- ``mmr``: the first round's top 100 re-ranked by maximal marginal relevance (``l``: share of relevance).
Prints S1 evidence recall at K = 30 per conversation (categories 1-4, existing ids), formed evidence turns
gained and lost against the first round, and retrieval time per question; with ``--diagnose``, where the
formed-but-missed evidence's best memory ranks in each first- and second-round list.
Usage: python benchmarks/s1_feedback.py locomo|realtalk --stores DIR [--only ID,ID] [--diagnose] [--data DIR]
       [--variants PREFIX (only those whose name starts with it)]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable

import numpy as np
from s1_ranking import CATEGORIES, EMBEDDINGS, conversations, recall

from dmem.api import Memory
from dmem.evidence import hybrid
from dmem.evidence.bm25 import terms
from dmem.evidence.search import fuse

K = 30
POOL = hybrid.POOL
WIDE = 300  # how deep --diagnose reads each list


class Round:
    """One namespace's first round for one question: its lists, fused order and the stored vectors."""

    def __init__(self, svc, question: str, ns: str, matrix: tuple[np.ndarray, dict[str, int]]) -> None:
        self.svc, self.question, self.ns = svc, question, ns
        self.index, vector = hybrid.memory_query(question, svc.indexes, ns, svc.embed, None)
        self.position = {r.id: i for i, r in enumerate(self.index.records)}
        self.query = np.asarray(vector, dtype=np.float32) / (np.linalg.norm(vector) + 1e-12)
        dense = self.dense(self.query, POOL)
        self.lists = [dense, *hybrid.signal_rankings(self.index.docs, question)]
        candidates = list(dict.fromkeys(i for ranking in self.lists for i in ranking))
        self.lists.append(hybrid.source_ranking(self.index, candidates, vector, svc.embed))
        self.first = self.kept(self.lists, len(self.index.records))
        self.order = [self.position[r.id] for r, _ in self.first]
        self.matrix, self.rows = matrix

    def dense(self, vector: np.ndarray, k: int) -> list[int]:
        hits = self.svc.store.vectors.search([self.ns], vector.tolist(), k)
        return [self.position[h.record.id] for h in hits if h.record.id in self.position]

    def kept(self, lists: list[list[int]], k: int, last: float = 1.0) -> list:
        """The ``k`` kept after fusing ``lists`` (the last one's reciprocal ranks weighed by ``last``)."""
        fused = fuse(lists, [1.0] * (len(lists) - 1) + [last])
        ranked = [(self.index.records[i], score) for i, score in fused]
        return hybrid.distinct_sources(hybrid.asked_last(ranked), k)

    def vectors(self, positions: list[int]) -> np.ndarray:
        return self.matrix[[self.rows[self.index.records[i].id] for i in positions]]

    def rocchio(self, m: int, b: float, k: int = POOL) -> list[int]:
        centre = self.vectors(self.order[:m]).mean(axis=0)
        moved = self.query + b * centre / (np.linalg.norm(centre) + 1e-12)
        return self.dense(moved / np.linalg.norm(moved), k)

    def prf(self, m: int, t: int, k: int = POOL) -> list[int]:
        asked = set(terms(self.question))
        counts = Counter(w for i in self.order[:m] for w in set(terms(self.index.records[i].text)))
        bm25 = self.index.docs.bm25
        extra = sorted((w for w, c in counts.items() if c >= 2 and w not in asked),
                       key=lambda w: -counts[w] * bm25.idf(w))[:t]
        return bm25.top(terms(self.question) + extra, k) if extra else []

    def neighbours(self, m: int) -> list[int]:
        every = self.matrix[[self.rows[r.id] for r in self.index.records]]
        closest = (every @ self.vectors(self.order[:m]).T).max(axis=1)
        return np.argsort(-closest, kind="stable")[:POOL].tolist()

    def mmr(self, share: float) -> list:
        pool = self.first[:POOL]
        if not pool:
            return []
        relevance = np.asarray([s for _, s in pool]) / max(pool[0][1], 1e-12)
        sims = self.vectors(self.order[:POOL]) @ self.vectors(self.order[:POOL]).T
        chosen: list[int] = []
        closest = np.zeros(len(pool))
        for _ in range(min(K, len(pool))):
            value = share * relevance - (1 - share) * closest
            value[chosen] = -np.inf
            j = int(np.argmax(value))
            chosen.append(j)
            closest = np.maximum(closest, sims[j])
        return [pool[j] for j in chosen]


VARIANTS: dict[str, Callable[[Round], list]] = {"first round": lambda r: r.first[:K]}
for _m in (5, 10, 20):
    for _b in (0.25, 0.5, 1.0):
        VARIANTS[f"rocchio+ m{_m} b{_b}"] = lambda r, m=_m, b=_b: r.kept([*r.lists, r.rocchio(m, b)], K)
        VARIANTS[f"rocchio= m{_m} b{_b}"] = lambda r, m=_m, b=_b: r.kept([r.rocchio(m, b), *r.lists[1:]], K)
        VARIANTS[f"away m{_m} b{_b}"] = lambda r, m=_m, b=_b: r.kept([*r.lists, r.rocchio(m, -b)], K)
    for _t in (5, 10):
        VARIANTS[f"prf m{_m} t{_t}"] = lambda r, m=_m, t=_t: r.kept([*r.lists, r.prf(m, t)], K)
for _m in (5, 10):
    for _b in (0.5, 1.0):
        for _w in (0.3, 0.5):
            VARIANTS[f"away w{_w} m{_m} b{_b}"] = (
                lambda r, m=_m, b=_b, w=_w: r.kept([*r.lists, r.rocchio(m, -b)], K, w))
            VARIANTS[f"rocchio+ w{_w} m{_m} b{_b}"] = (
                lambda r, m=_m, b=_b, w=_w: r.kept([*r.lists, r.rocchio(m, b)], K, w))
for _m in (3, 5, 10):
    VARIANTS[f"neighbours m{_m}"] = lambda r, m=_m: r.kept([*r.lists, r.neighbours(m)], K)
for _l in (0.6, 0.75, 0.9):
    VARIANTS[f"mmr l{_l}"] = lambda r, share=_l: r.mmr(share)


def option_only() -> str:
    """``--variants PREFIX``: run only the variants whose name starts with it (default all)."""
    return sys.argv[sys.argv.index("--variants") + 1] if "--variants" in sys.argv else ""


def stored_vectors(store, ns: str) -> tuple[np.ndarray, dict[str, int]]:
    """The namespace's stored unit vectors (one row per live memory) and each memory's row."""
    rows: dict[str, int] = {}
    vectors = []
    for page in store.vectors.pages(ns):
        for record, vector in page:
            rows[record.id] = len(vectors)
            vectors.append(np.asarray(vector, dtype=np.float32))
    matrix = np.stack(vectors)
    return matrix / (np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-12), rows


def where_missed(rounds: list[Round], turn: str, counts: Counter[str]) -> None:
    """Count the best rank of a missed turn's memories in each list (first and second round)."""
    def best(name: str, lists: list[list[int]], index) -> int | None:
        return next((r for r, i in enumerate(lists, 1) if turn in index.records[i].source_turn_ids), None)
    for name, get in (("fused", lambda r: r.order), ("dense", lambda r: r.dense(r.query, WIDE)),
                      ("lexical", lambda r: r.lists[1]), ("rocchio m5 b0.5", lambda r: r.rocchio(5, 0.5, WIDE)),
                      ("prf m10 t10", lambda r: r.prf(10, 10, WIDE))):
        ranks = [x for r in rounds if (x := best(name, get(r), r.index)) is not None]
        rank = min(ranks, default=None)
        bucket = "none" if rank is None else "<=30" if rank <= K else "31-100" if rank <= 100 else "101-300"
        counts[f"{name}: {bucket}"] += 1


def main() -> None:
    kind = sys.argv[1]
    recalls: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    moved: dict[str, Counter[str]] = defaultdict(Counter)
    seconds: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    questions = 0
    for conv, store, mapping in conversations(kind):
        namespaces = list(dict.fromkeys(mapping.values()))
        with Memory(store, embeddings=EMBEDDINGS, read_only=True) as mem:
            svc = mem.services
            formed = {t for ns in namespaces for r in svc.store.vectors.list(ns) for t in r.source_turn_ids}
            matrices = {ns: stored_vectors(svc.store, ns) for ns in namespaces}
            for qa in (q for q in conv.qa if q.category in CATEGORIES and q.evidence):
                questions += 1
                hybrid.memory_query(qa.question, svc.indexes, namespaces[0], svc.embed, None)  # warm the index
                start = time.perf_counter()
                rounds = [Round(svc, qa.question, ns, matrices[ns]) for ns in namespaces]
                seconds["first round"] += time.perf_counter() - start
                found: dict[str, set[str]] = {}
                for name, variant in VARIANTS.items():
                    if name != "first round" and not name.startswith(option_only()):
                        continue
                    start = time.perf_counter()
                    kept = [pair for r in rounds for pair in variant(r)]
                    if name != "first round":
                        seconds[name] += time.perf_counter() - start
                    found[name] = {t for record, _ in kept for t in record.source_turn_ids}
                    recalls[name][conv.conversation_id].append(recall(qa, found[name]))
                    for turn in (e for e in qa.evidence if e in formed):
                        before, after = turn in found["first round"], turn in found[name]
                        moved[name]["gained"] += after and not before
                        moved[name]["lost"] += before and not after
                if "--diagnose" in sys.argv:
                    for turn in (e for e in qa.evidence if e in formed and e not in found["first round"]):
                        missed["formed, missed"] += 1
                        where_missed(rounds, turn, missed)
    for name in VARIANTS:
        if name not in recalls:
            continue
        per = recalls[name]
        every = [x for v in per.values() for x in v]
        cells = " / ".join(f"{statistics.mean(v):.3f}" for v in per.values())
        extra = "" if name == "first round" else f", second round +{1000 * seconds[name] / questions:.1f} ms"
        print(f"{kind} {name:22s} S1 recall {statistics.mean(every):.4f} ({cells}); formed evidence "
              f"+{moved[name]['gained']} -{moved[name]['lost']}; {1000 * seconds['first round'] / questions:.1f} ms"
              f"/question first round{extra}")
    for key, value in sorted(missed.items()):
        print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
