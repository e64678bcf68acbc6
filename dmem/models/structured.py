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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, ValidationError

from dmem.errors import ModelError, ProviderError, StructuredOutputError
from dmem.models.client import with_output_cap, with_temperature, without_client_retries
from dmem.models.endpoints import Endpoint, Endpoints
from dmem.models.faults import Fault, classify, describe
from dmem.models.replies import (
    estimate_tokens,
    finish_reason,
    prompt_text,
    repair_json,
    reply_text,
    schema_instructions,
    usage_of,
    validate_loose,
)
from dmem.models.retry import Deadline, RetryPolicy
from dmem.state.schemas import Usage

__all__ = ["NATIVE_METHODS", "StructuredCaller", "estimate_tokens", "repair_json", "schema_instructions"]
log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)
NATIVE_METHODS = ("function_calling", "json_schema", "json_mode")
_SCHEMA_IN_PROMPT = ("json_mode", "prompt")


@dataclass
class _Reply:
    parsed: Any
    error: str
    usage: Usage
    text: str
    cut_off: bool = False


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
        for method in self.methods():
            try:
                parsed = self._by_method(schema, messages, method, stage, temperature, tags, spent)
            except _Rejected as exc:
                self._refused(method, stage, exc.fault, spent)
                continue
            if parsed is not None:
                return parsed, spent.usage
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
                   temperature: float | None, tags: list[str] | None, spent: _Spent) -> M | None:
        """Ask with one method, again after a malformed reply (once only after a cut-off one)."""
        note: str | None = None
        cut_offs = 0
        for attempt in range(self.max_retries + 1):
            prompt = messages if note is None else [*messages, HumanMessage(content=note)]
            reply = self._send(schema, prompt, method, stage, temperature, tags, spent)
            outcome = self._judge(reply, schema, method, stage, attempt, spent, cut_offs)
            if outcome is not _AGAIN:
                return outcome  # type: ignore[return-value]
            cut_offs += int(reply.cut_off)
            note = _note(reply, self.caps.get(stage))
        return None

    def _judge(self, reply: _Reply, schema: type[M], method: str, stage: str, attempt: int, spent: _Spent,
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

    def _send(self, schema: type[M], prompt: list[BaseMessage], method: str, stage: str,
              temperature: float | None, tags: list[str] | None, spent: _Spent) -> _Reply:
        """One request, re-sent after provider errors as the retry policy allows."""
        for retry in range(self.retry.retries + 1):
            try:
                return self._request(schema, prompt, method, stage, temperature, tags, spent)
            except _Failed as failed:
                spent.usage = spent.usage + failed.usage.as_retry()
                self.retry.sleep(self._wait_after(failed.fault, stage, retry, spent))
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
                 temperature: float | None, tags: list[str] | None, spent: _Spent) -> _Reply:
        """Send one request once a slot of the endpoint is free; classify what goes wrong."""
        sent = _append_system(prompt, schema_instructions(schema)) if method in _SCHEMA_IN_PROMPT else prompt
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
        return _read(schema, *_parts(out, method), sent, stage, seconds)

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

    # The async path: the same loops, awaiting the model's ainvoke and an asyncio slot of the endpoint.
    async def acall(self, schema: type[M], messages: list[BaseMessage], *, stage: str,
                    temperature: float | None = None, tags: list[str] | None = None) -> tuple[M, Usage]:
        """``call`` on the event loop: the model's async API, the endpoint's async slots, asyncio sleeps."""
        spent = _Spent(Usage(stage=stage))
        for method in self.methods():
            try:
                parsed = await self._aby_method(schema, messages, method, stage, temperature, tags, spent)
            except _Rejected as exc:
                self._refused(method, stage, exc.fault, spent)
                continue
            if parsed is not None:
                return parsed, spent.usage
            if spent.give_up:
                break
        raise StructuredOutputError(schema.__name__, spent.last_error, spent.raw, usage=spent.usage)

    async def _aby_method(self, schema: type[M], messages: list[BaseMessage], method: str, stage: str,
                          temperature: float | None, tags: list[str] | None, spent: _Spent) -> M | None:
        note: str | None = None
        cut_offs = 0
        for attempt in range(self.max_retries + 1):
            prompt = messages if note is None else [*messages, HumanMessage(content=note)]
            reply = await self._asend(schema, prompt, method, stage, temperature, tags, spent)
            outcome = self._judge(reply, schema, method, stage, attempt, spent, cut_offs)
            if outcome is not _AGAIN:
                return outcome  # type: ignore[return-value]
            cut_offs += int(reply.cut_off)
            note = _note(reply, self.caps.get(stage))
        return None

    async def _asend(self, schema: type[M], prompt: list[BaseMessage], method: str, stage: str,
                     temperature: float | None, tags: list[str] | None, spent: _Spent) -> _Reply:
        for retry in range(self.retry.retries + 1):
            try:
                return await self._arequest(schema, prompt, method, stage, temperature, tags, spent)
            except _Failed as failed:
                spent.usage = spent.usage + failed.usage.as_retry()
                await asyncio.sleep(self._wait_after(failed.fault, stage, retry, spent))
        raise AssertionError("unreachable")  # pragma: no cover

    async def _arequest(self, schema: type[M], prompt: list[BaseMessage], method: str, stage: str,
                        temperature: float | None, tags: list[str] | None, spent: _Spent) -> _Reply:
        sent = _append_system(prompt, schema_instructions(schema)) if method in _SCHEMA_IN_PROMPT else prompt
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
        return _read(schema, *_parts(out, method), sent, stage, seconds)


_AGAIN = object()
"""``_judge``'s answer when the method should be asked again."""


def _note(reply: _Reply, cap: int | None) -> str:
    """What the model is told after an unusable reply."""
    if reply.cut_off:
        return (f"Your previous reply was cut off at the length limit ({cap} tokens) and could not be "
                "used. Reply again, much shorter: keep every reason to a few words and write only "
                "what the output format asks for.")
    return (f"Your previous reply could not be used: {reply.error[:500]}. "
            "Reply again, following the output format exactly.")


def _parts(out: Any, method: str) -> tuple[Any, Any, Any]:
    """(raw reply, parsed value, parsing problem) of one request's output."""
    if method == "prompt":
        return out, None, None
    return out.get("raw"), out.get("parsed"), out.get("parsing_error")


def _failure(exc: Exception, method: str, sent: list[BaseMessage], stage: str, seconds: float) -> _Reply:
    """A request that raised: a cut-off reply, or ``_Failed`` with its fault (raised)."""
    if isinstance(exc, NotImplementedError):
        raise _Failed(Fault("rejected_format", False, f"{method} is not implemented by this model"),
                      Usage(stage=stage)) from None
    if type(exc).__name__ == "LengthFinishReasonError":  # the client's own cut-off check
        return _Reply(None, "cut off", _estimate(sent, stage, seconds), "", cut_off=True)
    raise _Failed(classify(exc, method), _estimate(sent, stage, seconds)) from exc


def _read(schema: type[M], raw: Any, parsed: Any, problem: Any, sent: list[BaseMessage], stage: str,
          seconds: float) -> _Reply:
    """Validate a reply (repairing loose JSON) and note whether it was cut off."""
    text = reply_text(raw)
    usage = usage_of(raw, sent, stage, seconds)
    cut_off = finish_reason(raw) == "length"
    if parsed is not None:
        return _Reply(parsed, "", usage, text, cut_off)
    try:
        return _Reply(validate_loose(schema, repair_json(text)), "", usage, text, cut_off)
    except (ValueError, ValidationError) as exc:
        return _Reply(None, _short_error(problem or exc), usage, text, cut_off)


def _estimate(sent: list[BaseMessage], stage: str, seconds: float) -> Usage:
    """Cost of a request that got no reply: its prompt (estimated), no output."""
    return Usage(stage=stage, calls=1, input_tokens=estimate_tokens(prompt_text(sent)), seconds=seconds,
                 estimated=True)


def _short_error(exc: Any) -> str:
    text = str(exc)
    return text if len(text) < 400 else text[:400] + "..."


def _append_system(messages: list[BaseMessage], extra: str) -> list[BaseMessage]:
    if messages and isinstance(messages[0], SystemMessage):
        return [SystemMessage(content=f"{messages[0].content}\n\n{extra}"), *messages[1:]]
    return [SystemMessage(content=extra), *messages]
