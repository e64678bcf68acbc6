"""The benchmark stays out of the product: no dev speaker, proper noun or line in dmem/, tests or examples.

Measures on the shared development data, so it skips where ``../shared/data`` is absent (a user's clone).
"""

from __future__ import annotations

import pytest

from tests.data_leaks import ROOT, SHARED_DATA, DevData, forbidden_names, load, ngrams, our_files, proper_nouns, scan

pytestmark = [pytest.mark.data,
              pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="no ../shared/data (development data)")]


@pytest.fixture(scope="module")
def dev() -> DevData:
    return load()


def test_the_lists_hold_what_the_data_says(dev: DevData) -> None:
    assert len(dev.speakers) >= 10 and len(dev.texts) > 1000
    names = forbidden_names(dev)
    assert dev.speakers <= names
    assert len(names) > 100
    assert len(ngrams(dev.texts)) > 10_000


@pytest.mark.slow
def test_no_dev_name_or_line_in_our_files(dev: DevData) -> None:
    hits = scan(dev)
    assert not hits, "\n".join(f"{h.path}:{h.line}: {h.found}" for h in hits[:50])


def test_the_checks_catch_a_copied_line_with_its_people_renamed() -> None:
    data = DevData(frozenset({"Wren"}), ("Hey Wren! Yesterday Juno showed me how to fold paper cranes by the river.",))
    assert "Juno" in proper_nouns(data.texts) and "Yesterday" not in proper_nouns(data.texts)
    copied = ngrams(["Odile showed me how to fold paper cranes by the river"])
    assert copied & ngrams(data.texts)  # renamed people, same line
    assert not ngrams(["She showed me how to make paper boats on the lake"]) & ngrams(data.texts)


def test_the_held_out_invented_chats_are_scanned() -> None:
    scanned = {path.relative_to(ROOT).as_posix() for path in our_files()}
    for batch in ("invented_chats_2", "invented_chats_3", "invented_chats_4", "invented_chats_5",
                  "invented_chats_6", "invented_chats_7", "invented_chats_8",
                  "invented_chats_9", "invented_chats_10", "invented_chats_11", "invented_chats_12",
                  "invented_chats_13", "invented_chats_14", "invented_chats_15", "invented_chats_16",
                  "invented_chats_17", "invented_chats_18", "invented_chats_19",
                  "invented_chats_20", "invented_chats_21", "invented_chats_22", "invented_chats_23",
                  "invented_chats_24", "invented_chats_25", "invented_chats_26", "invented_chats_27",
                  "invented_chats_28", "invented_chats_29", "invented_chats_30",
                  "invented_chats_31", "invented_chats_32", "invented_chats_33",
                  "invented_chats_34", "invented_chats_35", "invented_chats_36"):
        held_out = [name for name in scanned if name.startswith(f"benchmarks/data/{batch}/")]
        # batch 12 holds two long chats (for System 1 retrieval); the others three each
        assert len(held_out) == (2 if batch == "invented_chats_12" else 3)
        assert all(name.endswith(".json") for name in held_out)
