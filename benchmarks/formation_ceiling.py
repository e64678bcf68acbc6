"""Leave one conversation out: the least joining of replies that keeps memories per turn under a ceiling.

`JOINED_MAX_WORDS` (dmem/decisions/offline/splitting.py) bounds how many words of what was said the replies
joined under one question may hold. Joining makes fewer memories for the same turns but costs System 1
recall, so the --drafts criterion of formation_loco.py (most evidence formed, then fewest facts) cannot
choose it. Here each candidate is ingested in full (the offline engine, formation.py's settings, one store
folder per candidate under --work) on RealTalk's tuning half only, and for each held-out chat the value is
chosen on the other two: the smallest that keeps their memories within +10 % of the pre-#26 baseline
97a54d3 (memories per conversation measured by helper h26b, benchmarks/RESULTS.md). The held-out chat's
memories per turn, evidence turns formed and System 1 recall (hybrid, existing ids) are printed for that
value and for joining switched off (0). The report half is never read.
Usage: python benchmarks/formation_ceiling.py [--data DIR] [--work DIR] [--values 0,16,20,1000]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import formation

from dmem.api import Memory
from dmem.datasets.datasets import Conversation, load_dataset
from dmem.decisions.offline import splitting
from dmem.eval.methods import speaker_namespaces
from dmem.nodes.retrieval import search_memories

BASELINE = {"Chat_1_": 687, "Chat_2_": 605, "Chat_3_": 650}
"""Live memories per tuning chat at 97a54d3 (full ingestion, speaker namespaces; RESULTS, h26b)."""
CEILING = 1.10


def figures(conv: Conversation, value: int, work: Path) -> dict[str, float]:
    """Memories, evidence turns formed and summed System 1 recall of one chat ingested with ``value``."""
    store = work / f"joined-{value}" / formation.source_hash() / conv.conversation_id
    splitting.JOINED_MAX_WORDS = value
    if not (done := store.with_suffix(".done")).exists():
        with Memory(store, embeddings=formation.EMBEDDINGS) as mem:
            messages = [m.model_copy(update={"seq": m.seq + 1}) for m in conv.messages]
            mem.add(messages, user_id=conv.conversation_id, conversation_id=conv.conversation_id,
                    speaker_namespaces=speaker_namespaces(conv))
        done.write_text("done")
    namespaces = list(speaker_namespaces(conv).values())
    questions = [q for q in conv.qa if q.category in formation.CATEGORIES and q.evidence]
    evidence = {e for q in questions for e in q.evidence}
    with Memory(store, embeddings=formation.EMBEDDINGS, read_only=True) as mem:
        records = [r for ns in namespaces for r in mem.services.store.vectors.list(ns)]
        recall = 0.0
        for qa in questions:
            found = {t for r, _ in search_memories(mem.services, qa.question, namespaces) for t in r.source_turn_ids}
            recall += formation.recall(qa, found, False)
    sources = {t for r in records for t in r.source_turn_ids}
    return {"memories": len(records), "turns": len(conv.messages), "formed": len(evidence & sources),
            "evidence": len(evidence), "recall": recall, "questions": len(questions)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data")
    parser.add_argument("--work", default=str(formation.ROOT / ".bench-stores"))
    parser.add_argument("--values", default="0,16,20,1000")
    args, _ = parser.parse_known_args()
    values = [int(v) for v in args.values.split(",")]
    convs = [c for c in load_dataset("realtalk", formation.SETS["realtalk"]).conversations
             if formation.half_of("realtalk", c.conversation_id) == "tuning"]
    runs = {v: {c.conversation_id: figures(c, v, Path(args.work)) for c in convs} for v in values}
    for v, by_conv in runs.items():
        print(f"JOINED_MAX_WORDS {v:>5}: " + json.dumps({k[:7]: f["memories"] for k, f in by_conv.items()}))
    base = {c.conversation_id: next(n for p, n in BASELINE.items() if c.conversation_id.startswith(p)) for c in convs}
    for held in convs:
        others = [c.conversation_id for c in convs if c is not held]
        fits = [v for v in sorted(values)
                if sum(runs[v][o]["memories"] for o in others) <= CEILING * sum(base[o] for o in others)]
        chosen = fits[0] if fits else max(values)
        row = []
        for v in (0, chosen) if 0 in values else (chosen,):
            f = runs[v][held.conversation_id]
            ceiling = CEILING * base[held.conversation_id] / f["turns"]
            row.append(f"{v}: {f['memories'] / f['turns']:.3f} memories per turn (ceiling {ceiling:.3f}), "
                       f"formed {f['formed']}/{f['evidence']}, S1 recall {f['recall'] / f['questions']:.3f}")
        print(f"held out {held.conversation_id[:7]}: chosen on the other two {chosen}; " + " | ".join(row))


if __name__ == "__main__":
    main()
