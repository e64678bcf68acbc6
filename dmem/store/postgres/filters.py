"""Metadata filters of a PostgreSQL search: the columns they read and the SQL conditions they become."""

from __future__ import annotations

from typing import Any

from psycopg import sql

from dmem.state.schemas import MemoryRecord
from dmem.store.base import SearchFilter


def filter_columns(record: MemoryRecord) -> tuple[list[str], str, str, str | None, str | None]:
    """The columns search filters on, spelled as ``SearchFilter.matches`` compares them."""
    return ([str(c) for c in record.categories], str(record.scope), str(record.provenance), record.speaker,
            record.conversation_id)


def filter_sql(where: SearchFilter | None) -> tuple[sql.Composable, list[Any]]:
    """The WHERE conditions (each starting with AND) and parameters of a metadata filter."""
    parts: list[sql.Composable] = []
    params: list[Any] = []
    if where is None:
        return sql.SQL(""), params
    checks: list[tuple[str, Any]] = [
        ("categories && %s::text[]", sorted(where.categories) if where.categories is not None else None),
        ("scope = ANY(%s::text[])", sorted(where.scopes) if where.scopes is not None else None),
        ("provenance = %s", where.provenance),
        ("lower(coalesce(speaker, '')) = lower(%s)", where.speaker),
        ("conversation_id = %s", where.conversation_id),
    ]
    for condition, value in checks:
        if value is not None:
            parts.append(sql.SQL(" AND " + condition))
            params.append(value)
    return sql.Composed(parts), params
