"""Item values as dmem memories: one text field becomes the memory's text, scalar fields its labels.

A value put through the store must hold its text in one of ``TEXT_FIELDS`` (first found wins), as
a non-empty string: that text is embedded and searched. Every other field must be a string, a
number or a boolean: it is kept as one of the memory's metadata labels (``search(filter=...)``
and dmem's own label filters match it exactly). Anything else (a nested dict, a list, None, a
value without text) is refused with a DataError: dmem stores facts as sentences, not documents.

Reading back gives the value as it was put. A memory dmem formed itself reads as
``{"content": text, **labels}``. The labels dmem keeps for the store itself start with ``store:``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dmem.errors import DataError
from dmem.metadata import check_metadata
from dmem.state.schemas import MemoryRecord, MetadataValue

TEXT_FIELDS = ("content", "text", "memory", "data")
"""Fields that may hold an item's text, in the order they are looked for."""
RESERVED = "store:"
NAMESPACE_LABEL = "store:namespace"
"""The tuple an item was put under, its labels joined by '.' (LangGraph forbids '.' inside labels)."""
KEY_LABEL = "store:key"
"""The key an item was put under."""
FIELD_LABEL = "store:field"
"""The field that held the item's text."""


def split_value(value: Mapping[str, Any]) -> tuple[str, str, dict[str, MetadataValue]]:
    """(text field, text, labels) of a value to put; a DataError saying what to change otherwise."""
    if not isinstance(value, Mapping):
        raise DataError(f"a store value must be a dict, got {type(value).__name__}")
    field = next((name for name in TEXT_FIELDS if name in value), None)
    if field is None:
        raise DataError(f"a value put into dmem needs its text in one of {list(TEXT_FIELDS)}; got fields "
                        f"{sorted(map(str, value))}")
    text = value[field]
    if not isinstance(text, str) or not text.strip():
        raise DataError(f"the value's {field!r} must be non-empty text (dmem stores memories as sentences), "
                        f"got {type(text).__name__}")
    rest = {key: item for key, item in value.items() if key != field}
    for key, item in rest.items():
        if isinstance(key, str) and key.startswith(RESERVED):
            raise DataError(f"value field {key!r}: names starting with {RESERVED!r} are dmem's own")
        if not isinstance(item, str | int | float | bool):
            raise DataError(f"value field {key!r} is a {type(item).__name__}; besides the text, dmem keeps only "
                            "strings, numbers and booleans (as the memory's labels)")
    return field, text.strip(), check_metadata(rest)


def item_value(record: MemoryRecord) -> dict[str, Any]:
    """The value a memory reads as: its text under its field, and its labels other than dmem's own."""
    field = record.metadata.get(FIELD_LABEL)
    labels = {key: item for key, item in record.metadata.items() if not key.startswith(RESERVED)}
    return {str(field) if isinstance(field, str) else TEXT_FIELDS[0]: record.text, **labels}


def matches(value: Mapping[str, Any], wanted: Mapping[str, Any] | None) -> bool:
    """Whether a value passes a search filter: exact values, or ``{"$eq"|"$ne"|"$gt"|"$gte"|"$lt"|"$lte": x}``.

    Equality is dmem's label equality: ``True`` is not ``1``, ``1`` is not ``1.0``.
    """
    for key, want in (wanted or {}).items():
        got = value.get(key, _MISSING)
        if isinstance(want, Mapping):
            if not all(_compare(got, op, target) for op, target in want.items()):
                return False
        elif not _same(got, want):
            return False
    return True


def pushed_labels(wanted: Mapping[str, Any] | None) -> dict[str, MetadataValue]:
    """The plain equality part of a filter on label fields, for the store's own label filter."""
    return {key: want for key, want in (wanted or {}).items()
            if key not in TEXT_FIELDS and isinstance(want, str | int | float | bool)}


def check_filter(wanted: Mapping[str, Any] | None) -> None:
    """Refuse a filter dmem cannot honour, before anything is read."""
    for key, want in (wanted or {}).items():
        if isinstance(want, Mapping):
            unknown = sorted(set(want) - set(_OPERATORS))
            if unknown:
                raise DataError(f"filter {key!r} uses {unknown}; dmem's store filters know {sorted(_OPERATORS)}")
        elif not isinstance(want, str | int | float | bool):
            raise DataError(f"filter {key!r} is a {type(want).__name__}; compare strings, numbers or booleans")


_MISSING = object()


def _same(found: Any, wanted: Any) -> bool:
    return type(found) is type(wanted) and found == wanted


def _number(x: Any) -> float | None:
    return float(x) if isinstance(x, int | float) and not isinstance(x, bool) else None


def _order(got: Any, target: Any) -> float | None:
    a, b = _number(got), _number(target)
    return None if a is None or b is None else a - b


_OPERATORS = {
    "$eq": lambda got, target: _same(got, target),
    "$ne": lambda got, target: not _same(got, target),
    "$gt": lambda got, target: (d := _order(got, target)) is not None and d > 0,
    "$gte": lambda got, target: (d := _order(got, target)) is not None and d >= 0,
    "$lt": lambda got, target: (d := _order(got, target)) is not None and d < 0,
    "$lte": lambda got, target: (d := _order(got, target)) is not None and d <= 0,
}


def _compare(got: Any, op: str, target: Any) -> bool:
    return bool(_OPERATORS[op](got, target))
