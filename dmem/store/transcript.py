"""The default TranscriptLog: every raw message in SQLite, with per-turn formation status."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime

from dmem.state.schemas import Message
from dmem.store.sqlite import Database, placeholders

log = logging.getLogger(__name__)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _message(row: sqlite3.Row) -> Message:
    stamp = row["timestamp"]
    return Message(
        conversation_id=row["conversation_id"],
        turn_id=row["turn_id"],
        speaker=row["speaker"],
        text=row["text"],
        timestamp=datetime.fromisoformat(stamp) if stamp else None,
        image_caption=row["image_caption"],
        seq=row["seq"],
    )


def _aware(when: datetime) -> datetime:
    """Naive datetimes are taken as UTC, so naive and aware timestamps can be compared."""
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def chronological(rows: Sequence[sqlite3.Row]) -> list[Message]:
    """Messages ordered by (time, conversation_id, seq), stable on insertion order.

    A message without a timestamp takes the time of the message before it in its conversation
    (or of the first timed one, if none precedes it), so it stays next to its neighbours by seq.
    Conversations without any timestamp come after every timed one.
    """
    by_conversation: dict[str, list[sqlite3.Row]] = {}
    for row in sorted(rows, key=lambda r: (r["seq"], r["rowid"])):
        by_conversation.setdefault(row["conversation_id"], []).append(row)
    keyed: list[tuple[tuple[int, datetime, str, int, int], Message]] = []
    for conversation_id, conv_rows in by_conversation.items():
        messages = [_message(row) for row in conv_rows]
        first = next((m.timestamp for m in messages if m.timestamp is not None), None)
        current = _aware(first) if first is not None else None
        for row, msg in zip(conv_rows, messages, strict=True):
            if msg.timestamp is not None:
                current = _aware(msg.timestamp)
            untimed = 1 if current is None else 0
            keyed.append(((untimed, current or _EPOCH, conversation_id, msg.seq, row["rowid"]), msg))
    keyed.sort(key=lambda pair: pair[0])
    return [msg for _, msg in keyed]


class LocalTranscript:
    """Raw messages per conversation, linked to namespaces; tracks which turns formation handled.

    A turn's status is ``new`` until formation succeeds (``processed``) or fails (``pending``,
    with the reason, so a later run retries it).
    """

    def __init__(self, db: Database) -> None:
        self._db = db

    def append(self, messages: Sequence[Message], namespaces: Sequence[str]) -> list[Message]:
        """Record messages (idempotent on conversation_id + turn_id); returns the ones that were new."""
        new: list[Message] = []
        with self._db.transaction():
            for msg in messages:
                cursor = self._db.conn.execute(
                    "INSERT OR IGNORE INTO messages (conversation_id, turn_id, seq, speaker, text, timestamp,"
                    " image_caption) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        msg.conversation_id,
                        msg.turn_id,
                        msg.seq,
                        msg.speaker,
                        msg.text,
                        msg.timestamp.isoformat() if msg.timestamp else None,
                        msg.image_caption,
                    ),
                )
                if cursor.rowcount == 1:
                    new.append(msg)
            links = {(msg.conversation_id, ns) for msg in messages for ns in namespaces}
            self._db.conn.executemany(
                "INSERT OR IGNORE INTO conversation_namespaces (conversation_id, namespace) VALUES (?, ?)",
                sorted(links),
            )
        return new

    def messages(self, namespaces: Sequence[str]) -> list[Message]:
        """All messages of the conversations linked to these namespaces, in time order."""
        if not namespaces:
            return []
        rows = self._db.query(
            "SELECT rowid, * FROM messages WHERE conversation_id IN (SELECT conversation_id FROM"
            f" conversation_namespaces WHERE namespace IN ({placeholders(namespaces)}))",
            list(namespaces),
        )
        return chronological(rows)

    def before(self, conversation_id: str, seq: int, limit: int) -> list[Message]:
        """Return the last ``limit`` messages of a conversation with a smaller seq, oldest first."""
        if limit <= 0:
            return []
        rows = self._db.query(
            "SELECT * FROM messages WHERE conversation_id = ? AND seq < ?"
            " ORDER BY seq DESC, rowid DESC LIMIT ?",
            (conversation_id, seq, limit),
        )
        return [_message(row) for row in reversed(rows)]

    def conversations(self, namespace: str) -> list[str]:
        """Conversations linked to a namespace, in the order they were first linked."""
        sql = "SELECT conversation_id FROM conversation_namespaces WHERE namespace = ? ORDER BY rowid"
        rows = self._db.query(sql, (namespace,))
        return [row[0] for row in rows]

    def count(self) -> int:
        """Count the recorded messages."""
        return int(self._db.scalar("SELECT count(*) FROM messages"))

    def mark_pending(self, conversation_id: str, turn_ids: Sequence[str], reason: str) -> None:
        """Flag turns whose formation failed, so a later run retries them."""
        self._set_status(conversation_id, turn_ids, "pending", reason, only_pending=False)

    def clear_pending(self, conversation_id: str, turn_ids: Sequence[str]) -> None:
        """Unflag pending turns (they go back to 'new')."""
        self._set_status(conversation_id, turn_ids, "new", None, only_pending=True)

    def mark_processed(self, conversation_id: str, turn_ids: Sequence[str]) -> None:
        """Flag turns as formed (clears pending)."""
        self._set_status(conversation_id, turn_ids, "processed", None, only_pending=False)

    def is_processed(self, conversation_id: str, turn_id: str) -> bool:
        """Tell whether a turn has been through formation successfully."""
        sql = "SELECT status FROM messages WHERE conversation_id = ? AND turn_id = ?"
        status = self._db.scalar(sql, (conversation_id, turn_id))
        return status == "processed"

    def pending(self, conversation_id: str | None = None) -> list[tuple[Message, str]]:
        """List turns awaiting retry with the failure reason, by conversation then seq."""
        sql = "SELECT * FROM messages WHERE status = 'pending'"
        params: tuple[str, ...] = ()
        if conversation_id is not None:
            sql, params = sql + " AND conversation_id = ?", (conversation_id,)
        rows = self._db.query(sql + " ORDER BY conversation_id, seq, rowid", params)
        return [(_message(row), row["pending_reason"] or "") for row in rows]

    def pending_count(self) -> int:
        """Count the turns awaiting retry."""
        return int(self._db.scalar("SELECT count(*) FROM messages WHERE status = 'pending'"))

    def _set_status(
        self,
        conversation_id: str,
        turn_ids: Sequence[str],
        status: str,
        reason: str | None,
        *,
        only_pending: bool,
    ) -> None:
        wanted = sorted(set(turn_ids))
        if not wanted:
            return
        sql = (
            "UPDATE messages SET status = ?, pending_reason = ? WHERE conversation_id = ?"
            f" AND turn_id IN ({placeholders(wanted)})" + (" AND status = 'pending'" if only_pending else "")
        )
        with self._db.transaction():
            changed = self._db.conn.execute(sql, (status, reason, conversation_id, *wanted)).rowcount
        if not only_pending and changed < len(wanted):
            log.warning(
                "%d of %d turns of conversation %s are not in the transcript; could not mark them %s",
                len(wanted) - changed, len(wanted), conversation_id, status,
            )
