"""Robust to small models: short labels mapped back, voting groups completed, no call without a background."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from dmem.decisions.model import ModelDecider
from dmem.decisions.model.checks import check_batch, label_index, match_turn
from dmem.state.schemas import Fact, MemoryRecord, Message, Operation
from dmem.state.verdicts import FactDrafts, FactOperation, LifecycleDecisions, group_answers, normalise_answer
from dmem.testing import FakeChatModel
from tests.conftest import last_section

T = datetime(2024, 3, 4, 9, 12)
EXCHANGE = [Message(turn_id="S4:17", speaker="Maya", text="I moved to Lisbon last month.", timestamp=T),
            Message(turn_id="S4:18", speaker="Ravi", text="Welcome to Lisbon!", timestamp=T)]
MEMORIES = [MemoryRecord(id="9f1c0d2e-uuid", namespace="maya", text="Maya lives in Porto", created_at=T,
                         updated_at=T),
            MemoryRecord(id="77aa01bc-uuid", namespace="maya", text="Maya works as a nurse", created_at=T,
                         updated_at=T)]
FACTS = [Fact(text="Maya moved to Lisbon", namespace="maya"), Fact(text="Maya is a nurse", namespace="maya")]


@pytest.mark.parametrize("raw, expected", [
    ("1", "S4:17"), ("[2]", "S4:18"), ("#2", "S4:18"), ("turn 1", "S4:17"), (2, "S4:18"),
    ("S4:18", "S4:18"), ("[S4:17]", "S4:17"), ("3", None), ("0", None), ("D9:9", None),
])
def test_labels_and_real_ids_map_to_turn_ids(raw: Any, expected: str | None) -> None:
    assert match_turn(raw, ["S4:17", "S4:18"]) == expected


def test_prompts_show_labels_and_verdicts_for_labels_are_kept() -> None:
    fake = FakeChatModel(script={"AdmissionVerdicts": [{"verdicts": [
        {"turn_id": "1", "reason": "a move", "admit": True},
        {"turn_id": "2", "reason": "small talk", "admit": False}]}]})
    out = ModelDecider(fake).admit(EXCHANGE, [], MEMORIES).value
    assert [(v.turn_id, v.admit) for v in out.verdicts] == [("S4:17", True), ("S4:18", False)]
    prompt = fake.calls[0].prompt
    assert "[1] Maya: I moved" in prompt and "S4:" not in prompt


def test_lifecycle_batch_maps_fact_numbers_and_memory_labels() -> None:
    fake = FakeChatModel(script={"LifecycleDecisions": [{"decisions": [
        {"fact": 2, "reason": "known", "operation": "NOOP", "target": 2},
        {"fact": 1, "reason": "moved", "operation": "UPDATE", "target": 1, "text": "Maya lives in Lisbon"}]}]})
    out = ModelDecider(fake).decide_lifecycle_batch(FACTS, MEMORIES)
    [(first, second)] = [tuple(out.value)]
    assert (first.operation, first.target, first.text) == (Operation.UPDATE, 0, "Maya lives in Lisbon")
    assert (second.operation, second.target) == (Operation.NOOP, 1)
    prompt = fake.calls[0].prompt
    assert "[1] " in last_section(fake.calls[0].messages, "existing_memories") and "uuid" not in prompt
    assert "1. Maya moved to Lisbon" in last_section(fake.calls[0].messages, "new_facts")
    assert fake.calls[0].max_tokens is not None


def test_lifecycle_batch_repairs_missing_duplicate_and_unknown_decisions() -> None:
    out = LifecycleDecisions(decisions=[
        FactOperation(fact=1, reason="first", operation=Operation.DELETE, target=9),
        FactOperation(fact=1, reason="again", operation=Operation.NOOP),
        FactOperation(fact=7, reason="no such fact", operation=Operation.NOOP)])
    first, second = check_batch(out, FACTS, len(MEMORIES))
    assert first.operation is Operation.ADD and "added instead" in first.reason
    assert second.operation is Operation.ADD and second.text == "Maya is a nurse"
    assert label_index("7", 2) is None


def test_empty_grouping_falls_back_to_normalised_strings() -> None:
    fake = FakeChatModel(script={"AnswerGroups": [{"reason": "none", "groups": [], "best": []}]})
    out = ModelDecider(fake).group_answers("Where?", ["Lisbon.", "lisbon", "The answer is Lisbon", "Porto"])
    assert out.value.groups == [[1, 2, 3], [4]] and out.value.best == [1, 4]
    assert "normalised" in out.value.reason


def test_partial_and_inconsistent_groupings_are_completed() -> None:
    answers = ["7 May 2023", "2023-05-07", "7 May 2023", "June"]
    # Partial: answer 4 missing. Inconsistent: identical answers 1 and 3 split apart.
    assert group_answers([[1, 2], [3]], answers) == [[1, 2, 3], [4]]
    assert group_answers([[1, 2, 2, 9]], answers) == [[1, 2, 3], [4]]
    assert normalise_answer("I think: the Lisbon!") == "lisbon"


def test_three_identical_answers_agree(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    mem.add([{"speaker": "Maya", "text": "I moved to Lisbon in March."}], user_id="maya")
    fake.set_script("AnswerDraft", [{"answer": "Lisbon"}])
    fake.set_script("AnswerGroups", [{"reason": "", "groups": [], "best": []}])
    ans = mem.ask("Where does Maya live?", user_id="maya", gate_policy="consensus")
    assert ans.route == "system1" and ans.gate_passed and "3 of 3 answers agree" in ans.gate_reasons[0]


def test_no_similar_memory_means_add_without_a_model_call(fake: FakeChatModel, memory_factory: Any) -> None:
    fake.set_script("LifecycleDecision", [{"reason": "already known", "operation": "NOOP"}])
    fake.set_script("LifecycleDecisions", [{"decisions": [{"fact": 1, "reason": "known", "operation": "NOOP"}]}])
    for mode in ("per_fact", "batch"):
        mem = memory_factory(fake, sub=mode, lifecycle_mode=mode)
        res = mem.add([{"speaker": "Maya", "text": "I adopted a cat named Miso."}], user_id="maya")
        assert [o.operation for o in res.operations] == [Operation.ADD]
        assert "without a model call" in res.operations[0].reason
    assert fake.calls_for("LifecycleDecision") == [] and fake.calls_for("LifecycleDecisions") == []


def test_batch_mode_decides_an_exchange_in_one_call(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)  # lifecycle_mode='batch' is the default
    turns = [{"speaker": "Maya", "text": "I have a cat named Miso."}, {"speaker": "Maya", "text": "I have a dog."}]
    mem.add(turns, user_id="maya")
    fake.set_script("LifecycleDecisions", [{"decisions": [
        {"fact": 1, "reason": "known", "operation": "NOOP", "target": 1},
        {"fact": 2, "reason": "known", "operation": "NOOP", "target": 2}]}])
    res = mem.add([{**t, "turn_id": f"again-{i}"} for i, t in enumerate(turns)], user_id="maya")
    assert len(fake.calls_for("LifecycleDecisions")) == 1 and fake.calls_for("LifecycleDecision") == []
    assert [o.operation for o in res.operations] == [Operation.NOOP, Operation.NOOP]
    assert len(mem.get_all(user_id="maya")) == 2


def test_labels_written_as_numbers_are_accepted() -> None:
    fake = FakeChatModel(script={
        "AdmissionVerdicts": [{"verdicts": [{"turn_id": 2, "reason": "small talk", "admit": False},
                                            {"turn_id": 1, "reason": "a move", "admit": True}]}],
        "FactDrafts": [{"facts": [{"text": "Maya moved to Lisbon", "speaker": "Maya", "source_turn_ids": [1]}]}]})
    d = ModelDecider(fake)
    verdicts = d.admit(EXCHANGE, [], []).value.verdicts
    assert [(v.turn_id, v.admit) for v in verdicts] == [("S4:17", True), ("S4:18", False)]
    assert d.split(EXCHANGE[:1], [], []).value.facts[0].source_turn_ids == ["S4:17"]
    assert len(fake.calls) == 2  # accepted at once, not retried


def test_scope_label_without_enrich_flag_is_accepted_as_no_enrichment() -> None:
    fake = FakeChatModel(script={"ScopeLabels": [{"labels": [{"index": 1, "reason": "a pet", "scope": "INTERNAL"}]}]})
    [label] = ModelDecider(fake).classify_scope(FACTS[:1]).value.labels
    assert (label.scope.value, label.enrich) == ("INTERNAL", False) and len(fake.calls) == 1


@pytest.mark.parametrize("written, expected", [
    (["person", "Preference"], ["persona", "preference"]),
    (["events"], ["event"]),
    ("event", ["event"]),
    (["user rule", "error-learning"], ["user_rule", "error_learning"]),
    (["hobby", "persona", "persona"], ["persona"]),  # unknown dropped, repeats once
    (["eve", "p"], []),  # too short to be sure of
])
def test_categories_small_models_misspell_are_mapped(written: Any, expected: list[str]) -> None:
    draft = FactDrafts.model_validate({"facts": [{"text": "Maya has a cat", "speaker": "Maya", "categories": written}]})
    assert [c.value for c in draft.facts[0].categories] == expected


def test_a_fact_with_no_word_from_its_utterance_is_dropped() -> None:
    fake = FakeChatModel(script={"FactDrafts": [{"facts": [
        {"text": "Maya moved to Lisbon", "speaker": "Maya", "source_turn_ids": [1]},
        {"text": "The user looked for gift ideas", "speaker": "Maya", "source_turn_ids": [1]}]}]})
    facts = ModelDecider(fake).split(EXCHANGE[:1], [], []).value.facts
    assert [f.text for f in facts] == ["Maya moved to Lisbon"]  # the second copies a prompt example
