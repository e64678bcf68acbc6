"""A short reply that confirms or denies the other speaker's question about the speaker's own doing (B46d).

"did you get the job?" -> "got it!!" / "nope, didn't get it" forms one fact stating the question's content as
the speaker's, negated on a denial, with both turns as sources; an offer, a question about the world and filler
stay out. Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.chains import answer_statement
from dmem.decisions.offline.confirmed import confirmed_statement, past, verb_echo
from dmem.decisions.offline.replies import restore_subject
from dmem.decisions.offline.splitting import facts_from_message
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="D5", when=datetime(2025, 4, 2, 18, 0))


def facts(question: str, reply: str) -> list[tuple[str, list[str]]]:
    """The facts the reply forms after the question (asked by Ines, answered by Osric), with their sources."""
    asked, said = turn(question, "Ines", 1), turn(reply, "Osric", 2)
    admitted, _ = judge_utterance(said, [asked])
    if not admitted:
        return []
    return [(f.text, f.source_turn_ids) for f in facts_from_message(said, [asked, said], [], gated=True)]


@pytest.mark.parametrize(("reply", "fact"), [
    ("got it!!", "Osric got the job at the boatyard"),
    ("i got it", "Osric got the job at the boatyard"),
    ("yep", "Osric got the job at the boatyard"),
    ("nope, didn't get it", "Osric did not get the job at the boatyard"),
])
def test_a_confirmation_or_denial_states_the_question_as_the_speakers_fact(reply: str, fact: str) -> None:
    assert facts("did you get the job at the boatyard?", reply) == [(fact, ["D5:1", "D5:2"])]


def test_a_verb_echo_with_its_subject_dropped_confirms_the_listeners_own_doing() -> None:
    assert facts("have u booked the ferry to Skerry?", "booked!!") == [
        ("Osric has booked the ferry to Skerry", ["D5:1", "D5:2"])]
    assert facts("did you see the regatta last night?", "yep") == [
        ("Osric saw the regatta last night", ["D5:1", "D5:2"])]


def test_a_short_value_answering_when_the_listeners_thing_is_states_both() -> None:
    assert facts("when is your dentist appointment?", "tuesday") == [
        ("Osric's dentist appointment is on tuesday", ["D5:1", "D5:2"])]
    assert answer_statement("when's ur viva?", "the 14th", "Osric") == "Osric's viva is on the 14th"


def test_offers_world_questions_other_content_and_filler_stay_out() -> None:
    assert facts("want to come to the flea market on sunday?", "yes") == []  # an offer accepted: no fact
    assert facts("did you get the job at the boatyard?", "ok") == []
    assert facts("did you get the job at the boatyard?", "lol") == []
    assert not verb_echo("did you get the job?", "got a cold")  # another thing got, not a confirmation
    assert not verb_echo("did the bakery get its licence?", "got it")  # not the listener's doing
    # a reply saying more than yes or no is kept framed with its question, not turned into the question
    assert confirmed_statement("did Osric get the job?", "yep, starting monday", "Osric") is None
    assert confirmed_statement("is the bakery on Elm Row open?", "yes", "Osric") is None


def test_a_shouted_dropped_subject_line_is_the_speakers_in_lower_case() -> None:
    assert restore_subject("GOT AN INTERVIEW") == "I got AN INTERVIEW"
    assert restore_subject("passed my theory test") == "I passed my theory test"
    assert [past(v) for v in ("get", "pass", "try", "bake", "sell")] == ["got", "passed", "tried", "baked", "sold"]


def test_the_rest_of_a_longer_reply_joins_the_stated_line_so_no_memory_is_added() -> None:
    joined = facts("do you drink coffee yet?", "Nope. Too bitter. Never")
    assert joined == [("Osric does not drink coffee yet; Too bitter; Never", ["D5:1", "D5:2"])]
    # a rest that is a fact of its own stays one, as before
    assert facts("do you drink coffee yet?", "Nope. Still hate the smell") == [
        ("Osric does not drink coffee yet", ["D5:1", "D5:2"]), ("Osric still hates the smell", ["D5:1", "D5:2"])]


def test_an_open_question_and_a_reply_that_is_no_yes_or_no_stay_framed() -> None:
    assert confirmed_statement("does Osric have any pets?", "yes", "Osric") is None  # a yes does not say which
    assert confirmed_statement("does Osric have plans for the weekend?", "nice one", "Osric") is None
    assert confirmed_statement("has Osric tried the plum cake?", "Osric hasn't tried it", "Osric") == (
        "Osric has not tried the plum cake")
