"""The default HistoryLog: append-only operation and admission rows in the store's SQLite database."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from dmem.state.schemas import AdmissionDecision, HistoryEntry, Operation
from dmem.store.sqlite import Database, utc_now


def _entry(row: sqlite3.Row) -> HistoryEntry:
    return HistoryEntry(
        memory_id=row["memory_id"],
        namespace=row["namespace"],
        operation=Operation(row["operation"]),
        old_text=row["old_text"],
        new_text=row["new_text"],
        reason=row["reason"],
        at=datetime.fromisoformat(row["at"]),
    )


def _admission(row: sqlite3.Row) -> AdmissionDecision:
    return AdmissionDecision(
        turn_id=row["turn_id"],
        speaker=row["speaker"],
        utterance=row["utterance"],
        admitted=bool(row["admitted"]),
        reason=row["reason"],
    )


class LocalHistory:
    """Audit trail of memory operations and admission decisions; rows are never changed or removed.

    Write the history row inside the same ``store.transaction()`` as the memory change it
    describes, so both land or neither does.
    """

    def __init__(self, db: Database) -> None:
        self._db = db

    def append(
        self,
        namespace: str,
        memory_id: str,
        operation: Operation,
        old_text: str | None,
        new_text: str | None,
        reason: str,
        at: datetime | None = None,
    ) -> None:
        """Record one operation on a memory of the namespace (``at`` defaults to now, in UTC)."""
        when = (at or utc_now()).isoformat()
        with self._db.transaction():
            self._db.execute(
                "INSERT INTO history (memory_id, namespace, operation, old_text, new_text, reason, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (memory_id, namespace, Operation(operation).value, old_text, new_text, reason, when),
            )

    def for_memory(self, namespace: str, memory_id: str) -> list[HistoryEntry]:
        """Every operation on one memory of the namespace, oldest first (empty for other namespaces)."""
        rows = self._db.query("SELECT * FROM history WHERE namespace = ? AND memory_id = ? ORDER BY rowid",
                              (namespace, memory_id))
        return [_entry(row) for row in rows]

    def entries(self, namespace: str) -> list[HistoryEntry]:
        """Every operation in a namespace, oldest first."""
        rows = self._db.query("SELECT * FROM history WHERE namespace = ? ORDER BY rowid", (namespace,))
        return [_entry(row) for row in rows]

    def count(self) -> int:
        """Count the operation rows over every namespace (for operators)."""
        return int(self._db.scalar("SELECT count(*) FROM history"))

    def record_admission(self, namespace: str, conversation_id: str, decision: AdmissionDecision) -> None:
        """Keep an admission gate decision with its reason."""
        with self._db.transaction():
            self._db.execute(
                "INSERT INTO admissions (conversation_id, namespace, turn_id, speaker, utterance, admitted,"
                " reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    conversation_id,
                    namespace,
                    decision.turn_id,
                    decision.speaker,
                    decision.utterance,
                    int(decision.admitted),
                    decision.reason,
                    utc_now().isoformat(),
                ),
            )

    def admissions(self, namespace: str) -> list[AdmissionDecision]:
        """Admission decisions of a namespace, oldest first."""
        rows = self._db.query("SELECT * FROM admissions WHERE namespace = ? ORDER BY rowid", (namespace,))
        return [_admission(row) for row in rows]

    def admission_count(self) -> int:
        """Count admission decisions over every namespace (for operators)."""
        return int(self._db.scalar("SELECT count(*) FROM admissions"))
