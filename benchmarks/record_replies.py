"""Record real model replies for the test suite: the scenario of ``tests/real_replies.py`` on a live server.

Every request dmem sends goes through a recording proxy on loopback, which forwards it to the
server and appends the reply to ``tests/fixtures/replies/<mode>.jsonl``; the tests replay those
files, so CI exercises dmem against real model output without the server.

Usage (the server from ../shared/tools/llm-server.sh):
    ../shared/tools/llm-server.sh start 8091
    python benchmarks/record_replies.py http://127.0.0.1:8091/v1 [mode ...]
    ../shared/tools/llm-server.sh stop
Modes: function_calling prompt auto json_mode json_schema (default: all). Slow: a 0.5B model on
two cores answers in seconds to minutes; each mode takes tens of minutes. A request recorded
before (by any mode) is answered from its recording, so an interrupted run resumes where it
stopped; delete a mode's file to record it afresh.
"""

from __future__ import annotations

import logging
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dmem.testing_http import ChatServer, Recording, ServerCount, proxy  # noqa: E402
from tests.real_replies import FIXTURES, MODES, run_forced_json_schema, run_mode  # noqa: E402


def record(upstream: str, mode: str) -> None:
    """Run one mode's part of the scenario through the recording proxy; print what it cost."""
    path = FIXTURES / f"{mode}.jsonl"  # new replies are appended: delete it to record a mode afresh
    known = Recording()  # replies recorded already, by any mode ('auto' starts as function calling)
    for other in sorted(FIXTURES.glob("*.jsonl")):
        for key, items in Recording.load(other).entries.items():
            known.entries.setdefault(key, []).extend(items)
    count = ServerCount()
    started = time.perf_counter()
    with ChatServer(proxy(upstream, Recording(), path, count, known=known)) as server, \
            tempfile.TemporaryDirectory() as d:
        if mode == "json_schema":
            print(f"json_schema: {run_forced_json_schema(server.url, Path(d))}")
        else:
            run = run_mode(server.url, mode, Path(d))
            total = run.ingest.usage()["total"]
            print(f"{mode}: ingest {[e.status for e in run.ingest.exchanges]}, {total.calls} calls "
                  f"({total.retries} retried)")
            for (question, policy), ans in run.answers.items():
                print(f"  {policy:<9} {question!r} -> {ans.answer!r} ({ans.route}, unaudited={ans.unaudited})")
    print(f"  server: {count.requests} requests, {count.input_tokens} in / {count.output_tokens} out tokens, "
          f"{time.perf_counter() - started:.0f}s ({known.exact} answered from earlier recordings); "
          f"recorded in {path.relative_to(ROOT)}", flush=True)


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for mode in sys.argv[2:] or [*MODES, "json_schema"]:
        record(sys.argv[1], mode)


if __name__ == "__main__":
    main()
