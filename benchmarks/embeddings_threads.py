"""How the ONNX MiniLM should use the cores: threading, spinning and batch size, side by side.

Each configuration embeds the first --sentences LoCoMo dev turns (../shared/data) --rounds times, all
configurations in turn in one process (so a busy machine slows them alike); prints the best and median
sentences/s and the median CPU milliseconds a sentence (all threads: spinning shows there).
Configurations (--configs, comma-separated):
- ``dmem``: the default, ``OnnxMiniLMEmbeddings()`` (one onnxruntime thread a batch, batches at once);
- ``ortN-bB`` / ``ortN-spin-bB``: one batch of B at a time on N onnxruntime threads (idle threads
  sleeping / spinning), as the default was before;
- ``onceN-bB``: batches of B, one onnxruntime thread each, N at once;
- ``torch``: the PyTorch model (needs the dmem[torch] extra).
Usage: python benchmarks/embeddings_threads.py [--sentences 300] [--rounds 3]
       [--configs dmem,ort2-b16,ort2-spin-b16,once2-b8,torch]
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from typing import Any

from _fake_world import LOCOMO, need_data

from dmem.datasets.datasets import load_dataset
from dmem.models.embeddings_local import LocalMiniLMEmbeddings
from dmem.models.embeddings_onnx import OnnxMiniLMEmbeddings
from dmem.models.embeddings_torch import TorchMiniLMEmbeddings


class OneBatchAtATime(OnnxMiniLMEmbeddings):
    """Batches one after another, each on ``threads`` onnxruntime threads, idle ones sleeping or spinning."""

    def __init__(self, batch_size: int, threads: int, spin: bool) -> None:
        super().__init__(batch_size=batch_size, threads=1)
        self.ort_threads, self.spin = threads, spin

    def session_options(self, ort: Any) -> Any:
        options = super().session_options(ort)
        options.intra_op_num_threads = self.ort_threads
        options.add_session_config_entry("session.intra_op.allow_spinning", "1" if self.spin else "0")
        return options


def model(config: str) -> LocalMiniLMEmbeddings:
    if config == "dmem":
        return OnnxMiniLMEmbeddings()
    if config == "torch":
        return TorchMiniLMEmbeddings()
    if m := re.fullmatch(r"ort(\d+)(-spin)?-b(\d+)", config):
        return OneBatchAtATime(int(m[3]), int(m[1]), bool(m[2]))
    if m := re.fullmatch(r"once(\d+)-b(\d+)", config):
        return OnnxMiniLMEmbeddings(batch_size=int(m[2]), threads=int(m[1]))
    raise SystemExit(f"unknown configuration {config!r} (see the module docstring)")


def option(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main() -> None:
    need_data()
    configs = option("--configs", "dmem,ort2-b16,ort2-spin-b16,once2-b8,torch").split(",")
    dataset = load_dataset("locomo", LOCOMO)
    sentences = [m.text for c in dataset.conversations for m in c.messages][: int(option("--sentences", "300"))]
    models = {c: model(c) for c in configs}
    for emb in models.values():
        emb.embed_documents(sentences[:16])  # load and warm up
    speed: dict[str, list[float]] = {c: [] for c in configs}
    cpu: dict[str, list[float]] = {c: [] for c in configs}
    for _ in range(int(option("--rounds", "3"))):
        for c, emb in models.items():
            wall, used = time.perf_counter(), time.process_time()
            emb.embed_documents(sentences)
            speed[c].append(len(sentences) / (time.perf_counter() - wall))
            cpu[c].append(1000 * (time.process_time() - used) / len(sentences))
    print(f"{len(sentences)} LoCoMo dev sentences")
    print(f"{'configuration':<16}{'best/s':>8}{'median/s':>10}{'CPU ms each':>13}")
    for c in configs:
        print(f"{c:<16}{max(speed[c]):>8.0f}{statistics.median(speed[c]):>10.0f}{statistics.median(cpu[c]):>13.1f}")


if __name__ == "__main__":
    main()
