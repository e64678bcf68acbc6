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
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from dmem.errors import DataError
from dmem.export_files import is_jsonl, read_jsonl
from dmem.export_turns import plan_turns
from dmem.metadata import check_metadata
from dmem.state.namespaces import check_text, validate_namespace
from dmem.state.schemas import MemoryRecord
from dmem.store.embedding_meta import recorded_embedding
from dmem.validation import text_value

FORMAT = "dmem-export"
VERSION = 3
KNOWN_VERSIONS = (1, 2, 3)


def encode_vector(vector: list[float]) -> str:
    """A vector as base64 of little-endian float32."""
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def build_export(records: list[MemoryRecord], vectors: list[list[float]], history: list[dict[str, Any]],
                 embedding: str | None, dim: int, transcript: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """JSON-ready export data (format version 3: memories with vectors, history, transcript)."""
    memories = [{**r.model_dump(mode="json"), "vector": encode_vector(v)}
                for r, v in zip(records, vectors, strict=True)]
    turns = transcript or []
    return {"format": FORMAT, "version": VERSION, "embedding": embedding, "dim": dim,
            "namespaces": sorted({r.namespace for r in records} | {t["namespace"] for t in turns}),
            "memories": memories, "history": history, "transcript": turns}


@dataclass
class ImportPlan:
    """Validated records grouped by target namespace, with their vectors when reusable, and the turns."""

    records: dict[str, list[MemoryRecord]]
    vectors: dict[str, list[list[float]]] | None
    """None when the texts must be embedded again (version 1, or reembed=True)."""
    turns: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Transcript rows by target namespace (version 3; see ``dmem.export_turns.plan_turns``)."""


def read_export(source: object) -> dict[str, Any]:
    """The export data from a dict or a path to a JSON or JSON Lines file."""
    if isinstance(source, dict):
        return source
    if not isinstance(source, str | Path):
        raise DataError(f"import_ takes a path to an export file or the export dict, got {type(source).__name__}")
    path = Path(source)
    try:
        data = read_jsonl(path) if is_jsonl(path) else json.loads(path.read_text(encoding="utf-8"))
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
    return data


def plan_import(data: dict[str, Any], *, user_id: str, namespaces: Mapping[str, str] | None, embedding: str | None,
                dim: int, reembed: bool) -> ImportPlan:
    """Check format, version, model, namespaces and ids; raise DataError saying what to change."""
    if data.get("format") != FORMAT:
        raise DataError(f"not a dmem export: expected {{'format': '{FORMAT}', ...}}")
    version = data.get("version")
    if type(version) is not int or version not in KNOWN_VERSIONS:  # True == 1 in Python: not a version
        raise DataError(f"unknown dmem export version {version!r}; this dmem reads versions "
                        f"{', '.join(map(str, KNOWN_VERSIONS))}")
    items = data.get("memories")
    if not isinstance(items, list):
        raise DataError("the export's 'memories' must be a list")
    mapping = {validate_namespace(k, "namespace in the mapping"): validate_namespace(v, f"target of {k!r}")
               for k, v in (namespaces or {}).items()}
    reuse = version != 1 and not reembed  # versions 2 and 3 carry vectors
    if reuse:
        _check_model(data, embedding, dim)
    plan = ImportPlan(records={}, vectors={} if reuse else None)
    seen: set[str] = set()
    strangers: set[str] = set()
    for index, item in enumerate(items):
        record = _record(item, index)
        if record.id in seen:
            raise DataError(f"the export holds memory id {record.id!r} twice (memory {index})")
        seen.add(record.id)
        target = mapping.get(record.namespace) or (user_id if record.namespace == user_id else None)
        if target is None:
            strangers.add(record.namespace)
            continue
        plan.records.setdefault(target, []).append(record.model_copy(update={"namespace": target}))
        if plan.vectors is not None:
            plan.vectors.setdefault(target, []).append(_vector(item, index, dim))
    if strangers:
        raise DataError(f"the export holds memories of namespace(s) {sorted(strangers)}, not {user_id!r}; "
                        f"import them with user_id=<that namespace>, or map them with namespaces={{old: new}}")
    plan.turns = plan_turns(data.get("transcript"), mapping, user_id)
    return plan


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
