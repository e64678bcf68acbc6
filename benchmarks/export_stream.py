"""What exporting a large user costs in memory: the JSON Lines export (streamed) against the collected export.

One user holds ``--memories`` invented facts (benchmarks/_fact_sentences.py) with their vectors
and an ADD history row each, and ``--turns`` transcript turns, written in bulk (hash embeddings:
no model). The script then measures, with ``tracemalloc`` (Python allocations; it slows the runs,
so the times are only relative):

- ``export(path.jsonl)``: written a row at a time as the store is read;
- ``export(path.json)``: the whole export collected as one dict, then encoded and written (the like-for-like
  comparison with the streamed file: both encode and write every row);
- ``export()`` without a file: the collected dict alone (no encoding, no file: cheaper in time, so not
  comparable with the two written exports on wall time);
- ``import_(path.jsonl)`` of that file into a fresh store.

    python benchmarks/export_stream.py                     # 50k memories + 50k turns, local store
    python benchmarks/export_stream.py --memories 5000 --turns 5000
    python benchmarks/export_stream.py --no-trace --skip-import      # wall times without tracemalloc
    python benchmarks/export_stream.py --store-url postgresql://...   (an empty schema; and a second one
                                                                       for the import: --import-url)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _fact_sentences import fact_sentences  # noqa: E402

from dmem import Memory  # noqa: E402
from dmem.messages import to_messages  # noqa: E402
from dmem.state.schemas import MemoryRecord  # noqa: E402
from dmem.store import Routing  # noqa: E402

USER = "bench"
CHUNK = 5000


def fill(mem: Memory, memories: int, turns: int) -> None:
    """Bulk-write the user's memories (with history rows) and turns, ``CHUNK`` at a time."""
    texts = fact_sentences(max(memories, turns), seed=25)
    now = datetime.now(UTC)
    for start in range(0, memories, CHUNK):
        part = texts[start:min(memories, start + CHUNK)]
        records = [MemoryRecord(id=f"m{start + i}", namespace=USER, text=t, created_at=now, updated_at=now)
                   for i, t in enumerate(part)]
        mem.store.import_records(USER, records, mem.services.embed(part), "bulk")
    for start in range(0, turns, CHUNK):
        part = to_messages(texts[start:min(turns, start + CHUNK)], f"c{start // CHUNK}")
        mem.store.transcript.append(Routing.of(USER), part)


def measured(call: Callable[[], Any], trace: bool = True) -> tuple[Any, float, float]:
    """(result, peak MB of Python allocations during the call (nan untraced), seconds)."""
    if not trace:
        started = time.perf_counter()
        result = call()
        return result, float("nan"), time.perf_counter() - started
    tracemalloc.start()
    started = time.perf_counter()
    try:
        result = call()
        seconds = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak / 1e6, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=50_000)
    parser.add_argument("--turns", type=int, default=50_000)
    parser.add_argument("--store-url", help="a PostgreSQL URL (an empty schema); default: a local store")
    parser.add_argument("--import-url", help="with --store-url: another empty schema to import into")
    parser.add_argument("--no-trace", action="store_true", help="times only, without tracemalloc (which slows "
                        "every allocation, the streamed export's JSON encoding most)")
    parser.add_argument("--skip-import", action="store_true", help="measure the exports only")
    args = parser.parse_args()
    trace = not args.no_trace
    with tempfile.TemporaryDirectory() as tmp:
        where = {"store_url": args.store_url} if args.store_url else {}
        with Memory(Path(tmp) / "src", embeddings="hash", **where) as mem:
            started = time.perf_counter()
            fill(mem, args.memories, args.turns)
            print(f"filled {args.memories} memories and {args.turns} turns in {time.perf_counter() - started:.1f} s")
            path = Path(tmp) / "bench.jsonl"
            summary, streamed, s_time = measured(lambda: mem.export(path, user_id=USER), trace)
            size = path.stat().st_size / 1e6
            print(f"export to JSON Lines (streamed): peak {streamed:.1f} MB, {s_time:.1f} s, file {size:.1f} MB, "
                  f"rows {summary['counts']}")
            whole = Path(tmp) / "bench.json"
            _, written_json, w_time = measured(lambda: mem.export(whole, user_id=USER), trace)
            print(f"export to JSON (collected, written): peak {written_json:.1f} MB, {w_time:.1f} s, "
                  f"file {whole.stat().st_size / 1e6:.1f} MB")
            _, collected, c_time = measured(lambda: mem.export(user_id=USER), trace)
            print(f"export() collected as one dict, no file: peak {collected:.1f} MB, {c_time:.1f} s")
        if args.skip_import:
            return
        target = {"store_url": args.import_url} if args.import_url else {}
        with Memory(Path(tmp) / "dst", embeddings="hash", **target) as other:
            written, imported, i_time = measured(lambda: other.import_(path, user_id=USER), trace)
            print(f"import_ of the JSON Lines file:  peak {imported:.1f} MB, {i_time:.1f} s, {written} memories")


if __name__ == "__main__":
    main()
