"""Full vs Focused Deliberation answered by a live chat model: F1, BLEU-1, evidence, tokens, seconds.

Every question is asked twice with gate_policy='always' (deliberation answers every question):
deliberation_mode='full' (the papers' scan of the whole transcript) and 'focused' (windows around
the turns a hybrid search points at, within --budget of the full scan's tokens). The store is a
copy of one ingested with the offline engine (MiniLM embeddings); the live model only answers.
Requests go through a counting proxy, so the server's own token counts sit beside dmem's.

Questions: LoCoMo categories 1-4 with gold evidence, of one conversation. Each category gets
N // 4 of them (the first N % 4 categories one more), evenly spaced over that category's questions
in file order (indices i * len // quota); they are asked in category order, interleaved.

Usage (a server such as ../shared/tools/llm-server.sh's; with llama-cpp-python's, use --structured-output
prompt: its grammar-constrained tool calls returned empty fact lists, see README):
    python benchmarks/chat_deliberation.py [--questions 8] [--conversation conv-26] [--budget 0.3]
        [--structured-output auto|prompt|...]
        [--server http://127.0.0.1:8091/v1] [--store .bench-stores/locomo/conv-26] [--out rows.jsonl]
        [--replies raw.jsonl]
A re-run with the same --out skips the rows it already holds and prints the tables over all of them.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from _fake_world import ROOT, need_data

from dmem.api import Memory
from dmem.datasets.datasets import QAItem, load_locomo
from dmem.eval.judge import lexical_scores
from dmem.eval.methods import speaker_namespaces
from dmem.eval.metrics import evidence_recall
from dmem.testing_http import ChatServer, Recording, ServerCount, proxy

MODEL = "openai-compatible:qwen2.5-coder-0.5b-instruct"
MODES = ("full", "focused")
STORE_FILES = ("dmem.sqlite", "faiss.snapshot.npz")


def pick(qa: list[QAItem], n: int) -> list[tuple[int, QAItem]]:
    """N questions (with their index in the conversation) spread over categories 1-4 by a fixed stride."""
    by_cat = {c: [(i, q) for i, q in enumerate(qa) if q.category == c and q.evidence] for c in (1, 2, 3, 4)}
    quotas = {c: n // 4 + (k < n % 4) for k, c in enumerate(by_cat)}
    chosen = {c: [items[i * len(items) // quotas[c]] for i in range(min(quotas[c], len(items)))]
              for c, items in by_cat.items() if quotas[c]}
    rounds = max((len(v) for v in chosen.values()), default=0)
    return [chosen[c][r] for r in range(rounds) for c in chosen if r < len(chosen[c])]


def copy_store(source: Path, target: Path) -> Path:
    """A private copy of the ingested store's files (the original is never opened)."""
    for name in STORE_FILES:
        shutil.copy2(source / name, target / name)
    return target


def ask_row(mem: Memory, count: ServerCount, qa: QAItem, namespaces: list[str], mode: str,
            args: argparse.Namespace) -> dict[str, Any]:
    """Ask one question in one mode: the answer, its scores, evidence, cost and the server's count."""
    before = (count.requests, count.input_tokens, count.output_tokens)
    started = time.perf_counter()
    ans = mem.ask(qa.question, user_ids=namespaces, deliberation_mode=mode, deliberation_budget=args.budget,
                  structured_output=args.structured_output)
    seconds = time.perf_counter() - started
    if ans.engine == "offline":
        raise SystemExit("the store answered with the offline engine, not the chat model")
    total = ans.usage.get("total")
    scores = lexical_scores(ans.answer, qa)
    return {"mode": mode, "question": qa.question, "gold": qa.answer, "category": qa.category,
            "answer": ans.answer, "route": ans.route, "engine": ans.engine,
            "f1": scores["f1_locomo"], "f1_mem0": scores["f1_mem0"], "bleu1": scores["bleu1"],
            "evidence_recall": evidence_recall(qa.evidence, ans.evidence_turn_ids),
            "read_share": ans.read_share, "calls": total.calls if total else 0,
            "retries": total.retries if total else 0,
            "input_tokens": total.input_tokens if total else 0, "output_tokens": total.output_tokens if total else 0,
            "server_requests": count.requests - before[0], "server_in": count.input_tokens - before[1],
            "server_out": count.output_tokens - before[2], "seconds": round(seconds, 1),
            "skipped_chunks": len(ans.skipped_chunks), "facts": len(ans.facts_used)}


def row_key(args: argparse.Namespace, index: int, mode: str) -> str:
    """What identifies a row in --out: conversation, question, mode, budget, structured-output method."""
    return f"{args.conversation}:{index}:{mode}:{args.budget}:{args.structured_output}"


def load_rows(path: Path | None) -> dict[str, dict[str, Any]]:
    """Rows already written to --out, by key."""
    if path is None or not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {r["key"]: r for r in rows}


def run(args: argparse.Namespace, todo: list[tuple[int, QAItem]], namespaces: list[str],
        rows: dict[str, dict[str, Any]]) -> None:
    """Ask every question not yet in ``rows`` in both modes, appending each finished row to --out."""
    count = ServerCount()
    recording = Recording() if args.replies else None
    responder = proxy(args.server, recording, args.replies, count=count)
    with ChatServer(responder) as server, tempfile.TemporaryDirectory() as d, \
            Memory(copy_store(Path(args.store), Path(d)), llm=MODEL, base_url=server.url,
                   embeddings="local:all-MiniLM-L6-v2", gate_policy="always",
                   request_timeout=900.0, call_deadline=1800.0) as mem:
        for index, qa in todo:
            for mode in MODES:
                key = row_key(args, index, mode)
                if key in rows:
                    continue
                row = {"key": key, "index": index, **ask_row(mem, count, qa, namespaces, mode, args)}
                rows[key] = row
                if args.out:
                    with Path(args.out).open("a") as f:
                        f.write(json.dumps(row) + "\n")
                print(f"  q{index} c{row['category']} {mode:<8} {row['answer'][:40]!r} f1 {row['f1']:.2f} "
                      f"ev {row['evidence_recall']:.2f} {row['seconds']:.0f}s", flush=True)


def show(rows: list[dict[str, Any]]) -> None:
    """The per-question table and the per-mode means."""
    print(f"\n{'q':>4}{'cat':>4} {'mode':<8}{'F1':>6}{'BLEU1':>7}{'evid':>6}{'read':>6}{'calls':>6}{'in':>8}"
          f"{'out':>6}{'srv in':>8}{'srv out':>8}{'sec':>7}{'skip':>5}  answer")
    for r in rows:
        print(f"{r['index']:>4}{r['category']:>4} {r['mode']:<8}{r['f1']:>6.2f}{r['bleu1']:>7.2f}"
              f"{r['evidence_recall']:>6.2f}{r['read_share']:>6.2f}{r['calls']:>6}{r['input_tokens']:>8}"
              f"{r['output_tokens']:>6}{r['server_in']:>8}{r['server_out']:>8}{r['seconds']:>7.0f}"
              f"{r['skipped_chunks']:>5}  {r['answer'][:40]!r}")
    keys = ("f1", "bleu1", "evidence_recall", "read_share", "calls", "input_tokens", "output_tokens",
            "server_in", "server_out", "seconds", "skipped_chunks", "retries")
    print(f"\n{'mode':<9}{'n':>3}" + "".join(f"{k[:10]:>11}" for k in keys))
    for mode in MODES:
        mine = [r for r in rows if r["mode"] == mode]
        if mine:
            print(f"{mode:<9}{len(mine):>3}" + "".join(f"{statistics.mean(r[k] for r in mine):>11.3f}" for k in keys))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--questions", type=int, default=8)
    p.add_argument("--conversation", default="conv-26")
    p.add_argument("--budget", type=float, default=0.3)
    p.add_argument("--server", default="http://127.0.0.1:8091/v1")
    p.add_argument("--store", help="offline-ingested store of the conversation (default .bench-stores/locomo/<id>)")
    p.add_argument("--out", help="JSON lines file: rows are appended as they finish; finished rows are skipped")
    p.add_argument("--structured-output", default="auto", help="dmem's structured_output method (auto: tools, "
                   "then JSON in the prompt)")
    p.add_argument("--replies", help="JSON lines file: every request's prompt and the server's raw reply, appended")
    args = p.parse_args()
    args.store = args.store or str(ROOT / ".bench-stores" / "locomo" / args.conversation)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    conv = next(c for c in load_locomo(need_data()).conversations if c.conversation_id == args.conversation)
    todo = pick(conv.qa, args.questions)
    print(f"{args.conversation}: questions {[i for i, _ in todo]} (categories {[q.category for _, q in todo]}); "
          f"model {MODEL} at {args.server}; budget {args.budget}; structured output {args.structured_output}",
          flush=True)
    rows = load_rows(Path(args.out) if args.out else None)
    run(args, todo, list(speaker_namespaces(conv).values()), rows)
    wanted = {row_key(args, i, m) for i, _ in todo for m in MODES}
    show([r for k, r in rows.items() if k in wanted])


if __name__ == "__main__":
    main()
