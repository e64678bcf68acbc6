"""The soak's verdict on its last third: flat within a stated tolerance, or not, and why."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def soak() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "soak.py"
    spec = importlib.util.spec_from_file_location("soak_benchmark", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def samples(mb_at: object, seconds: int = 600) -> list[tuple[float, float]]:
    return [(float(t), float(mb_at(t))) for t in range(0, seconds + 1, 5)]  # type: ignore[operator]


def test_a_steady_process_with_one_mb_steps_is_flat(soak: ModuleType) -> None:
    verdict = soak.flatness(samples(lambda t: 170 + (t // 40) % 2))  # 1 MB up and down
    assert verdict.startswith("flat: yes") and "2.0 MB" in verdict


def test_a_process_growing_two_and_a_half_mb_a_minute_is_not(soak: ModuleType) -> None:
    verdict = soak.flatness(samples(lambda t: 160 + 2.5 * t / 60))
    assert verdict.startswith("flat: no") and "+2.50 MB/min" in verdict and "+8.3 MB" in verdict


def test_the_tolerance_is_one_percent_of_a_large_process(soak: ModuleType) -> None:
    verdict = soak.flatness(samples(lambda t: 1000 + 0.9 * t / 60))  # +3 MB in the last third of 1 GB
    assert verdict.startswith("flat: yes") and "10.1 MB" in verdict  # 1 % of the median, 1,008 MB


def test_too_few_samples_give_no_verdict(soak: ModuleType) -> None:
    assert soak.flatness([(0.0, 150.0), (5.0, 151.0)]).startswith("flat: unknown")


def test_the_soak_chat_is_unique_per_send_over_a_fixed_vocabulary(soak: ModuleType) -> None:
    from dmem.text.lexical import tokenize

    texts: set[str] = set()
    words: set[str] = set()
    early: set[str] = set()
    for n in range(3_000):
        pair = soak.exchange("chat", n, "ing0", f"ing0-{n}")
        texts.update(pair)
        words.update(w for text in pair for w in tokenize(text))
        if n == 40:
            early = set(words)
    assert len(texts) == 6_000, "every send's two turns unique: lost and duplicated turns are counted by text"
    assert words == early and len(words) < 200, "the words stop growing after the first sends"
    said, reply = soak.exchange("unique", 7, "ing0", "ing0-7")
    assert "Ing0x7" in said and "ing0-7" in reply  # the old texts, a new word a send, kept for comparison
