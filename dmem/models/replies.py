"""Reading replies that were asked for as JSON: a compact schema for the prompt, repair, loose validation.

When the server gives no native structured output (``json_mode``, ``prompt``), the schema goes in
the prompt in a compact, human-readable shape (a JSON sketch plus one line per field), much
shorter than a JSON Schema document and easier for a small model to follow.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, TypeVar

from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from pydantic import BaseModel, ValidationError

from dmem.state.schemas import Usage

M = TypeVar("M", bound=BaseModel)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_SCALARS = {"string": "string", "integer": "integer", "number": "number", "boolean": "true | false",
            "null": "null"}


def estimate_tokens(text: str) -> int:
    """Offline token estimate (about four characters a token) for replies without usage data."""
    return max(1, (len(text) + 3) // 4) if text else 0


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


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    return defs[ref.rsplit("/", 1)[-1]] if isinstance(ref, str) else node


def _shape(node: dict[str, Any], defs: dict[str, Any]) -> str:
    """A one-line sketch of a JSON Schema node: {"a": string, "b": [integer, ...]}."""
    node = _resolve(node, defs)
    if "anyOf" in node:
        return " | ".join(dict.fromkeys(_shape(n, defs) for n in node["anyOf"]))
    if "enum" in node:
        return " | ".join(json.dumps(v) for v in node["enum"])
    kind = node.get("type")
    if kind == "object":
        props = node.get("properties") or {}
        if props:
            return "{" + ", ".join(f'"{k}": {_shape(v, defs)}' for k, v in props.items()) + "}"
        extra = node.get("additionalProperties")
        return "{string: " + _shape(extra, defs) + "}" if isinstance(extra, dict) else "{}"
    if kind == "array":
        return "[" + _shape(node.get("items") or {}, defs) + ", ...]"
    return _SCALARS.get(str(kind), "any")


def _describe(node: dict[str, Any], defs: dict[str, Any], path: str, out: dict[tuple[str, str], str]) -> None:
    """One '- path: description' line per described field.

    A nested field repeated under several parents (same name, same description) is listed once.
    """
    node = _resolve(node, defs)
    for sub in node.get("anyOf", []):
        _describe(sub, defs, path, out)
    if node.get("type") == "array":
        _describe(node.get("items") or {}, defs, f"{path}[]", out)
    for name, prop in (node.get("properties") or {}).items():
        field = f"{path}.{name}" if path else name
        text = prop.get("description") or _resolve(prop, defs).get("description")
        if text:
            out.setdefault((name, text), f"- {field}: {text}")
        _describe(prop, defs, field, out)


def compact_schema(schema: type[BaseModel]) -> str:
    """The schema as a JSON sketch and one line per described field."""
    spec = schema.model_json_schema()
    defs = spec.get("$defs", {})
    lines: dict[tuple[str, str], str] = {}
    _describe(spec, defs, "", lines)
    fields = "\n".join(lines.values())
    return _shape(spec, defs) + (f"\nFields:\n{fields}" if fields else "")


def schema_instructions(schema: type[BaseModel]) -> str:
    """The JSON-in-prompt instructions for methods without native structured output."""
    return (
        f'<output_format name="{schema.__name__}">\nReply with one JSON object and nothing else, '
        f"shaped like this:\n{compact_schema(schema)}\n</output_format>"
    )


def reply_text(raw: Any) -> str:
    """The text of a reply, tool-call arguments included."""
    if raw is None:
        return ""
    if isinstance(raw, AIMessage):
        calls = raw.tool_calls or []
        text = raw.content if isinstance(raw.content, str) else json.dumps(raw.content)
        return text + "".join(json.dumps(c.get("args", {})) for c in calls)
    return str(raw)


def finish_reason(raw: Any) -> str | None:
    """Why the server stopped writing ('stop', 'length', 'tool_calls', ...), if it said."""
    meta = getattr(raw, "response_metadata", None) or {}
    reason = meta.get("finish_reason") or meta.get("stop_reason")
    return str(reason) if reason else None


def prompt_text(messages: list[BaseMessage]) -> str:
    """All message text of a prompt, joined."""
    return "\n".join(str(m.content) for m in messages)


def usage_of(raw: Any, prompt: list[BaseMessage], stage: str, seconds: float) -> Usage:
    """Tokens from the reply's usage metadata, or an estimate flagged as such (no reply: input only)."""
    meta = getattr(raw, "usage_metadata", None) or {}
    if meta.get("input_tokens") is not None and meta.get("output_tokens") is not None:
        return Usage(stage=stage, calls=1, input_tokens=int(meta["input_tokens"]),
                     output_tokens=int(meta["output_tokens"]), seconds=seconds)
    return Usage(stage=stage, calls=1, input_tokens=estimate_tokens(prompt_text(prompt)),
                 output_tokens=estimate_tokens(reply_text(raw)), seconds=seconds, estimated=True)


@dataclass
class Reply:
    """One structured reply: the parsed value (None: unusable), what was wrong, its cost, its text."""

    parsed: Any
    error: str
    usage: Usage
    text: str
    cut_off: bool = False


def retry_note(reply: Reply, cap: int | None) -> str:
    """What the model is told after an unusable reply."""
    if reply.cut_off:
        return (f"Your previous reply was cut off at the length limit ({cap} tokens) and could not be "
                "used. Reply again, much shorter: keep every reason to a few words and write only "
                "what the output format asks for.")
    return (f"Your previous reply could not be used: {reply.error[:500]}. "
            "Reply again, following the output format exactly.")


def reply_parts(out: Any, method: str) -> tuple[Any, Any, Any]:
    """(raw reply, parsed value, parsing problem) of one request's output."""
    if method == "prompt":
        return out, None, None
    return out.get("raw"), out.get("parsed"), out.get("parsing_error")


def read_reply(schema: type[M], raw: Any, parsed: Any, problem: Any, sent: list[BaseMessage], stage: str,
          seconds: float) -> Reply:
    """Validate a reply (repairing loose JSON) and note whether it was cut off."""
    text = reply_text(raw)
    usage = usage_of(raw, sent, stage, seconds)
    cut_off = finish_reason(raw) == "length"
    if parsed is not None:
        return Reply(parsed, "", usage, text, cut_off)
    try:
        return Reply(validate_loose(schema, repair_json(text)), "", usage, text, cut_off)
    except (ValueError, ValidationError) as exc:
        return Reply(None, _short_error(problem or exc), usage, text, cut_off)


def unanswered_usage(sent: list[BaseMessage], stage: str, seconds: float) -> Usage:
    """Cost of a request that got no reply: its prompt (estimated), no output."""
    return Usage(stage=stage, calls=1, input_tokens=estimate_tokens(prompt_text(sent)), seconds=seconds,
                 estimated=True)


def _short_error(exc: Any) -> str:
    text = str(exc)
    return text if len(text) < 400 else text[:400] + "..."


def with_system_text(messages: list[BaseMessage], extra: str) -> list[BaseMessage]:
    """The messages with ``extra`` appended to their system message (or one added first)."""
    if messages and isinstance(messages[0], SystemMessage):
        return [SystemMessage(content=f"{messages[0].content}\n\n{extra}"), *messages[1:]]
    return [SystemMessage(content=extra), *messages]
