"""Our prompts and the model-backed Decider, driven by the scripted FakeChatModel only."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from dmem.decisions.base import Decider
from dmem.decisions.model import ModelDecider
from dmem.errors import StructuredOutputError
from dmem.prompts import NO_INFO
from dmem.prompts.answering import NO_INFO as NO_INFO_DIRECT
from dmem.state.schemas import Category, Fact, MemoryRecord, Message, Operation, Provenance, Scope
from dmem.state.verdicts import ScoredFact
from dmem.testing import FakeCall, FakeChatModel

T0 = datetime(2023, 5, 8, 13, 56)
T1 = datetime(2023, 5, 8, 14, 2)


def msg(turn: str, speaker: str, text: str, when: datetime = T0) -> Message:
    return Message(turn_id=turn, speaker=speaker, text=text, timestamp=when)


HISTORY = [msg("D1:1", "Theo", "Hey Maya, how was your weekend?"),
           msg("D1:2", "Maya", "Busy! My brother visited.")]
EXCHANGE = [msg("D1:3", "Maya", "I've had my Jeep Wrangler for three years now.", T1),
            msg("D1:4", "Theo", "Wow, that's so cool!", T1)]
MEMORIES = [
    MemoryRecord(id="mem-7f3a91", namespace="maya", text="Maya likes hiking",
                 created_at=datetime(2023, 4, 2), updated_at=datetime(2023, 4, 2)),
    MemoryRecord(id="mem-b2c4e8", namespace="maya", text="Maya drives a Jeep",
                 event_time=datetime(2023, 3, 1), created_at=datetime(2023, 4, 9),
                 updated_at=datetime(2023, 4, 9)),
]
FACT = Fact(text="Maya has owned a Jeep Wrangler for three years", namespace="maya",
            speaker="Maya", event_time=datetime(2023, 5, 8))


def section(call: FakeCall, tag: str) -> str:
    """The body of one XML-tagged section of the call's prompt (fails the test if absent)."""
    found = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", call.prompt, re.DOTALL)
    assert found, f"section <{tag}> missing from prompt"
    return found.group(1)


def decider(script: dict, **kwargs) -> tuple[ModelDecider, FakeChatModel]:
    model = FakeChatModel(script=script, **{k: kwargs.pop(k) for k in ("native",) if k in kwargs})
    return ModelDecider(model, **kwargs), model


def assert_usage(usage, stage: str, calls: int = 1) -> None:
    assert usage.stage == stage
    assert usage.calls == calls
    assert usage.input_tokens > 0 and usage.output_tokens > 0


def test_model_decider_satisfies_the_protocol_and_no_info_constant() -> None:
    d, _ = decider({})
    assert isinstance(d, Decider)
    assert d.name == "model"
    assert NO_INFO == NO_INFO_DIRECT == "No information available."


# Ingestion -------------------------------------------------------------------------------------
def test_admit_renders_sections_and_returns_verdicts() -> None:
    reply = {"verdicts": [
        {"turn_id": "D1:3", "reason": "stable ownership", "admit": True},
        {"turn_id": "D1:4", "reason": "generic emotional reaction", "admit": False},
    ]}
    d, model = decider({"AdmissionVerdicts": [reply]})
    out = d.admit(EXCHANGE, HISTORY, MEMORIES)
    [call] = model.calls_for("AdmissionVerdicts")
    current = section(call, "current_exchange")
    assert "[1] Maya: I've had my Jeep Wrangler" in current  # dates are grounded later: no clock
    assert "[2] Theo: Wow" in current
    assert "D1:" not in call.prompt and "2023" not in call.prompt  # short labels, never turn ids
    assert section(call, "reference_history").startswith("Theo: Hey Maya")  # context: no label
    assert "Maya drives a Jeep" in section(call, "existing_memories")  # chain-aware: what a turn may continue
    assert "transient" in call.messages[0].content.lower()
    assert [(v.turn_id, v.admit) for v in out.value.verdicts] == [("D1:3", True), ("D1:4", False)]
    assert_usage(out.usage, "admit")


def test_admit_drops_unknown_ids_and_rejects_missing_utterances() -> None:
    reply = {"verdicts": [
        {"turn_id": "D9:9", "reason": "hallucinated", "admit": True},
        {"turn_id": "[D1:3]", "reason": "ownership", "admit": True},
        {"turn_id": "D1:3", "reason": "duplicate", "admit": False},
    ]}
    d, _ = decider({"AdmissionVerdicts": [reply]})
    verdicts = d.admit(EXCHANGE, HISTORY, []).value.verdicts
    assert [v.turn_id for v in verdicts] == ["D1:3", "D1:4"]
    assert verdicts[0].admit and verdicts[0].reason == "ownership"
    assert not verdicts[1].admit and verdicts[1].reason == "no verdict returned"


def test_split_requests_fact_drafts_and_cleans_them() -> None:
    reply = {"facts": [
        {"text": " Maya has owned a Jeep Wrangler for three years ", "speaker": "",
         "source_turn_ids": ["D1:3", "D1:1"], "categories": ["persona", "preference"],
         "provenance": "stated", "language": "en"},
        {"text": "   ", "speaker": "Maya", "source_turn_ids": ["D1:3"]},
    ]}
    d, model = decider({"FactDrafts": [reply]})
    out = d.split(EXCHANGE[:1], HISTORY, MEMORIES)
    call = model.calls_for("FactDrafts")[0]
    assert "[1] Maya: I've had" in section(call, "current_exchange")
    assert "Maya: Busy!" in section(call, "reference_history")
    assert "Maya drives a Jeep" in section(call, "existing_memories")
    system = call.messages[0].content
    for rule in ("stated", "inferred", "the user's child is seven", "language", "relative time"):
        assert rule in system
    [fact] = out.value.facts
    assert fact.text == "Maya has owned a Jeep Wrangler for three years"
    assert fact.source_turn_ids == ["D1:3"]  # D1:1 is history, never a source
    assert fact.speaker == "Maya"  # filled from the source turn
    assert fact.categories == [Category.PERSONA, Category.PREFERENCE]
    assert fact.provenance is Provenance.STATED
    assert_usage(out.usage, "split_intents")


def test_classify_scope_numbers_facts_and_completes_labels() -> None:
    facts = [FACT, Fact(text="Maya's sister is named Ana", namespace="maya"),
             Fact(text="Maya likes hiking", namespace="maya")]
    reply = {"labels": [
        {"index": 1, "reason": "a public car model", "scope": "EXTERNAL", "enrich": True},
        {"index": 7, "reason": "out of range", "scope": "GENERIC", "enrich": False},
        {"index": 3, "reason": "an activity", "scope": "GENERIC", "enrich": False},
    ]}
    d, model = decider({"ScopeLabels": [reply]})
    out = d.classify_scope(facts)
    body = section(model.calls_for("ScopeLabels")[0], "facts")
    assert "1. [2023-05-08] Maya has owned a Jeep" in body and "2. Maya's sister" in body
    system = model.calls[0].messages[0].content
    assert all(s.value in system for s in Scope)
    labels = out.value.labels
    assert [(lb.index, lb.scope) for lb in labels] == [(1, Scope.EXTERNAL), (2, Scope.USER_PII),
                                                       (3, Scope.GENERIC)]
    assert labels[0].enrich and not labels[1].enrich and "no label returned" in labels[1].reason
    assert_usage(out.usage, "classify_scope")


def test_enrich_uses_only_supplied_knowledge() -> None:
    reply = {"reason": "line 1", "attributes": {"type": "off-road SUV", " ": "x", "range": " "}}
    d, model = decider({"Enrichment": [reply]})
    out = d.enrich(FACT, ["Jeep Wrangler: a four-wheel-drive off-road SUV made by Jeep."])
    call = model.calls_for("Enrichment")[0]
    assert "- Jeep Wrangler: a four-wheel-drive off-road SUV" in section(call, "knowledge")
    assert "Maya has owned a Jeep Wrangler" in section(call, "fact")
    assert "general knowledge" in call.messages[0].content
    assert out.value.attributes == {"type": "off-road SUV"}
    assert_usage(out.usage, "enrich")


def test_enrich_without_knowledge_makes_no_call() -> None:
    d, model = decider({"Enrichment": [{"reason": "invented", "attributes": {"fuel": "petrol"}}]})
    out = d.enrich(FACT, ["  "])
    assert model.calls == []
    assert out.value.attributes == {} and out.usage.calls == 0


def test_extract_facts_uses_memories_and_recent_messages_as_context() -> None:
    reply = {"facts": [{"text": "Maya has a brother", "speaker": "Maya",
                        "source_turn_ids": ["D1:2"]},
                       {"text": "Maya owns a Jeep Wrangler", "speaker": "Maya",
                        "source_turn_ids": ["D1:3"]}]}
    d, model = decider({"FactDrafts": [reply]})
    out = d.extract_facts(EXCHANGE, HISTORY, MEMORIES)
    call = model.calls_for("FactDrafts")[0]
    assert "Maya likes hiking" in section(call, "existing_memories")
    assert "Maya: Busy!" in section(call, "recent_messages")
    assert "[2] Theo" in section(call, "current_exchange")
    assert [f.source_turn_ids for f in out.value.facts] == [[], ["D1:3"]]
    assert_usage(out.usage, "extract_facts")


def test_lifecycle_shows_small_labels_never_real_ids() -> None:
    reply = {"reason": "refines", "operation": "UPDATE", "target": 2,
             "text": "Maya has owned a Jeep Wrangler since 2020"}
    d, model = decider({"LifecycleDecision": [reply]})
    out = d.decide_lifecycle(FACT, MEMORIES)
    call = model.calls_for("LifecycleDecision")[0]
    body = section(call, "existing_memories")
    assert "[1] [2023-04-02] Maya likes hiking" in body
    assert "[2] [2023-03-01] Maya drives a Jeep" in body
    assert "mem-" not in call.prompt
    assert "[2023-05-08] Maya has owned a Jeep Wrangler" in section(call, "new_fact")
    assert (out.value.operation, out.value.target) == (Operation.UPDATE, 1)  # label 2 is position 1
    assert out.value.text == "Maya has owned a Jeep Wrangler since 2020"
    assert_usage(out.usage, "decide_lifecycle")


@pytest.mark.parametrize("reply", [
    {"reason": "contradicts", "operation": "DELETE", "target": 5},
    {"reason": "refines", "operation": "UPDATE", "target": -1, "text": "x"},
    {"reason": "refines", "operation": "UPDATE", "target": None, "text": "x"},
])
def test_lifecycle_target_out_of_range_becomes_add(reply: dict) -> None:
    d, _ = decider({"LifecycleDecision": [reply]})
    value = d.decide_lifecycle(FACT, MEMORIES).value
    assert value.operation is Operation.ADD and value.target is None
    assert value.text == FACT.text
    assert "added instead" in value.reason and reply["reason"] in value.reason


def test_lifecycle_fills_missing_text_from_the_fact() -> None:
    d, _ = decider({"LifecycleDecision": [{"reason": "refines", "operation": "UPDATE", "target": 1}]})
    value = d.decide_lifecycle(FACT, MEMORIES).value
    assert (value.operation, value.target, value.text) == (Operation.UPDATE, 0, FACT.text)


# Query -------------------------------------------------------------------------------------------
def test_filter_memories_numbers_from_one_and_drops_bad_indexes() -> None:
    d, model = decider({"MemorySelection": [{"reason": "car", "keep": [2, 0, 9, 2]}]})
    out = d.filter_memories("What car does Maya drive?", MEMORIES)
    call = model.calls_for("MemorySelection")[0]
    assert "1. [2023-04-02] Maya likes hiking" in section(call, "memories")
    assert "2. [2023-03-01] Maya drives a Jeep" in section(call, "memories")
    assert section(call, "question") == "What car does Maya drive?"
    assert "mem-" not in call.prompt
    assert out.value.keep == [2]
    assert_usage(out.usage, "filter_memories")


@pytest.mark.parametrize(("style", "phrase"),
                         [("short", "a few words"), ("sentence", "one complete sentence")])
def test_answer_prompt_follows_the_style(style: str, phrase: str) -> None:
    d, model = decider({"AnswerDraft": [{"reasoning": "memory 2", "answer": "A Jeep Wrangler"}]},
                       answer_style=style)
    out = d.answer("What car does Maya drive?", ["[2023-03-01] Maya drives a Jeep"])
    call = model.calls_for("AnswerDraft")[0]
    assert "[2023-03-01] Maya drives a Jeep" in section(call, "memories")
    assert "What car does Maya drive?" in section(call, "question")
    system = call.messages[0].content
    assert phrase in system and NO_INFO in system and "most recent" in system
    assert out.value.answer == "A Jeep Wrangler"
    assert_usage(out.usage, "answer")


@pytest.mark.parametrize("raw", ["NONE", "none.", "  ", "No information available"])
def test_answer_normalizes_no_information_replies(raw: str) -> None:
    d, _ = decider({"AnswerDraft": [{"reasoning": "", "answer": raw}]})
    assert d.answer("Where does Priya live?", []).value.answer == NO_INFO


def test_answer_temperature_reaches_the_model_for_voting_samples() -> None:
    d, model = decider({"AnswerDraft": [{"answer": "Boston"}]}, temperature=0.0)
    d.answer("q", ["m"])
    d.answer("q", ["m"], temperature=0.7)
    d.answer("q", ["m"])
    assert [c.temperature for c in model.calls_for("AnswerDraft")] == [0.0, 0.7, 0.0]


def test_quality_gate_renders_answer_and_memories() -> None:
    ok = {"reason": "fine", "passed": True}
    missing = {"reason": "misses the year", "passed": False}
    reply = {"relevance": ok, "faithfulness": ok, "completeness": missing}
    d, model = decider({"QualityGateVerdict": [reply]})
    out = d.quality_gate("When did Maya buy her Jeep?", "In spring", ["[2023-03-01] Maya drives a Jeep"])
    call = model.calls_for("QualityGateVerdict")[0]
    assert section(call, "answer") == "In spring"
    assert "[2023-03-01] Maya drives a Jeep" in section(call, "memories")
    system = call.messages[0].content.lower()
    assert all(w in system for w in ("relevance", "faithfulness", "completeness", "date"))
    assert not out.value.passed and out.value.relevance.passed
    assert_usage(out.usage, "quality_gate")


def test_quality_gate_fails_completeness_for_a_no_information_answer() -> None:
    ok = {"reason": "fine", "passed": True}
    d, _ = decider({"QualityGateVerdict": [{"relevance": ok, "faithfulness": ok, "completeness": ok}]})
    value = d.quality_gate("Where does Priya live?", NO_INFO, []).value
    assert not value.completeness.passed and "no-information" in value.completeness.reason
    assert not value.passed


def test_group_answers_fixes_indexes_and_best_members() -> None:
    reply = {"reason": "1 and 3 agree", "groups": [[1, 3, 3], [3, 9], []], "best": [4, 9]}
    d, model = decider({"AnswerGroups": [reply]})
    out = d.group_answers("Which city?", ["Boston", "Paris", "It is Boston"])
    body = section(model.calls_for("AnswerGroups")[0], "answers")
    assert body == "1. Boston\n2. Paris\n3. It is Boston"
    assert out.value.groups == [[1, 3], [2]]
    assert out.value.best == [1, 2]
    assert_usage(out.usage, "group_answers")


def test_read_chunk_clamps_scores_and_keeps_chunk_turn_ids() -> None:
    reply = {"facts": [
        {"fact": "On 2023-05-08 Maya said her brother visited", "score": 14,
         "turn_ids": ["D1:2", "D1:1"]},
        {"fact": "Theo asked about the weekend", "score": -3, "turn_ids": []},
        {"fact": "Maya has a Jeep", "score": 7.6, "turn_ids": ["[D1:3]"]},
        {"fact": " ", "score": 5},
    ]}
    d, model = decider({"ChunkFacts": [reply]})
    chunk = [*HISTORY[1:], EXCHANGE[0]]
    out = d.read_chunk("Who visited Maya?", chunk, HISTORY[:1])
    call = model.calls_for("ChunkFacts")[0]
    assert "[2023-05-08 13:56] Theo" in section(call, "preceding_messages")
    assert "[2] [2023-05-08 14:02] Maya" in section(call, "chunk")
    assert "D1:" not in call.prompt
    assert section(call, "question") == "Who visited Maya?"
    assert "0-10" in call.messages[0].content
    facts = out.value.facts
    assert [(f.score, f.turn_ids) for f in facts] == [(10, ["D1:2"]), (0, []), (8, ["D1:3"])]
    assert all(isinstance(f, ScoredFact) for f in facts)
    assert_usage(out.usage, "read_chunk")


def test_select_facts_numbers_facts_and_drops_bad_indexes() -> None:
    facts = [ScoredFact(fact="Maya's brother visited on 2023-05-06", score=9),
             ScoredFact(fact="Maya likes hiking", score=7)]
    d, model = decider({"MemorySelection": [{"reason": "visit", "keep": [1, 3]}]})
    out = d.select_facts("Who visited Maya?", facts)
    body = section(model.calls_for("MemorySelection")[0], "facts")
    assert body == "1. Maya's brother visited on 2023-05-06\n2. Maya likes hiking"
    assert out.value.keep == [1]
    assert_usage(out.usage, "select_facts")


# Malformed replies ---------------------------------------------------------------------------------
def test_garbage_reply_is_retried_then_succeeds() -> None:
    good = {"reason": "car", "keep": [1]}
    d, model = decider({"MemorySelection": ["I think memory one, probably.", good]})
    out = d.filter_memories("What car?", MEMORIES)
    assert out.value.keep == [1]
    assert len(model.calls_for("MemorySelection")) == 2
    assert "could not be used" in model.calls_for("MemorySelection")[1].prompt
    assert_usage(out.usage, "filter_memories", calls=2)


def test_reply_that_stays_garbage_raises_structured_output_error() -> None:
    d, model = decider({"AnswerDraft": ["<<not json>>"]}, max_retries=1)
    with pytest.raises(StructuredOutputError) as info:
        d.answer("q", ["m"])
    assert info.value.schema == "AnswerDraft"
    assert len(model.calls_for("AnswerDraft")) == 4  # 2 tool-call attempts, then 2 JSON-in-prompt


def test_prompt_method_without_native_structured_output() -> None:
    reply = {"facts": [{"fact": "Maya has a Jeep", "score": 11, "turn_ids": ["D1:3"]}]}
    d, model = decider({"ChunkFacts": [reply]}, native=False)
    out = d.read_chunk("What car?", EXCHANGE, [])
    assert [f.score for f in out.value.facts] == [10]
    assert model.calls_for("ChunkFacts")[0].method == "prompt"
