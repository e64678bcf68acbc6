"""Provider errors through the real OpenAI client against a loopback server: retries, backoff, one-line errors."""

from __future__ import annotations

import random
import socket
import threading

import pytest
from langchain_core.messages import HumanMessage

from dmem.errors import ModelError, ProviderError, StructuredOutputError
from dmem.models.chat import make_chat_model
from dmem.models.endpoints import Endpoints
from dmem.models.retry import MAX_BACKOFF, RetryPolicy
from dmem.models.structured import StructuredCaller
from dmem.state.verdicts import AnswerDraft
from dmem.testing_http import ChatServer, completion, error

GOOD = completion(tool=("AnswerDraft", {"reasoning": "memory 1", "answer": "Lisbon"}), usage=(40, 8))
TRACE = "Traceback (most recent call last):\n  File \"/srv/app.py\", line 12, in handler\nKeyError: 'x'"


class Clock:
    """A fake monotonic clock that sleeping advances, so backoff is checked without waiting."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def caller(url: str, clock: Clock, *, method: str = "auto", retries: int = 4, deadline: float = 600.0,
           timeout: float = 30.0, endpoints: Endpoints | None = None) -> StructuredCaller:
    model = make_chat_model("openai-compatible:tiny", base_url=url, timeout=timeout)
    policy = RetryPolicy(retries=retries, backoff=1.0, deadline=deadline, clock=clock, sleep=clock.sleep,
                         rng=random.Random(7))
    endpoint = (endpoints or Endpoints()).for_model(model, 2)
    return StructuredCaller(model, method=method, endpoint=endpoint, retry=policy, caps={"answer": 64})


def scripted(*responses):
    """A responder answering with the given responses in order (the last one repeats)."""
    seen: list[int] = []

    def respond(body):
        seen.append(1)
        return responses[min(len(seen), len(responses)) - 1]
    return respond


def ask(c: StructuredCaller):
    return c.call(AnswerDraft, [HumanMessage("Where does Maya live?")], stage="answer")


def test_429_with_retry_after_is_honoured_then_succeeds():
    clock = Clock()
    with ChatServer(scripted(error(429, "rate limited", {"Retry-After": "7"}), (200, {}, GOOD))) as srv:
        out, usage = ask(caller(srv.url, clock))
        assert len(srv.requests) == 2  # the client itself never re-sends (max_retries=0)
    assert out.answer == "Lisbon"
    assert clock.sleeps == [pytest.approx(7.0)]  # Retry-After beats the 0.5-1 s first backoff
    assert (usage.calls, usage.retries) == (2, 1)
    assert usage.input_tokens > 40 and usage.retry_input_tokens > 0 and usage.retry_output_tokens == 0


def test_5xx_is_retried_with_exponential_backoff_and_jitter_then_fails_in_one_line():
    clock = Clock()
    with ChatServer(scripted(error(500, TRACE))) as srv:
        with pytest.raises(ProviderError) as info:
            ask(caller(srv.url, clock, retries=3))
        assert len(srv.requests) == 4
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message and "KeyError" not in message
    assert "tiny at http://127.0.0.1:" in message and "HTTP 500" in message and "after 4 attempts" in message
    # Equal jitter: retry n waits between half and all of 2**n seconds.
    assert [lo <= s <= hi for s, lo, hi in zip(clock.sleeps, (0.5, 1, 2), (1, 2, 4), strict=True)] == [True] * 3
    assert info.value.usage is not None and info.value.usage.retries == 4 == info.value.usage.calls


def test_backoff_is_capped_and_random():
    policy = RetryPolicy(backoff=1.0, rng=random.Random(1))
    delays = [policy.delay(n) for n in range(12)]
    assert max(delays) <= MAX_BACKOFF and delays[-1] >= MAX_BACKOFF / 2
    assert len({round(d, 6) for d in delays[:5]}) == 5
    assert policy.delay(0, retry_after=90.0) == 90.0


def test_no_retry_starts_after_the_call_deadline():
    clock = Clock()
    with ChatServer(scripted(error(503, "busy"))) as srv:
        with pytest.raises(ProviderError, match="call_deadline"):
            ask(caller(srv.url, clock, retries=10, deadline=5.0))
        assert len(srv.requests) == 3  # waits of ~1 and ~2 s fit in 5 s; ~4 more would not
    assert sum(clock.sleeps) < 5.0


def test_refused_connection_is_retried_then_named():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    clock = Clock()
    with pytest.raises(ProviderError) as info:
        ask(caller(f"http://127.0.0.1:{port}/v1", clock, retries=2))
    assert f"127.0.0.1:{port}" in str(info.value) and "cannot connect" in str(info.value)
    assert len(clock.sleeps) == 2


def test_timeout_is_retried():
    release = threading.Event()
    hits: list[int] = []

    def respond(body):
        hits.append(1)
        if len(hits) == 1:
            release.wait()  # longer than the client's timeout
        return 200, {}, GOOD

    clock = Clock()
    try:
        with ChatServer(respond) as srv:
            out, usage = ask(caller(srv.url, clock, timeout=0.3))
            release.set()
    finally:
        release.set()
    assert out.answer == "Lisbon" and (usage.calls, usage.retries) == (2, 1)


def test_404_names_the_url_and_suggests_v1():
    clock = Clock()
    with ChatServer(scripted(error(404, "Not Found"))) as srv:
        bare = srv.url.removesuffix("/v1")
        with pytest.raises(ProviderError) as info:
            ask(caller(bare, clock))
        assert len(srv.requests) == 1  # not retried
    assert bare in str(info.value) and f"try {bare}/v1" in str(info.value)


def test_auto_detects_a_rejected_format_once_per_endpoint_and_falls_back():
    def respond(body):
        if body.get("tools"):
            return error(500, "Traceback ... tool_choice is not supported by this server")
        return 200, {}, completion('{"reasoning": "r", "answer": "Lisbon"}')

    clock = Clock()
    endpoints = Endpoints()
    with ChatServer(respond) as srv:
        first = caller(srv.url, clock, endpoints=endpoints)
        assert ask(first)[0].answer == "Lisbon"
        second = caller(srv.url, clock, endpoints=endpoints)  # another caller, the same endpoint
        assert ask(second)[0].answer == "Lisbon"
        tools = [bool(r.get("tools")) for r in srv.requests]
    assert tools == [True, False, False]  # learnt once, remembered for the endpoint
    assert clock.sleeps == []  # a rejected format is not retried
    assert second.methods() == ["prompt"]


def test_forced_method_rejected_is_one_clear_line():
    clock = Clock()
    with ChatServer(scripted(error(500, "Traceback ... response_format json_schema unsupported"))) as srv:
        with pytest.raises(ModelError) as info:
            ask(caller(srv.url, clock, method="json_schema"))
        assert len(srv.requests) == 1
    message = str(info.value)
    assert "json_schema" in message and srv.url in message and "\n" not in message
    assert not isinstance(info.value, StructuredOutputError)


def test_json_mode_puts_a_compact_schema_in_the_prompt():
    clock = Clock()
    with ChatServer(scripted((200, {}, completion('{"reasoning": "r", "answer": "Lisbon"}')))) as srv:
        out, _ = ask(caller(srv.url, clock, method="json_mode"))
        [body] = srv.requests
    assert out.answer == "Lisbon" and body["response_format"] == {"type": "json_object"}
    system = body["messages"][0]["content"]
    assert '{"reasoning": string, "used": [integer, ...], "answer": string}' in system and "$defs" not in system


def test_output_cap_is_sent_both_ways_to_a_compatible_server():
    clock = Clock()
    with ChatServer(scripted((200, {}, GOOD))) as srv:
        ask(caller(srv.url, clock))
        [body] = srv.requests
    assert body["max_completion_tokens"] == 64 and body["max_tokens"] == 64
