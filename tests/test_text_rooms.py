"""Text helpers that several admission rules share, each in one room (stop 48 review items).

- ``straighten``: a curly apostrophe reads as a straight one, once per text, before any rule looks at it;
  the confirmed-reply, question-fact and embedded-question rules read a curly line the way they read a straight one.

Invented people and events only.
"""

from __future__ import annotations

import pytest

from dmem.decisions.offline.confirmed import clarified, confirmed_statement, outcome, thing_asked, verb_echo
from dmem.text.answers import yes_no_echo
from dmem.text.lexical import straighten, tokenize

CURLY = "\u2019"


def test_straighten_turns_each_curly_apostrophe_straight_and_keeps_the_rest() -> None:
    assert straighten(f"I{CURLY}ve sold Pim{CURLY}s old kayak, didn{CURLY}t I?") == "I've sold Pim's old kayak, didn't I?"
    assert straighten("no apostrophe here") == "no apostrophe here"
    assert straighten("\u2018quoted\u201d") == "\u2018quoted\u201d"  # only the apostrophe; quote marks stay


def test_tokenize_reads_a_curly_line_as_the_straight_one() -> None:
    straight = "Wren's ferry didn't leave, I'm stuck in Harwick"
    assert tokenize(straight.replace("'", CURLY)) == tokenize(straight) == [
        "wren's", "ferry", "didn't", "leave", "i'm", "stuck", "in", "harwick"]


@pytest.mark.parametrize(("question", "reply", "speaker", "before"), [
    ("did Osric get the job at the boatyard?", "got it!!", "Osric", None),
    ("did Osric get the job at the boatyard?", "nope, didn't get it", "Osric", None),
    ("how did Osric's driving test go?", "passed!!", "Osric", None),
    ("THE APPRENTICESHIP???", "yeah", "Osric", "i got it"),
])
def test_confirmed_replies_read_curly_and_straight_alike(question: str, reply: str, speaker: str,
                                                         before: str | None) -> None:
    curly = confirmed_statement(question.replace("'", CURLY), reply.replace("'", CURLY), speaker,
                                before and before.replace("'", CURLY))
    assert curly is not None
    assert curly == confirmed_statement(question, reply, speaker, before)


def test_each_public_confirmation_rule_straightens_its_own_inputs() -> None:
    assert verb_echo("did you finish the quilt?", f"didn{CURLY}t finish it")
    assert outcome(f"how did Osric{CURLY}s exam go?", "aced it", "Osric") == "Osric aced the exam"
    assert thing_asked(f"the band{CURLY}s gig??") == "the band's gig"
    assert clarified(f"the band{CURLY}s gig??", "booked it!!") == "booked the band's gig"
    assert yes_no_echo("did you find the keys?", f"I didn{CURLY}t") == yes_no_echo("did you find the keys?", "I didn't")
