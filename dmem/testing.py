"""Test doubles for dmem and for agents that embed it: a scripted chat model that records calls.

``FakeChatModel(script={"AdmissionVerdicts": [...], "AnswerDraft": lambda msgs: {...}})`` returns
scripted structured outputs per schema name, through the real ``with_structured_output`` API,
and records every call (schema, prompt, temperature, start and end time, thread).
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
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
        return entry(messages)  # outside the lock: a callable may block (concurrency tests)

    def _record(self, schema: str, messages: list[BaseMessage], method: str) -> FakeCall:
        call = FakeCall(schema=schema, messages=list(messages), temperature=self.temperature,
                        method=method, started=time.perf_counter(), thread=threading.get_ident(),
                        max_tokens=self.max_tokens)
        with self._state.lock:
            self._state.calls.append(call)
        return call

    def _produce(self, schema: str, messages: list[BaseMessage], method: str) -> FakeReply:
        call = self._record(schema, messages, method)
        try:
            if self.delay:
                time.sleep(self.delay)
            out = self._next(schema, messages)
            if isinstance(out, BaseException):
                raise out
            reply = out if isinstance(out, FakeReply) else FakeReply(out)
            content = reply.content
            if isinstance(content, BaseModel):
                content = content.model_dump_json()
            elif not isinstance(content, str):
                content = json.dumps(content, default=str)
            return dataclasses.replace(reply, content=content)
        finally:
            call.ended = time.perf_counter()

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
            reply = self._produce(name, msgs, method)
            raw = self._message(reply, msgs)
            parsed, error = None, None
            try:
                parsed = schema.model_validate(repair_json(reply.content))
            except (ValueError, ValidationError) as exc:
                error = exc
                if not include_raw:
                    raise
            return {"raw": raw, "parsed": parsed, "parsing_error": error} if include_raw else parsed

        return RunnableLambda(run, name=f"fake_{name}")

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        joined = "\n".join(str(m.content) for m in messages)
        marker = '<output_format name="'
        schema = "text"
        if marker in joined:
            schema = joined.split(marker, 1)[1].split('"', 1)[0]
        reply = self._produce(schema, messages, "prompt")
        return ChatResult(generations=[ChatGeneration(message=self._message(reply, messages))])
