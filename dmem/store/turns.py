"""Formation status of recorded turns: new -> (claimed) -> processed, or pending with a reason.

A worker claims a turn's unformed copies (one per namespace its exchange feeds) before forming
it, checks it still holds them inside the transaction that writes the memories, and marks them
processed in that same transaction: a turn's memories are written once, even when two threads
or processes form it at the same time or a worker dies halfway (see :mod:`dmem.store.claims`).
Writes hold the write locks of the namespaces they touch (PostgreSQL: advisory locks, so two
machines claiming the same turns at once are serialised; SQLite: the store-wide write lock).
An unformed turn also keeps the caller's metadata (``labels``): the run that forms it, whichever
worker and whenever, writes them onto its memories in the commit that writes the memories.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from dmem.errors import StoreError
from dmem.state.schemas import Message, MetadataValue
from dmem.store.claims import is_stale
from dmem.store.namespaces import Claim, Routing, TurnKey, UnformedTurn
from dmem.store.sql import Row, Sql
from dmem.store.transcript_rows import message_from_row

log = logging.getLogger(__name__)


def by_conversation(turns: Sequence[TurnKey]) -> dict[str, list[str]]:
    """Turn ids grouped by conversation, each list without repeats."""
    out: dict[str, list[str]] = {}
    for conv, turn in turns:
        if turn not in out.setdefault(conv, []):
            out[conv].append(turn)
    return out


Labels = dict[str, MetadataValue]
"""The caller's metadata for the memories formed from a turn."""


def decode_labels(text: str | None) -> Labels:
    """The ``labels`` column of a turn as a dict (StoreError when the database holds something else)."""
    try:
        labels = json.loads(text or "{}")
    except ValueError as exc:
        raise StoreError(f"a turn's labels are unreadable in the database: {exc}") from exc
    if not isinstance(labels, dict):
        raise StoreError(f"a turn's labels are {type(labels).__name__}, not a JSON object, in the database")
    return labels


def _encode(labels: Mapping[str, MetadataValue]) -> str:
    """The ``labels`` column of a turn (keys sorted, so equal labels are equal text)."""
    return json.dumps(dict(labels), sort_keys=True, ensure_ascii=False)


class TurnStatus:
    """Status, claims and retry queries over the ``messages`` table."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql
        self._unsaved: dict[str, str] = {}
        """Failed workers whose turns could not be marked pending yet (store down): worker -> reason."""
        self._unsaved_lock = threading.Lock()

    def fail(self, worker: str, reason: str) -> None:
        """A run failed: its claimed, unformed turns become pending with ``reason``; never raises.

        When the store cannot be written (the database is down), the release is remembered in this
        process and written before its next claim, ``pending`` or ``unformed`` read: the turns are
        then pending for everyone, and a resend or ``retry_pending`` of this process forms them.
        """
        try:
            self._pend_worker(worker, reason)
        except StoreError as exc:
            with self._unsaved_lock:
                self._unsaved[worker] = reason
            log.warning("could not mark the failed run's turns pending yet (%s); will retry before the next claim",
                        exc)

    def _pend_worker(self, worker: str, reason: str) -> int:
        with self._sql.transaction():
            return self._sql.execute("UPDATE messages SET status = 'pending', pending_reason = ?, claimed_by = NULL,"
                                     " claim_expires = NULL WHERE claimed_by = ? AND status != 'processed'",
                                     [reason, worker])

    def _flush_unsaved(self) -> None:
        """Write the releases remembered while the store was down (a failure keeps them and raises)."""
        with self._unsaved_lock:
            waiting = list(self._unsaved.items())
        for worker, reason in waiting:
            self._pend_worker(worker, reason)
            with self._unsaved_lock:
                self._unsaved.pop(worker, None)

    def _where(self, names: Sequence[str], conv: str, turn_ids: Sequence[str]) -> tuple[str, list[Any]]:
        in_names, name_params = self._sql.dialect.in_list("namespace", names)
        in_turns, turn_params = self._sql.dialect.in_list("turn_id", turn_ids)
        return f"{in_names} AND conversation_id = ? AND {in_turns}", [*name_params, conv, *turn_params]

    def claim(self, namespaces: Sequence[str], turns: Sequence[TurnKey], worker: str, lease_s: float) -> Claim:
        """Claim the unformed turns for ``worker`` unless a live worker holds them (one transaction)."""
        claimed: list[TurnKey] = []
        held: list[TurnKey] = []
        done: list[TurnKey] = []
        names = list(dict.fromkeys(namespaces))
        self._flush_unsaved()
        now = time.time()
        with self._sql.transaction():
            self._sql.lock(names)
            for conv, turn in dict.fromkeys(turns):
                where, params = self._where(names, conv, [turn])
                rows = self._sql.fetch(f"SELECT status, claimed_by, claim_expires FROM messages WHERE {where}", params)
                open_rows = [r for r in rows if r["status"] != "processed"]
                if not open_rows:
                    (done if rows else held).append((conv, turn))
                    if not rows:
                        log.warning("turn %s/%s is not recorded in %s; not formed", conv, turn, names)
                    continue
                if any(r["claimed_by"] not in (None, worker) and not is_stale(r["claimed_by"], r["claim_expires"], now)
                       for r in open_rows):
                    held.append((conv, turn))
                    continue
                self._sql.execute(f"UPDATE messages SET claimed_by = ?, claim_expires = ? WHERE {where}"
                                  " AND status != 'processed'", [worker, now + lease_s, *params])
                claimed.append((conv, turn))
        return Claim(claimed=claimed, held=held, done=done)

    def holds(self, namespaces: Sequence[str], turns: Sequence[TurnKey], worker: str) -> bool:
        """True while ``worker`` still holds every unformed copy of these turns (call inside the commit).

        Inside a transaction it also takes the namespaces' locks, so nobody can take the claim over
        between this check and the commit that writes the turns' memories.
        """
        names = list(dict.fromkeys(namespaces))
        if self._sql.in_transaction():
            self._sql.lock(names)
        foreign = self._sql.dialect.count_if("status != 'processed' AND coalesce(claimed_by, '') != ?")
        mine = self._sql.dialect.count_if("coalesce(claimed_by, '') = ?")
        for conv, turn_ids in by_conversation(turns).items():
            where, params = self._where(names, conv, turn_ids)
            rows = self._sql.query(f"SELECT turn_id, {foreign} AS foreign_, {mine} AS mine FROM messages"
                                   f" WHERE {where} GROUP BY turn_id", [worker, worker, *params])
            if len(rows) != len(turn_ids) or any(r["foreign_"] or not r["mine"] for r in rows):
                return False
        return True

    def _update(self, namespaces: Sequence[str], turns: Sequence[TurnKey], assignments: str,
                values: Sequence[Any], condition: str = "", extra: Sequence[Any] = ()) -> int:
        names = list(dict.fromkeys(namespaces))
        changed = 0
        with self._sql.transaction():
            self._sql.lock(names)
            for conv, turn_ids in by_conversation(turns).items():
                where, params = self._where(names, conv, turn_ids)
                sql = f"UPDATE messages SET {assignments} WHERE {where}{condition}"
                changed += self._sql.execute(sql, [*values, *params, *extra])
        return changed

    def mark_processed(self, namespaces: Sequence[str], turns: Sequence[TurnKey]) -> None:
        """Flag turns as formed and drop their claims."""
        self._update(namespaces, turns, "status = 'processed', pending_reason = NULL, claimed_by = NULL,"
                     " claim_expires = NULL", [])

    def mark_pending(
        self, namespaces: Sequence[str], turns: Sequence[TurnKey], reason: str, worker: str | None = None
    ) -> None:
        """Flag unformed turns as failed with the reason and drop the claims (only ``worker``'s, when given)."""
        condition, extra = " AND status != 'processed'", []
        if worker is not None:
            condition, extra = condition + " AND claimed_by = ?", [worker]
        self._update(namespaces, turns, "status = 'pending', pending_reason = ?, claimed_by = NULL,"
                     " claim_expires = NULL", [reason], condition, extra)

    def release(self, namespaces: Sequence[str], turns: Sequence[TurnKey], worker: str) -> None:
        """Drop ``worker``'s claims on turns it did not finish (they stay unformed)."""
        self._update(namespaces, turns, "claimed_by = NULL, claim_expires = NULL", [], " AND claimed_by = ?",
                     [worker])

    def label(self, namespaces: Sequence[str], turns: Sequence[TurnKey], labels: Mapping[str, MetadataValue]) -> int:
        """Merge ``labels`` into the unformed copies of these turns (new keys win); returns how many changed.

        Unlabelled turns (the usual case) take the labels in one statement per conversation; only
        turns labelled before are read and merged one by one.
        """
        if not labels:
            return 0
        names = list(dict.fromkeys(namespaces))
        fresh = _encode(labels)
        changed = 0
        with self._sql.transaction():
            self._sql.lock(names)
            for conv, turn_ids in by_conversation(turns).items():
                where, params = self._where(names, conv, turn_ids)
                open_rows = f"{where} AND status != 'processed'"
                rows = self._sql.fetch(f"SELECT namespace, turn_id, labels FROM messages WHERE {open_rows}"
                                       " AND labels != '{}'", params)
                changed += self._sql.execute(f"UPDATE messages SET labels = ? WHERE {open_rows} AND labels = '{{}}'",
                                             [fresh, *params])
                for row in rows:
                    merged = _encode({**decode_labels(row["labels"]), **labels})
                    if merged != row["labels"]:
                        changed += self._sql.execute("UPDATE messages SET labels = ? WHERE namespace = ?"
                                                     " AND conversation_id = ? AND turn_id = ?",
                                                     (merged, row["namespace"], conv, row["turn_id"]))
        return changed

    def labels(self, namespaces: Sequence[str], turns: Sequence[TurnKey]) -> dict[tuple[str, str, str], Labels]:
        """The labels of these turns' copies, keyed (namespace, conversation_id, turn_id); unlabelled ones left out."""
        out: dict[tuple[str, str, str], Labels] = {}
        names = list(dict.fromkeys(namespaces))
        for conv, turn_ids in by_conversation(turns).items():
            where, params = self._where(names, conv, turn_ids)
            for row in self._sql.query(f"SELECT namespace, turn_id, labels FROM messages WHERE {where}"
                                       " AND labels != '{}'", params):
                out[(row["namespace"], conv, row["turn_id"])] = decode_labels(row["labels"])
        return out

    def unformed(self, namespace: str, conversation_id: str | None = None) -> list[UnformedTurn]:
        """Turns of the namespace not formed yet (new or pending), by conversation then seq."""
        self._flush_unsaved()
        rows = self._select(namespace, ("new", "pending"), conversation_id)
        return [UnformedTurn(namespace=namespace, message=message_from_row(r), status=r["status"],
                             reason=r["pending_reason"], routing=Routing.from_row(r["origin"], r["routes"]),
                             labels=decode_labels(r["labels"]))
                for r in rows]

    def pending(self, namespace: str, conversation_id: str | None = None) -> list[tuple[Message, str]]:
        """Turns of the namespace whose formation failed, with the reason, by conversation then seq."""
        self._flush_unsaved()
        rows = self._select(namespace, ("pending",), conversation_id)
        return [(message_from_row(r), r["pending_reason"] or "") for r in rows]

    def _select(self, namespace: str, statuses: tuple[Literal["new", "pending"], ...],
                conversation_id: str | None) -> list[Row]:
        in_statuses, status_params = self._sql.dialect.in_list("status", statuses)
        sql = f"SELECT * FROM messages WHERE namespace = ? AND {in_statuses}"
        params: list[Any] = [namespace, *status_params]
        if conversation_id is not None:
            sql, params = sql + " AND conversation_id = ?", [*params, conversation_id]
        return self._sql.query(f"{sql} ORDER BY conversation_id{self._sql.dialect.collate}, seq", params)

    def is_processed(self, namespace: str, conversation_id: str, turn_id: str) -> bool:
        """True once a turn of the namespace has been formed."""
        sql = "SELECT status FROM messages WHERE namespace = ? AND conversation_id = ? AND turn_id = ?"
        return self._sql.scalar(sql, (namespace, conversation_id, turn_id)) == "processed"

    def pending_count(self) -> int:
        """Turns awaiting retry, over every namespace (for operators)."""
        self._flush_unsaved()
        return int(self._sql.scalar("SELECT count(*) FROM messages WHERE status = 'pending'"))
