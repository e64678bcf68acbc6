"""The other speaker's question just before a reply run: its turn becomes a source of the reply's first fact (stop 74).

"What counts as an emergency" / "Nobody knows. In five years he's never blown the whistle.": the reply forms a fact
but the reply rules do not read it as the answer (no word shared, no yes or no, not about the listener), so the
question sourced nothing. ``asked_before`` adds its turn to the reply's first fact: no memory and no text changed.
Kept out: a greeting, a reply that asks back or turns away, a fact quoting another question it answers.
Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline import asked_before
from dmem.decisions.offline.asked_before import asks_last, question_before
from dmem.decisions.offline.splitting import facts_from_message, split_messages
from dmem.state.schemas import Message
from dmem.state.verdicts import FactDraft
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="D4", when=datetime(2025, 3, 9, 19, 0))


def chat(*lines: tuple[str, str]) -> list[Message]:
    """``lines`` as turns D4:1, D4:2, ..."""
    return [turn(text, who, i + 1) for i, (who, text) in enumerate(lines)]


def reply_facts(turns: list[Message]) -> list[FactDraft]:
    """The facts of the last turn, the turns before it its window."""
    return facts_from_message(turns[-1], turns, [], gated=True)


def test_a_question_no_reply_rule_reads_sources_the_reply_fact() -> None:
    turns = chat(("Ilsabet", "the coach says the race whistle is only for emergencies"),
                 ("Joran", "What counts as an emergency"),
                 ("Ilsabet", "Nobody knows. In five years he's never blown the whistle."))
    facts = reply_facts(turns)
    assert facts and facts[0].source_turn_ids[0] == "D4:2"
    assert facts[0].text == "Ilsabet: In five years he's never blown the whistle"  # written as before


def test_a_question_without_its_mark_and_spaced_full_stop_asks() -> None:
    assert asks_last("both. did he argue")
    assert asks_last("Were you hurt .")
    assert asks_last("£40 . Dinner . Is it a set menu .")
    assert not asks_last("How are you")  # a greeting
    assert not asks_last("lol ok")
    assert asks_last("nice. which car. not the green one")  # a short tail after the question
    assert not asks_last("which car. I saw a green van outside the bakery on Tuesday")  # the line goes on


def test_the_reply_run_answers_the_question_before_its_first_line() -> None:
    turns = chat(("Ilsabet", "the ferry finally sailed"),
                 ("Joran", "Where are you? Did you get to Harwick?"),
                 ("Ilsabet", "here"), ("Ilsabet", "since wednesday"))
    facts = split_messages(turns[1:], turns[:1], gated=True)
    joined = [f for f in facts if "D4:3" in f.source_turn_ids]
    assert joined and "D4:2" in joined[0].source_turn_ids


@pytest.mark.parametrize("asked,reply", [
    ("how are you", "I started pottery classes at the Quarry Lane studio"),  # a greeting
    ("did you see the match", "No? what happened, I was at the allotment on Quarry Lane"),  # asks back
    ("did you see the match", "anyway I started pottery classes at the Quarry Lane studio"),  # turns away
])
def test_kept_out(asked: str, reply: str) -> None:
    turns = chat(("Ilsabet", "hiya"), ("Joran", asked), ("Ilsabet", reply))
    first = FactDraft(text="Ilsabet started pottery classes", speaker="Ilsabet", source_turn_ids=["D4:3"])
    assert question_before(turns[-1], turns[:-1], first) is None


def test_a_fact_quoting_another_question_is_left() -> None:
    turns = chat(("Joran", "cost?"), ("Ilsabet", "hang on"), ("Joran", "what now"),
                 ("Ilsabet", "The grant came through, so it is twelve pounds a week"))
    quoting = FactDraft(text='Ilsabet answered Joran\'s question "cost?": twelve pounds a week', speaker="Ilsabet",
                        source_turn_ids=["D4:4"])
    plain = quoting.model_copy(update={"text": "Ilsabet: the grant came through"})
    assert question_before(turns[-1], turns[:-1], quoting) is None
    assert question_before(turns[-1], turns[:-1], plain) == "D4:3"


def test_no_memory_and_no_text_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    turns = chat(("Ilsabet", "the coach says the race whistle is only for emergencies"),
                 ("Joran", "What counts as an emergency"),
                 ("Ilsabet", "Nobody knows. In five years he's never blown the whistle."),
                 ("Joran", "ha"), ("Ilsabet", "I bought a new rowing machine for the garage"))
    with_rule = split_messages(turns[1:], turns[:1], gated=True)
    monkeypatch.setattr(asked_before, "with_question", lambda facts, message, prior: facts)
    without = split_messages(turns[1:], turns[:1], gated=True)
    assert [f.text for f in with_rule] == [f.text for f in without]
    assert sum(len(f.source_turn_ids) for f in with_rule) == sum(len(f.source_turn_ids) for f in without) + 1


def test_a_short_tail_after_the_question_still_asks() -> None:
    assert asks_last("How much do we need. For a new kiln")
    assert asks_last("How was the launch?? Tell me everything.")
    assert not asks_last("How was the launch? Anyway I finally booked the cottage in Pellow for August")
