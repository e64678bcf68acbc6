"""The two embedding backends side by side: int8 ONNX (default) and fp32 PyTorch (dmem[torch]).

For each backend, in one run, on the development data (../shared/data):
- load time: a fresh interpreter importing dmem's embeddings and loading the model (median of --loads);
- throughput: sentences/s embedding the first --sentences turns of the LoCoMo dev transcripts,
  each backend --rounds times in turn (best round; a busy machine slows single rounds);
- System 1 evidence recall at K = retrieval_top_k per speaker namespace, dense and hybrid, over the
  questions (categories 1-4) of the first --conversations LoCoMo conversations, each ingested with
  the offline engine into a store of that backend (as deliberation_coverage.py measures it).
Usage: python benchmarks/embeddings.py [--sentences 2000] [--rounds 2] [--loads 3] [--conversations 2]
       [--work DIR (default .bench-stores/embeddings)] [--no-recall] [--backends onnx,torch]
"""

from __future__ import annotations

import dataclasses
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _fake_world import LOCOMO, ROOT, need_data

from dmem.api import Memory
from dmem.datasets.datasets import Conversation, load_dataset
from dmem.eval.methods import speaker_namespaces
from dmem.models.embeddings import make_embeddings
from dmem.nodes.retrieval import search_memories
from dmem.services import Services

BACKENDS = {"onnx": "onnx:all-MiniLM-L6-v2:int8", "torch": "torch:all-MiniLM-L6-v2:fp32"}
LOAD = ("import time, sys; t = time.perf_counter(); c = time.process_time(); "
        "from dmem.models.embeddings import make_embeddings; i = time.perf_counter(); "
        "make_embeddings(sys.argv[1]).inner.load(); "
        "print(time.perf_counter() - t, i - t, time.process_time() - c)")
"""Prints the seconds to import and load, of them importing dmem's embeddings, and the CPU seconds (all threads)."""


def option(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def load_seconds(spec: str, repeats: int) -> tuple[float, float, float]:
    """Medians of seconds to import dmem's embeddings and load the model in a fresh interpreter, of them
    the import, and the CPU seconds of it all (steadier than wall time on a busy machine)."""
    runs = [[float(x) for x in subprocess.run([sys.executable, "-c", LOAD, spec], capture_output=True, text=True,
                                              check=True, cwd=ROOT).stdout.split()[-3:]] for _ in range(repeats)]
    total, imported, cpu = (statistics.median(r[k] for r in runs) for k in range(3))
    return total, imported, cpu


def throughput(specs: dict[str, str], sentences: list[str], rounds: int) -> dict[str, float]:
    """Best sentences/s of each backend over ``rounds`` interleaved rounds (uncached, model loaded)."""
    models = {name: make_embeddings(spec).inner for name, spec in specs.items()}
    for emb in models.values():
        emb.embed_documents(sentences[:16])  # load and warm up
    best = dict.fromkeys(specs, 0.0)
    for _ in range(rounds):
        for name, emb in models.items():
            started = time.perf_counter()
            emb.embed_documents(sentences)
            best[name] = max(best[name], len(sentences) / (time.perf_counter() - started))
    return best


def store_for(work: Path, backend: str, spec: str, conv: Conversation) -> Path:
    """The conversation ingested with the offline engine and this backend (once; reused after)."""
    path = work / backend / conv.conversation_id
    done = path.with_name(f"{conv.conversation_id}.done")
    if not done.exists():
        with Memory(path, embeddings=spec) as mem:
            messages = [m.model_copy(update={"seq": m.seq + 1}) for m in conv.messages]
            mem.add(messages, user_id=conv.conversation_id, conversation_id=conv.conversation_id,
                    speaker_namespaces=speaker_namespaces(conv))
        done.write_text("ok")
    return path


def recall(work: Path, backend: str, spec: str, conversations: list[Conversation]) -> dict[str, float]:
    """Mean System 1 evidence recall (dense, hybrid) over the questions with evidence, and the count."""
    rows: dict[str, list[float]] = {"dense": [], "hybrid": []}
    for conv in conversations:
        namespaces = list(speaker_namespaces(conv).values())
        with Memory(store_for(work, backend, spec, conv), embeddings=spec, read_only=True) as mem:
            for qa in [q for q in conv.qa if q.category in (1, 2, 3, 4) and q.evidence]:
                for mode in rows:
                    svc: Services = dataclasses.replace(
                        mem.services, context=mem.services.context.with_overrides(retrieval_mode=mode))
                    hits = search_memories(svc, qa.question, namespaces)
                    found = {t for record, _ in hits for t in record.source_turn_ids}
                    rows[mode].append(sum(e in found for e in qa.evidence) / len(qa.evidence))
    return {"dense": statistics.mean(rows["dense"]), "hybrid": statistics.mean(rows["hybrid"]),
            "questions": float(len(rows["dense"]))}


def main() -> None:
    need_data()
    names = option("--backends", "onnx,torch").split(",")
    specs = {n: BACKENDS[n] for n in names}
    dataset = load_dataset("locomo", LOCOMO)
    sentences = [m.text for c in dataset.conversations for m in c.messages][: int(option("--sentences", "2000"))]
    print(f"{len(sentences)} LoCoMo dev sentences, mean {statistics.mean(len(s) for s in sentences):.0f} chars")
    loads = {n: load_seconds(s, int(option("--loads", "3"))) for n, s in specs.items()}
    speed = throughput(specs, sentences, int(option("--rounds", "2")))
    print(f"\n{'backend':<8}{'model':<30}{'load (s)':>10}{'of it import':>14}{'load CPU (s)':>14}{'sentences/s':>13}")
    for n, s in specs.items():
        total, imported, cpu = loads[n]
        print(f"{n:<8}{s:<30}{total:>10.2f}{imported:>14.2f}{cpu:>14.2f}{speed[n]:>13.0f}")
    if {"onnx", "torch"} <= set(specs):
        print(f"onnx against torch: loads {loads['torch'][0] / loads['onnx'][0]:.1f}x faster, "
              f"embeds {speed['onnx'] / speed['torch']:.2f}x the sentences/s")
    if "--no-recall" in sys.argv:
        return
    work = Path(option("--work", str(ROOT / ".bench-stores" / "embeddings")))
    conversations = dataset.conversations[: int(option("--conversations", "2"))]
    print(f"\nSystem 1 evidence recall at K=30 per namespace, LoCoMo dev "
          f"{', '.join(c.conversation_id for c in conversations)}")
    for n, s in specs.items():
        started = time.perf_counter()
        r = recall(work, n, s, conversations)
        print(f"{n:<8}dense {r['dense']:.4f}  hybrid {r['hybrid']:.4f}  ({r['questions']:.0f} questions, "
              f"{time.perf_counter() - started:.0f}s with ingestion)")


if __name__ == "__main__":
    main()
