r"""A transcript label filter as SQL, matching ``labels_match`` exactly on both backends.

Turn labels are a JSON text column written by Python's ``json.dumps``. SQL keeps a turn when every
wanted (key, value) pair is in it with the same JSON type and value, so ``True`` is not ``1``, ``1``
is not ``1.0`` and ``"1"`` is neither, as in Python.

Two things SQL cannot judge exactly are left to a Python re-check (``labels_match``) of the rows
SQL returns:

- *loose rows*: labels holding a non-finite float (``json.dumps`` writes ``NaN``/``Infinity``,
  which neither SQLite's nor PostgreSQL's JSON reads) or a NUL character (PostgreSQL's jsonb
  refuses ``\u0000``). SQL keeps them all, unread; there are none unless a caller labelled so.
- *inexact filters*: on SQLite a float (its text-to-double conversion is not correctly rounded on
  every platform) or an int beyond 64 bits (it cannot be bound); on both, a non-finite float or a
  value of a type labels never hold. SQL then keeps a superset of the matches (same JSON type,
  close value) and Python decides.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_INT64 = range(-(2**63), 2**63)
_NUL_TEXT = "'\\u0000'"
"""The SQL literal of JSON's escape of NUL (both dialects read backslashes in '...' literally)."""


@dataclass(frozen=True)
class LabelQuery:
    """A label filter in SQL with ``?`` placeholders, and which returned rows Python must re-check."""

    condition: str
    """The WHERE condition: a loose row, or one whose labels hold every wanted value."""
    params: list[Any]
    loose: str
    """An expression true for rows whose labels SQL does not read (select it; re-check those rows)."""
    exact: bool
    """False when ``condition`` keeps a superset of the matches: re-check every row then."""

    def keeps(self, loose: object) -> bool:
        """True when a returned row (with its ``loose`` value) is a match without re-checking it."""
        return self.exact and not loose


def _has_nul(key: str, value: Any) -> bool:
    return "\x00" in key or (isinstance(value, str) and "\x00" in value)


def _sqlite_typed(value: Any) -> tuple[str, list[Any], bool]:
    """The test of one ``json_each`` member against a wanted value: (condition, params, exact)."""
    if isinstance(value, bool):
        return f"type = '{'true' if value else 'false'}'", [], True
    if value is None:
        return "type = 'null'", [], True
    if isinstance(value, str):
        return "type = 'text' AND atom = ?", [value], True
    if isinstance(value, int):
        if value in _INT64:  # a stored int beyond 64 bits reads as a real atom: never this value
            return "type = 'integer' AND typeof(atom) = 'integer' AND atom = ?", [value], True
        return "type = 'integer' AND typeof(atom) = 'real'", [], False
    if isinstance(value, float) and math.isfinite(value):
        return "type = 'real' AND abs(atom - ?) <= ?", [value, abs(value) * 1e-9 + 1e-300], False
    if isinstance(value, float):
        return "type = 'real'", [], False
    return "TRUE", [], False


def sqlite_labels(column: str, wanted: Mapping[str, Any]) -> LabelQuery:
    """The filter in SQLite: one ``json_each`` membership test per wanted key (keys compared as text)."""
    loose = f"(NOT json_valid({column}) OR instr({column}, {_NUL_TEXT}) > 0)"
    parts: list[str] = []
    params: list[Any] = []
    exact = True
    for key, value in wanted.items():
        if _has_nul(key, value):  # only a loose row can hold it
            parts.append("FALSE")
            continue
        typed, typed_params, typed_exact = _sqlite_typed(value)
        parts.append(f"EXISTS (SELECT 1 FROM json_each({column}) WHERE key = ? AND {typed})")
        params += [key, *typed_params]
        exact = exact and typed_exact
    return LabelQuery(_either(loose, parts), params, loose, exact)


def postgres_labels(column: str, wanted: Mapping[str, Any]) -> LabelQuery:
    """The filter in PostgreSQL: jsonb containment, and the JSON text of numbers to keep ints from floats.

    jsonb compares numbers as decimals, so ``1`` equals ``1.0`` there; the stored text of a float
    always has a '.' or an exponent (``json.dumps``), an int's never. Decimal equality of two
    floats' shortest texts is their equality as floats, and ints of any size compare exactly.
    """
    loose = (f"(strpos({column}, 'NaN') > 0 OR strpos({column}, 'Infinity') > 0"
             f" OR strpos({column}, {_NUL_TEXT}) > 0)")
    contained: dict[str, Any] = {}
    parts: list[str] = []
    params: list[Any] = []
    exact = True
    for key, value in wanted.items():
        if _has_nul(key, value):  # only a loose row can hold it
            parts.append("FALSE")
        elif value is None or isinstance(value, str | bool) or (isinstance(value, int | float)
                                                                 and math.isfinite(value)):
            contained[key] = value
            if isinstance(value, int | float) and not isinstance(value, bool):
                parts.append(f"({column}::json -> ?)::text {'~' if isinstance(value, float) else '!~'} '[.eE]'")
                params.append(key)
        else:
            exact = False
            if isinstance(value, float):
                parts.append(f"jsonb_typeof({column}::jsonb -> ?) = 'number'")
                params.append(key)
    if contained:
        parts.insert(0, f"{column}::jsonb @> ?::jsonb")
        params.insert(0, json.dumps(contained, ensure_ascii=False))
    return LabelQuery(_either(loose, parts), params, loose, exact)


def _either(loose: str, parts: list[str]) -> str:
    """Keep loose rows unread (CASE evaluates its branches in order), else require every part."""
    return f"CASE WHEN {loose} THEN TRUE ELSE ({' AND '.join(parts) or 'TRUE'}) END"
