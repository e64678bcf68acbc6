"""The caller's metadata on memories, checked on the way in.

``add(metadata=...)``, the ingestion graph's ``metadata`` input and the host pieces of ``dmem.host``
(which pass it there) keep it with the recorded turns (``TranscriptLog.append``); the run that
forms them writes it onto the memories they create or update (new keys win over old ones on an
updated memory) in the commit that writes those memories. Values are JSON scalars, so
``search(metadata=...)`` filters compare them exactly.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from dmem.errors import DataError
from dmem.state.namespaces import check_text
from dmem.state.schemas import MetadataValue

MAX_KEYS = 64


def check_metadata(metadata: object) -> dict[str, MetadataValue]:
    """``metadata`` as a dict of str -> str/int/float/bool; a DataError naming the bad key otherwise."""
    if not isinstance(metadata, Mapping):
        raise DataError(f"metadata must be a mapping of name -> value, got {type(metadata).__name__}")
    if len(metadata) > MAX_KEYS:
        raise DataError(f"metadata has {len(metadata)} keys; at most {MAX_KEYS} are allowed")
    out: dict[str, MetadataValue] = {}
    for key, value in metadata.items():
        if not isinstance(key, str) or not key.strip():
            raise DataError(f"metadata key {key!r} is not a non-empty string")
        if not isinstance(value, str | int | float | bool):
            raise DataError(f"metadata {key!r} is a {type(value).__name__}; values are strings, numbers or booleans")
        out[check_text(key, "metadata key")] = check_text(value, f"metadata {key!r}") if isinstance(value, str) \
            else value
    return out


def labels_key(labels: Mapping[str, MetadataValue] | None) -> Hashable:
    """A hashable key of a label filter that keeps ``True``, ``1`` and ``1.0`` apart (None and {} alike)."""
    return tuple(sorted((k, type(v).__name__, v) for k, v in (labels or {}).items()))
