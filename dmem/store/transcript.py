"""The TranscriptLog of both backends: every raw turn, per namespace and conversation, in order.

Rows are keyed by (namespace, conversation_id, turn_id), so a re-sent turn is a no-op, and ordered
by a ``seq`` unique per (namespace, conversation_id), assigned inside the write transaction. An
append holds the write locks of every namespace it feeds, so two workers appending to one
conversation at once get consecutive sequence numbers instead of a conflict. Formation status
and claims live in :mod:`dmem.store.turns`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from dmem.errors import DataError
from dmem.state.schemas import Message, MetadataValue
from dmem.store.filters import labels_match
from dmem.store.labelsql import LabelQuery
from dmem.store.namespaces import Routing, StoredTurn, turn_keys
from dmem.store.purging import purge_mark
from dmem.store.sql import Row
from dmem.store.transcript_rows import message_from_row
from dmem.store.turns import TurnStatus, decode_labels

log = logging.getLogger(__name__)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_COLUMNS = "rowid, namespace, conversation_id, turn_id, seq, speaker, text, timestamp, image_caption"
"""What ``chronological`` reads of a row."""
MAX_SEQ = 2**62
"""Exclusive upper bound of a turn's sequence number."""


def _aware(when: datetime) -> datetime:
    """Naive datetimes are taken as UTC, so naive and aware timestamps can be compared."""
    return when if when.tzinfo else when.replace(tzinfo=UTC)


TimeKey = tuple[int, datetime, str, int, int]
"""Where a turn sorts in time order: (untimed, time, conversation_id, seq, rowid)."""


def time_keys(conversation_id: str, turns: Sequence[tuple[int, Message]],
              before: datetime | None = None) -> list[TimeKey]:
    """The time-order keys of one conversation's turns, given as (rowid, message) sorted by (seq, rowid).

    A turn without a timestamp takes the time of the turn before it (or of the first timed one, if
    none precedes it); a conversation without any timestamp sorts after every timed one. ``before``
    is the time of the turn before ``turns`` when they continue a conversation keyed already.
    """
    first = next((m.timestamp for _, m in turns if m.timestamp is not None), None)
    current = before if before is not None else _aware(first) if first is not None else None
    keys: list[TimeKey] = []
    for rowid, msg in turns:
        if msg.timestamp is not None:
            current = _aware(msg.timestamp)
        keys.append((1 if current is None else 0, current or _EPOCH, conversation_id, msg.seq, rowid))
    return keys


def chronological(rows: Sequence[Row]) -> list[Message]:
    """Messages ordered by (time, conversation_id, seq), stable on insertion order (``time_keys``).

    A turn recorded identically in several of the namespaces read appears once.
    """
    by_conversation: dict[tuple[str, str], list[tuple[int, Message]]] = {}
    for row in sorted(rows, key=lambda r: (r["seq"], r["rowid"])):
        by_conversation.setdefault((row["namespace"], row["conversation_id"]), []).append(
            (row["rowid"], message_from_row(row)))
    keyed: list[tuple[TimeKey, Message]] = []
    for (_, conversation_id), turns in by_conversation.items():
        keyed += zip(time_keys(conversation_id, turns), (m for _, m in turns), strict=True)
    keyed.sort(key=lambda pair: pair[0])
    seen: set[tuple[object, ...]] = set()
    out: list[Message] = []
    for _, msg in keyed:
        identity = (msg.conversation_id, msg.turn_id, msg.speaker, msg.text, msg.timestamp, msg.image_caption)
        if identity not in seen:
            seen.add(identity)
            out.append(msg)
    return out


def conflict(row: Row, msg: Message) -> str | None:
    """Name the field where a re-added turn differs from the recorded one (None when the same)."""
    stamp = msg.timestamp.isoformat() if msg.timestamp else None
    for name, old, new in (("speaker", row["speaker"], msg.speaker), ("text", row["text"], msg.text),
                           ("image caption", row["image_caption"], msg.image_caption)):
        if old != new:
            return f"{name} {old!r:.60} (now {new!r:.60})"
    if row["timestamp"] and stamp and row["timestamp"] != stamp:
        return f"timestamp {row['timestamp']} (now {stamp})"
    return None


@dataclass(frozen=True)
class TurnRead:
    """One read of the transcript, built once and run on either path: its SQL, and what Python re-checks."""

    sql: str
    params: Sequence[object]
    found: LabelQuery | None = None
    labels: Mapping[str, MetadataValue] | None = None

    def keep(self, rows: Sequence[Row]) -> list[Row]:
        """The rows that pass the label filter exactly (all of them when there is none)."""
        if self.found is None or not self.labels:
            return list(rows)
        found, labels = self.found, self.labels
        return [r for r in rows if found.keeps(r["loose"]) or labels_match(decode_labels(r["labels"]), labels)]


class Transcript(TurnStatus):
    """Raw turns per namespace and conversation; tracks which turns formation handled."""

    def append(self, routing: Routing, messages: Sequence[Message],
               labels: Mapping[str, MetadataValue] | None = None) -> list[Message]:
        """Record turns in every namespace the routing feeds, all or nothing; return them as stored.

        ``labels`` are merged into every unformed turn of the call in the same transaction.
        """
        stored: dict[tuple[str, str], Message] = {}
        with self._sql.transaction():
            self._sql.lock(routing.namespaces())
            next_seq: dict[tuple[str, str], int] = {}
            for ns in routing.namespaces():
                for msg in messages:
                    kept = self._insert(ns, routing, msg, next_seq)
                    if ns == routing.origin:
                        stored.setdefault((msg.conversation_id, msg.turn_id), kept)
            if labels:
                self.label(routing.namespaces(), turn_keys(list(messages)), labels)
        return [stored[(m.conversation_id, m.turn_id)] for m in messages]

    def _insert(self, ns: str, routing: Routing, msg: Message, next_seq: dict[tuple[str, str], int]) -> Message:
        rows = self._sql.fetch("SELECT * FROM messages WHERE namespace = ? AND conversation_id = ? AND turn_id = ?",
                               (ns, msg.conversation_id, msg.turn_id))
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
            sql = "SELECT coalesce(max(seq) + 1, 0) AS n FROM messages WHERE namespace = ? AND conversation_id = ?"
            next_seq[key] = int(self._sql.fetch(sql, key)[0]["n"])
        seq = msg.seq if "seq" in msg.model_fields_set else next_seq[key]
        self._check_seq(ns, msg, seq)
        next_seq[key] = max(next_seq[key], seq + 1)
        self._sql.execute(
            "INSERT INTO messages (namespace, conversation_id, turn_id, seq, speaker, text, timestamp, image_caption,"
            " origin, routes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (ns, msg.conversation_id, msg.turn_id, seq, msg.speaker, msg.text,
             msg.timestamp.isoformat() if msg.timestamp else None, msg.image_caption, routing.origin,
             routing.routes_json()),
        )
        return msg.model_copy(update={"seq": seq})

    def _check_seq(self, ns: str, msg: Message, seq: int) -> None:
        if isinstance(seq, bool) or not 0 <= seq < MAX_SEQ:
            raise DataError(f"turn {msg.turn_id!r} of conversation {msg.conversation_id!r}: seq {seq} is out of "
                            f"range (0 to {MAX_SEQ - 1}); leave seq out to append in order")
        taken = self._sql.fetch("SELECT turn_id FROM messages WHERE namespace = ? AND conversation_id = ? AND seq = ?",
                                (ns, msg.conversation_id, seq))
        if taken:
            raise DataError(
                f"turn {msg.turn_id!r} of conversation {msg.conversation_id!r} in namespace {ns!r} has seq {seq}, "
                f"which turn {taken[0]['turn_id']!r} already holds; leave seq out to append at the end"
            )

    def messages(self, namespaces: Sequence[str],
                 labels: Mapping[str, MetadataValue] | None = None) -> list[Message]:
        """Every turn of these namespaces in time order; a turn identical in several appears once.

        With ``labels``, only turns recorded with every one of them (unlabelled turns never match),
        chosen in SQL; Python re-checks only what SQL cannot judge exactly (``dmem.store.labelsql``).
        """
        read = self._read(_COLUMNS, namespaces, labels)
        return chronological(read.keep(self._sql.query(read.sql, read.params))) if read else []

    async def amessages(self, namespaces: Sequence[str],
                        labels: Mapping[str, MetadataValue] | None = None) -> list[Message]:
        """``messages`` awaited (on the loop's async pool on PostgreSQL, in a worker thread on SQLite)."""
        read = self._read(_COLUMNS, namespaces, labels)
        return chronological(read.keep(await self._sql.aquery(read.sql, read.params))) if read else []

    def since(self, namespace: str, rowid: int) -> list[tuple[int, Message]]:
        """The namespace's turns recorded after row ``rowid`` (-1: all), as (rowid, message) in rowid order.

        Appends to a namespace hold its write lock (``append``), so its rows commit in rowid order:
        a reader that saw row ``rowid`` misses none before it. Rows go only with a reset, which moves
        ``purge_mark``. An incremental transcript index (``dmem.evidence.growing``) reads only these.
        """
        rows = self._sql.query(f"SELECT {_COLUMNS} FROM messages WHERE namespace = ? AND rowid > ? ORDER BY rowid",
                               (namespace, rowid))
        return [(int(row["rowid"]), message_from_row(row)) for row in rows]

    def last_row(self, namespace: str) -> int:
        """The namespace's last row (-1: none): ``since`` it, only turns recorded later."""
        return int(self._sql.scalar("SELECT coalesce(max(rowid), -1) FROM messages WHERE namespace = ?", (namespace,)))

    def purge_mark(self) -> int:
        """The store version of the last reset (0: none): rows read before it may be gone."""
        return purge_mark(self._sql)

    def with_ids(self, namespace: str, turn_ids: Sequence[str]) -> list[Message]:
        """The namespace's recorded turns with these ids, in any conversation (for recognising a resend)."""
        names = list(dict.fromkeys(turn_ids))
        if not names:
            return []
        in_ids, params = self._sql.dialect.in_list("turn_id", names)
        rows = self._sql.query(f"SELECT * FROM messages WHERE namespace = ? AND {in_ids}", [namespace, *params])
        return [message_from_row(row) for row in rows]

    def has_turns(self, namespaces: Sequence[str], labels: Mapping[str, MetadataValue] | None = None) -> bool:
        """Whether ``messages(namespaces, labels)`` would hold a turn, without reading the turns' text."""
        read = self._read("", namespaces, labels, exists=True)
        return bool(read.keep(self._sql.query(read.sql, read.params))) if read else False

    async def ahas_turns(self, namespaces: Sequence[str], labels: Mapping[str, MetadataValue] | None = None) -> bool:
        """``has_turns`` awaited (on the loop's async pool on PostgreSQL, in a worker thread on SQLite)."""
        read = self._read("", namespaces, labels, exists=True)
        return bool(read.keep(await self._sql.aquery(read.sql, read.params))) if read else False

    def _read(self, columns: str, namespaces: Sequence[str], labels: Mapping[str, MetadataValue] | None,
              exists: bool = False) -> TurnRead | None:
        """The one query behind ``messages`` and ``has_turns`` (both paths): None when no namespace is asked.

        Without labels it reads ``columns`` (``exists``: just whether one row is there); with labels,
        also the labels and SQL's verdict, and ``keep`` re-checks only what SQL cannot judge exactly.
        """
        names = list(dict.fromkeys(namespaces))
        if not names:
            return None
        in_names, params = self._sql.dialect.in_list("namespace", names)
        if not labels:
            if exists:
                return TurnRead(f"SELECT 1 AS found FROM messages WHERE {in_names} LIMIT 1", params)
            return TurnRead(f"SELECT {columns} FROM messages WHERE {in_names}", params)
        found = self._sql.dialect.labels_filter("labels", labels)
        lead = f"{columns}, " if columns else ""
        return TurnRead(f"SELECT {lead}labels, {found.loose} AS loose FROM messages WHERE {in_names}"
                        f" AND labels != '{{}}' AND {found.condition}", [*params, *found.params], found, labels)

    def pages(self, namespace: str, size: int = 500) -> Iterator[list[StoredTurn]]:
        """Every turn of the namespace with its labels and status, by conversation then seq, ``size`` at a time.

        Each page is one query, a keyset on the (namespace, conversation_id, seq) unique index (the
        comparison and the order use the database's own collation, as the index does).
        """
        after: tuple[str, int] = ("", -1)
        while True:
            rows = self._sql.query("SELECT * FROM messages WHERE namespace = ? AND (conversation_id, seq) > (?, ?)"
                                   " ORDER BY conversation_id, seq LIMIT ?",
                                   (namespace, *after, size))
            if not rows:
                return
            yield [StoredTurn(namespace=namespace, message=message_from_row(r), labels=decode_labels(r["labels"]),
                              formed=r["status"] == "processed") for r in rows]
            after = (rows[-1]["conversation_id"], rows[-1]["seq"])

    def before(self, namespace: str, conversation_id: str, seq: int, limit: int) -> list[Message]:
        """The last ``limit`` turns of a conversation with a smaller seq, oldest first."""
        if limit <= 0:
            return []
        rows = self._sql.query("SELECT * FROM messages WHERE namespace = ? AND conversation_id = ? AND seq < ?"
                               " ORDER BY seq DESC LIMIT ?", (namespace, conversation_id, seq, limit))
        return [message_from_row(row) for row in reversed(rows)]

    def conversations(self, namespace: str) -> list[str]:
        """Conversations of a namespace, in the order they were first recorded."""
        rows = self._sql.query("SELECT conversation_id FROM messages WHERE namespace = ? GROUP BY conversation_id"
                               " ORDER BY min(rowid)", (namespace,))
        return [row["conversation_id"] for row in rows]

    def namespaces(self) -> list[str]:
        """Namespaces holding at least one turn, sorted."""
        sql = f"SELECT namespace FROM messages GROUP BY namespace ORDER BY namespace{self._sql.dialect.collate}"
        return [row["namespace"] for row in self._sql.query(sql)]

    def count(self, namespace: str | None = None) -> int:
        """Recorded turns, in one namespace or overall."""
        if namespace is None:
            return int(self._sql.scalar("SELECT count(*) FROM messages"))
        return int(self._sql.scalar("SELECT count(*) FROM messages WHERE namespace = ?", (namespace,)))
