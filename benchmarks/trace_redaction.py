"""What trace redaction costs: detector throughput, and Memory add+ask wall time per trace_redaction mode.

Runs offline: a fake chat model, hash embeddings, and a LangSmith collector on loopback (the one
the tests use) so that the client really serializes, redacts and sends every run.

    python benchmarks/trace_redaction.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.collector import Collector  # noqa: E402
from tests.conftest import default_script  # noqa: E402
from tests.privacy_corpus import NOT_PERSONAL, PERSONAL  # noqa: E402


def detector_throughput() -> tuple[int, float]:
    """Characters of the corpus (personal and look-alike sentences, 20 times) and seconds to scan them."""
    from dmem.privacy.detect import detect

    text = "\n".join([s for s, _, _ in PERSONAL] + [s for s, _ in NOT_PERSONAL]) * 20
    started = time.perf_counter()
    for line in text.splitlines():
        detect(line)
    return len(text), time.perf_counter() - started


def session(mode: str) -> float:
    """Seconds for add (the corpus as 61 exchanges) + one ask, traced into the collector, flushed."""
    import langsmith
    from langchain_core.tracers.langchain import wait_for_all_tracers

    from dmem.api import Memory
    from dmem.testing import FakeChatModel

    turns = []
    for i, sentence in enumerate([s for s, _, _ in PERSONAL] + [s for s, _ in NOT_PERSONAL]):
        turns += [{"speaker": "Maya", "text": sentence, "turn_id": f"t{i}"},
                  {"speaker": "assistant", "text": "Noted.", "turn_id": f"t{i}r"}]
    langsmith.configure(client=None)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        with Memory(Path(tmp) / "store", llm=FakeChatModel(script=default_script()), embeddings="hash",
                    trace_redaction=mode) as mem:
            mem.add(turns, user_id="maya")
            mem.ask("What is Maya's phone number?", user_id="maya")
        wait_for_all_tracers()
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    chars, seconds = detector_throughput()
    print(f"detector: {chars} characters in {seconds:.3f} s = {chars / seconds / 1000:.0f} k chars/s")
    collector = Collector()
    os.environ.update(LANGSMITH_ENDPOINT=collector.url, LANGSMITH_TRACING="true", LANGSMITH_API_KEY="bench")
    try:
        print("mode  median s  (add 61 exchanges + ask, traced and sent to a loopback collector)")
        for mode in ("off", "pii", "all"):
            times = [session(mode) for _ in range(args.repeat)]
            print(f"{mode:<5} {statistics.median(times):8.2f}  runs: {', '.join(f'{t:.2f}' for t in times)}")
    finally:
        collector.close()


if __name__ == "__main__":
    main()
