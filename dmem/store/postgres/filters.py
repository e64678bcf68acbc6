"""Metadata filters of a PostgreSQL search: the columns they read and the SQL conditions they become."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from psycopg import sql

from dmem.state.schemas import MemoryRecord
from dmem.store.filters import SearchFilter


def filter_columns(record: MemoryRecord) -> tuple[list[str], str, str, str | None, str | None]:
    """The columns search filters on, spelled as ``SearchFilter.matches`` compares them."""
    return ([str(c) for c in record.categories], str(record.scope), str(record.provenance), record.speaker,
            record.conversation_id)


def filter_sql(where: SearchFilter | None) -> tuple[sql.Composable, list[Any]]:
    """The WHERE conditions (each starting with AND) and parameters of a search filter."""
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
    if where.metadata is not None:
        labels, label_params = metadata_sql(where.metadata)
        parts += labels
        params += label_params
    return sql.Composed(parts), params


def metadata_sql(pairs: Sequence[tuple[str, Any]]) -> tuple[list[sql.Composable], list[Any]]:
    """Conditions matching ``SearchFilter.matches``'s exact metadata comparison (``True`` is not ``1``).

    jsonb equality keeps strings, booleans and numbers apart; an int and a float of equal value
    are told apart by the stored JSON text (a float's has a '.' or an exponent).
    """
    parts: list[sql.Composable] = []
    params: list[Any] = []
    for key, value in pairs:
        if isinstance(value, float) and not math.isfinite(value):
            parts.append(sql.SQL(" AND FALSE"))  # stored as null: never equal, as in Python
            continue
        parts.append(sql.SQL(" AND (json::jsonb -> 'metadata' -> %s) = %s::jsonb"))
        params += [key, json.dumps(value)]
        if isinstance(value, int | float) and not isinstance(value, bool):
            match = "~" if isinstance(value, float) else "!~"
            parts.append(sql.SQL(f" AND (json::json -> 'metadata' -> %s)::text {match} '[.eE]'"))
            params.append(key)
    return parts, params
