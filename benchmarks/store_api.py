"""What the LangGraph store adapter costs: ``as_store().search`` against dmem's own ``search``, same memories.

One user holds ``--memories`` invented facts (benchmarks/_fact_sentences.py), stored as given
(``add(..., infer=False)``). Each method then answers ``--queries`` invented questions, top-10,
in alternating order; each method gets its own query strings (same distribution), so neither
finds the other's query embedding in dmem's embedding cache. Prints p50/p95 per method and the
adapter's overhead.

    python benchmarks/store_api.py                       # 10k memories, hash embeddings, local store
    python benchmarks/store_api.py --embeddings local:all-MiniLM-L6-v2
    python benchmarks/store_api.py --store-url postgresql://...
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _fact_sentences import fact_sentences  # noqa: E402

from dmem import Memory  # noqa: E402

NAMESPACE = ("memories", "bench")


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--embeddings", default="hash")
    parser.add_argument("--store-url", default=None)
    args = parser.parse_args()

    settings = {"store_url": args.store_url} if args.store_url else {}
    with Memory(tempfile.mkdtemp(prefix="dmem-store-api-"), embeddings=args.embeddings, **settings) as mem:
        started = time.perf_counter()
        facts = fact_sentences(args.memories, seed=3)
        for i in range(0, len(facts), 1000):
            mem.add(facts[i:i + 1000], user_id="bench", infer=False, conversation_id=f"load-{i}")
        print(f"loaded {mem.store.vectors.count('bench')} memories in {time.perf_counter() - started:.1f}s "
              f"({args.embeddings}, {'PostgreSQL' if args.store_url else 'local store'})")
        store = mem.as_store()
        questions = fact_sentences(4 * args.queries + 40, seed=11)
        own_q, store_q = questions[0::2], questions[1::2]
        for q in own_q[:20]:  # warm-up: load the namespace's index, the code paths, the model
            mem.search(q, user_id="bench", limit=10)
            store.search(NAMESPACE, query=q, limit=10)
        own, adapter = [], []
        for i in range(20, 20 + args.queries):
            pair = [("own", lambda q=own_q[i]: mem.search(q, user_id="bench", limit=10)),
                    ("store", lambda q=store_q[i]: store.search(NAMESPACE, query=q, limit=10))]
            for name, call in pair if i % 2 else reversed(pair):
                (own if name == "own" else adapter).append(timed(call))
        for name, values in (("Memory.search", own), ("as_store().search", adapter)):
            print(f"{name:>18}: p50 {percentile(values, 50):.2f} ms  p95 {percentile(values, 95):.2f} ms  "
                  f"mean {statistics.fmean(values):.2f} ms  ({len(values)} queries, top-10)")
        p50 = percentile(adapter, 50) / percentile(own, 50) - 1
        p95 = percentile(adapter, 95) / percentile(own, 95) - 1
        print(f"adapter overhead: p50 {p50:+.1%}  p95 {p95:+.1%}  (target: at most +10%)")


if __name__ == "__main__":
    main()
