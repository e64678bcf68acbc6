"""Stemming is safe from many threads: the eval ingests conversations in parallel threads."""

from __future__ import annotations

import threading

import pytest

from dmem.text.lexical import stem

WORDS = ["generously", "relational", "hopping", "agreed", "skies", "conditional", "happiness", "organization"]


@pytest.mark.slow
def test_threads_stem_alike_and_never_fail() -> None:
    alone = {w: stem.__wrapped__(w) for w in WORDS}  # bypass the cache: every call stems
    failures: list[BaseException] = []
    wrong: list[tuple[str, str]] = []
    start = threading.Barrier(8)

    def work() -> None:
        start.wait()
        try:
            for _ in range(1500):
                for w in WORDS:
                    got = stem.__wrapped__(w)
                    if got != alone[w]:
                        wrong.append((w, got))
        except Exception as exc:  # noqa: BLE001 - collected, asserted below
            failures.append(exc)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == [] and wrong == []
