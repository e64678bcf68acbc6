"""Whose loss is a wrong System 1 answer: retrieval's (the gold never reached the answerer) or the answerer's.

Reads an eval's ``results.json`` (``dmem eval ... --out DIR``; records carry ``context``, the lines the
answerer read) and, for each question of one method (default Mem0*), checks whether the gold answer's
content words are in a context line (with its date tag, relative times grounded) and in the answer.
A question counts as *retrieved* when at least HIT_SHARE of the gold's content words are found in one
line (the union of forty lines would hold most words by chance), *answered* when they are in the answer.
Prints per conversation:
- answered: the gold's words are in the answer;
- answerer's loss: in the context but not in the answer (the answerer chose another line or span);
- retrieval's loss: in neither;
- no words: a gold with no content word (skipped from the shares).
``--replay`` answers every question again with the current offline answerer over the saved context
(no store, no model), as the answerer read it (the record's ``asked``: a speaker's other name written as their label;
records written before ``asked`` was kept replay the question as asked, which differs on chats that call a speaker by
another name) and prints the counts and mean F1 (``f1_mem0``) of both, with the questions whose
F1 went up and down; ``--gate`` adds how often the offline quality gate passes each answer.
``--list N`` prints up to N of the answerer's losses (question, gold, answer) to read.
Usage: python benchmarks/answer_spans.py DIR/results.json [--method mem0] [--replay] [--gate] [--list N]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from dmem.decisions.offline.gate import line_stems
from dmem.eval.metrics import f1_mem0
from dmem.text.lexical import content_stems

HIT_SHARE = 0.5  # share of the gold's content words that must be found for 'retrieved' / 'answered'
EMBEDDINGS = "local:all-MiniLM-L6-v2"
CLASSES = ("answered", "answerer", "retrieval", "no words")


def gold_words(gold: Any) -> set[str]:
    """The gold answer's content stems (a list gold is joined)."""
    text = " ".join(map(str, gold)) if isinstance(gold, list) else str(gold)
    return set(content_stems(text))


def found(gold: set[str], stems: set[str]) -> bool:
    """At least HIT_SHARE of the gold's stems are among ``stems``."""
    return bool(gold) and len(gold & stems) >= HIT_SHARE * len(gold)


def classify(gold: Any, context: list[str], answer: str) -> str:
    """'answered', 'answerer' (retrieved, not answered), 'retrieval' (not retrieved) or 'no words'."""
    words = gold_words(gold)
    if not words:
        return "no words"
    if found(words, set(content_stems(answer))):
        return "answered"
    return "answerer" if any(found(words, line_stems(line)) for line in context) else "retrieval"


def counts_line(label: str, counts: Counter[str], f1: list[float]) -> str:
    """One table row: the class counts, the answerer's share of the losses, mean F1."""
    lost = counts["answerer"] + counts["retrieval"]
    share = f"{counts['answerer'] / lost:.2f}" if lost else "-"
    mean = sum(f1) / len(f1) if f1 else 0.0
    return (f"| {label} | {sum(counts.values())} | " + " | ".join(str(counts[c]) for c in CLASSES)
            + f" | {share} | {mean:.3f} |")


def table(records: list[dict[str, Any]], answers: list[str], title: str) -> None:
    """Print the per-conversation and total counts of ``answers`` (one per record)."""
    print(f"\n{title}\n")
    print("| Conversation | Questions | " + " | ".join(CLASSES) + " | Answerer share of losses | F1 |")
    print("|---|" + "---|" * (len(CLASSES) + 3))
    by_conv: dict[str, tuple[Counter[str], list[float]]] = defaultdict(lambda: (Counter(), []))
    for rec, ans in zip(records, answers, strict=True):
        counts, f1 = by_conv[rec["conversation_id"]]
        counts[classify(rec["gold"], rec["context"], ans)] += 1
        f1.append(f1_mem0(ans, rec["gold"]))
    total: Counter[str] = Counter()
    scores: list[float] = []
    for conv, (counts, f1) in sorted(by_conv.items()):
        print(counts_line(conv, counts, f1))
        total.update(counts)
        scores += f1
    print(counts_line("**all**", total, scores))


def asked(record: dict[str, Any]) -> str:
    """The question as System 1's answerer read it (a speaker's other name as their label): records before the
    field kept only the question as asked, which differs where a chat calls a speaker by another name."""
    return str(record.get("asked") or record["question"])


def replay(records: list[dict[str, Any]], gate: bool) -> list[str]:
    """The current offline answerer's answers over the saved contexts (and the gate's pass count)."""
    from dmem.decisions.offline.decider import OfflineDecider
    from dmem.models.embeddings import make_embeddings

    decider = OfflineDecider(make_embeddings(EMBEDDINGS))
    answers = [decider.answer(asked(r), r["context"]).value.answer for r in records]
    if gate:
        for label, given in (("recorded", [r["answer"] for r in records]), ("replayed", answers)):
            passed = sum(decider.quality_gate(asked(r), a, r["context"]).value.passed
                         for r, a in zip(records, given, strict=True))
            print(f"offline quality gate passes {passed}/{len(records)} {label} answers")
    return answers


def moved(records: list[dict[str, Any]], answers: list[str]) -> None:
    """Questions whose F1 went up or down from the recorded answer to the replayed one."""
    up = down = 0
    for rec, ans in zip(records, answers, strict=True):
        before, after = f1_mem0(rec["answer"], rec["gold"]), f1_mem0(ans, rec["gold"])
        up += after > before
        down += after < before
    print(f"\nF1 per question, recorded -> replayed: {up} up, {down} down, {len(records) - up - down} same")


def main() -> None:
    """Parse arguments, read the results, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--method", default="mem0")
    parser.add_argument("--replay", action="store_true", help="answer again with the current offline answerer")
    parser.add_argument("--gate", action="store_true", help="with --replay: count offline gate passes")
    parser.add_argument("--list", type=int, default=0, help="print up to N of the answerer's losses")
    args = parser.parse_args()
    data = json.loads(args.results.read_text(encoding="utf-8"))
    records = [r for r in data["records"] if r["method"] == args.method]
    if records and "context" not in records[0]:
        raise SystemExit(f"{args.results}: records have no 'context'; rerun the eval with this version")
    recorded = [r["answer"] for r in records]
    table(records, recorded, f"{args.method}: recorded answers ({args.results})")
    answers = recorded
    if args.replay:
        answers = replay(records, args.gate)
        table(records, answers, f"{args.method}: replayed with the current offline answerer")
        moved(records, answers)
    losses = [(r, a) for r, a in zip(records, answers, strict=True)
              if classify(r["gold"], r["context"], a) == "answerer"]
    for rec, ans in losses[: args.list]:
        print(f"\n- {rec['question']}\n  gold: {rec['gold']}\n  answer: {ans}")


if __name__ == "__main__":
    main()
