"""Messages from what callers pass (a Message, a dict, a string, or a list of them), validated.

Every field must already have its type: a non-string text, speaker or turn id is refused, never
stored as its Python repr; so is text that is not valid Unicode (lone surrogates) and a sequence
number out of range. Errors name the message and the field, and nothing is stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from dmem.errors import DataError, InputError
from dmem.state.namespaces import check_text, validate_namespace
from dmem.state.schemas import Message
from dmem.store.transcript import MAX_SEQ

MessageLike = Message | dict[str, Any] | str


def to_messages(items: object, conversation_id: str) -> list[Message]:
    """Validated Messages, with stable automatic turn ids where the caller gave none."""
    if isinstance(items, str | dict | Message):
        items = [items]
    if not isinstance(items, Sequence) or isinstance(items, bytes | bytearray):
        raise DataError(f"expected a message (dict, string or Message) or a list of them, got {type(items).__name__}")
    out: list[Message] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        msg = to_message(item, conversation_id, where=f"message {index}")
        if msg.turn_id == "":
            key = f"{msg.speaker}|{msg.text}|{msg.timestamp}"
            seen[key] = seen.get(key, 0) + 1
            digest = hashlib.sha1(f"{key}|{seen[key]}".encode()).hexdigest()[:12]
            msg = msg.model_copy(update={"turn_id": f"auto-{digest}"})
        out.append(msg)
    return out


def to_message(item: object, conversation_id: str, where: str = "message") -> Message:
    """A Message from a Message, a dict (speaker/role, text/content, timestamp, turn_id, seq) or a string."""
    if isinstance(item, Message):
        for name in ("conversation_id", "turn_id", "speaker", "text"):
            check_text(getattr(item, name), f"{where}: {name}")
        _check_seq(item.seq, where)
        return _said(item, where)
    if isinstance(item, str):
        return _said(Message(conversation_id=conversation_id, turn_id="", speaker="user", text=check_text(item, where)),
                     where)
    if not isinstance(item, dict):
        raise DataError(f"{where}: cannot read a message from {type(item).__name__}; use a dict or a string")
    text = _field(item, where, "text", "content", required=True)
    fields: dict[str, Any] = {
        "conversation_id": validate_namespace(item["conversation_id"], f"{where}: conversation_id")
        if item.get("conversation_id") is not None else conversation_id,
        "turn_id": _field(item, where, "turn_id", "id") or "",
        "speaker": _field(item, where, "speaker", "role", "name") or "user",
        "text": text,
        "timestamp": _timestamp(item.get("timestamp"), where),
        "image_caption": _field(item, where, "image_caption"),
    }
    if item.get("seq") is not None:
        fields["seq"] = _check_seq(item["seq"], where)
    return _said(Message(**fields), where)


def _said(msg: Message, where: str) -> Message:
    """A turn says something: text, or at least a shared photo's caption."""
    if not msg.text.strip() and not (msg.image_caption or "").strip():
        raise DataError(f"{where} is empty (no text and no image caption): nothing to remember")
    return msg


def check_turns(turns: Sequence[Message], field: str) -> list[Message]:
    """A graph input's turns under the same rules as ``Memory.add`` (valid, non-empty text): InputError naming them."""
    try:
        return [to_message(t, t.conversation_id, where=f"input field '{field}[{i}]'") for i, t in enumerate(turns)]
    except InputError:
        raise
    except DataError as exc:
        raise InputError(str(exc)) from None


def _field(item: dict[str, Any], where: str, *names: str, required: bool = False) -> str | None:
    """The first of ``names`` present in the dict, which must be a string."""
    for name in names:
        value = item.get(name)
        if value is None:
            continue
        if not isinstance(value, str):
            raise DataError(f"{where}: {name!r} must be a string, got {type(value).__name__} {value!r:.40}")
        return check_text(value, f"{where}: {name}")
    if required:
        raise DataError(f"{where} has no {' or '.join(repr(n) for n in names)}")
    return None


def _timestamp(value: object, where: str) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    if not isinstance(value, str):
        raise DataError(f"{where}: 'timestamp' must be an ISO 8601 string, got {type(value).__name__}")
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise DataError(f"{where}: timestamp {value!r:.40} is not ISO 8601 (e.g. 2023-05-08T13:56:00)") from None


def _check_seq(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DataError(f"{where}: 'seq' must be a whole number, got {type(value).__name__} {value!r:.40}")
    if not 0 <= value < MAX_SEQ:
        raise DataError(f"{where}: seq {value} is out of range (0 to {MAX_SEQ - 1}); leave it out to append in order")
    return value
