"""The dmem export format, and the checks an import must pass before anything is written.

Version 2 records the embedding model and dimension and each memory's vector, so an import into
a store of the same model copies the vectors exactly; version 1 files (texts only) are
re-embedded. Version 3 (written now) adds the transcript: every turn with its labels and whether
it was formed (``dmem.export_turns``). Files are JSON or JSON Lines (``dmem.export_files``).
An import must name where every memory and turn goes: records of the target ``user_id``, or of
namespaces mapped explicitly; anything else is refused whole.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from dmem.errors import DataError
from dmem.export_files import is_jsonl, jsonl_parts
from dmem.export_turns import plan_turn
from dmem.metadata import check_metadata
from dmem.state.namespaces import check_text, validate_namespace
from dmem.state.schemas import MemoryRecord
from dmem.store.embedding_meta import recorded_embedding
from dmem.validation import text_value

FORMAT = "dmem-export"
VERSION = 3
KNOWN_VERSIONS = (1, 2, 3)


def encode_vector(vector: Sequence[float] | np.ndarray) -> str:
    """A vector as base64 of little-endian float32."""
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


Row = tuple[str, Any]
"""(kind, item) of an export: 'memory', 'history' or 'turn'."""


def export_parts(source: object) -> tuple[dict[str, Any], Iterator[Row]]:
    """An export's header and its rows, from a dict or a JSON or JSON Lines file (read a line at a time)."""
    if isinstance(source, dict):
        return _dict_parts(source)
    if not isinstance(source, str | Path):
        raise DataError(f"import_ takes a path to an export file or the export dict, got {type(source).__name__}")
    path = Path(source)
    try:
        if is_jsonl(path):
            return jsonl_parts(path)
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"file {str(path)!r} does not exist") from None
    except (UnicodeDecodeError, IsADirectoryError) as exc:
        raise DataError(f"file {str(path)!r} is not a UTF-8 text file: {exc}") from None
    except RecursionError:
        raise DataError(f"file {str(path)!r} nests JSON too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"file {str(path)!r} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict):
        raise DataError(f"file {str(path)!r} must hold a JSON object (a dmem export)")
    return _dict_parts(data)


def _dict_parts(data: dict[str, Any]) -> tuple[dict[str, Any], Iterator[Row]]:
    header = {k: v for k, v in data.items() if k not in ("memories", "history", "transcript")}

    def rows() -> Iterator[Row]:
        memories, turns = data.get("memories"), data.get("transcript")
        if not isinstance(memories, list):
            raise DataError("the export's 'memories' must be a list")
        if turns is not None and not isinstance(turns, list):
            raise DataError("the export's 'transcript' must be a list")
        yield from (("memory", item) for item in memories)
        yield from (("turn", item) for item in turns or [])

    return header, rows()


class ImportCheck:
    """The checks of an import, row by row: format, version and model first, then every memory and turn.

    Memory rows come before turn rows; ``memories_done`` (at the first turn, and at the end) refuses
    memories of namespaces neither ``user_id`` nor mapped, all named at once.
    """

    def __init__(self, header: dict[str, Any], *, user_id: str, namespaces: Mapping[str, str] | None,
                 embedding: str | None, dim: int, reembed: bool) -> None:
        if header.get("format") != FORMAT:
            raise DataError(f"not a dmem export: expected {{'format': '{FORMAT}', ...}}")
        version = header.get("version")
        if type(version) is not int or version not in KNOWN_VERSIONS:  # True == 1 in Python: not a version
            raise DataError(f"unknown dmem export version {version!r}; this dmem reads versions "
                            f"{', '.join(map(str, KNOWN_VERSIONS))}")
        self.mapping = {validate_namespace(k, "namespace in the mapping"): validate_namespace(v, f"target of {k!r}")
                        for k, v in (namespaces or {}).items()}
        self.reuse = version != 1 and not reembed  # versions 2 and 3 carry vectors
        """False when the texts must be embedded again (version 1, or reembed=True)."""
        if self.reuse:
            _check_model(header, embedding, dim)
        self.user_id, self.dim = user_id, dim
        self._seen: set[str] = set()
        self._strangers: set[str] = set()
        self._memories = self._turns = 0

    def memory(self, item: object) -> tuple[MemoryRecord, list[float] | None] | None:
        """The memory row as a record of its target namespace, with its vector when reused; None if refused later."""
        index = self._memories
        self._memories += 1
        record = _record(item, index)
        if record.id in self._seen:
            raise DataError(f"the export holds memory id {record.id!r} twice (memory {index})")
        self._seen.add(record.id)
        target = self.mapping.get(record.namespace) or (self.user_id if record.namespace == self.user_id else None)
        if target is None:
            self._strangers.add(record.namespace)
            return None
        assert isinstance(item, dict)
        vector = _vector(item, index, self.dim) if self.reuse else None
        return record.model_copy(update={"namespace": target}), vector

    def memories_done(self) -> None:
        """Refuse the import when memories of unmapped namespaces were seen."""
        if self._strangers:
            raise DataError(f"the export holds memories of namespace(s) {sorted(self._strangers)}, not "
                            f"{self.user_id!r}; import them with user_id=<that namespace>, or map them with "
                            "namespaces={old: new}")

    def turn(self, item: object) -> tuple[str, dict[str, Any]]:
        """The turn row checked: (target namespace, planned row)."""
        self.memories_done()
        self._turns += 1
        return plan_turn(item, self._turns - 1, self.mapping, self.user_id)


def _check_model(data: dict[str, Any], embedding: str | None, dim: int) -> None:
    theirs, their_dim = recorded_embedding(data.get("embedding")), data.get("dim")
    if their_dim != dim or (embedding is not None and theirs != embedding):
        raise DataError(f"the export was made with embedding model {theirs!r} ({their_dim} dimensions) but this "
                        f"store uses {embedding!r} ({dim}); pass reembed=True to embed its texts with this store's "
                        "model")


def _record(item: object, index: int) -> MemoryRecord:
    if not isinstance(item, dict):
        raise DataError(f"memory {index} of the export is {type(item).__name__}, not an object")
    try:
        record = MemoryRecord.model_validate(item)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DataError(f"memory {index} of the export is invalid: {where}: {first['msg']}") from None
    if not record.id.strip():
        raise DataError(f"memory {index} of the export has an empty id")
    validate_namespace(record.id, f"id of memory {index}")  # printable, at most 256 characters
    validate_namespace(record.namespace, f"namespace of memory {index}")
    text_value(record.text, f"text of memory {index}")
    for key, value in record.enrichment.items():
        text_value(key, f"enrichment key of memory {index}")
        text_value(value, f"enrichment {key!r} of memory {index}")
    if record.speaker is not None:
        check_text(record.speaker, f"speaker of memory {index}")
    check_metadata(record.metadata)
    return record


def _vector(item: dict[str, Any], index: int, dim: int) -> list[float]:
    raw = item.get("vector")
    try:
        vector = np.frombuffer(base64.b64decode(str(raw), validate=True), dtype="<f4")
    except ValueError:
        raise DataError(f"memory {index} of the export has no readable 'vector'; pass reembed=True") from None
    if vector.shape[0] != dim or not np.all(np.isfinite(vector)):
        raise DataError(f"memory {index} of the export has a {vector.shape[0]}-dim or non-finite vector, not {dim}")
    return vector.astype(float).tolist()
