"""``dmem.decisions.offline.register``: chat spellings written out, edges stripped, a dropped subject put back only
where chat drops it. Invented lines only."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dmem.decisions.offline import register


@pytest.mark.parametrize(("said", "written"), [
    ("gonna bake tmrw bc it's my bday", "going to bake tomorrow because it's my birthday"),
    ("ur so funny 😂", "you're so funny"),
    ("is ur sister coming", "is your sister coming"),
    ("it was cheap :( but fine", "it was cheap but fine"),
    ("the U.S. office", "the U.S. office"),
])
def test_standard_writes_chat_spellings_out(said: str, written: str) -> None:
    assert register.standard(said) == written


@pytest.mark.parametrize(("said", "plain"), [
    ("lol I teach pottery haha", "I teach pottery"),
    ("tbh my aunt raised me lmaooo", "my aunt raised me"),
    ("lowkey love this town, you know", "love this town"),
    ("lol", "lol"), ("hahaha", "hahaha"),
])
def test_plain_strips_the_edges_but_never_everything(said: str, plain: str) -> None:
    assert register.plain(said) == plain


@pytest.mark.parametrize(("said", "restored"), [
    ("usually cycle to the studio", "I usually cycle to the studio"),
    ("big fan of sea shanties", "I'm a big fan of sea shanties"),
    ("used to fence at school", "I used to fence at school"),
    ("quit the choir last month", "I quit the choir last month"),
    ("flying to Tromso on friday", "I'm flying to Tromso on friday"),
    ("going to be a long week", "It's going to be a long week"),
])
def test_restore_puts_back_the_subject_chat_dropped(said: str, restored: str) -> None:
    assert register.restore(said) == restored


@pytest.mark.parametrize("said", [
    "Always wear a helmet", "Wedding is next week", "Quit it", "Used to it by now",
    "Juggling choir and night classes seems rough next month", "Packing for the ferry on monday, I lost my keys",
    "Something big next week", "do you usually cook?",
])
def test_restore_leaves_what_chat_did_not_drop(said: str) -> None:
    assert register.restore(said) == said


_PIECES = st.sampled_from(["lol", "haha", "tbh", "ngl", " ", ",", "!", "😂", "I", "run", "a", "lot"])


@given(st.lists(_PIECES, max_size=12).map(" ".join))
def test_plain_never_empties_a_clause_with_words(text: str) -> None:
    if re.search(r"\w", text):
        assert re.search(r"\w", register.plain(text))
