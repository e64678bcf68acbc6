"""Ingest one LoCoMo conversation with a fake model; print model calls and tokens per turn.

Token counts are the fake model's estimates of the real prompts (4 characters a token), so they
measure prompt size, not a provider's bill. Usage: python benchmarks/ingest_locomo.py [conv-26] [--no-formation]
"""

from __future__ import annotations

import sys
import tempfile
import time

from _fake_world import fake_world, need_data

from dmem.api import Memory
from dmem.eval.datasets import load_locomo


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    formation = "--no-formation" not in sys.argv
    dataset = load_locomo(need_data())
    conv = next(c for c in dataset.conversations if c.conversation_id == (args[0] if args else "conv-26"))
    fake = fake_world()
    with tempfile.TemporaryDirectory() as d, Memory(d, llm=fake, embeddings="hash", formation=formation) as mem:
        started = time.perf_counter()
        res = mem.add(conv.messages, user_id=conv.conversation_id, conversation_id=conv.conversation_id,
                      speaker_namespaces={s: f"{conv.conversation_id}/{s}" for s in conv.speakers})
        seconds = time.perf_counter() - started
    usage = res.usage()
    turns = len(conv.messages)
    total = usage["total"]
    print(f"conversation {conv.conversation_id}: {turns} turns, {len(res.exchanges)} exchanges, "
          f"formation {'on' if formation else 'off'}")
    print(f"{'step':<18}{'calls':>8}{'calls/turn':>12}{'in tok/turn':>13}{'out tok/turn':>14}")
    for stage, u in sorted(usage.items()):
        print(f"{stage:<18}{u.calls:>8}{u.calls / turns:>12.2f}{u.input_tokens / turns:>13.1f}"
              f"{u.output_tokens / turns:>14.1f}")
    print(f"admitted {len(res.admitted)}, rejected {len(res.rejected)}, operations {len(res.operations)}, "
          f"{total.calls} calls, {seconds:.1f}s wall ({seconds / turns * 1000:.1f} ms/turn, fake model)")


if __name__ == "__main__":
    main()
