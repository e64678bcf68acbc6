"""Test doubles for dmem and for agents that embed it: a scripted chat model that records calls.

``FakeChatModel(script={"AdmissionVerdicts": [...], "AnswerDraft": lambda msgs: {...}})`` returns
scripted structured outputs per schema name, through the real ``with_structured_output`` API,
and records every call (schema, prompt, temperature, start and end time, thread).
``FaultyChatModel(script=..., faults=FaultRates(provider_error=0.2, malformed=0.3, seed=7))`` fails
at set, seeded rates the ways real providers do; ``echo_formation_script()`` makes each turn one
memory, so lost and duplicated turns can be counted.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel, PrivateAttr, ValidationError

from dmem.models.structured import estimate_tokens, repair_json

Scripted = Any  # BaseModel | dict | str | FakeReply | Exception | Callable[[list[BaseMessage]], Any]


@dataclass
class FakeReply:
    """A scripted reply with how it ended and what it cost (a cut-off reply: ``finish_reason='length'``)."""

    content: Any
    """The reply: a pydantic model, a dict (sent as JSON) or text."""
    finish_reason: str = "stop"
    input_tokens: int | None = None
    """Reported usage; None estimates it from the text, as for plain scripted replies."""
    output_tokens: int | None = None


@dataclass
class FakeCall:
    """One recorded model call."""

    schema: str
    messages: list[BaseMessage]
    temperature: float | None
    method: str
    started: float
    ended: float = 0.0
    thread: int = 0
    max_tokens: int | None = None
    """The output-token cap the call was made with."""
    via: str = "sync"
    """'async' when the call came through the model's async API (``ainvoke`` / ``_agenerate``)."""

    @property
    def prompt(self) -> str:
        """All message text of the call, joined."""
        return "\n".join(str(m.content) for m in self.messages)


@dataclass
class _FakeState:
    script: dict[str, Any]
    positions: dict[str, int] = field(default_factory=dict)
    calls: list[FakeCall] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class FakeChatModel(BaseChatModel):
    """A chat model that answers from a script, per schema name (or 'text' for plain calls)."""

    script: dict[str, Any] = {}
    """Schema name -> a list of outputs used in order (the last repeats) or a callable(messages)."""
    temperature: float | None = 0.0
    delay: float = 0.0
    """Seconds each call sleeps, so concurrency tests can see overlapping calls."""
    native: bool = True
    """False makes with_structured_output raise NotImplementedError, like servers without tools."""
    report_usage: bool = True
    """False omits usage metadata, so callers must estimate tokens."""
    max_tokens: int | None = None
    """Output-token cap (set on copies by dmem per stage; recorded with each call)."""
    _state: _FakeState = PrivateAttr()

    def model_post_init(self, context: Any) -> None:
        self._state = _FakeState(script=dict(self.script))

    @property
    def _llm_type(self) -> str:
        return "dmem-fake"

    # Recording ---------------------------------------------------------------------------
    @property
    def calls(self) -> list[FakeCall]:
        """Every call so far, in start order."""
        return list(self._state.calls)

    def calls_for(self, schema: str) -> list[FakeCall]:
        """Calls for one schema name."""
        return [c for c in self._state.calls if c.schema == schema]

    def max_in_flight(self, schema: str | None = None) -> int:
        """Largest number of calls that overlapped in time."""
        calls = [c for c in self._state.calls if schema is None or c.schema == schema]
        events = sorted([(c.started, 1) for c in calls] + [(c.ended, -1) for c in calls],
                        key=lambda e: (e[0], e[1]))
        best = cur = 0
        for _, step in events:
            cur += step
            best = max(best, cur)
        return best

    def set_script(self, schema: str, outputs: Sequence[Scripted] | Callable[..., Any]) -> None:
        """Replace the script of one schema and restart its position."""
        with self._state.lock:
            self._state.script[schema] = outputs
            self._state.positions[schema] = 0

    # Scripted outputs ---------------------------------------------------------------------
    def _next(self, schema: str, messages: list[BaseMessage]) -> Any:
        with self._state.lock:
            entry = self._state.script.get(schema)
            if entry is None:
                raise KeyError(f"FakeChatModel has no script for schema {schema!r}")
            if not callable(entry):
                idx = self._state.positions.get(schema, 0)
                self._state.positions[schema] = idx + 1
                return entry[min(idx, len(entry) - 1)]
        return entry(messages)  # outside the lock: a script may block (barriers) without stalling other calls

    def _record(self, schema: str, messages: list[BaseMessage], method: str, via: str = "sync") -> FakeCall:
        call = FakeCall(schema=schema, messages=list(messages), temperature=self.temperature,
                        method=method, started=time.perf_counter(), thread=threading.get_ident(),
                        max_tokens=self.max_tokens, via=via)
        with self._state.lock:
            self._state.calls.append(call)
        return call

    def _produce(self, schema: str, messages: list[BaseMessage], method: str) -> FakeReply | AIMessage:
        call = self._record(schema, messages, method)
        try:
            if self.delay:
                time.sleep(self.delay)
            return self._scripted(schema, messages)
        finally:
            call.ended = time.perf_counter()

    async def _aproduce(self, schema: str, messages: list[BaseMessage], method: str) -> FakeReply | AIMessage:
        """``_produce`` for the async API: the delay is awaited, so calls overlap on one event loop."""
        call = self._record(schema, messages, method, via="async")
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            return self._scripted(schema, messages)
        finally:
            call.ended = time.perf_counter()

    def _scripted(self, schema: str, messages: list[BaseMessage]) -> FakeReply | AIMessage:
        """The next scripted output as a reply (raising a scripted exception)."""
        out = self._next(schema, messages)
        if isinstance(out, BaseException):
            raise out
        if isinstance(out, AIMessage):  # a scripted reply with tool calls, for agents
            return out
        reply = out if isinstance(out, FakeReply) else FakeReply(out)
        content = reply.content
        if isinstance(content, BaseModel):
            content = content.model_dump_json()
        elif not isinstance(content, str):
            content = json.dumps(content, default=str)
        return dataclasses.replace(reply, content=content)

    def _message(self, reply: FakeReply, messages: list[BaseMessage]) -> AIMessage:
        usage = None
        if self.report_usage:
            n_in = reply.input_tokens
            n_in = estimate_tokens("\n".join(str(m.content) for m in messages)) if n_in is None else n_in
            n_out = estimate_tokens(reply.content) if reply.output_tokens is None else reply.output_tokens
            usage = {"input_tokens": n_in, "output_tokens": n_out, "total_tokens": n_in + n_out}
        return AIMessage(content=reply.content, usage_metadata=usage,  # type: ignore[arg-type]
                         response_metadata={"finish_reason": reply.finish_reason})

    # LangChain API ----------------------------------------------------------------------------
    def with_structured_output(  # type: ignore[override]
        self, schema: Any, *, method: str = "function_calling", include_raw: bool = False, **kwargs: Any
    ) -> Runnable:
        if not self.native:
            raise NotImplementedError("this fake model has no native structured output")
        name = schema.__name__

        def run(messages: Any) -> Any:
            msgs = list(messages) if isinstance(messages, list) else messages.to_messages()
            return parse(msgs, self._produce(name, msgs, method))

        async def arun(messages: Any) -> Any:
            msgs = list(messages) if isinstance(messages, list) else messages.to_messages()
            return parse(msgs, await self._aproduce(name, msgs, method))

        def parse(msgs: list[BaseMessage], produced: FakeReply | AIMessage) -> Any:
            reply = FakeReply(produced.text) if isinstance(produced, AIMessage) else produced
            raw = self._message(reply, msgs)
            parsed, error = None, None
            try:
                parsed = schema.model_validate(repair_json(reply.content))
            except (ValueError, ValidationError) as exc:
                error = exc
                if not include_raw:
                    raise
            return {"raw": raw, "parsed": parsed, "parsing_error": error} if include_raw else parsed

        return RunnableLambda(run, arun, name=f"fake_{name}")

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        out = self._produce(_schema_of(messages), messages, "prompt")
        message = out if isinstance(out, AIMessage) else self._message(out, messages)
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: AsyncCallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        out = await self._aproduce(_schema_of(messages), messages, "prompt")
        message = out if isinstance(out, AIMessage) else self._message(out, messages)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any) -> Runnable:
        """Accept tools like a provider model (``create_agent`` binds them); the script decides the calls.

        Script 'text' with a callable returning ``AIMessage(content="", tool_calls=[...])`` to call a tool.
        """
        from langchain_core.utils.function_calling import convert_to_openai_tool

        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)



# Fault injection ------------------------------------------------------------------------------
FAULT_KINDS = ("timeout", "server_error", "connection_refused", "malformed", "missing_tool_call")


@dataclass(frozen=True)
class FaultRates:
    """How often a ``FaultyChatModel`` call fails, and how; each call draws once from a seeded RNG."""

    provider_error: float = 0.0
    """Share of calls raising what the OpenAI client raises: a timeout, a 503 or a refused connection."""
    malformed: float = 0.0
    """Share of calls answering text that is not the requested JSON."""
    missing_tool_call: float = 0.0
    """Share of calls answering nothing: no tool call and no text."""
    latency: float = 0.0
    """Upper bound of a seeded random delay added to every call, in seconds."""
    seed: int = 0


def provider_error(kind: str) -> Exception:
    """An exception of the type the OpenAI client raises for ``kind`` (builtins if openai is absent)."""
    try:
        import openai
        from openai import _exceptions
    except ImportError:  # pragma: no cover - openai comes with langchain-openai
        return {"timeout": TimeoutError("request timed out"),
                "server_error": RuntimeError("503 service unavailable")}.get(
            kind, ConnectionRefusedError("connection refused"))
    http = getattr(_exceptions, "httpx2", None) or _exceptions.httpx  # type: ignore[attr-defined]
    request = http.Request("POST", "https://api.invalid/v1/chat/completions")
    if kind == "timeout":
        return openai.APITimeoutError(request=request)
    if kind == "server_error":
        response = http.Response(503, request=request, headers={"retry-after": "0"})
        return openai.InternalServerError("Error code: 503 - service unavailable", response=response, body=None)
    return openai.APIConnectionError(message="Connection error: [Errno 111] Connection refused", request=request)


class FaultyChatModel(FakeChatModel):
    """``FakeChatModel`` that fails at set, seeded rates: provider errors, malformed replies, latency.

    ``injected`` counts the faults by kind; ``heal()`` stops injecting (a provider that recovered).
    """

    faults: FaultRates = FaultRates()
    _rng: Any = PrivateAttr()
    _injected: dict[str, int] = PrivateAttr()
    _healed: list[bool] = PrivateAttr()
    """Shared with the copies dmem makes (another temperature, an output cap), so ``heal()`` reaches them."""

    def model_post_init(self, context: Any) -> None:
        super().model_post_init(context)
        import random

        self._rng = random.Random(self.faults.seed)
        self._injected = dict.fromkeys(FAULT_KINDS, 0)
        self._healed = [False]

    @property
    def injected(self) -> dict[str, int]:
        """Faults injected so far, by kind."""
        with self._state.lock:
            return dict(self._injected)

    def heal(self) -> None:
        """Stop injecting faults from now on."""
        with self._state.lock:
            self.faults = FaultRates(seed=self.faults.seed)
            self._healed[0] = True

    def _draw(self) -> tuple[str | None, float]:
        f = FaultRates(seed=self.faults.seed) if self._healed[0] else self.faults
        with self._state.lock:
            roll, pause = self._rng.random(), self._rng.random() * f.latency
            kind = None
            if roll < f.provider_error:
                kind = ("timeout", "server_error", "connection_refused")[self._rng.randrange(3)]
            elif roll < f.provider_error + f.malformed:
                kind = "malformed"
            elif roll < f.provider_error + f.malformed + f.missing_tool_call:
                kind = "missing_tool_call"
            if kind:
                self._injected[kind] += 1
        return kind, pause

    def _produce(self, schema: str, messages: list[BaseMessage], method: str) -> FakeReply | AIMessage:
        kind, pause = self._draw()
        if pause:
            time.sleep(pause)
        if kind in ("timeout", "server_error", "connection_refused"):
            self._record(schema, messages, method).ended = time.perf_counter()
            raise provider_error(kind)
        if kind == "malformed":
            self._record(schema, messages, method).ended = time.perf_counter()
            return FakeReply("Sure! Here is what I found: the user said several things")
        if kind == "missing_tool_call":
            self._record(schema, messages, method).ended = time.perf_counter()
            return FakeReply("")
        return super()._produce(schema, messages, method)

    async def _aproduce(self, schema: str, messages: list[BaseMessage], method: str) -> FakeReply | AIMessage:
        """Faults are drawn as on the sync path (in a worker thread: a fault may pause)."""
        return await asyncio.to_thread(self._produce, schema, messages, method)


def _schema_of(messages: list[BaseMessage]) -> str:
    """The schema a prompt-mode request asks for (its output_format section), else 'text'."""
    joined = "\n".join(str(m.content) for m in messages)
    marker = '<output_format name="'
    return joined.split(marker, 1)[1].split('"', 1)[0] if marker in joined else "text"


def echo_formation_script() -> dict[str, Any]:
    """A script under which each turn of an exchange becomes exactly one memory: '<speaker> said: <text>'.

    Admission admits every turn, the split makes one fact per turn, every fact is GENERIC and
    every lifecycle decision is ADD: so a turn formed twice shows up as a duplicate memory.
    """
    def section(messages: list[BaseMessage], tag: str) -> str:
        text = "\n".join(str(m.content) for m in messages)
        found = re.findall(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
        return found[-1] if found else ""

    def lines(messages: list[BaseMessage]) -> list[tuple[str, str, str]]:
        out = []
        for line in section(messages, "current_exchange").splitlines():
            m = re.match(r"^\[([^\]]+)\] (?:\[[^\]]+\] )?([^:]+): (.*)$", line)
            if m:
                out.append((m[1], m[2], m[3]))
        return out

    def count(messages: list[BaseMessage]) -> int:
        return len(re.findall(r"^\d+\. ", section(messages, "facts"), re.MULTILINE)) or 1

    return {
        "AdmissionVerdicts": lambda m: {"verdicts": [{"turn_id": t, "reason": "kept", "admit": True}
                                                     for t, _, _ in lines(m)]},
        "FactDrafts": lambda m: {"facts": [{"text": f"{s} said: {x}", "speaker": s, "source_turn_ids": [t],
                                            "categories": ["event"], "provenance": "stated"} for t, s, x in lines(m)]},
        "ScopeLabels": lambda m: {"labels": [{"index": i, "reason": "rule", "scope": "GENERIC", "enrich": False}
                                             for i in range(1, count(m) + 1)]},
        "LifecycleDecision": [{"reason": "new information", "operation": "ADD"}],
        "LifecycleDecisions": [{"decisions": []}],  # batch mode: a fact left without a decision is added
    }
