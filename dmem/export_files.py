"""Export files: JSON (one object) or JSON Lines (one record a line), always created private (0600).

An export holds every memory, personal data included, so its file gets the store's own mode
whatever the process's umask: created 0600, and an existing file is chmod-ed to 0600 before it
is written. JSON Lines (``.jsonl``, or ``format="jsonl"``) writes a header line, then one line per
memory, history row and turn (``{"kind": "memory" | "history" | "turn", ...}``); large exports can
be split, and are written and imported a row at a time (``write_jsonl``, ``jsonl_parts``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, TextIO

from dmem.errors import DataError

ExportFormat = Literal["json", "jsonl"]
_PARTS = {"memory": "memories", "history": "history", "turn": "transcript"}


def export_format(path: Path, wanted: str | None) -> ExportFormat:
    """The format asked for, else the file's suffix ('.jsonl' or '.ndjson': JSON Lines), else JSON."""
    if wanted is None:
        return "jsonl" if path.suffix.lower() in (".jsonl", ".ndjson") else "json"
    if wanted not in ("json", "jsonl"):
        raise DataError(f"export format must be 'json' or 'jsonl', got {wanted!r}")
    return "jsonl" if wanted == "jsonl" else "json"


_encode = json.JSONEncoder(ensure_ascii=False).encode
"""One row as JSON text (one encoder for every row: ``json.dumps`` with options builds one per call)."""


def _private(path: Path) -> TextIO:
    """The file opened for writing, mode 0600 whatever the umask (an existing file is narrowed first)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, "w", encoding="utf-8")


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write the export as one JSON object, mode 0600."""
    with _private(path) as out:
        json.dump(data, out, indent=2, ensure_ascii=False)


def write_jsonl(path: Path, header: dict[str, Any], rows: Iterable[tuple[str, dict[str, Any]]]) -> dict[str, int]:
    """Write the header line, then each row as it comes (nothing is collected), mode 0600; rows written per part."""
    counts = dict.fromkeys(_PARTS.values(), 0)
    with _private(path) as out:
        out.write(_encode({"kind": "header", **header}) + "\n")
        for kind, row in rows:
            out.write(_encode({"kind": kind, **row}) + "\n")
            counts[_PARTS[kind]] += 1
    return counts


def jsonl_parts(path: Path) -> tuple[dict[str, Any], Iterator[tuple[str, dict[str, Any]]]]:
    """A JSON Lines export's header (its first line), and its rows ``(kind, row)`` read a line at a time."""
    lines = _rows(path)
    first = next(lines, None)
    if first is None or first[1].get("kind") != "header":
        raise DataError(f"file {str(path)!r} line {first[0] if first else 1}: a JSON Lines export starts with its "
                        "header line ({\"kind\": \"header\", ...})")
    header = {k: v for k, v in first[1].items() if k != "kind"}

    def rows() -> Iterator[tuple[str, dict[str, Any]]]:
        for number, row in lines:
            kind = row.pop("kind", None)
            if kind not in _PARTS:
                raise DataError(f"file {str(path)!r} line {number}: unknown kind {kind!r} (memory, history, turn "
                                "after the header)")
            yield kind, row

    return header, rows()


def _rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"file {str(path)!r} line {number} is not valid JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise DataError(f"file {str(path)!r} line {number} must hold a JSON object")
            yield number, row


def is_jsonl(path: Path) -> bool:
    """True when the file's first non-empty line is a whole JSON object with a 'kind' (a JSON Lines export)."""
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                try:
                    first = json.loads(line)
                except json.JSONDecodeError:
                    return False
                return isinstance(first, dict) and "kind" in first
    return False
