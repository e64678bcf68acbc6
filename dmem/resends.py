"""Recognising a resend: an add whose turns the store already holds, whatever thread or conversation it came on.

A client that retries after a timeout or an error often cannot tell whether its first send was
recorded, and a stateless served run gets a new thread (so a new default conversation) each time.
Two identities make the second send a no-op that forms only what is still unformed:

- an **idempotency key** the client passes: turn ids are derived from the key (and each turn's own
  derived id), and turns recorded under it are recognised in any conversation, at any time;
- without a key, **content and time**: turn ids derived from speaker, text and position, recognised
  in any conversation of the user only while the first recording is younger than ``resend_window``
  seconds. The trade-off: the same exchange sent again on purpose within the window, on another
  thread and without a conversation id, is taken for a resend and recorded once.

A call that names its conversation and gives no key is never moved to another conversation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from dmem.state.schemas import Message
from dmem.store import MemoryStore

DERIVED_PREFIXES = ("msg-", "auto-")
"""Turn ids dmem derived from content (chat messages and plain dicts without an id)."""


def keyed(turns: Sequence[Message], key: str | None) -> list[Message]:
    """The turns with their content-derived ids made specific to ``key`` (ids a client gave are kept)."""
    if not key:
        return list(turns)
    return [t.model_copy(update={"turn_id": "key-" + hashlib.sha1(f"{key}|{t.turn_id}".encode()).hexdigest()[:16]})
            if t.turn_id.startswith(DERIVED_PREFIXES) else t for t in turns]


def recorded_resend(store: MemoryStore, namespace: str, turns: Sequence[Message], *, key: str | None,
                    window_s: float, now: datetime | None = None) -> list[Message] | None:
    """The turns as recorded, if every one is already held in a single conversation of ``namespace``.

    Without a key only a recording younger than ``window_s`` seconds counts (0: never). Recorded
    turns keep their conversation, time and position, so recording them again is a no-op.
    """
    if not turns or (not key and window_s <= 0):
        return None
    found: dict[str, dict[str, Message]] = {}
    for msg in store.transcript.with_ids(namespace, [t.turn_id for t in turns]):
        found.setdefault(msg.conversation_id, {})[msg.turn_id] = msg
    cutoff = None if key else (now or datetime.now(UTC)) - timedelta(seconds=window_s)
    own = turns[0].conversation_id  # the turns' own conversation is tried first
    for _, recorded in sorted(found.items(), key=lambda item: item[0] != own):
        same = [recorded.get(t.turn_id) for t in turns]
        if all(r is not None and r.speaker == t.speaker and r.text == t.text and _recent(r, cutoff)
               for r, t in zip(same, turns, strict=True)):
            return [r for r in same if r is not None]
    return None


def _recent(msg: Message, cutoff: datetime | None) -> bool:
    if cutoff is None:
        return True
    if msg.timestamp is None:
        return False
    stamp = msg.timestamp if msg.timestamp.tzinfo else msg.timestamp.replace(tzinfo=UTC)
    return stamp >= cutoff
