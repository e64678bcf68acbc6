"""Query time under provider failures: a gate that cannot run leaves System 1's answer, marked unaudited."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from dmem.errors import ModelError, ProviderError
from dmem.testing import FakeChatModel

SETTINGS = {"provider_retries": 1, "retry_backoff": 0.0}


class ServerDown(Exception):
    """What a client raises for an HTTP 503 (duck-typed like the OpenAI client's errors)."""

    status_code = 503


def seeded(fake: FakeChatModel, memory_factory: Any, **settings: Any) -> Any:
    mem = memory_factory(fake, **SETTINGS, **settings)
    mem.add([{"speaker": "Maya", "text": "I moved to Lisbon in March."}], user_id="maya")
    return mem


def test_quality_gate_down_returns_system1_unaudited(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = seeded(fake, memory_factory)
    fake.set_script("QualityGateVerdict", [ServerDown("service unavailable")])
    ans = mem.ask("Where does Maya live?", user_id="maya")
    assert ans.answer == "7 May 2023" and ans.route == "system1"
    assert ans.unaudited and ans.gate_passed is False
    assert ans.gate_reasons[0].startswith("unaudited:") and "HTTP 503" in ans.gate_reasons[0]
    assert len(fake.calls_for("QualityGateVerdict")) == 2  # one retry, then the gate gives up
    assert ans.usage["quality_gate"].calls == 2 and ans.usage["retries"].calls == 2
    assert fake.calls_for("ChunkFacts") == []  # no Full Deliberation on an unaudited answer


def test_malformed_gate_verdict_still_escalates(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = seeded(fake, memory_factory, max_retries=0)
    fake.set_script("QualityGateVerdict", ["not a verdict"])
    ans = mem.ask("Where does Maya live?", user_id="maya")
    assert ans.route == "deliberation" and not ans.unaudited


def test_voting_with_a_failed_sample_is_unaudited(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = seeded(fake, memory_factory, max_concurrency=1)
    fake.set_script("AnswerDraft", [{"answer": "Lisbon"}, ServerDown("down"), ServerDown("down"),
                                    {"answer": "Lisbon"}])
    ans = mem.ask("Where does Maya live?", user_id="maya", gate_policy="majority")
    assert ans.unaudited and ans.route == "system1" and ans.answer == "Lisbon"
    assert "1 of 3 voting samples failed" in ans.gate_reasons[0]
    assert fake.calls_for("AnswerGroups") == []


def test_grouping_down_falls_back_to_identical_answers(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = seeded(fake, memory_factory)
    fake.set_script("AnswerDraft", [{"answer": "Lisbon"}])
    fake.set_script("AnswerGroups", [ServerDown("down")])
    ans = mem.ask("Where does Maya live?", user_id="maya", gate_policy="consensus")
    assert ans.gate_passed and not ans.unaudited and ans.route == "system1"
    assert "3 of 3 answers agree" in ans.gate_reasons[0] and "grouping call failed" in ans.gate_reasons[0]


@pytest.mark.parametrize("policy", ["quality", "majority"])
def test_final_answer_down_is_an_error(fake: FakeChatModel, memory_factory: Any, policy: str) -> None:
    mem = seeded(fake, memory_factory)
    fake.set_script("AnswerDraft", [ServerDown("down")])
    with pytest.raises(ProviderError) as info:
        mem.ask("Where does Maya live?", user_id="maya", gate_policy=policy)
    assert "HTTP 503" in str(info.value) and "\n" not in str(info.value)
    assert isinstance(info.value, ModelError)


def test_a_chunk_worker_down_is_skipped_and_its_cost_counted(fake: FakeChatModel, memory_factory: Any,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="dmem.nodes.deliberation")  # in-process CLI runs quieten "dmem"
    mem = seeded(fake, memory_factory)
    fake.set_script("ChunkFacts", [ServerDown("down")])
    ans = mem.ask("Where does Maya live?", user_id="maya", gate_policy="always")
    assert ans.route == "deliberation" and ans.facts_used == []  # no fact read: no information, no error
    assert len(fake.calls_for("ChunkFacts")) == 2 and ans.usage["read_chunk"].calls == 2
    assert ans.usage["retries"].calls == 2
    assert "chunk 0 skipped after retries" in caplog.text and "HTTP 503" in caplog.text


def test_the_filter_down_keeps_the_unfiltered_context(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = seeded(fake, memory_factory, use_filter=True)
    fake.set_script("MemorySelection", [ServerDown("down")])
    ans = mem.ask("Where does Maya live?", user_id="maya", gate_policy="never")
    assert ans.answer == "7 May 2023" and ans.usage["filter_memories"].calls == 2
    assert fake.calls_for("AnswerDraft")[0].prompt.count("Lisbon") >= 1
