"""The listener's take-up: the other speaker's next turn shows a short line was the speaker's news (stop 51).

A line that formed nothing alone ("got the keys", "the blue one") forms a fact of its speaker's when the listener
takes it up: a follow-up question naming nothing, a reaction only news gets, or an echo of its content word. Filler
taken up by "lol", a question answered, the listener's own news and a line that formed already stay as they were;
the fact lands in the line's speaker's namespace, never the listener's. Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path

import pytest

from dmem import Memory
from dmem.decisions.offline.admission import judge_utterance, takeup_news
from dmem.decisions.offline.splitting import facts_from_message
from dmem.decisions.offline.takeup import signal
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="D4", when=datetime(2025, 9, 12, 19, 0))
OPENING = (("Marisol", "heyy"), ("Fintan", "hey you"))


def taken(*lines: tuple[str, str]) -> list[tuple[str, str | None, list[str]]]:
    """The facts the last line forms after the lines before it: (text, speaker, sources)."""
    turns = [turn(text, who, i + 1) for i, (who, text) in enumerate((*OPENING, *lines))]
    admitted, _ = judge_utterance(turns[-1], turns[:-1])
    if not admitted:
        return []
    return [(f.text, f.speaker, f.source_turn_ids) for f in facts_from_message(turns[-1], turns, [], gated=True)]


def test_a_reaction_only_news_gets_forms_the_line_as_its_speakers() -> None:
    assert taken(("Marisol", "got the keys"), ("Fintan", "omg congrats")) == [
        ("Marisol got the keys", "Marisol", ["D4:3", "D4:4"])]  # the reaction says how it was taken: a source too


def test_a_follow_up_question_naming_nothing_forms_the_line() -> None:
    assert taken(("Marisol", "big week here"), ("Fintan", "why?")) == [("Marisol: Big week here", "Marisol", ["D4:3"])]


def test_an_echo_of_a_content_word_forms_the_line() -> None:
    assert taken(("Marisol", "the teal one"), ("Fintan", "the teal one? nice")) == [
        ("Marisol: The teal one", "Marisol", ["D4:3"])]


def test_the_take_up_reaches_past_the_speakers_filler() -> None:
    assert taken(("Marisol", "got the keys"), ("Marisol", "lol"), ("Fintan", "wait when??")) == [
        ("Marisol got the keys", "Marisol", ["D4:3"])]


@pytest.mark.parametrize("lines", [
    (("Marisol", "lol"), ("Fintan", "lol")),  # filler taken up by filler
    (("Marisol", "haha"), ("Fintan", "omg")),
    (("Marisol", "you free saturday?"), ("Fintan", "which one?")),  # a question to the listener, answered
    (("Marisol", "night x"), ("Fintan", "night x")),  # a farewell echoed
    (("Marisol", "the teal one"), ("Fintan", "the teal one is what I bought too")),  # the listener's own news
    (("Marisol", "the teal one"), ("Fintan", "teal is everywhere in town lately")),  # an echo saying more
    (("Marisol", "I got the job at the boatyard"), ("Fintan", "congrats!!")),  # formed already
    (("Marisol", "pic"), ("Fintan", "[pic]")),  # a picture asked for and sent: no news
    (("Marisol", "photos"), ("Fintan", "photos? of what")),
])
def test_what_no_take_up_forms(lines: tuple[tuple[str, str], ...]) -> None:
    turns = [turn(text, who, i + 1) for i, (who, text) in enumerate((*OPENING, *lines))]
    assert takeup_news(turns[-1], turns[:-1]) is None


def test_a_line_is_taken_up_once_by_the_listeners_run() -> None:
    first = taken(("Marisol", "got the keys"), ("Fintan", "omg congrats"))
    again = taken(("Marisol", "got the keys"), ("Fintan", "omg congrats"), ("Fintan", "when do u move??"))
    assert first and again == []


def test_the_listeners_own_news_after_a_reaction_is_no_take_up_of_it() -> None:
    """A reaction to the listener's news: Marisol's "no way" reacts to Fintan's line, which formed already."""
    turns = [turn(t, w, i + 1) for i, (w, t) in enumerate((*OPENING, ("Fintan", "I passed my driving test today"),
                                                             ("Marisol", "no way"), ("Fintan", "yay")))]
    assert takeup_news(turns[-1], turns[:-1]) is None


@pytest.mark.parametrize(("text", "how"), [("omg congrats", "a reaction to news"), ("oh no", "a reaction to news"),
                                           ("wait when??", "a follow-up question"), ("WHAT", "a follow-up question"),
                                           ("a KAYAK", "an echo ('kayak')")])
def test_the_take_up_signals_are_dialogue_acts(text: str, how: str) -> None:
    assert signal(text, ["kayak"]) == how


@pytest.mark.parametrize("text", ["lol", "ok", "nice", "what are you doing up", "thats what she said",
                                  "I bought a kayak too"])
def test_filler_and_statements_are_no_take_up(text: str) -> None:
    assert signal(text, ["kayak"]) is None


def test_the_taken_up_line_lands_in_its_speakers_namespace_only(tmp_path: Path) -> None:
    turns = [turn(t, w, i + 1) for i, (w, t) in enumerate((*OPENING, ("Marisol", "got the keys"),
                                                             ("Fintan", "omg congrats")))]
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        mem.add(turns, user_id="u", conversation_id="c1", speaker_namespaces={"Marisol": "mari", "Fintan": "fin"})
        mari = [(r.text, r.source_turn_ids) for r in mem.get_all(user_id="mari")]
        fin = [r.text for r in mem.get_all(user_id="fin")]
    assert ("Marisol got the keys", ["D4:3", "D4:4"]) in mari
    assert not any("keys" in t for t in fin)
