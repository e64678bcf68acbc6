"""Structured calls that survive real servers: method fallback, bounded replies, retries, honest usage.

One call asks for a pydantic schema. Three loops, innermost first:

- provider errors (timeout, refused connection, HTTP 429/5xx) are re-sent with backoff and jitter,
  honouring Retry-After, until ``RetryPolicy.retries`` or the call's deadline; then ``ProviderError``;
- a malformed reply is asked again with what was wrong (``max_retries``); a reply cut off by its
  output-token cap is asked again once, shorter; then ``StructuredOutputError``, which graphs handle;
- 'auto' tries function calling, then JSON described in the prompt; a method the endpoint refuses
  is remembered for the endpoint and skipped from then on. A forced method that is refused is a
  one-line ``ModelError``.

Requests wait for a slot of their endpoint before they are sent. Every attempt is counted in the
returned (or raised) usage; failed and repeated ones in its ``retry_*`` fields.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel

from dmem.errors import ModelError, ProviderError, StructuredOutputError
from dmem.models.client import with_output_cap, with_temperature, without_client_retries
from dmem.models.endpoints import Endpoint, Endpoints
from dmem.models.faults import Fault, classify, describe
from dmem.models.replies import (
    Reply,
    estimate_tokens,
    read_reply,
    repair_json,
    reply_parts,
    retry_note,
    schema_instructions,
    unanswered_usage,
    with_system_text,
)
from dmem.models.retry import Deadline, RetryPolicy
from dmem.state.schemas import Usage

__all__ = ["NATIVE_METHODS", "StructuredCaller", "estimate_tokens", "repair_json", "schema_instructions"]
log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)
_T = TypeVar("_T")
NATIVE_METHODS = ("function_calling", "json_schema", "json_mode")
_SCHEMA_IN_PROMPT = ("json_mode", "prompt")


@dataclass
class _Spent:
    """What one structured call has cost so far, and when its retry deadline ends."""

    usage: Usage
    deadline: Deadline | None = None
    last_error: str = "no attempt made"
    raw: str | None = None
    give_up: bool = False
    """Set when a second reply was cut off: asking again (any method) would be cut off too."""


class _Failed(Exception):
    """A request that got no usable HTTP reply, with its classified fault and cost."""

    def __init__(self, fault: Fault, usage: Usage) -> None:
        super().__init__(fault.cause)
        self.fault = fault
        self.usage = usage


@dataclass(frozen=True)
class _Request:
    """A step of a call: send ``prompt`` once with ``method``; the driver sends the Reply back, or throws _Failed."""

    prompt: list[BaseMessage]
    method: str


@dataclass(frozen=True)
class _Wait:
    """A step of a call: wait before re-sending (``time.sleep`` or ``asyncio.sleep``, as the driver runs)."""

    seconds: float


_Step = _Request | _Wait
_Steps = Generator[_Step, Any, _T]
"""A call's retry loops as a generator: it yields the steps, the sync or async driver carries them out."""


class _Run(Generic[_T]):
    """Iterates a call's steps; the driver sets ``outcome`` (a reply, or a failure to throw in) after a request."""

    def __init__(self, steps: _Steps[_T]) -> None:
        self._steps = steps
        self.outcome: Reply | _Failed | None = None
        self.value: _T

    def __iter__(self) -> _Run[_T]:
        return self

    def __next__(self) -> _Step:
        outcome, self.outcome = self.outcome, None
        try:
            return self._steps.throw(outcome) if isinstance(outcome, _Failed) else self._steps.send(outcome)
        except StopIteration as done:
            self.value = done.value
            raise


class _Rejected(Exception):
    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.cause)
        self.fault = fault


class StructuredCaller:
    """Calls a chat model for a pydantic schema with dmem's method chain, caps and retry policy."""

    def __init__(self, model: BaseChatModel, *, method: str = "auto", max_retries: int = 2,
                 endpoint: Endpoint | None = None, retry: RetryPolicy | None = None,
                 caps: Mapping[str, int] | None = None, max_concurrency: int = 4) -> None:
        self.model = without_client_retries(model)
        self.method = method
        self.max_retries = max_retries
        self.endpoint = endpoint or Endpoints().for_model(model, max_concurrency, max_concurrency)
        self.retry = retry or RetryPolicy()
        self.caps = dict(caps or {})
        self._runnables: dict[tuple[Any, ...], Any] = {}
        """Runnables per (model, schema, method, stage, temperature, tags), built once and reused."""

    def methods(self) -> list[str]:
        """Methods to try in order for this model (refused ones skipped in 'auto')."""
        if self.method != "auto":
            return [self.method]
        refused = self.endpoint.rejected()
        return [m for m in ("function_calling", "prompt") if m not in refused] or ["prompt"]

    def call(self, schema: type[M], messages: list[BaseMessage], *, stage: str,
             temperature: float | None = None, tags: list[str] | None = None) -> tuple[M, Usage]:
        """Return the validated reply and the usage of every attempt."""
        spent = _Spent(Usage(stage=stage))
        run = _Run(self._steps(schema, messages, stage, spent))
        for step in run:
            if isinstance(step, _Wait):
                self.retry.sleep(step.seconds)
            else:
                run.outcome = self._request(schema, step.prompt, step.method, stage, temperature, tags, spent)
        return run.value, spent.usage

    async def acall(self, schema: type[M], messages: list[BaseMessage], *, stage: str,
                    temperature: float | None = None, tags: list[str] | None = None) -> tuple[M, Usage]:
        """``call`` on the event loop: the model's async API, the endpoint's async slots, asyncio sleeps."""
        spent = _Spent(Usage(stage=stage))
        run = _Run(self._steps(schema, messages, stage, spent))
        for step in run:
            if isinstance(step, _Wait):
                await asyncio.sleep(step.seconds)
            else:
                run.outcome = await self._arequest(schema, step.prompt, step.method, stage, temperature, tags, spent)
        return run.value, spent.usage

    def _steps(self, schema: type[M], messages: list[BaseMessage], stage: str, spent: _Spent) -> _Steps[M]:
        """The whole call as steps the sync and async paths both run: each method in turn until one replies."""
        for method in self.methods():
            try:
                parsed = yield from self._by_method(schema, messages, method, stage, spent)
            except _Rejected as exc:
                self._refused(method, stage, exc.fault, spent)
                continue
            if parsed is not None:
                return parsed
            if spent.give_up:
                break
        raise StructuredOutputError(schema.__name__, spent.last_error, spent.raw, usage=spent.usage)

    def _refused(self, method: str, stage: str, fault: Fault, spent: _Spent) -> None:
        if self.method != "auto":
            raise ModelError(f"{stage}: {self.endpoint.where} rejects structured_output={method!r} "
                             f"({fault.cause}); choose another method, e.g. structured_output='auto'",
                             usage=spent.usage)
        if self.endpoint.reject(method):
            log.warning("%s rejects %s structured output (%s): using JSON in the prompt from now on",
                        self.endpoint.where, method, fault.cause)
        spent.last_error = f"{method} refused: {fault.cause}"

    def _by_method(self, schema: type[M], messages: list[BaseMessage], method: str, stage: str,
                   spent: _Spent) -> _Steps[M | None]:
        """Ask with one method, again after a malformed reply (once only after a cut-off one)."""
        note: str | None = None
        cut_offs = 0
        for attempt in range(self.max_retries + 1):
            prompt = messages if note is None else [*messages, HumanMessage(content=note)]
            reply = yield from self._send(prompt, method, stage, spent)
            outcome = self._judge(reply, schema, method, stage, attempt, spent, cut_offs)
            if outcome is not _AGAIN:
                return outcome  # type: ignore[return-value]
            cut_offs += int(reply.cut_off)
            note = retry_note(reply, self.caps.get(stage))
        return None

    def _judge(self, reply: Reply, schema: type[M], method: str, stage: str, attempt: int, spent: _Spent,
               cut_offs: int) -> Any:
        """Count one reply: its parsed value, None (give this method up), or ``_AGAIN`` (ask again)."""
        if reply.parsed is not None and not reply.cut_off:
            spent.usage = spent.usage + reply.usage
            return reply.parsed
        spent.usage = spent.usage + reply.usage.as_retry()
        spent.raw = reply.text
        if reply.cut_off:
            spent.last_error = f"cut off at the output cap ({self.caps.get(stage)} tokens)"
            if cut_offs >= 1:
                spent.give_up = True
                return None
        else:
            spent.last_error = reply.error
        log.warning("%s: unusable %s reply (attempt %d, %s): %s", stage, schema.__name__, attempt + 1,
                    method, spent.last_error)
        return _AGAIN

    def _send(self, prompt: list[BaseMessage], method: str, stage: str, spent: _Spent) -> _Steps[Reply]:
        """One request, re-sent after provider errors as the retry policy allows."""
        for retry in range(self.retry.retries + 1):
            try:
                return (yield _Request(prompt, method))
            except _Failed as failed:
                spent.usage = spent.usage + failed.usage.as_retry()
                yield _Wait(self._wait_after(failed.fault, stage, retry, spent))
        raise AssertionError("unreachable")  # pragma: no cover

    def _wait_after(self, fault: Fault, stage: str, retry: int, spent: _Spent) -> float:
        """Seconds to wait before re-sending after ``fault``; raises when no re-send is allowed."""
        if fault.kind == "rejected_format":
            raise _Rejected(fault)
        policy = self.retry
        where = f"{stage}: {self.endpoint.where}"
        if not fault.retryable or retry == policy.retries:
            raise ProviderError(describe(fault, where, retry + 1, self.endpoint.url), fault=fault, usage=spent.usage)
        wait = policy.delay(retry, fault.retry_after)
        assert spent.deadline is not None  # set when the first request was sent
        if not spent.deadline.allows(wait):
            raise ProviderError(f"{describe(fault, where, retry + 1)}; no time left for another attempt "
                                f"within call_deadline ({policy.deadline:g}s)", fault=fault, usage=spent.usage)
        log.warning("%s: %s; retrying in %.1fs (%d of %d)", where, fault.cause, wait, retry + 1, policy.retries)
        return wait

    def _request(self, schema: type[M], prompt: list[BaseMessage], method: str, stage: str,
                 temperature: float | None, tags: list[str] | None, spent: _Spent) -> Reply | _Failed:
        """Send one request once a slot of the endpoint is free; classify what goes wrong."""
        sent = with_system_text(prompt, schema_instructions(schema)) if method in _SCHEMA_IN_PROMPT else prompt
        clock = self.retry.clock
        with self.endpoint.slots:
            if spent.deadline is None:
                spent.deadline = self.retry.start()
            started = clock()
            try:
                out = self._runnable(schema, method, stage, temperature, tags).invoke(sent)
            except Exception as exc:
                return _failure(exc, method, sent, stage, clock() - started)
            seconds = clock() - started
        return read_reply(schema, *reply_parts(out, method), sent, stage, seconds)

    def _runnable(self, schema: type[M], method: str, stage: str, temperature: float | None,
                  tags: list[str] | None) -> Any:
        """What one request goes through: the model (or its structured-output runnable), traced as the stage."""
        key = (id(self.model), schema, method, stage, temperature, tuple(tags or ()))
        found = self._runnables.get(key)
        if found is None:
            if len(self._runnables) >= 256:
                self._runnables.clear()
            found = self._runnables[key] = self._build(schema, method, stage, temperature, tags)
        return found

    def _build(self, schema: type[M], method: str, stage: str, temperature: float | None,
               tags: list[str] | None) -> Any:
        model = with_output_cap(with_temperature(self.model, temperature), self.caps.get(stage) or None)
        config: RunnableConfig = {"run_name": stage, "tags": ["dmem", *(tags or [])]}
        if method == "prompt":
            return model.with_config(config)
        return model.with_structured_output(schema, method=method, include_raw=True).with_config(config)

    async def _arequest(self, schema: type[M], prompt: list[BaseMessage], method: str, stage: str,
                        temperature: float | None, tags: list[str] | None, spent: _Spent) -> Reply | _Failed:
        """``_request`` awaiting an asyncio slot of the endpoint and the model's ``ainvoke``."""
        sent = with_system_text(prompt, schema_instructions(schema)) if method in _SCHEMA_IN_PROMPT else prompt
        clock = self.retry.clock
        async with self.endpoint.async_slots():
            if spent.deadline is None:
                spent.deadline = self.retry.start()
            started = clock()
            try:
                out = await self._runnable(schema, method, stage, temperature, tags).ainvoke(sent)
            except Exception as exc:
                return _failure(exc, method, sent, stage, clock() - started)
            seconds = clock() - started
        return read_reply(schema, *reply_parts(out, method), sent, stage, seconds)


_AGAIN = object()
"""``_judge``'s answer when the method should be asked again."""


def _failure(exc: Exception, method: str, sent: list[BaseMessage], stage: str, seconds: float) -> Reply | _Failed:
    """A request that raised: a cut-off reply, or ``_Failed`` with its fault."""
    if isinstance(exc, NotImplementedError):
        return _Failed(Fault("rejected_format", False, f"{method} is not implemented by this model"),
                       Usage(stage=stage))
    if type(exc).__name__ == "LengthFinishReasonError":  # the client's own cut-off check
        return Reply(None, "cut off", unanswered_usage(sent, stage, seconds), "", cut_off=True)
    failed = _Failed(classify(exc, method), unanswered_usage(sent, stage, seconds))
    failed.__cause__ = exc
    return failed


