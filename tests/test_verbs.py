"""Verb forms shared by the rules that write a verb in another tense (dmem/text/verbs.py)."""

import pytest

from dmem.text.verbs import irregular_past, participle, past


@pytest.mark.parametrize(("base", "done", "been"), [
    ("get", "got", "gotten"), ("ride", "rode", "ridden"), ("swim", "swam", "swum"), ("knit", "knitted", "knitted"),
    ("pass", "passed", "passed"), ("bake", "baked", "baked"), ("try", "tried", "tried"), ("play", "played", "played"),
])
def test_past_and_participle(base: str, done: str, been: str) -> None:
    assert past(base) == done
    assert participle(base) == been


def test_case_of_the_written_verb() -> None:
    assert past("Pass") == "passed"  # the simple past is written lower-case
    assert participle("Bake") == "Baked"  # a regular verb keeps the case it was written in
    assert participle("Ride") == "ridden"


def test_irregular_past_is_a_past_not_a_base() -> None:
    assert irregular_past("went") and irregular_past("Got")
    assert not irregular_past("go") and not irregular_past("passed")


def test_pasts_a_one_word_deed_uses() -> None:
    # A confirmed question writes "lent the drill", not "lended"; "forgot", "slept" are pasts, not bases.
    assert irregular_past("lent") and irregular_past("forgot") and irregular_past("slept")
    assert past("lend") == "lent" and participle("forget") == "forgotten" and past("steal") == "stole"
