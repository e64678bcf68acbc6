"""Export files: JSON (one object) or JSON Lines (one record a line), always created private (0600).

An export holds every memory, personal data included, so its file gets the store's own mode
whatever the process's umask: created 0600, and an existing file is chmod-ed to 0600 before it
is written. JSON Lines (``.jsonl``, or ``format="jsonl"``) writes a header line, then one line per
memory, history row and turn (``{"kind": "memory" | "history" | "turn", ...}``); large exports can
be streamed, split and read a line at a time. ``read_export_file`` reads either.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

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


def write_export_file(path: Path, data: dict[str, Any], fmt: ExportFormat) -> None:
    """Write the export, mode 0600 whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        if fmt == "json":
            json.dump(data, out, indent=2, ensure_ascii=False)
            return
        header = {k: v for k, v in data.items() if k not in _PARTS.values()}
        out.write(json.dumps({"kind": "header", **header}, ensure_ascii=False) + "\n")
        for kind, part in _PARTS.items():
            for row in data.get(part) or []:
                out.write(json.dumps({"kind": kind, **row}, ensure_ascii=False) + "\n")


def read_jsonl(path: Path) -> dict[str, Any]:
    """A JSON Lines export back as the export dict; a DataError naming the bad line."""
    data: dict[str, Any] = {part: [] for part in _PARTS.values()}
    for number, row in _rows(path):
        kind = row.pop("kind", None)
        if kind == "header":
            data.update(row)
        elif kind in _PARTS:
            data[_PARTS[kind]].append(row)
        else:
            raise DataError(f"file {str(path)!r} line {number}: unknown kind {kind!r} (header, memory, history, turn)")
    return data


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
