"""Which memory an item (namespace tuple, key) is: ids derived from the key, and dmem's own memories.

An item put through the store gets the id ``kv-<uuid5 of namespace, tuple and key>``. dmem never
reuses an id, even a deleted one, so an item put again after a delete takes the next generation
(``...-1``, ``...-2``): looking an item up walks the generations until a live one or an unused
id. A memory dmem formed itself is the item whose key is its id, in the default collection.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Protocol

from dmem.langgraph_store.values import KEY_LABEL, NAMESPACE_LABEL
from dmem.state.schemas import MemoryRecord

_ROOT = uuid.UUID("6f1c3d4e-2b7a-5c9d-8e0f-1a2b3c4d5e6f")
_PROBE = 8


class KeyIndex(Protocol):
    """The by-id reads of a vector index that an item lookup needs (both backends have them)."""

    def get(self, namespace: str, memory_id: str) -> MemoryRecord | None:
        """A live record of the namespace by id, or None."""
        ...

    def owners(self, memory_ids: Sequence[str]) -> dict[str, str]:
        """Namespace of each id known to the store, live or deleted."""
        ...


def item_id(dmem_namespace: str, namespace: tuple[str, ...], key: str, generation: int = 0) -> str:
    """The id of an item put through the store, in a generation (0 first)."""
    digest = uuid.uuid5(_ROOT, "\x1f".join((dmem_namespace, ".".join(namespace), key)))
    return f"kv-{digest}" if generation == 0 else f"kv-{digest}-{generation}"


def locate(index: KeyIndex, dmem_namespace: str, namespace: tuple[str, ...], key: str,
           native: bool) -> tuple[MemoryRecord | None, str]:
    """(the live memory at (namespace, key) or None, the id a new item there takes).

    ``native``: the namespace is the default collection, where a key may also be a memory id.
    """
    generation = 0
    while True:
        ids = [item_id(dmem_namespace, namespace, key, g) for g in range(generation, generation + _PROBE)]
        owners = index.owners(ids)
        for memory_id in ids:
            if memory_id not in owners:
                return _native(index, dmem_namespace, key) if native else None, memory_id
            if owners[memory_id] == dmem_namespace:
                record = index.get(dmem_namespace, memory_id)
                if record is not None:
                    return record, memory_id
        generation += _PROBE


def _native(index: KeyIndex, dmem_namespace: str, key: str) -> MemoryRecord | None:
    """A memory dmem formed itself whose id is the key (never one put through the store)."""
    record = index.get(dmem_namespace, key)
    if record is None or NAMESPACE_LABEL in record.metadata or KEY_LABEL in record.metadata:
        return None
    return record
