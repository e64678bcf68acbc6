"""Stemming is safe from many threads: the eval ingests conversations in parallel threads."""

from __future__ import annotations

import threading

import pytest

from dmem.text import lexical
from dmem.text.lexical import stem

WORDS = ["generously", "relational", "hopping", "agreed", "skies", "conditional", "happiness", "organization"]


@pytest.mark.slow
def test_threads_stem_alike_and_never_fail() -> None:
    uncached = lexical._porter.__wrapped__  # the stemmer behind stem's cache: every call stems
    alone = {w: uncached(w) for w in WORDS}
    assert alone == {w: stem(w) for w in WORDS}
    failures: list[BaseException] = []
    wrong: list[tuple[str, str]] = []
    start = threading.Barrier(8)

    def work() -> None:
        start.wait()
        try:
            for _ in range(1500):
                for w in WORDS:
                    got = uncached(w)
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
