"""A noun's number has one home (``dmem.text.nouns``): "a"/"an" before it, "is"/"are" after it (h59e). Invented."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dmem.decisions.offline.chains import answer_statement
from dmem.text.nouns import indefinite, looks_plural


@pytest.mark.parametrize(("noun", "plural"), [("boots", True), ("Kayaks", True), ("glass", False), ("CLASS", False),
                                              ("oven", False), ("s", True), ("", False)])
def test_a_final_s_but_not_ss_reads_plural(noun: str, plural: bool) -> None:
    assert looks_plural(noun) is plural


@pytest.mark.parametrize(("noun", "written"), [("oven", "an oven"), ("Umbrella", "an Umbrella"),
                                               ("kayak", "a kayak"), ("boots", "boots"), ("glass", "a glass")])
def test_an_article_before_a_singular_noun_and_none_before_a_plural(noun: str, written: str) -> None:
    assert indefinite(noun) == written


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzAEIOU", min_size=1, max_size=12))
def test_the_noun_is_kept_whole_and_an_article_comes_only_before_a_singular(noun: str) -> None:
    written = indefinite(noun)
    assert written.endswith(noun)
    assert (written == noun) is looks_plural(noun)


def test_an_answer_about_the_listeners_things_agrees_with_their_number() -> None:
    assert answer_statement("what are your hobbies?", "chess and sailing", "Rosalind") \
        == "Rosalind's hobbies are chess and sailing"
    assert answer_statement("what is your class?", "pottery", "Rosalind") == "Rosalind's class is pottery"
