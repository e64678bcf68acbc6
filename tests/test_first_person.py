"""The first person's words have one home (``dmem.text.words``), as the second person's do: the asker's words
(``ASKER_SAID``, embedded and terse questions) and a reply's (``FIRST_PERSON``, with "mine") (h59e). Invented lines."""

from __future__ import annotations

import pytest

from dmem.decisions.offline.embedded import embedded
from dmem.text.words import ASKER_SAID, FIRST_PERSON

BOTH = (ASKER_SAID, FIRST_PERSON)


@pytest.mark.parametrize("line", ["can I come", "im off to Tromso", "ive lost it", "I'd go", "tell me", "my kayak",
                                  "we won", "our flat", "join us", "I'm done", "We're late"])
def test_both_find_the_speaker_in_i_me_my_we_our_us_and_chats_spellings(line: str) -> None:
    assert all(p.search(line) for p in BOTH)


@pytest.mark.parametrize("line", ["Iris sang", "the meadow", "an usher", "a mystery", "treat myself", "ours is blue",
                                  "a weir"])
def test_neither_finds_a_word_that_only_starts_like_one(line: str) -> None:
    assert not any(p.search(line) for p in BOTH)


def test_mine_is_only_a_replys_word() -> None:
    assert FIRST_PERSON.search("the red one is mine") and not ASKER_SAID.search("the red one is mine")


def test_a_heard_clause_in_chats_im_is_the_askers_own_news() -> None:
    found = embedded("did you hear im moving to Leeds in March", lambda s: s.split(), frozenset(), set(),
                     lambda s: True)
    assert found is not None and found.whose == "asker"
