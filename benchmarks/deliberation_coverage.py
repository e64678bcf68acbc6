"""Evidence-first retrieval, measured on the dev data: System 1 recall, Focused Deliberation coverage, critical path.

For every question (categories 1-4) of LoCoMo and RealTalk with gold evidence turns:
- System 1 evidence recall at K = retrieval_top_k (30) per speaker namespace, dense (the papers: the same K for
  every question, wide_retrieval_factor 1) and hybrid (the product's settings): the share of gold evidence turns
  among the retrieved memories' source turns, averaged over questions (the eval's 'System 1 recall' column);
- Focused Deliberation coverage: the share of gold evidence turns inside the turns it reads, and the
  share of the full scan's transcript tokens it sends, per budget; with, as a plain baseline, windows
  of +-10 turns around the top-30 hybrid raw-turn hits;
- the critical path of deliberation in sequential model calls, on invented transcripts of growing
  length (a fake model; the transcript is written straight to the store).
No chat model is called. Stores are ingested once with the offline engine into --work (or reused
from an eval run: --stores <out>/stores/<hash>).
Usage: python benchmarks/deliberation_coverage.py [locomo|realtalk|both] [--conversations N] [--limit N]
       [--stores DIR] [--work DIR] [--ingested (only conversations whose store is already ingested)]
       [--only ID,ID (these conversations)] [--no-critical-path]
       [--data DIR (default ../shared/data)]
       python benchmarks/deliberation_coverage.py --critical-path   (the last table only)
"""

from __future__ import annotations

import dataclasses
import itertools
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from _fake_world import ROOT

from dmem.api import Memory
from dmem.datasets.datasets import Conversation, load_dataset
from dmem.eval.methods import speaker_namespaces
from dmem.evidence.focus import reading_plan
from dmem.evidence.hybrid import turns as raw_turn_hits
from dmem.evidence.windows import full_cost, plan_cost
from dmem.graphs.deliberation import compile_deliberation_graph
from dmem.models.structured import estimate_tokens
from dmem.nodes.deliberation import focus_seeds
from dmem.nodes.retrieval import search_memories
from dmem.services import Services
from dmem.state.schemas import Message
from dmem.store.namespaces import Routing
from dmem.testing import FakeChatModel

BUDGETS = [0.1, 0.2, 0.3, 0.5]
BASELINE_RADIUS = 10
DEFAULT_BUDGET = 0.3  # the budget whose coverage is also shown per conversation


def option(name: str, default: str | None = None) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


DATA = Path(option("--data", str(ROOT.parent / "shared" / "data")) or "")
SETS = {"locomo": DATA / "locomo" / "locomo-dev6.json", "realtalk": DATA / "realtalk"}


def with_settings(svc: Services, **changes: object) -> Services:
    return dataclasses.replace(svc, context=svc.context.with_overrides(**changes))


def work_path(kind: str, conv: Conversation) -> Path:
    """Where the conversation's store is ingested (--work), and its '.done' mark beside it."""
    return Path(option("--work", str(ROOT / ".bench-stores")) or "") / kind / conv.conversation_id


def ingested(kind: str, conv: Conversation) -> bool:
    """True if the conversation's store is finished (in --stores, or marked done in --work)."""
    reuse = option("--stores")
    if reuse:
        return (Path(reuse) / conv.conversation_id).exists()
    path = work_path(kind, conv)
    return path.with_name(f"{conv.conversation_id}.done").exists()


def store_for(kind: str, conv: Conversation) -> Path:
    """An ingested store of the conversation: reused from --stores, else ingested once into --work."""
    reuse = option("--stores")
    if reuse:
        return Path(reuse) / conv.conversation_id
    path = work_path(kind, conv)
    done = path.with_name(f"{conv.conversation_id}.done")
    if not done.exists():
        with Memory(path, embeddings="local:all-MiniLM-L6-v2") as mem:
            messages = [m.model_copy(update={"seq": m.seq + 1}) for m in conv.messages]
            mem.add(messages, user_id=conv.conversation_id, conversation_id=conv.conversation_id,
                    speaker_namespaces=speaker_namespaces(conv))
        done.write_text("ok")
    return path


def recall(evidence: list[str], found: set[str]) -> float:
    return sum(e in found for e in evidence) / len(evidence)


def measure(kind: str) -> None:
    dataset = load_dataset(kind, SETS[kind])  # type: ignore[arg-type]
    limit = int(option("--limit", "0") or 0)
    dataset.conversations = dataset.conversations[: int(option("--conversations", "0") or 0) or None]
    only = option("--only")
    if only:
        dataset.conversations = [c for c in dataset.conversations if c.conversation_id in only.split(",")]
    if "--ingested" in sys.argv:
        dataset.conversations = [c for c in dataset.conversations if ingested(kind, c)]
    rows: dict[str, list[float]] = {}
    per_conversation: dict[str, list[float]] = {}
    started = time.perf_counter()
    for conv in dataset.conversations:
        namespaces = list(speaker_namespaces(conv).values())
        with Memory(store_for(kind, conv), embeddings="local:all-MiniLM-L6-v2", read_only=True) as mem:
            questions = [q for q in conv.qa if q.category in (1, 2, 3, 4) and q.evidence]
            for qa in questions[:limit or None]:
                figures = question_figures(mem.services, qa.question, qa.evidence, namespaces)
                for key, value in figures.items():
                    rows.setdefault(key, []).append(value)
                per_conversation.setdefault(conv.conversation_id, []).append(figures[f"cov{DEFAULT_BUDGET}"])
    n = len(rows["dense"])
    print(f"\n{kind}: {n} questions with evidence, {len(dataset.conversations)} conversations "
          f"({', '.join(c.conversation_id for c in dataset.conversations)}), {time.perf_counter() - started:.0f}s")
    print(f"System 1 evidence recall at K=30 per namespace: dense {statistics.mean(rows['dense']):.3f}, "
          f"hybrid {statistics.mean(rows['hybrid']):.3f}")
    print(f"{'reading':<34}{'evidence covered':>18}{'share of full-scan tokens':>27}")
    print(f"{'full scan (papers)':<34}{1.0:>18.3f}{1.0:>27.3f}")
    base = f"+-{BASELINE_RADIUS} turns around top-30 raw hits"
    print(f"{base:<34}{statistics.mean(rows['base_cov']):>18.3f}{statistics.mean(rows['base_share']):>27.3f}")
    for b in BUDGETS:
        print(f"{f'focused, budget {b:.0%}':<34}{statistics.mean(rows[f'cov{b}']):>18.3f}"
              f"{statistics.mean(rows[f'share{b}']):>27.3f}")
    print(f"focused, budget {DEFAULT_BUDGET:.0%}, evidence covered per conversation: "
          + ", ".join(f"{c} {statistics.mean(v):.3f} ({len(v)})" for c, v in per_conversation.items()))


def question_figures(svc: Services, question: str, evidence: list[str], namespaces: list[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for mode in ("dense", "hybrid"):
        paper = {"wide_retrieval_factor": 1.0} if mode == "dense" else {}
        hits = search_memories(with_settings(svc, retrieval_mode=mode, **paper), question, namespaces)
        out[mode] = recall(evidence, {t for record, _ in hits for t in record.source_turn_ids})
    messages = svc.store.transcript.messages(namespaces)
    seeds = focus_seeds(svc, question, namespaces, messages)
    size, history = svc.context.chunk_size, svc.context.chunk_history
    for b in BUDGETS:
        plan = reading_plan(messages, seeds, b, size, history)
        read = {messages[p].turn_id for chunk in plan.chunks for p in chunk.content}
        out[f"cov{b}"], out[f"share{b}"] = recall(evidence, read), plan.share
    index = svc.indexes.turns(namespaces, messages)
    hits = raw_turn_hits(question, index, svc.embed, 30)
    windows = merge([range(max(0, h - BASELINE_RADIUS), min(len(messages), h + BASELINE_RADIUS + 1)) for h in hits])
    tokens = [estimate_tokens(m.render()) for m in messages]
    out["base_cov"] = recall(evidence, {messages[p].turn_id for w in windows for p in w})
    out["base_share"] = plan_cost(tokens, windows, size, history) / full_cost(tokens, size, history)
    return out


def merge(windows: list[range]) -> list[range]:
    out: list[range] = []
    for w in sorted(windows, key=lambda r: r.start):
        if out and w.start <= out[-1].stop:
            out[-1] = range(out[-1].start, max(out[-1].stop, w.stop))
        else:
            out.append(w)
    return out


DEEDS = ("Ana baked rye bread", "Bo fixed a bike", "Ana ran a charity race", "Bo painted a fence")
"""What the invented chunk readers report: four unrelated facts a chunk."""


def critical_path() -> None:
    """Supersteps with a model call in deliberation, for invented transcripts of growing length."""
    chunk_numbers = itertools.count()

    def read(msgs: list) -> dict:
        at = next(chunk_numbers)  # distinct facts per chunk, so the ledger keeps them and selection runs
        return {"facts": [{"fact": f"{what} in week {at}", "score": 8, "turn_ids": []} for what in DEEDS]}

    fake = FakeChatModel(script={
        "ChunkFacts": read,
        "MemorySelection": [{"reason": "needed", "keep": [1, 2]}],
        "AnswerDraft": [{"reasoning": "facts 1-2", "answer": "an answer"}],
    })
    print(f"\n{'turns':>7}{'mode':>9}{'chunks read':>13}{'model calls':>13}{'sequential calls':>18}")
    for n in (100, 1_000, 10_000):
        with tempfile.TemporaryDirectory() as d, Memory(d, llm=fake, embeddings="hash") as mem:
            start = datetime(2024, 1, 1)
            graph = compile_deliberation_graph(resources=mem.resources)
            lines = [Message(conversation_id="c", turn_id=f"t{i}", speaker=("Ana", "Bo")[i % 2],
                             text=f"line {i} on subject {i % 97}", seq=i, timestamp=start + timedelta(minutes=i))
                     for i in range(n)]
            mem.store.transcript.append(Routing.of("u"), lines)
            for mode in ("full", "focused"):
                fake._state.calls.clear()
                steps = set()
                ctx = mem.context.with_overrides(deliberation_mode=mode)
                for event in graph.stream({"question": "What about subject 42?", "namespaces": ["u"]},
                                          context=ctx, stream_mode="debug"):
                    if event["type"] == "task_result" and any(
                            u.calls for u in dict(event["payload"]["result"]).get("usage", [])):
                        steps.add(event["step"])
                chunks = len(fake.calls_for("ChunkFacts"))
                print(f"{n:>7}{mode:>9}{chunks:>13}{len(fake.calls):>13}{len(steps):>18}")


def main() -> None:
    which = next((a for a in sys.argv[1:] if a in ("locomo", "realtalk", "both")), "both")
    if "--critical-path" in sys.argv:
        critical_path()
        return
    if not SETS["locomo"].exists():
        print(f"skipped: {DATA} not found (benchmarks read ../shared/data)")
        return
    for kind in (["locomo", "realtalk"] if which == "both" else [which]):
        measure(kind)
    if "--no-critical-path" not in sys.argv:
        critical_path()


if __name__ == "__main__":
    main()
