"""Bounded calls: caps per stage, cut-off replies, honest usage, per-endpoint slots, per-call settings."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from dmem.decisions.model import ModelDecider
from dmem.errors import ConfigError, StructuredOutputError
from dmem.models.endpoints import Endpoint, Endpoints, resolve_concurrency
from dmem.models.structured import StructuredCaller
from dmem.state.caps import DEFAULT_CAPS, resolve_caps
from dmem.state.context import Context, build_context
from dmem.state.verdicts import AnswerDraft
from dmem.testing import FakeChatModel, FakeReply

ANSWER = {"reasoning": "memory 1", "answer": "Lisbon"}


def test_each_stage_is_called_with_its_own_cap_and_overrides_apply():
    fake = FakeChatModel(script={"AnswerDraft": [ANSWER], "MemorySelection": [{"reason": "r", "keep": [1]}]})
    d = ModelDecider.from_context(fake, build_context(output_caps="answer=90"))
    d.answer("q", ["m"])
    d.select_facts("q", [])
    assert [c.max_tokens for c in fake.calls] == [90, DEFAULT_CAPS["select_facts"]]
    assert resolve_caps("answer=0")["answer"] == 0  # 0 removes the cap
    with pytest.raises(ConfigError, match="output_caps"):
        build_context(output_caps="anwser=90")


def test_cut_off_reply_is_retried_once_shorter_then_succeeds():
    fake = FakeChatModel(script={"AnswerDraft": [FakeReply(ANSWER, finish_reason="length"), ANSWER]})
    out, usage = StructuredCaller(fake, caps={"answer": 50}).call(AnswerDraft, [HumanMessage("q")], stage="answer")
    assert out.answer == "Lisbon"
    assert "cut off at the length limit (50 tokens)" in fake.calls[1].prompt
    assert (usage.calls, usage.retries) == (2, 1) and usage.retry_output_tokens > 0


def test_reply_cut_off_twice_is_a_malformed_reply_not_a_loop():
    fake = FakeChatModel(script={"AnswerDraft": [FakeReply(ANSWER, finish_reason="length")]})
    with pytest.raises(StructuredOutputError, match="cut off") as info:
        StructuredCaller(fake, max_retries=5, caps={"answer": 50}).call(AnswerDraft, [HumanMessage("q")],
                                                                         stage="answer")
    assert len(fake.calls) == 2  # never the prompt method after: it would be cut off too
    assert info.value.usage is not None and info.value.usage.calls == info.value.usage.retries == 2


def test_usage_counts_every_attempt_and_reports_retries_apart():
    fake = FakeChatModel(script={"AnswerDraft": [FakeReply("nonsense", input_tokens=100, output_tokens=7),
                                                 FakeReply(ANSWER, input_tokens=120, output_tokens=9)]})
    _, usage = StructuredCaller(fake).call(AnswerDraft, [HumanMessage("q")], stage="answer")
    assert (usage.calls, usage.input_tokens, usage.output_tokens) == (2, 220, 16)
    assert (usage.retries, usage.retry_input_tokens, usage.retry_output_tokens) == (1, 100, 7)
    part = usage.retry_part()
    assert (part.stage, part.calls, part.input_tokens) == ("retries", 1, 100)


def test_retries_appear_in_answer_usage(fake: FakeChatModel, memory_factory: Any):
    fake.set_script("QualityGateVerdict", ["garbage", {"relevance": {"reason": "ok", "passed": True},
                                                       "faithfulness": {"reason": "ok", "passed": True},
                                                       "completeness": {"reason": "ok", "passed": True}}])
    mem = memory_factory(fake)
    mem.add([{"speaker": "Maya", "text": "I moved to Lisbon in March."}], user_id="maya")
    ans = mem.ask("Where does Maya live?", user_id="maya")
    assert ans.usage["retries"].calls == 1 and ans.usage["quality_gate"].calls == 2
    assert ans.usage["total"].calls == len([c for c in fake.calls if c.schema in ("AnswerDraft",
                                                                                "QualityGateVerdict")])


class WatchedSlots:
    """Endpoint slots that report when a request has to wait for one."""

    def __init__(self, limit: int) -> None:
        self._sem = threading.BoundedSemaphore(limit)
        self.waiting = threading.Event()

    def __enter__(self) -> None:
        if not self._sem.acquire(blocking=False):
            self.waiting.set()
            self._sem.acquire()

    def __exit__(self, *exc: object) -> None:
        self._sem.release()


def test_requests_beyond_the_endpoint_limit_wait_in_dmem():
    release = threading.Event()
    inside: list[int] = []
    cond = threading.Condition()

    def reply(messages: Any) -> dict[str, str]:
        with cond:
            inside.append(1)
            cond.notify_all()
        release.wait()
        return ANSWER

    fake = FakeChatModel(script={"AnswerDraft": reply})
    endpoint = Endpoints().for_model(fake, 2)
    endpoint.slots = WatchedSlots(2)  # type: ignore[assignment]
    deciders = [ModelDecider.from_context(fake, Context()) for _ in range(3)]
    for d in deciders:  # three deciders, one endpoint
        d.caller.endpoint = endpoint
    threads = [threading.Thread(target=d.answer, args=("q", ["m"])) for d in deciders]
    for t in threads:
        t.start()
    with cond:
        cond.wait_for(lambda: len(inside) == 2)
    assert endpoint.slots.waiting.wait(10)  # type: ignore[attr-defined]
    assert len(fake.calls) == 2  # the third request is held in dmem, not sent
    release.set()
    for t in threads:
        t.join()
    assert len(fake.calls) == 3 and fake.max_in_flight() == 2


def test_deciders_of_one_lifetime_share_the_endpoint(fake: FakeChatModel, memory_factory: Any):
    endpoints = Endpoints()
    a = ModelDecider.from_context(fake, Context(), endpoints)
    b = ModelDecider.from_context(fake, Context(temperature=0.3), endpoints)
    assert a.caller.endpoint is b.caller.endpoint
    assert a.caller.endpoint is not ModelDecider.from_context(fake, Context(), Endpoints()).caller.endpoint
    mem = memory_factory(fake)
    derived = mem.resources.services(Context(max_retries=0)).decider  # a run's own model settings
    assert isinstance(derived, ModelDecider) and isinstance(mem.services.decider, ModelDecider)
    assert derived is not mem.services.decider and derived.caller.max_retries == 0
    assert derived.caller.endpoint is mem.services.decider.caller.endpoint


def test_endpoint_limit_defaults_to_one_for_a_local_server():
    assert resolve_concurrency(0, "http://localhost:8080/v1", 4) == 1
    assert resolve_concurrency(0, "http://127.0.0.1:11434/v1", 4) == 1
    assert resolve_concurrency(0, "https://api.openai.com/v1", 4) == 4
    assert resolve_concurrency(3, "http://localhost:8080/v1", 4) == 3
    assert Endpoint("k", None, "m", 2).where == "m"


def test_per_call_settings_reach_the_model(fake: FakeChatModel, memory_factory: Any):
    mem = memory_factory(fake)
    mem.add([{"speaker": "Maya", "text": "I moved to Lisbon in March."}], user_id="maya")
    fake.set_script("AnswerDraft", ["not json", ANSWER])
    mem.ask("Where?", user_id="maya", gate_policy="never", temperature=0.4, structured_output="prompt",
            max_retries=1)
    calls = fake.calls_for("AnswerDraft")
    assert [(c.method, c.temperature) for c in calls] == [("prompt", 0.4), ("prompt", 0.4)]
    before = len(fake.calls)
    mem.ask("Where?", user_id="maya", gate_policy="never")  # the next call is back to the settings
    assert [(c.method, c.temperature) for c in fake.calls[before:]] == [("function_calling", 0.0)]


def test_per_call_request_timeout_reaches_an_openai_client():
    from dmem.models.chat import make_chat_model
    from dmem.services import Resources

    given = make_chat_model("openai-compatible:tiny", base_url="http://127.0.0.1:9/v1", timeout=120)
    settings = Context(chat_model="openai-compatible:tiny", base_url="http://127.0.0.1:9/v1", embedding_model="hash")
    for res in (Resources(settings), Resources(settings, chat_model=given)):  # a model built, or handed in
        run = res.settings_for(Context(request_timeout=7.5))
        derived = res.decider_for(run, res.embeddings_for(run))
        assert isinstance(derived, ModelDecider)
        assert derived.caller.model.root_client.timeout == 7.5  # type: ignore[attr-defined]
        assert derived.caller.model.root_client.max_retries == 0  # type: ignore[attr-defined]
        own = res.decider_for(res.settings, res.embeddings_for(res.settings))
        assert isinstance(own, ModelDecider) and own.caller.model.root_client.timeout == 120  # type: ignore[attr-defined]
        assert own.caller.endpoint is derived.caller.endpoint
