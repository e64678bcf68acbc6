"""A bare question and its bare answer after the speaker's news form the fact of the thread (h64g).

"my shifts this week are mad" / "how many" / "52": the answer continues the speaker's fact, and the listener's
question says what the number counts, so the fact says it ('...; how many? 52') and the question's turn is one of
its sources. "84" / "covers?" / "yep": the yes confirms what the speaker's bare number counts ('... "84 covers":
yep'); "11 a kilo now" / "from 9.50?" / "yep" confirms the number checked. "got a wedding" / "whose" / "my
cousin's" goes on with the news. Questions that ask nothing of the kind ("how was it", "what happened") are
``followup``'s, and a bare yes to a greeting or a question with no fact stays out. Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline import threads
from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.splitting import facts_from_message
from dmem.state.schemas import Message
from dmem.text.answers import is_kind_asked
from tests.conftest import chat_turn, drafted_last

WHEN = datetime(2031, 3, 14, 21, 40)
turn = functools.partial(chat_turn, session="K2", when=WHEN)


def _chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of an invented chat between Wilhelmina and Barnaby, in order."""
    return [turn(text, who, i + 1) for i, (who, text) in enumerate(lines)]


def _thread_facts(*lines: tuple[str, str]) -> list[tuple[str, list[str]]]:
    """The last line's facts (text, sources) as the thread rule writes them, none when it is rejected."""
    turns = _chat(("Wilhelmina", "evening"), ("Barnaby", "hey"), *lines)
    ok, _ = judge_utterance(turns[-1], turns[:-1])
    facts = facts_from_message(turns[-1], turns, [], gated=True) if ok else []
    return [(f.text, f.source_turn_ids) for f in facts]


def _split(*lines: tuple[str, str]) -> list[tuple[str, list[str]]]:
    """The facts the offline splitter drafts from the last turn (none when it is rejected), with their sources."""
    return drafted_last(_chat(*lines))


@pytest.mark.parametrize(("news", "question", "answer", "written"), [
    ("my shifts this week are mad", "how many", "52", "Wilhelmina's shifts this week are mad; how many? 52"),
    ("the gazebo sold on saturday", "how much", "310", "Wilhelmina: the gazebo sold on saturday; how much? 310"),
    ("the van is back from the garage", "when", "end of the month",  # the news formed: ``followup``'s unit
     'Wilhelmina added to "the van is back from the garage": when? end of the month'),
])
def test_the_kind_question_names_what_the_bare_answer_is_and_is_a_source(news: str, question: str, answer: str,
                                                                         written: str) -> None:
    facts = _thread_facts(("Wilhelmina", news), ("Barnaby", question), ("Wilhelmina", answer))
    assert facts == [(written, ["K2:3", "K2:4", "K2:5"])]


@pytest.mark.parametrize(("question", "answer"), [
    ("oh no", "52"),  # a reaction: the piece goes on with the fact, nothing asked
    ("how many", "loads"),  # a number asked, none given
    ("how much", "sold it"),  # a number asked, none given: no kind answered
    ("when", "gutted"),  # a time asked, none given
])
def test_a_question_not_answered_in_kind_is_no_source(question: str, answer: str) -> None:
    turns = _chat(("Wilhelmina", "evening"), ("Barnaby", "hey"), ("Wilhelmina", "my shifts this week are mad"),
                  ("Barnaby", question), ("Wilhelmina", answer))
    assert threads.kind_asked(turns[-1], turns[:-1], answer) is None
    for text, _ in _thread_facts(*[(m.speaker, m.text) for m in turns[2:]]):
        assert f"{question}?" not in text


@pytest.mark.parametrize("question", ["how was it", "what happened", "how come", "why", "hows it"])
def test_questions_asking_what_happened_ask_no_kind(question: str) -> None:
    turns = _chat(("Wilhelmina", "the gazebo sold"), ("Barnaby", question), ("Wilhelmina", "310"))
    assert threads.kind_asked(turns[-1], turns[:-1], "310") is None


def test_the_end_of_the_month_is_a_time() -> None:
    assert is_kind_asked("when", "end of the month") and is_kind_asked("when", "start of next week")
    assert not is_kind_asked("when", "the end of the rope")


@pytest.mark.parametrize(("value", "question", "written"), [
    ("84", "covers?", 'Wilhelmina agreed to Barnaby\'s "84 covers": yep'),
    ("5", "stars??", 'Wilhelmina agreed to Barnaby\'s "5 stars": yep'),
])
def test_a_yes_confirms_what_the_speakers_bare_number_counts(value: str, question: str, written: str) -> None:
    facts = _split(("Barnaby", "how did friday go"), ("Wilhelmina", value), ("Barnaby", question),
                   ("Wilhelmina", "yep"))
    assert facts == [(written, ["K2:3", "K2:4"])]


def test_a_yes_confirms_the_number_the_other_checks() -> None:
    facts = _split(("Wilhelmina", "the saffron went up"), ("Barnaby", "how much"), ("Wilhelmina", "14 a gram now"),
                   ("Barnaby", "from 11.20?"), ("Wilhelmina", "yep"))
    assert facts == [('Wilhelmina agreed to Barnaby\'s "from 11.20": yep', ["K2:4", "K2:5"])]


@pytest.mark.parametrize("lines", [
    (("Wilhelmina", "84"), ("Barnaby", "how are you?"), ("Wilhelmina", "fine")),
    (("Wilhelmina", "84"), ("Barnaby", "hello?"), ("Wilhelmina", "yep")),
    (("Wilhelmina", "84"), ("Barnaby", "you there?"), ("Wilhelmina", "yep")),
    (("Wilhelmina", "84"), ("Barnaby", "what?"), ("Wilhelmina", "yep")),
])
def test_a_bare_yes_to_a_question_with_no_fact_stays_out(lines: tuple[tuple[str, str], ...]) -> None:
    assert _split(*lines) == []


def test_whose_asks_after_the_speakers_news() -> None:
    facts = _split(("Wilhelmina", "can you swap saturday"), ("Barnaby", "i've got a christening"),
                   ("Wilhelmina", "whose"), ("Barnaby", "my niece's"))
    assert len(facts) == 1 and facts[0][1] == ["K2:2", "K2:3", "K2:4"]
    assert "christening" in facts[0][0] and "niece" in facts[0][0]
