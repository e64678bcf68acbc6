"""The caller's metadata on memories: checked on the way in, written to what an ``add`` formed.

Formation decides which memories an exchange creates or changes; ``add(metadata=...)`` then
labels exactly those (new keys win over old ones on an updated memory) in one store transaction.
Values are JSON scalars, so ``search(metadata=...)`` filters compare them exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dmem.errors import DataError
from dmem.state.results import ExchangeResult
from dmem.state.schemas import MetadataValue, Operation
from dmem.store import MemoryStore
from dmem.store.namespaces import check_text

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


def label_formed(store: MemoryStore, exchanges: Iterable[ExchangeResult], metadata: Mapping[str, Any]) -> int:
    """Add ``metadata`` to every memory these exchanges created or updated; returns how many."""
    targets = {(op.namespace, op.memory_id) for ex in exchanges for op in ex.operations
               if op.memory_id and op.operation in (Operation.ADD, Operation.UPDATE)}
    labelled = 0
    with store.transaction():
        for namespace, memory_id in sorted(targets):
            record = store.vectors.get(namespace, memory_id)
            if record is not None:  # a later exchange of the same call may have deleted it
                store.vectors.update(record.model_copy(update={"metadata": {**record.metadata, **metadata}}), None)
                labelled += 1
    return labelled
