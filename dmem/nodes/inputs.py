"""The graphs' entry nodes: validate what a caller sent (Python, the SDK or Studio) and convert it to our types.

JSON input arrives as plain dicts; chat messages may be LangChain messages or their JSON. A bad
input raises ``InputError`` naming the field, before any other node runs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, convert_to_messages
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_config
from langgraph.runtime import Runtime
from pydantic import TypeAdapter, ValidationError

from dmem.errors import DataError, InputError
from dmem.messages import check_turns
from dmem.metadata import check_metadata
from dmem.resends import keyed, recorded_resend
from dmem.services import Services
from dmem.state.context import Context
from dmem.state.graphs import DeliberationInput, IngestState
from dmem.state.namespaces import validate_namespace
from dmem.state.schemas import Message

DEFAULT_USER = "default"
_TURNS = TypeAdapter(list[Message])
_NAMES = TypeAdapter(list[str])
_SPEAKER_MAP = TypeAdapter(dict[str, str])


def user_of(runtime_context: Any, config: RunnableConfig | None) -> str | None:
    """The host's user id: a ``user_id`` field of its runtime context, else ``configurable['user_id']``."""
    if isinstance(runtime_context, Mapping):
        found = runtime_context.get("user_id")
    else:
        found = getattr(runtime_context, "user_id", None)
    if found is None and config:
        found = (config.get("configurable") or {}).get("user_id")
    return str(found) if found not in (None, "") else None


def run_user(ctx: Context, runtime: Runtime[Context], config: RunnableConfig | None) -> str:
    """Whose memory a run is about when its input names none: its context's (or config's) user, else the settings'."""
    return user_of(runtime.context, config) or ctx.user_id or DEFAULT_USER


def read_input(state: IngestState, svc: Services, runtime: Runtime[Context]) -> dict[str, Any]:
    """Check the exchange and turn chat messages into transcript turns; resolve whose memory it is."""
    config = get_config()
    given = state.get("user_id")
    try:
        user = validate_namespace(given if given is not None else run_user(svc.context, runtime, config))
    except DataError as exc:
        raise InputError(f"input field 'user_id': {exc}") from None
    turns, messages = state.get("turns"), state.get("messages")
    if turns and messages:
        raise InputError("ingestion input takes 'messages' (chat messages) or 'turns' (dmem turns), not both")
    if turns:
        exchange = _validate("turns", _TURNS, turns)
    elif messages:
        given = _text_field(state, "conversation_id")
        conversation = given or str((config.get("configurable") or {}).get("thread_id") or user)
        chat = _chat_messages(messages)
        exchange = from_chat(chat, conversation, _recorded(svc, user, conversation, len(chat)))
        exchange = _resent_as(svc, user, exchange, _text_field(state, "idempotency_key"), given is None)
    else:
        raise InputError("ingestion input needs 'messages' (chat messages, e.g. [{'role': 'user', 'content': "
                         "'...'}]) or 'turns' (dmem transcript turns); neither was given")
    out: dict[str, Any] = {"turns": check_turns(exchange, "turns" if turns else "messages"), "user_id": user}
    if state.get("speaker_namespaces") is not None:
        out["speaker_namespaces"] = _validate("speaker_namespaces", _SPEAKER_MAP, state["speaker_namespaces"])
    if state.get("metadata") is not None:
        out["metadata"] = _labels(state["metadata"])
    return out


def read_question(state: DeliberationInput, ctx: Context, runtime: Runtime[Context]) -> dict[str, Any]:
    """Check the question and its label filter, resolve whose memories to read (query and deliberation entry).

    Pure logic over the run's settings ``ctx``: it runs inline on the event loop.
    """
    question = state.get("question")
    if not isinstance(question, str) or not question.strip():
        got = "nothing" if question is None else repr(question)
        raise InputError(f"input field 'question' must be the question as non-empty text; got {got}")
    namespaces = state.get("namespaces")
    names = _validate("namespaces", _NAMES, namespaces) if namespaces else [run_user(ctx, runtime, get_config())]
    out: dict[str, Any] = {"question": question.strip(), "namespaces": names}
    if state.get("metadata") is not None:
        out["metadata"] = _labels(state["metadata"])
    return out


def from_chat(messages: Sequence[BaseMessage], conversation_id: str,
              recorded: Mapping[str, Message] | None = None) -> list[Message]:
    """Human and AI messages with text as transcript turns (tool calls, tool and system messages skipped).

    The message id is the turn id; a message without one gets a stable id from its role, text and
    occurrence, so sending the same thread again records nothing twice. A turn already ``recorded``
    keeps its recorded time and position; a new one is stamped now and appended by the store.
    """
    recorded = recorded or {}
    seen: dict[str, int] = {}
    turns: list[Message] = []
    now = datetime.now(UTC)
    for message in messages:
        if not isinstance(message, HumanMessage | AIMessage) or not message.text.strip():
            continue
        role = "user" if isinstance(message, HumanMessage) else "assistant"
        key = f"{role}|{message.text}"
        seen[key] = seen.get(key, 0) + 1
        turn_id = message.id or "msg-" + hashlib.sha1(f"{key}|{seen[key]}".encode()).hexdigest()[:12]
        known = recorded.get(str(turn_id))
        place = {"timestamp": known.timestamp, "seq": known.seq} if known else {"timestamp": now}
        turns.append(Message(conversation_id=conversation_id, turn_id=str(turn_id), speaker=message.name or role,
                             text=message.text, **place))
    if not turns:
        raise InputError("input field 'messages' holds no human or AI message with text to remember")
    return turns


def _chat_messages(raw: Any) -> list[BaseMessage]:
    if not isinstance(raw, list):
        raise InputError(f"input field 'messages' must be a list of chat messages; got {type(raw).__name__}")
    try:
        return convert_to_messages(raw)
    except (ValueError, TypeError, NotImplementedError) as exc:
        detail = str(exc).splitlines()[0]
        raise InputError(f"input field 'messages' holds something that is not a chat message: {detail}") from None


def _recorded(svc: Services, namespace: str, conversation_id: str, limit: int) -> dict[str, Message]:
    """The conversation's last ``limit`` recorded turns in the user's namespace, by turn id."""
    from dmem.store.transcript import MAX_SEQ

    last = svc.store.transcript.before(namespace, conversation_id, MAX_SEQ, limit)
    return {m.turn_id: m for m in last}


def _resent_as(svc: Services, user: str, exchange: list[Message], key: str | None,
               defaulted: bool) -> list[Message]:
    """The exchange keyed by the client's idempotency key; as recorded, when it is a resend (any thread)."""
    exchange = keyed(exchange, key)
    if not key and not defaulted:
        return exchange
    again = recorded_resend(svc.store, user, exchange, key=key, window_s=svc.context.resend_window)
    return exchange if again is None else again


def _text_field(state: Mapping[str, Any], name: str) -> str | None:
    value = state.get(name)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InputError(f"input field {name!r} must be text; got {value!r}")
    return value


def _labels(raw: Any) -> dict[str, Any]:
    """The input's metadata, checked as ``Memory.add`` checks it; the error names the field."""
    try:
        return check_metadata(raw)
    except DataError as exc:
        raise InputError(f"input field 'metadata': {exc}") from None


def _validate(field: str, adapter: TypeAdapter[Any], value: Any) -> Any:
    """Validate one input field; the error names the field and the place inside it."""
    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"])
        raise InputError(f"input field '{field}{where}': {first['msg']} (got {first.get('input')!r})") from None
