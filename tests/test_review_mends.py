"""Helpers the offline rules had written more than once now have one home each (issue #26, stop 51, h51d).

The question words (``dmem.text.words.WH`` and the variants each stage was tuned with), a text's first word
(``dmem.text.lexical.first_word``) and the speaker's stored memory a line goes on with (``followup.own_memory``).
Each finds what it names and nothing past it, and the stages read them as they read their own copies. Invented
lines only.
"""

from __future__ import annotations

import pytest

from dmem.decisions.offline import followup, leaning, worldline
from dmem.text.asked import elliptical_check
from dmem.text.lexical import first_word
from dmem.text.words import WH, WH_ANYWHERE, WH_FOLLOWUP, WH_OPENING, alternation


@pytest.mark.parametrize("line", ["what's the ferry called", "hows Moss", "Where did you park", "why not",
                                  "...who won", "which one", "how's the loft", "whats new with the band"])
def test_every_variant_finds_a_question_word(line: str) -> None:
    assert WH_OPENING.search(line) and WH_ANYWHERE.search(line)
    assert followup._ASKING.search(line)


@pytest.mark.parametrize("line", ["whatever you say", "somewhere near the pier", "showcase on friday",
                                  "the whole crew", "anyhow the gate"])
def test_no_variant_finds_a_word_that_only_contains_one(line: str) -> None:
    assert not WH_OPENING.search(line) and not WH_ANYWHERE.search(line)


def test_the_opening_variant_reads_only_how_a_line_opens() -> None:
    assert WH_OPENING.search("  what a week") and not WH_OPENING.search("no idea what he meant")


def test_chat_contractions_and_whom_whose_are_only_in_the_anywhere_variant() -> None:
    for line in ("wheres the tandem", "whens the regatta", "whos Ferdie", "whose kayak", "to whom"):
        assert WH_ANYWHERE.search(line) and not WH_OPENING.search(line)
    assert not elliptical_check("whose kayak?") and elliptical_check("the green tandem?")


def test_whatd_is_only_in_the_followup_variant() -> None:
    assert "whatd" in WH_FOLLOWUP.split() and "whatd" not in WH.split()
    assert followup._ASKING.search("whatd she say") and not WH_ANYWHERE.search("whatd she say")


def test_alternation_escapes_each_word() -> None:
    assert alternation("a.b c") == r"a\.b|c"


def test_a_short_line_opening_as_a_question_states_nothing_but_a_plain_one_does() -> None:
    assert not worldline.short_statement(["hows the boiler"], [None], ["boiler"])
    assert worldline.short_statement(["the boiler packed in"], [None], ["boiler", "packed"])


@pytest.mark.parametrize(("text", "first"), [("Moss sleeps", "Moss"), ("  \tdrove  home ", "drove"), ("", ""),
                                             ("   ", ""), ("solo", "solo")])
def test_first_word_is_the_first_word_as_written_or_empty(text: str, first: str) -> None:
    assert first_word(text) == first


def test_a_line_doing_something_now_opens_with_a_progressive_and_an_empty_one_does_not() -> None:
    assert worldline._doing_now("eating lunch at the pier") and worldline._doing_now('"sending it now')
    assert not worldline._doing_now("morning swim was cold") and not worldline._doing_now("") \
        and not worldline._doing_now("   ")


def test_a_piece_points_back_by_its_first_word_whatever_its_case_and_trailing_mark() -> None:
    assert leaning.points_back("It, opens at noon") and not leaning.points_back("Noon is when it opens")
    assert not leaning.points_back("  ")


MEMORIES = ["Orla keeps a red kayak at the lake", "Orla paddles from the old jetty at the lake every Sunday",
            "Tam keeps a red kayak at the lake"]


def test_own_memory_is_the_speakers_memory_sharing_the_most_stems() -> None:
    stems = {"jetti", "lake", "sunday"}
    assert followup.own_memory(stems, "Orla Finn", MEMORIES, 2) == MEMORIES[1]
    assert followup.own_memory(stems, "Tam", MEMORIES, 1) == MEMORIES[2]  # Tam's own, though it shares less


def test_own_memory_needs_the_least_shared_and_keeps_to_the_longest_allowed() -> None:
    stems = {"jetti", "lake", "sunday"}
    assert followup.own_memory(stems, "Orla", MEMORIES, 4) is None
    assert followup.own_memory(stems, "Orla", MEMORIES, 1, max_words=8) == MEMORIES[0]  # the longer one is out
    assert followup.own_memory({"kayak", "red"}, "Orla", MEMORIES, 2) == MEMORIES[0]  # the first of equals


def test_news_memory_asks_for_half_the_news_stems() -> None:
    assert followup.news_memory("jetty lake sunday", "Orla", MEMORIES) == MEMORIES[1]
    assert followup.news_memory("jetty rowing club regatta", "Orla", MEMORIES) is None
