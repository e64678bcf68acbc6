"""The PostgreSQL TranscriptLog: raw turns per namespace and conversation, in order, idempotent.

The primary key (namespace, conversation_id, turn_id) makes a re-sent turn a no-op, and the
unique (namespace, conversation_id, seq) keeps positions distinct. Appends hold the advisory
locks of every namespace they feed, so two workers appending to one conversation at once get
consecutive sequence numbers instead of a conflict. Claims live in ``turns``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from dmem.errors import DataError
from dmem.state.schemas import Message
from dmem.store.namespaces import Routing
from dmem.store.postgres.turns import PgTurnStatus
from dmem.store.transcript import MAX_SEQ, chronological, conflict, message_from_row

log = logging.getLogger(__name__)


class PgTranscript(PgTurnStatus):
    """Raw turns per namespace and conversation; tracks which turns formation handled."""

    def append(self, routing: Routing, messages: Sequence[Message]) -> list[Message]:
        """Record turns in every namespace the routing feeds, all or nothing; return them as stored."""
        stored: dict[tuple[str, str], Message] = {}
        with self._db.transaction():
            self._db.lock_namespaces(routing.namespaces())
            next_seq: dict[tuple[str, str], int] = {}
            for ns in routing.namespaces():
                for msg in messages:
                    kept = self._insert(ns, routing, msg, next_seq)
                    if ns == routing.origin:
                        stored.setdefault((msg.conversation_id, msg.turn_id), kept)
        return [stored[(m.conversation_id, m.turn_id)] for m in messages]

    def _insert(self, ns: str, routing: Routing, msg: Message, next_seq: dict[tuple[str, str], int]) -> Message:
        rows = self._db.execute("SELECT * FROM messages WHERE namespace = %s AND conversation_id = %s"
                                " AND turn_id = %s", (ns, msg.conversation_id, msg.turn_id)).fetchall()
        if rows:
            problem = conflict(rows[0], msg)
            if problem:
                raise DataError(
                    f"turn {msg.turn_id!r} of conversation {msg.conversation_id!r} in namespace {ns!r} was recorded "
                    f"with {problem}; a turn id names one utterance, so give changed text a new turn_id"
                )
            return message_from_row(rows[0])
        key = (ns, msg.conversation_id)
        if key not in next_seq:
            row = self._db.execute("SELECT coalesce(max(seq) + 1, 0) AS n FROM messages WHERE namespace = %s"
                                   " AND conversation_id = %s", key).fetchone()
            next_seq[key] = int(row["n"]) if row else 0
        seq = msg.seq if "seq" in msg.model_fields_set else next_seq[key]
        self._check_seq(ns, msg, seq)
        next_seq[key] = max(next_seq[key], seq + 1)
        self._db.execute(
            "INSERT INTO messages (namespace, conversation_id, turn_id, seq, speaker, text, timestamp, image_caption,"
            " origin, routes) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (ns, msg.conversation_id, msg.turn_id, seq, msg.speaker, msg.text,
             msg.timestamp.isoformat() if msg.timestamp else None, msg.image_caption, routing.origin,
             routing.routes_json()),
        )
        return msg.model_copy(update={"seq": seq})

    def _check_seq(self, ns: str, msg: Message, seq: int) -> None:
        if isinstance(seq, bool) or not 0 <= seq < MAX_SEQ:
            raise DataError(f"turn {msg.turn_id!r} of conversation {msg.conversation_id!r}: seq {seq} is out of "
                            f"range (0 to {MAX_SEQ - 1}); leave seq out to append in order")
        taken = self._db.execute("SELECT turn_id FROM messages WHERE namespace = %s AND conversation_id = %s"
                                 " AND seq = %s", (ns, msg.conversation_id, seq)).fetchone()
        if taken is not None:
            raise DataError(
                f"turn {msg.turn_id!r} of conversation {msg.conversation_id!r} in namespace {ns!r} has seq {seq}, "
                f"which turn {taken['turn_id']!r} already holds; leave seq out to append at the end"
            )

    def messages(self, namespaces: Sequence[str]) -> list[Message]:
        """Every turn of these namespaces in time order; a turn identical in several appears once."""
        names = list(dict.fromkeys(namespaces))
        if not names:
            return []
        return chronological(self._db.query("SELECT * FROM messages WHERE namespace = ANY(%s)", (names,)))

    def before(self, namespace: str, conversation_id: str, seq: int, limit: int) -> list[Message]:
        """The last ``limit`` turns of a conversation with a smaller seq, oldest first."""
        if limit <= 0:
            return []
        rows = self._db.query("SELECT * FROM messages WHERE namespace = %s AND conversation_id = %s AND seq < %s"
                              " ORDER BY seq DESC LIMIT %s", (namespace, conversation_id, seq, limit))
        return [message_from_row(row) for row in reversed(rows)]

    def conversations(self, namespace: str) -> list[str]:
        """Conversations of a namespace, in the order they were first recorded."""
        rows = self._db.query("SELECT conversation_id FROM messages WHERE namespace = %s GROUP BY conversation_id"
                              " ORDER BY min(rowid)", (namespace,))
        return [row["conversation_id"] for row in rows]

    def namespaces(self) -> list[str]:
        """Namespaces holding at least one turn, sorted."""
        rows = self._db.query('SELECT namespace FROM messages GROUP BY namespace ORDER BY namespace COLLATE "C"')
        return [row["namespace"] for row in rows]

    def count(self, namespace: str | None = None) -> int:
        """Recorded turns, in one namespace or overall."""
        if namespace is None:
            return int(self._db.scalar("SELECT count(*) FROM messages"))
        return int(self._db.scalar("SELECT count(*) FROM messages WHERE namespace = %s", (namespace,)))
