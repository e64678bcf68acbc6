"""A reply to a question that names nothing takes its topic from the replier's own news just before it (B48b).

"failed the test" / "noo what happened" / "the roundabout": the question names nothing, so the reply is judged
with the news it asks after, as one unit of three turns: a fragment that says too little alone forms a fact
written with the news, and a reply framed with the empty question is written with the news instead. A question
naming its own topic, filler, a reply about the listener, and a line before the question that is no news of the
speaker's stay as they were. Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline import admission
from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.followup import names_nothing, news_memory
from dmem.decisions.offline.splitting import facts_from_message
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="D7", when=datetime(2025, 6, 3, 20, 0))


def exchange(*lines: tuple[str, str], memories: tuple[str, ...] = ()) -> list[tuple[str, list[str]]]:
    """The facts the last line forms after the lines before it (speaker, text), with their sources."""
    turns = [turn(text, who, i + 1) for i, (who, text) in enumerate(lines)]
    admitted, _ = judge_utterance(turns[-1], turns[:-1], memories)
    if not admitted:
        return []
    return [(f.text, f.source_turn_ids) for f in facts_from_message(turns[-1], turns, [], gated=True,
                                                                     memories=memories)]


@pytest.mark.parametrize("question", ["noo what happened", "hows it", "and??", "how come", "why", "how was it",
                                      "what did they say", "tell me more", "Which one?", "WHEN"])
def test_a_follow_up_that_asks_to_go_on_names_nothing(question: str) -> None:
    assert names_nothing(question)


@pytest.mark.parametrize("question", ["how's the new boiler?", "what did Pia say", "Who's T?", "and Bram?",
                                      "what happened at the harbour festival on saturday night"])
def test_a_question_naming_its_own_topic_is_no_follow_up(question: str) -> None:
    assert not names_nothing(question)


def test_a_fragment_after_what_happened_is_told_with_the_news() -> None:
    assert exchange(("Tamsin", "failed my theory test 😩"), ("Ilario", "noo what happened"),
                    ("Tamsin", "parking. obvs")) == [
        ('Tamsin added to "Tamsin failed Tamsin\'s theory test": parking', ["D7:1", "D7:2", "D7:3"])]


def test_a_bare_subject_after_hows_it_is_the_news_things_not_things_in_general() -> None:
    facts = exchange(("Tamsin", "got the allotment tho! plot 14"), ("Ilario", "omg"), ("Ilario", "hows it"),
                     ("Tamsin", "muddy. shed leaks like a sieve"))
    assert facts == [('Tamsin added to "Tamsin got the allotment though! plot 14": muddy; shed leaks like a sieve',
                      ["D7:1", "D7:3", "D7:4"])]


def test_the_reply_joins_the_memory_the_news_formed_when_it_is_stored() -> None:
    stored = ("Tamsin failed Tamsin's theory test", "Ilario plays the oboe")
    assert exchange(("Tamsin", "failed my theory test 😩"), ("Ilario", "noo what happened"),
                    ("Tamsin", "parking. obvs"), memories=stored) == [
        ("Tamsin failed Tamsin's theory test; parking", ["D7:1", "D7:2", "D7:3"])]
    assert news_memory("moved in! boxes everywhere", "Tamsin", ("Tamsin has boxes of old records",)) is None


def test_a_reply_framed_with_the_empty_question_is_written_with_the_news() -> None:
    facts = exchange(("Tamsin", "my bike got nicked today"), ("Ilario", "what?? how"),
                     ("Tamsin", "cut the lock outside the library"))
    assert facts == [('Tamsin added to "Tamsin\'s bike got nicked today": cut the lock outside the library',
                      ["D7:1", "D7:2", "D7:3"])]


@pytest.mark.parametrize("reply", ["lol idk", "ugh", "ya"])
def test_filler_after_the_follow_up_forms_nothing(reply: str) -> None:
    assert exchange(("Tamsin", "failed my theory test 😩"), ("Ilario", "noo what happened"), ("Tamsin", reply)) == []


def test_a_question_naming_its_topic_or_no_news_before_it_keeps_the_reply_as_it_was() -> None:
    assert exchange(("Tamsin", "failed my theory test 😩"), ("Ilario", "was it the hazard clips?"),
                    ("Tamsin", "roundabout. obvs")) == [  # framed with the question, as before
        ('Tamsin answered Ilario\'s question "was it the hazard clips?": roundabout; obvs', ["D7:2", "D7:3"])]
    assert exchange(("Ilario", "noo what happened"), ("Tamsin", "roundabout. obvs")) == []  # no news of hers
    assert exchange(("Tamsin", "how was your weekend?"), ("Ilario", "why"), ("Tamsin", "roundabout. obvs")) == []


def test_the_others_news_or_a_reply_about_the_listener_is_not_taken_up() -> None:
    assert exchange(("Ilario", "failed my theory test 😩"), ("Tamsin", "what happened"),
                    ("Ilario", "why"), ("Tamsin", "roundabout. obvs")) == []
    assert exchange(("Tamsin", "failed my theory test 😩"), ("Ilario", "noo what happened"),
                    ("Tamsin", "you should take it too")) == []


def test_the_news_is_looked_up_only_past_the_cheap_guards(monkeypatch: pytest.MonkeyPatch) -> None:
    """``judge_utterance`` asks for the follow-up news only for English clauses none of which was admitted."""
    looked: list[str] = []
    real = admission.followup_news

    def spy(message, prior, memories=()):  # type: ignore[no-untyped-def]
        looked.append(message.text)
        return real(message, prior, memories)

    monkeypatch.setattr(admission, "followup_news", spy)
    lines = [turn("failed my theory test 😩", "Tamsin", 1), turn("noo what happened", "Ilario", 2)]
    assert judge_utterance(turn("parking. obvs", "Tamsin", 3), lines)[0]
    assert looked == ["parking. obvs"]
    looked.clear()
    assert judge_utterance(turn("I failed it at the Dunmore test centre on Friday", "Tamsin", 3), lines)[0]
    assert looked == []
    monkeypatch.setattr(admission, "may_follow_up", lambda *_: False)  # a guard that fails: no look-up at all
    monkeypatch.setattr(admission, "thread_piece", lambda *_: None)  # the thread rule (``threads``) admits it too
    assert not judge_utterance(turn("parking. obvs", "Tamsin", 3), lines)[0]
    assert looked == []


def test_may_follow_up_needs_english_clauses_none_admitted() -> None:
    clause = admission.Clause("parking. obvs")
    rejected = admission.ClauseVerdict(False, "rejected: too little detail to tell ('parking')", "vague")
    taken = admission.ClauseVerdict(True, "admitted: first-person statement", "first_person")
    assert admission.may_follow_up([clause], [rejected], "en")
    assert not admission.may_follow_up([], [], "en")
    assert not admission.may_follow_up([clause, clause], [rejected, taken], "en")
    assert not admission.may_follow_up([clause], [rejected], "pt")
