"""Ingest one LoCoMo conversation with a fake model; print model calls and tokens per turn, per step.

Token counts are the fake model's estimates of the real prompts (4 characters a token), so they
measure prompt size, not a provider's bill. Both lifecycle modes are measured by default: 'batch'
(all facts of an exchange in one call) and 'per_fact' (one call per fact). Facts meet an update
background only when a stored memory is similar enough (cosine > 0.8), so the embeddings matter:
'hash' is fast and rarely finds one; 'local' (MiniLM, bundled) finds what a real run would.

Usage: python benchmarks/ingest_locomo.py [conv-26] [--no-formation] [--lifecycle batch|per_fact]
       [--embeddings hash|local]
"""

from __future__ import annotations

import argparse
import tempfile
import time

from _fake_world import fake_world, need_data

from dmem.api import Memory
from dmem.datasets.datasets import Conversation, load_locomo
from dmem.state.results import AddResult


def ingest(conv: Conversation, formation: bool, mode: str, embeddings: str) -> tuple[AddResult, float]:
    """Ingest the whole conversation into a fresh store; the result and its wall seconds."""
    fake = fake_world()
    spec = "local:all-MiniLM-L6-v2" if embeddings == "local" else "hash"
    with tempfile.TemporaryDirectory() as d, Memory(d, llm=fake, embeddings=spec, formation=formation,
                                                    lifecycle_mode=mode) as mem:
        started = time.perf_counter()
        res = mem.add(conv.messages, user_id=conv.conversation_id, conversation_id=conv.conversation_id,
                      speaker_namespaces={s: f"{conv.conversation_id}/{s}" for s in conv.speakers})
        return res, time.perf_counter() - started


def report(conv: Conversation, res: AddResult, seconds: float, mode: str) -> None:
    """Calls and tokens per turn, per step, then the totals."""
    usage = res.usage()
    turns = len(conv.messages)
    print(f"\nlifecycle_mode={mode}")
    print(f"{'step':<24}{'calls':>8}{'calls/turn':>12}{'in tok/turn':>13}{'out tok/turn':>14}")
    for stage, u in sorted(usage.items()):
        print(f"{stage:<24}{u.calls:>8}{u.calls / turns:>12.2f}{u.input_tokens / turns:>13.1f}"
              f"{u.output_tokens / turns:>14.1f}")
    total = usage["total"]
    print(f"admitted {len(res.admitted)}, rejected {len(res.rejected)}, operations {len(res.operations)}, "
          f"{total.calls} calls, {seconds:.1f}s wall ({seconds / turns * 1000:.1f} ms/turn, fake model)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("conversation", nargs="?", default="conv-26")
    p.add_argument("--no-formation", action="store_true")
    p.add_argument("--lifecycle", choices=["batch", "per_fact"], help="one mode only (default: both)")
    p.add_argument("--embeddings", choices=["hash", "local"], default="hash")
    args = p.parse_args()
    dataset = load_locomo(need_data())
    conv = next(c for c in dataset.conversations if c.conversation_id == args.conversation)
    formation = not args.no_formation
    print(f"conversation {conv.conversation_id}: {len(conv.messages)} turns, formation "
          f"{'on' if formation else 'off'}, embeddings {args.embeddings}")
    for mode in [args.lifecycle] if args.lifecycle else ["batch", "per_fact"]:
        res, seconds = ingest(conv, formation, mode, args.embeddings)
        report(conv, res, seconds, mode)


if __name__ == "__main__":
    main()
