"""Structured calls that survive real servers: a fallback chain, JSON repair, retries, usage.

'auto' asks for a tool call first (widely supported), and when the server rejects tools or
returns loose text, falls back to JSON described in the prompt, parsed, repaired and
validated. A reply that still fails raises ``StructuredOutputError``, which graphs handle.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, ValidationError

from dmem.errors import ModelError, StructuredOutputError
from dmem.state.schemas import Usage

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)
NATIVE_METHODS = ("function_calling", "json_schema", "json_mode")
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def estimate_tokens(text: str) -> int:
    """Offline token estimate (about four characters a token) for replies without usage data."""
    return max(1, (len(text) + 3) // 4) if text else 0


def _messages_text(messages: list[BaseMessage]) -> str:
    return "\n".join(str(m.content) for m in messages)


def usage_of(raw: Any, prompt: list[BaseMessage], stage: str, seconds: float) -> Usage:
    """Tokens from the reply's usage metadata, or an estimate flagged as such."""
    meta = getattr(raw, "usage_metadata", None) or {}
    if meta.get("input_tokens") is not None and meta.get("output_tokens") is not None:
        return Usage(stage=stage, calls=1, input_tokens=int(meta["input_tokens"]),
                     output_tokens=int(meta["output_tokens"]), seconds=seconds)
    out_text = _reply_text(raw)
    return Usage(stage=stage, calls=1, input_tokens=estimate_tokens(_messages_text(prompt)),
                 output_tokens=estimate_tokens(out_text), seconds=seconds, estimated=True)


def _reply_text(raw: Any) -> str:
    if raw is None:
        return ""
    if isinstance(raw, AIMessage):
        calls = raw.tool_calls or []
        text = raw.content if isinstance(raw.content, str) else json.dumps(raw.content)
        return text + "".join(json.dumps(c.get("args", {})) for c in calls)
    return str(raw)


def repair_json(text: str) -> Any:
    """Parse loose JSON: code fences, prose around the object, trailing commas, Python literals."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for cand in candidates:
        start = min((i for i in (cand.find("{"), cand.find("[")) if i >= 0), default=-1)
        if start < 0:
            continue
        end = max(cand.rfind("}"), cand.rfind("]"))
        body = cand[start:end + 1]
        for attempt in (body, _TRAILING_COMMA.sub(r"\1", body)):
            try:
                return json.loads(attempt)
            except json.JSONDecodeError:
                pass
        pythonish = _TRAILING_COMMA.sub(r"\1", body)
        pythonish = re.sub(r"\bTrue\b", "true", re.sub(r"\bFalse\b", "false", pythonish))
        pythonish = re.sub(r"\bNone\b", "null", pythonish)
        try:
            return json.loads(pythonish.replace("'", '"'))
        except json.JSONDecodeError:
            continue
    raise ValueError("no JSON object found in the reply")


def validate_loose(schema: type[M], data: Any) -> M:
    """Validate, accepting a bare list for a one-list-field schema and a wrapped {'SchemaName': {...}}."""
    if isinstance(data, dict) and len(data) == 1 and schema.__name__ in data:
        data = data[schema.__name__]
    if isinstance(data, list):
        list_fields = [n for n, f in schema.model_fields.items() if "list" in str(f.annotation)]
        if len(list_fields) == 1:
            data = {list_fields[0]: data}
    return schema.model_validate(data)


def schema_instructions(schema: type[BaseModel]) -> str:
    """The JSON-in-prompt instructions used when native structured output is unavailable."""
    spec = json.dumps(schema.model_json_schema(), indent=None)
    return (
        f'<output_format name="{schema.__name__}">\nReply with one JSON object and nothing else. '
        f"It must validate against this JSON Schema:\n{spec}\n</output_format>"
    )


class StructuredCaller:
    """Calls a chat model for a pydantic schema with the configured method chain and retries."""

    def __init__(self, model: BaseChatModel, *, method: str = "auto", max_retries: int = 2,
                 max_concurrency: int = 4) -> None:
        self.model = model
        self.method = method
        self.max_retries = max_retries
        self._slots = threading.BoundedSemaphore(max_concurrency)
        self._native_broken = False  # set once the server rejects native structured output

    def methods(self) -> list[str]:
        """Methods to try in order for this model."""
        if self.method == "auto":
            return ["prompt"] if self._native_broken else ["function_calling", "prompt"]
        return [self.method]

    def call(self, schema: type[M], messages: list[BaseMessage], *, stage: str,
             temperature: float | None = None, tags: list[str] | None = None) -> tuple[M, Usage]:
        """Return the validated reply and the summed usage of every attempt."""
        total = Usage(stage=stage)
        last_error = "no attempt made"
        raw_text: str | None = None
        for method in self.methods():
            for attempt in range(self.max_retries + 1):
                prompt = messages if attempt == 0 else self._with_feedback(messages, last_error)
                try:
                    parsed, usage, raw_text = self._attempt(schema, prompt, method, stage, temperature, tags)
                except _ServerRejected as exc:
                    log.warning("%s: server rejected %s structured output (%s); falling back",
                                stage, method, exc)
                    if self.method == "auto":
                        self._native_broken = True
                    last_error = str(exc)
                    break
                total = total + usage
                if isinstance(parsed, BaseModel):
                    return parsed, total  # type: ignore[return-value]
                last_error = parsed
                log.warning("%s: malformed %s reply (attempt %d): %s", stage, schema.__name__,
                            attempt + 1, last_error)
        raise StructuredOutputError(schema.__name__, last_error, raw_text)

    def _with_feedback(self, messages: list[BaseMessage], error: str) -> list[BaseMessage]:
        note = (f"Your previous reply could not be used: {error[:500]}. "
                "Reply again, following the output format exactly.")
        return [*messages, HumanMessage(content=note)]

    def _attempt(self, schema: type[M], messages: list[BaseMessage], method: str, stage: str,
                 temperature: float | None, tags: list[str] | None) -> tuple[M | str, Usage, str]:
        model = self.model
        if temperature is not None:
            model = _with_temperature(model, temperature)
        config: RunnableConfig = {"run_name": stage, "tags": ["dmem", *(tags or [])]}
        started = time.perf_counter()
        with self._slots:
            try:
                if method == "prompt":
                    prompt = _append_system(messages, schema_instructions(schema))
                    raw = model.with_config(config).invoke(prompt)
                    seconds = time.perf_counter() - started
                    text = _reply_text(raw)
                    try:
                        return validate_loose(schema, repair_json(text)), usage_of(raw, prompt, stage, seconds), text
                    except (ValueError, ValidationError) as exc:
                        return _short_error(exc), usage_of(raw, prompt, stage, seconds), text
                runnable = model.with_structured_output(schema, method=method, include_raw=True)
                out: dict[str, Any] = runnable.with_config(config).invoke(messages)  # type: ignore[assignment]
            except NotImplementedError as exc:
                raise _ServerRejected(f"{method} not implemented by this model") from exc
            except Exception as exc:
                if _looks_like_rejection(exc):
                    raise _ServerRejected(str(exc)[:300]) from exc
                raise ModelError(f"{stage}: the model call failed: {type(exc).__name__}: {exc}") from exc
        seconds = time.perf_counter() - started
        raw_reply = out.get("raw")
        text = _reply_text(raw_reply)
        usage = usage_of(raw_reply, messages, stage, seconds)
        if out.get("parsed") is not None:
            return out["parsed"], usage, text
        try:  # the server answered with loose text instead of a tool call: repair it
            return validate_loose(schema, repair_json(text)), usage, text
        except (ValueError, ValidationError) as exc:
            detail = out.get("parsing_error") or exc
            return _short_error(detail), usage, text


class _ServerRejected(Exception):
    """The server refused the requested structured-output method itself."""


def _looks_like_rejection(exc: Exception) -> bool:
    name = type(exc).__name__
    text = str(exc).lower()
    hints = ("tool", "function", "response_format", "json_schema", "not supported", "unsupported")
    return name in ("BadRequestError", "UnprocessableEntityError") and any(h in text for h in hints)


def _short_error(exc: Any) -> str:
    text = str(exc)
    return text if len(text) < 400 else text[:400] + "..."


def _append_system(messages: list[BaseMessage], extra: str) -> list[BaseMessage]:
    if messages and isinstance(messages[0], SystemMessage):
        return [SystemMessage(content=f"{messages[0].content}\n\n{extra}"), *messages[1:]]
    return [SystemMessage(content=extra), *messages]


def _with_temperature(model: BaseChatModel, temperature: float) -> BaseChatModel:
    """A copy of the model at another temperature when the model has that field."""
    if "temperature" in type(model).model_fields:
        return model.model_copy(update={"temperature": temperature})
    return model
