"""The cross-chunk ledger: duplicates collapsed per entity, one dated timeline, every instance for list questions."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.evidence.ledger import best_in_time_order, build_ledger, event_day
from dmem.evidence.questions import needs_every_instance
from dmem.state.verdicts import ScoredFact

SAID = {"a1": datetime(2024, 2, 1, 9), "a2": datetime(2024, 2, 20, 9), "b1": datetime(2024, 1, 5, 9)}
SPEAKERS = {"a1": "Ines", "a2": "Ines", "b1": "Tomas"}


def fact(text: str, score: int, *turns: str) -> ScoredFact:
    return ScoredFact(fact=text, score=score, turn_ids=list(turns))


def test_duplicates_of_one_entity_collapse_keeping_the_best_score_and_every_turn():
    ledger = build_ledger([fact("Ines adopted a grey rabbit", 7, "a1"),
                           fact("Ines adopted a grey rabbit.", 9, "a2"),
                           fact("Tomas adopted a grey rabbit", 8, "b1")], SAID, SPEAKERS)
    ines = [f for f in ledger if "Ines" in f.fact]
    assert len(ines) == 1 and ines[0].score == 9 and set(ines[0].turn_ids) == {"a1", "a2"}
    assert len(ledger) == 2  # the same words from another person are another fact


def test_the_ledger_is_one_dated_timeline():
    ledger = build_ledger([fact("Ines ran a half marathon", 9, "a2"),
                           fact("Ines signed up for a running club", 7, "a1"),
                           fact("Tomas bought running shoes", 8, "b1"),
                           fact("Ines moved to Porto on 3 March 2023", 8)], SAID, SPEAKERS)
    assert [f.fact[:12] for f in ledger] == ["[2023-03-03]", "[2024-01-05]", "[2024-02-01]", "[2024-02-20]"]


def test_a_date_written_in_the_fact_beats_when_it_was_said():
    assert event_day(fact("On 12 December 2023 Ines flew home", 8, "a1"), SAID).isoformat() == "2023-12-12"
    assert event_day(fact("Ines flew home", 8, "a1"), SAID).isoformat() == "2024-02-01"
    assert event_day(fact("Ines flew home", 8), SAID) is None


def test_best_in_time_order_keeps_the_best_but_not_their_order():
    facts = [fact(f"f{i}", s) for i, s in enumerate([5, 9, 6, 8])]
    assert [f.fact for f in best_in_time_order(facts, 2)] == ["f1", "f3"]


@pytest.mark.parametrize("question, aggregate", [
    ("How many concerts did Ines go to?", True),
    ("What books has Tomas read this year?", True),
    ("Which cities did Ines visit?", True),
    ("What did Ines do first after moving?", True),
    ("What are Tomas's hobbies?", True),
    ("What is Ines's job?", False),
    ("Where does Tomas live?", False),
    ("When did Ines adopt the rabbit?", False),
])
def test_list_count_and_ordering_questions_need_every_instance(question, aggregate):
    assert needs_every_instance(question) is aggregate
