"""The HistoryLog of both backends: append-only operation and admission rows, per namespace."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from dmem.state.schemas import AdmissionDecision, HistoryEntry, Operation
from dmem.store.clock import utc_now
from dmem.store.sql import Row, Sql


def _entry(row: Row) -> HistoryEntry:
    return HistoryEntry(memory_id=row["memory_id"], namespace=row["namespace"], operation=Operation(row["operation"]),
                        old_text=row["old_text"], new_text=row["new_text"], reason=row["reason"],
                        at=datetime.fromisoformat(row["at"]))


def _admission(row: Row) -> AdmissionDecision:
    return AdmissionDecision(turn_id=row["turn_id"], speaker=row["speaker"], utterance=row["utterance"],
                             admitted=bool(row["admitted"]), reason=row["reason"])


class History:
    """Audit trail of memory operations and admission decisions; rows are never changed or removed.

    Write the history row inside the same ``store.transaction()`` as the memory change it
    describes, so both land or neither does.
    """

    def __init__(self, sql: Sql) -> None:
        self._sql = sql
        self._order = f"ORDER BY {sql.dialect.insertion}"

    def append(self, namespace: str, memory_id: str, operation: Operation, old_text: str | None,
               new_text: str | None, reason: str, at: datetime | None = None) -> None:
        """Record one operation on a memory of the namespace (``at`` defaults to now, in UTC)."""
        with self._sql.transaction(savepoint=False):
            self._sql.execute(
                "INSERT INTO history (namespace, memory_id, operation, old_text, new_text, reason, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (namespace, memory_id, Operation(operation).value, old_text, new_text, reason,
                 (at or utc_now()).isoformat()),
            )

    def for_memory(self, namespace: str, memory_id: str) -> list[HistoryEntry]:
        """Every operation on one memory of the namespace, oldest first (empty for other namespaces)."""
        rows = self._sql.query(f"SELECT * FROM history WHERE namespace = ? AND memory_id = ? {self._order}",
                               (namespace, memory_id))
        return [_entry(row) for row in rows]

    def entries(self, namespace: str) -> list[HistoryEntry]:
        """Every operation in a namespace, oldest first."""
        return [_entry(row) for row in self._sql.query(f"SELECT * FROM history WHERE namespace = ? {self._order}",
                                                       (namespace,))]

    def live_pages(self, namespace: str, size: int = 500) -> Iterator[list[HistoryEntry]]:
        """The operations on the namespace's live memories, oldest first, ``size`` at a time (one query each)."""
        order = self._sql.dialect.insertion
        after = -1
        while True:
            rows = self._sql.query(
                f"SELECT {order} AS pos, * FROM history AS h WHERE namespace = ? AND {order} > ? AND EXISTS"
                f" (SELECT 1 FROM memories AS m WHERE m.id = h.memory_id AND m.namespace = h.namespace"
                f" AND {self._sql.dialect.live}) ORDER BY {order} LIMIT ?", (namespace, after, size))
            if not rows:
                return
            yield [_entry(row) for row in rows]
            after = rows[-1]["pos"]

    def count(self) -> int:
        """Operation rows over every namespace (for operators)."""
        return int(self._sql.scalar("SELECT count(*) FROM history"))

    def record_admission(self, namespace: str, conversation_id: str, decision: AdmissionDecision) -> None:
        """Keep an admission gate decision with its reason (SQLite stores the boolean as 0 or 1)."""
        with self._sql.transaction(savepoint=False):
            self._sql.execute(
                "INSERT INTO admissions (namespace, conversation_id, turn_id, speaker, utterance, admitted, reason,"
                " at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (namespace, conversation_id, decision.turn_id, decision.speaker, decision.utterance,
                 decision.admitted, decision.reason, utc_now().isoformat()),
            )

    def admissions(self, namespace: str) -> list[AdmissionDecision]:
        """Admission decisions of a namespace, oldest first."""
        rows = self._sql.query(f"SELECT * FROM admissions WHERE namespace = ? {self._order}", (namespace,))
        return [_admission(row) for row in rows]

    def namespaces(self) -> list[str]:
        """Namespaces holding at least one operation or admission row, sorted."""
        rows = self._sql.query("SELECT namespace FROM (SELECT namespace FROM history UNION SELECT namespace"
                               f" FROM admissions) AS named ORDER BY namespace{self._sql.dialect.collate}")
        return [row["namespace"] for row in rows]

    def admission_count(self) -> int:
        """Admission decisions over every namespace (for operators)."""
        return int(self._sql.scalar("SELECT count(*) FROM admissions"))
