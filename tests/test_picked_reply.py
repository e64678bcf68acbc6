"""A bare reply that names one thing of the other speaker's long message, or agrees to it (``picked``), offline: the
reply is kept with the sentence it names, both turns its sources. Replies that share nothing with the message (an ack
to a joke, a dish for "you do dessert"), react, ask, or are of another kind than the question stay out. Invented
conversations only."""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline import frames, picked
from dmem.decisions.offline.admission import judge_utterance
from dmem.state.schemas import Message
from tests.conftest import chat_turn, drafted_last

WHEN = datetime(2026, 5, 11, 19, 40)
FLATS = ("I saw all three flats today, so here is what I think before I forget.\n\n"
         "The attic on Ferris Row was the worst. Tiny, and the boiler groans all night. It's out.\n\n"
         "The harbour flat was lovely. Big windows, a balcony over the boats, and the landlord seemed fair. "
         "The stairs are steep though.\n\n"
         "The cottage by the mill has a garden, but it's forty minutes from work and the damp is bad.")
STORIES = ("For your toast, pick two stories. One about Bertram as a boy (the time he painted the cat blue), "
           "and one about why he and Odile fit. Keep it short.")


def _chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of an invented chat between Maren and Quill, in order."""
    return [chat_turn(text, who, i + 1, session="T1", when=WHEN) for i, (who, text) in enumerate(lines)]


_facts = functools.partial(drafted_last, gated=False)


def test_a_bare_pick_names_the_sentence_of_the_long_message_it_chooses() -> None:
    turns = _chat(("Maren", FLATS), ("Quill", "harbour one 🏠"))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted, reason
    assert "Maren's message, which the reply names ('The harbour flat was lovely.')" in reason
    assert _facts(turns) == [('Quill replied to Maren\'s "The harbour flat was lovely": harbour one',
                              ["T1:1", "T1:2"])]


def test_a_pick_among_listed_stories_takes_the_sentence_naming_it() -> None:
    turns = _chat(("Maren", STORIES), ("Quill", "the cat story 😂"))
    facts = _facts(turns)
    assert len(facts) == 1 and facts[0][1] == ["T1:1", "T1:2"]
    assert facts[0][0].startswith("Quill replied to Maren's \"One about Bertram as a boy (the time he painted the cat")


def test_all_three_agrees_to_the_sentence_announcing_the_set() -> None:
    turns = _chat(("Maren", FLATS), ("Quill", "agree on all three"))
    facts = _facts(turns)
    assert facts == [('Quill agreed to Maren\'s "Maren saw all three flats today, so here is what Maren thinks before '
                      'Maren forgets": agree on all three', ["T1:1", "T1:2"])]


@pytest.mark.parametrize(("proposal", "reply", "sentence", "said"), [
    ("Saturday the 14th then, round the lake, 12 kilometres.", "👍 14th",
     "Saturday the 14th then, round the lake, 12 kilometres", "14th"),
    ("Bring the big pan and your good knife. I'm coming at four.", "4 👍", "Maren is coming at four", "4"),
    ("Saturday the 14th then, round the lake, 12 kilometres.", "ok, 14th",
     "Saturday the 14th then, round the lake, 12 kilometres", "14th"),
])
def test_a_thumbs_up_with_the_value_agrees_to_the_proposal(proposal: str, reply: str, sentence: str,
                                                           said: str) -> None:
    turns = _chat(("Quill", "so when do we walk"), ("Maren", proposal), ("Quill", reply))
    assert _facts(turns) == [(f'Quill agreed to Maren\'s "{sentence}": {said}', ["T1:2", "T1:3"])]


def test_a_question_inside_the_message_is_answered_by_the_option_named() -> None:
    turns = _chat(("Maren", "Long day. I'm putting the kettle on. Coffee or tea?"), ("Quill", "green tea"))
    assert picked.picked(turns[-1], turns[:-1]) is not None
    assert _facts(turns)[0][1] == ["T1:1", "T1:2"]


def test_noted_with_a_thing_of_a_long_message_agrees_to_its_sentence() -> None:
    advice = "Okay, advice. Tonight, warmth for twenty minutes. Do the stretch ten times. Then rest."
    turns = _chat(("Maren", advice), ("Quill", "stretch. noted"))
    found = picked.picked(turns[-1], turns[:-1])
    assert found is not None and found.stance == "agreed" and found.question == "Do the stretch ten times."
    turns = _chat(("Maren", "Do the stretch slowly."), ("Quill", "stretch. noted"))  # a short line: an echo
    assert picked.picked(turns[-1], turns[:-1]) is None


def test_a_second_bare_reply_after_the_speakers_own_still_reaches_the_message() -> None:
    turns = _chat(("Maren", FLATS), ("Quill", "agree on all three"), ("Quill", "harbour one"))
    assert _facts(turns) == [('Quill replied to Maren\'s "The harbour flat was lovely": harbour one',
                              ["T1:1", "T1:3"])]


@pytest.mark.parametrize("lines", [
    (("Maren", "The goat ate my homework, then asked for seconds."), ("Quill", "😂 ok")),  # an ack to a joke
    (("Maren", "You do the dessert, I'll do the pie."), ("Quill", "trifle")),  # shares no word: not found
    (("Maren", "Same cafe as last time, the one with the green door."), ("Quill", "same lol")),  # a reaction
    (("Maren", "When do we meet at the harbour?"), ("Quill", "harbour one")),  # a place for "when"
    (("Maren", FLATS), ("Quill", "she'll hate the harbour")),  # speaks of someone: judged on its own words
])
def test_replies_naming_nothing_of_the_message_pick_nothing(lines: tuple[tuple[str, str], ...]) -> None:
    turns = _chat(*lines)
    assert picked.picked(turns[-1], turns[:-1]) is None


def test_the_frame_reads_back_what_was_said() -> None:
    line = frames.picked("Quill", "Maren", "The harbour flat was lovely", "harbour one", agreed=False)
    assert frames.said(line) == "harbour one" and frames.pieces(line) == ["harbour one"]
    assert frames.said(frames.picked("Quill", "Maren", "Saturday the 14th then", "14th", agreed=True)) == "14th"
