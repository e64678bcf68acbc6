"""Formation status and claims of recorded turns in PostgreSQL (see ``dmem.store.turns`` for the model).

A claim runs under the advisory locks of the namespaces the turns feed, so two processes or
machines claiming the same turns at once are serialised and only one gets them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any, Literal

from dmem.state.schemas import Message
from dmem.store.claims import is_stale
from dmem.store.namespaces import Claim, Routing, TurnKey, UnformedTurn
from dmem.store.postgres.db import PgDatabase, Row
from dmem.store.transcript import message_from_row
from dmem.store.turns import by_conversation

log = logging.getLogger(__name__)

_WHERE = "namespace = ANY(%s) AND conversation_id = %s AND turn_id = ANY(%s)"


class PgTurnStatus:
    """Status, claims and retry queries over the ``messages`` table."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    def claim(self, namespaces: Sequence[str], turns: Sequence[TurnKey], worker: str, lease_s: float) -> Claim:
        """Claim the unformed turns for ``worker`` unless a live worker holds them (one transaction)."""
        claimed: list[TurnKey] = []
        held: list[TurnKey] = []
        done: list[TurnKey] = []
        names = list(dict.fromkeys(namespaces))
        now = time.time()
        with self._db.transaction():
            self._db.lock_namespaces(names)
            for conv, turn in dict.fromkeys(turns):
                params = [names, conv, [turn]]
                rows = self._db.execute(f"SELECT status, claimed_by, claim_expires FROM messages WHERE {_WHERE}",
                                        params).fetchall()
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
                self._db.execute(f"UPDATE messages SET claimed_by = %s, claim_expires = %s WHERE {_WHERE}"
                                 " AND status != 'processed'", [worker, now + lease_s, *params])
                claimed.append((conv, turn))
        return Claim(claimed=claimed, held=held, done=done)

    def holds(self, namespaces: Sequence[str], turns: Sequence[TurnKey], worker: str) -> bool:
        """True while ``worker`` still holds every unformed copy of these turns (call inside the commit).

        Inside a transaction it also takes the namespaces' locks, so nobody can take the claim over
        between this check and the commit that writes the turns' memories.
        """
        names = list(dict.fromkeys(namespaces))
        if self._db.in_transaction():
            self._db.lock_namespaces(names)
        for conv, turn_ids in by_conversation(turns).items():
            rows = self._db.query(
                "SELECT turn_id, count(*) FILTER (WHERE status != 'processed' AND coalesce(claimed_by, '') != %s)"
                " AS foreign_, count(*) FILTER (WHERE coalesce(claimed_by, '') = %s) AS mine"
                f" FROM messages WHERE {_WHERE} GROUP BY turn_id", [worker, worker, names, conv, turn_ids],
            )
            if len(rows) != len(turn_ids) or any(r["foreign_"] or not r["mine"] for r in rows):
                return False
        return True

    def _update(self, namespaces: Sequence[str], turns: Sequence[TurnKey], assignments: str,
                values: Sequence[Any], condition: str = "", extra: Sequence[Any] = ()) -> int:
        names = list(dict.fromkeys(namespaces))
        changed = 0
        with self._db.transaction():
            self._db.lock_namespaces(names)
            for conv, turn_ids in by_conversation(turns).items():
                sql = f"UPDATE messages SET {assignments} WHERE {_WHERE}{condition}"
                changed += self._db.execute(sql, [*values, names, conv, turn_ids, *extra]).rowcount
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
            condition, extra = condition + " AND claimed_by = %s", [worker]
        self._update(namespaces, turns, "status = 'pending', pending_reason = %s, claimed_by = NULL,"
                     " claim_expires = NULL", [reason], condition, extra)

    def release(self, namespaces: Sequence[str], turns: Sequence[TurnKey], worker: str) -> None:
        """Drop ``worker``'s claims on turns it did not finish (they stay unformed)."""
        self._update(namespaces, turns, "claimed_by = NULL, claim_expires = NULL", [], " AND claimed_by = %s",
                     [worker])

    def unformed(self, namespace: str, conversation_id: str | None = None) -> list[UnformedTurn]:
        """Turns of the namespace not formed yet (new or pending), by conversation then seq."""
        rows = self._select(namespace, ("new", "pending"), conversation_id)
        return [UnformedTurn(namespace=namespace, message=message_from_row(r), status=r["status"],
                             reason=r["pending_reason"], routing=Routing.from_row(r["origin"], r["routes"]))
                for r in rows]

    def pending(self, namespace: str, conversation_id: str | None = None) -> list[tuple[Message, str]]:
        """Turns of the namespace whose formation failed, with the reason, by conversation then seq."""
        rows = self._select(namespace, ("pending",), conversation_id)
        return [(message_from_row(r), r["pending_reason"] or "") for r in rows]

    def _select(self, namespace: str, statuses: tuple[Literal["new", "pending"], ...],
                conversation_id: str | None) -> list[Row]:
        sql = "SELECT * FROM messages WHERE namespace = %s AND status = ANY(%s)"
        params: list[Any] = [namespace, list(statuses)]
        if conversation_id is not None:
            sql, params = sql + " AND conversation_id = %s", [*params, conversation_id]
        return self._db.query(sql + " ORDER BY conversation_id COLLATE \"C\", seq", params)

    def is_processed(self, namespace: str, conversation_id: str, turn_id: str) -> bool:
        """True once a turn of the namespace has been formed."""
        sql = "SELECT status FROM messages WHERE namespace = %s AND conversation_id = %s AND turn_id = %s"
        return self._db.scalar(sql, (namespace, conversation_id, turn_id)) == "processed"

    def pending_count(self) -> int:
        """Turns awaiting retry, over every namespace (for operators)."""
        return int(self._db.scalar("SELECT count(*) FROM messages WHERE status = 'pending'"))
