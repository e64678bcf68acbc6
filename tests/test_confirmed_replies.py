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
from dmem.decisions.offline.confirmed import clarified, confirmed_statement, outcome, past, verb_echo
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
    assert facts("want to come over?", "yes") == []  # an invitation naming no plan, accepted: no fact
    # one to a dated plan is a fact of both (stop 58, tests/test_question_chains.py)
    assert facts("want to come to the flea market on sunday?", "yes") == [
        ("Osric accepted Ines's invitation to come to the flea market on sunday", ["D5:1", "D5:2"])]
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
    # a rest that is a fact of its own joins the stated line when it goes on with its topic (B47d), else not
    assert facts("do you drink coffee yet?", "Nope. Still hate the smell of coffee") == [
        ("Osric does not drink coffee yet; Osric still hates the smell of coffee", ["D5:1", "D5:2"])]
    assert facts("do you drink coffee yet?", "Nope. I joined a rowing club in Harwick") == [
        ("Osric does not drink coffee yet", ["D5:1", "D5:2"]),
        ("Osric joined a rowing club in Harwick", ["D5:1", "D5:2"])]


def test_an_open_question_and_a_reply_that_is_no_yes_or_no_stay_framed() -> None:
    assert confirmed_statement("does Osric have any pets?", "yes", "Osric") is None  # a yes does not say which
    assert confirmed_statement("does Osric have plans for the weekend?", "nice one", "Osric") is None
    assert confirmed_statement("has Osric tried the plum cake?", "Osric hasn't tried it", "Osric") == (
        "Osric has not tried the plum cake")


def exchange(*lines: tuple[str, str]) -> list[tuple[str, list[str]]]:
    """The facts the last line forms after the lines before it (speaker, text), with their sources."""
    turns = [turn(text, who, i + 1) for i, (who, text) in enumerate(lines)]
    admitted, _ = judge_utterance(turns[-1], turns[:-1])
    if not admitted:
        return []
    return [(f.text, f.source_turn_ids) for f in facts_from_message(turns[-1], turns, [], gated=True)]


@pytest.mark.parametrize(("question", "reply", "fact"), [
    ("how did the exam go?", "passed!!", "Osric passed the exam"),
    ("how did your driving test go in the end??", "nailed it", "Osric nailed the driving test"),
])
def test_how_the_asked_event_went_is_stated_with_the_event(question: str, reply: str, fact: str) -> None:
    assert facts(question, reply) == [(fact, ["D5:1", "D5:2"])]


def test_an_outcome_that_says_more_or_no_outcome_verb_stays_framed() -> None:
    assert outcome("how did the exam go?", "went ok i think", "Osric") is None
    assert outcome("how did the exam go?", "passed the written part, failed the oral", "Osric") is None


def test_a_noun_phrase_asked_back_names_the_it_of_the_speakers_news() -> None:
    assert exchange(("Ines", "THE BOATYARD JOB???"), ("Osric", "got it!!")) == [
        ("Osric got the boatyard job", ["D5:1", "D5:2"])]
    assert exchange(("Osric", "i got it"), ("Ines", "THE JOB???"), ("Osric", "yeah 😭😭")) == [
        ("Osric got the job", ["D5:1", "D5:2", "D5:3"])]


def test_an_answer_to_a_noun_phrase_asked_back_keeps_the_news_it_asks_about() -> None:
    assert exchange(("Osric", "GOT A CALLBACK"), ("Ines", "AAAH"), ("Ines", "the theatre one??"),
                    ("Osric", "mhm. friday at 6")) == [
        ('Osric added to "Osric got a callback": the theatre one; mhm; friday at 6', ["D5:1", "D5:3", "D5:4"])]


def test_a_noun_phrase_asked_back_without_news_or_with_a_denial_forms_nothing() -> None:
    assert exchange(("Ines", "THE JOB???"), ("Osric", "yeah")) == []  # no "it" of the speaker's to name
    assert exchange(("Osric", "i got it"), ("Ines", "THE JOB???"), ("Osric", "nope")) == []
    assert exchange(("Ines", "THE JOB???"), ("Osric", "lol")) == []
    assert clarified("plans?", "yeah", "i got it") is None  # no "the": asks what, not which
    assert clarified("the job?", "yeah", "i love it") is None  # "love" is no news done


def test_what_a_stated_confirmation_goes_on_to_say_joins_it() -> None:
    assert facts("are you using the blue glaze?", "Yes. I mix the glaze from ash and feldspar every spring") \
        == [("Osric is using the blue glaze; Osric mixes the glaze from ash and feldspar every spring",
             ["D5:1", "D5:2"])]


def test_an_opinion_asked_yes_or_no_stays_framed() -> None:
    assert confirmed_statement("does Osric think it's silly to swim in march?", "not silly", "Osric") is None
