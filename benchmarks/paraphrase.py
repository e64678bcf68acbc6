"""Does the offline engine answer a stored fact asked for in other words? ("moved to Lisbon" / "Where does ... live?")

Invented pairs (benchmarks/data/paraphrase.json): a memory, a question that asks for it in other
words, the span the answer must contain, and other memories of the same person shown with it.
Each question is answered by the offline engine's System 1 answer step from the memory and its
companions (rendered as stored memories are, in a fixed shuffled order), with the default local
embeddings. Accuracy = the expected span is in the answer (case-insensitive, punctuation other than
'@' and '.' ignored: '+351 91...' matches '351 91...'), per category and per
half (tuning pairs may shape rules; report pairs are only measured).
Usage: python benchmarks/paraphrase.py [--embeddings hash|local] [--show tuning|report]
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

from dmem.decisions.offline.decider import OfflineDecider
from dmem.models.embeddings import make_embeddings

DATA = Path(__file__).resolve().parent / "data" / "paraphrase.json"


def plain(text: str) -> str:
    """Lower case, without punctuation other than '@' and '.'."""
    return " ".join(re.sub(r"[^\w@. ]", " ", text.lower()).split())


def main() -> None:
    spec = sys.argv[sys.argv.index("--embeddings") + 1] if "--embeddings" in sys.argv else "local"
    show = sys.argv[sys.argv.index("--show") + 1] if "--show" in sys.argv else None
    decider = OfflineDecider(make_embeddings("local:all-MiniLM-L6-v2" if spec == "local" else "hash"))
    scores: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for i, pair in enumerate(json.loads(DATA.read_text())["pairs"]):
        lines = [pair["memory"], *pair["others"]]
        random.Random(i).shuffle(lines)
        context = [f"[2024-05-{d + 1:02d}] {text}" for d, text in enumerate(lines)]
        got = decider.answer(pair["question"], context).value.answer
        ok = plain(pair["answer"]) in plain(got)
        scores[(pair["half"], pair["category"])].append(ok)
        if show == pair["half"] and not ok:
            print(f"  MISS {pair['question']!r} -> {got!r} (expected {pair['answer']!r})")
    categories = sorted({c for _, c in scores})
    print(f"{'category':<14}{'tuning':>14}{'report':>14}")
    for cat in categories:
        cells = [f"{sum(v)}/{len(v)}" for v in (scores[("tuning", cat)], scores[("report", cat)])]
        print(f"{cat:<14}{cells[0]:>14}{cells[1]:>14}")
    for half in ("tuning", "report"):
        hits = [ok for (h, _), v in scores.items() if h == half for ok in v]
        print(f"{half} half: {sum(hits)}/{len(hits)} = {sum(hits) / len(hits):.3f}")


if __name__ == "__main__":
    main()
