"""How much of Full Deliberation's reading a local-embedding chunk prefilter saves, and what it loses.

For every LoCoMo dev question (categories 1-4), the conversation is cut into the paper's chunks
(60 messages, 4 of history); ``deliberation_top_chunks=N`` keeps the N chunks most similar to the
question (all-MiniLM-L6-v2, local). We print, per N, the chunk tokens read (prompt-size estimate,
4 characters a token) and the share of gold evidence turns still inside the chunks read: an
upper bound on what Full Deliberation can find. No LLM is called.
Usage: python benchmarks/deliberation_prefilter.py [--embeddings hash]
"""

from __future__ import annotations

import sys
import time

from _fake_world import need_data

from dmem.eval.datasets import load_locomo
from dmem.models.embeddings import make_embeddings
from dmem.models.structured import estimate_tokens
from dmem.nodes.deliberation import make_chunks, top_chunks

SETTINGS = [0, 5, 4, 3, 2]


def main() -> None:
    spec = sys.argv[sys.argv.index("--embeddings") + 1] if "--embeddings" in sys.argv else "local:all-MiniLM-L6-v2"
    emb = make_embeddings(spec)
    dataset = load_locomo(need_data())
    stats = {n: {"tokens": 0, "ev": 0, "ev_in": 0, "q_all": 0} for n in SETTINGS}
    questions = 0
    started = time.perf_counter()
    for conv in dataset.conversations:
        for qa in (q for q in conv.qa if q.category in (1, 2, 3, 4)):
            questions += 1
            chunks = make_chunks(qa.question, conv.messages, 60, 4)
            for n in SETTINGS:
                kept = top_chunks(chunks, qa.question, n, emb.embed_documents) if 0 < n < len(chunks) else chunks
                turns = {m.turn_id for c in kept for m in c["chunk"]}
                text = "\n".join(m.render() for c in kept for m in [*c["preceding"], *c["chunk"]])
                s = stats[n]
                s["tokens"] += estimate_tokens(text)
                s["ev"] += len(qa.evidence)
                s["ev_in"] += sum(e in turns for e in qa.evidence)
                s["q_all"] += all(e in turns for e in qa.evidence)
    print(f"{questions} questions, {len(dataset.conversations)} conversations, embeddings {spec}, "
          f"{time.perf_counter() - started:.1f}s")
    print(f"{'chunks read':<14}{'chunk tokens/q':>15}{'saved':>8}{'evidence turns kept':>21}"
          f"{'questions fully covered':>25}")
    base = stats[0]["tokens"]
    for n in SETTINGS:
        s = stats[n]
        label = "all (paper)" if n == 0 else f"top {n}"
        print(f"{label:<14}{s['tokens'] / questions:>15.0f}{1 - s['tokens'] / base:>8.0%}"
              f"{s['ev_in'] / s['ev']:>21.1%}{s['q_all'] / questions:>25.1%}")


if __name__ == "__main__":
    main()
