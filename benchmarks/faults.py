"""Turns given / recorded / formed / pending / lost / duplicated under provider faults and killed writers.

A scripted model turns each formed turn into exactly one memory ("<speaker> said: <text>"), so a
turn formed twice shows up as a duplicate and a turn neither formed nor waiting for retry is lost.
Each run: ``--kills`` writer processes are SIGKILLed mid-ingest (after a seeded number of
exchanges), then one more ``add`` of the same turns runs to the end under the same fault rates,
then ``retry_pending()`` runs with a healthy model.

Usage: python benchmarks/faults.py [--turns 100] [--provider-error 0.2] [--malformed 0.3]
                                   [--missing-tool-call 0.0] [--kills 3] [--seed 7] [--max-retries 2]
"""

from __future__ import annotations

import argparse
import logging
import random
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

from dmem.api import Memory
from dmem.state.schemas import Message
from dmem.testing import FaultRates, FaultyChatModel, echo_formation_script

USER = "bench"
T0 = datetime(2024, 3, 4, 9, 0)


def turns(n: int) -> list[Message]:
    """Invented turns, two speakers, distinct texts."""
    return [Message(conversation_id="chat", turn_id=f"t{i}", speaker=("Noor", "Tomas")[i % 2],
                    text=f"note {i}: the {i}th plan about the garden", timestamp=T0 + timedelta(minutes=i))
            for i in range(n)]


def memory(store: Path, rates: FaultRates, retries: int) -> tuple[Memory, FaultyChatModel]:
    model = FaultyChatModel(script=echo_formation_script(), faults=rates)
    return Memory(store, llm=model, embeddings="hash", max_retries=retries, lock_timeout=60), model


def figures(mem: Memory, given: int) -> dict[str, int]:
    """The six figures, from the store itself."""
    per_turn = Counter(t for m in mem.get_all(user_id=USER) for t in m.source_turn_ids)
    unformed = {t.message.turn_id for t in mem.store.transcript.unformed(USER)}
    pending = len(mem.store.transcript.pending(USER))
    wanted = {f"t{i}" for i in range(given)}
    return {"given": given, "recorded": mem.store.transcript.count(USER),
            "formed": sum(mem.store.transcript.is_processed(USER, "chat", t) for t in wanted),
            "pending": pending, "unformed": len(unformed),
            "lost": len(wanted - set(per_turn) - unformed),
            "duplicated": sum(c - 1 for c in per_turn.values() if c > 1)}


def worker(store: str, n: int, rates: FaultRates, retries: int) -> None:
    """Child process: add the turns under faults, printing each finished exchange, until killed."""
    mem, _ = memory(Path(store), rates, retries)
    mem.add(turns(n), user_id=USER, progress=lambda done, total: print(f"exchange {done}", flush=True))
    print("done", flush=True)


def kill_midway(store: Path, args: argparse.Namespace, rates: FaultRates, rng: random.Random) -> int:
    """Run a writer process and SIGKILL it after a seeded number of exchanges; returns that number."""
    stop_after = rng.randint(1, max(1, args.turns // 4))
    cmd = [sys.executable, __file__, "--worker", str(store), "--turns", str(args.turns),
           "--provider-error", str(rates.provider_error), "--malformed", str(rates.malformed),
           "--missing-tool-call", str(rates.missing_tool_call), "--seed", str(rates.seed),
           "--max-retries", str(args.max_retries)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    seen = 0
    for line in proc.stdout:
        seen += line.startswith("exchange")
        if seen >= stop_after or line.startswith("done"):
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return seen


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--turns", type=int, default=100)
    p.add_argument("--provider-error", type=float, default=0.2)
    p.add_argument("--malformed", type=float, default=0.3)
    p.add_argument("--missing-tool-call", type=float, default=0.0)
    p.add_argument("--kills", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--max-retries", type=int, default=2, help="retries of a malformed reply (the setting)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args()
    rates = FaultRates(provider_error=args.provider_error, malformed=args.malformed,
                       missing_tool_call=args.missing_tool_call, seed=args.seed)
    logging.getLogger("dmem").setLevel(logging.ERROR)  # every failure is expected here; the table says it
    if args.worker:
        worker(args.worker, args.turns, rates, args.max_retries)
        return
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "store"
        Memory(store, embeddings="hash").close()
        killed_at = [kill_midway(store, args, FaultRates(**{**rates.__dict__, "seed": args.seed + k}), rng)
                     for k in range(args.kills)]
        mem, model = memory(store, rates, args.max_retries)
        with mem:
            mem.add(turns(args.turns), user_id=USER)
            after_faults = figures(mem, args.turns)
            model.heal()
            mem.retry_pending(user_id=USER)
            after_retry = figures(mem, args.turns)
    print(f"faults: provider errors {rates.provider_error:.0%}, malformed {rates.malformed:.0%}, "
          f"missing tool calls {rates.missing_tool_call:.0%}; max_retries {args.max_retries}")
    print(f"writers killed {args.kills} time(s), after {killed_at} exchanges")
    print(f"faults injected in the last run: {model.injected}")
    print(f"{'stage':<28}" + "".join(f"{k:>11}" for k in after_faults))
    for name, row in (("after the faulty runs", after_faults), ("after retry_pending()", after_retry)):
        print(f"{name:<28}" + "".join(f"{v:>11}" for v in row.values()))


if __name__ == "__main__":
    main()
