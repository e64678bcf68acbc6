"""``DmemStore``: LangGraph's ``BaseStore`` over a dmem store, so agents and LangMem read and write dmem memory.

Semantics follow LangGraph's ``InMemoryStore``: in one batch the reads see the store as it was
before the batch's writes, and of several writes to one item the last wins; the writes land in
one transaction. ``abatch`` runs the same work in a worker thread, so the event loop never waits
on the database or the embedding model.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any, cast

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)

from dmem.langgraph_store.keys import KeyIndex, locate
from dmem.langgraph_store.listing import list_namespaces
from dmem.langgraph_store.namespaces import NamespaceRule
from dmem.langgraph_store.values import (
    FIELD_LABEL,
    KEY_LABEL,
    NAMESPACE_LABEL,
    RESERVED,
    TEXT_FIELDS,
    check_filter,
    item_value,
    matches,
    pushed_labels,
    split_value,
)
from dmem.state.schemas import MemoryRecord
from dmem.store import MemoryStore, SearchFilter
from dmem.verbatim import write_delete, write_new, write_over

Place = tuple[tuple[str, ...], str]
"""An item's address: (namespace tuple, key)."""


class DmemStore(BaseStore):
    """A LangGraph store whose items are dmem memories (see ``docs/langgraph-store.md``).

    Build it with ``Memory.as_store()``. ``rule`` maps namespace tuples to dmem namespaces;
    ``reason`` says in history how a write was made ("put through the LangGraph store: ...").
    """

    __slots__ = ("_store", "_embeddings", "_known", "rule", "reason")

    def __init__(self, store: MemoryStore, embeddings: Embeddings, *, rule: NamespaceRule | None = None,
                 reason: str = "through the LangGraph store") -> None:
        self._store = store
        self._embeddings = embeddings
        self.rule = rule or NamespaceRule()
        """How namespace tuples map to dmem namespaces."""
        self.reason = reason
        """What every history reason this store writes says after 'put' or 'deleted'."""
        self._known: tuple[int, list[str]] = (-1, [])
        """The store's namespaces as of a store version (listing them costs a scan; the version is one read)."""

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the ops: reads first, against the store before this batch's writes; then the writes."""
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)
        results: list[Result] = []
        writes: dict[Place, PutOp] = {}
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op.namespace, op.key))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(list_namespaces(self._records_by_place(), op))
            elif isinstance(op, PutOp):
                writes[(op.namespace, op.key)] = op
                results.append(None)
            else:
                raise ValueError(f"unknown store operation {type(op).__name__}")
        if writes:
            self._write(list(writes.values()))
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """``batch`` in a worker thread: database and embedding work never blocks the event loop."""
        return await asyncio.to_thread(self.batch, list(ops))

    # Reads ----------------------------------------------------------------------------------
    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        collection, dmem_namespace = self.rule.split(namespace)
        record, _ = locate(self._index, dmem_namespace, namespace, key,
                           native=collection == self.rule.default_collection)
        place = self._place(record) if record is not None else None
        if record is None or place != (namespace, key):
            return None
        return Item(value=item_value(record), key=key, namespace=namespace,
                    created_at=record.created_at, updated_at=record.updated_at)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        check_filter(op.filter)
        namespaces = self._namespaces(op.namespace_prefix)
        if not namespaces or op.limit <= 0:
            return []
        if not op.query:
            found = [self._item(record, None) for ns in namespaces for record in self._store.vectors.list(ns)]
            kept = [item for item in found if item is not None and self._wanted(item, op)]
            return kept[op.offset:op.offset + op.limit]
        vector = self._embeddings.embed_documents([op.query])[0]
        where = SearchFilter.of_labels(pushed_labels(op.filter))
        want = op.offset + op.limit
        k = want
        while True:
            hits = self._store.vectors.search(namespaces, vector, k, where=where)
            items = [self._item(hit.record, hit.score) for hit in hits]
            kept = [item for item in items if item is not None and self._wanted(item, op)]
            if len(kept) >= want or len(hits) < k:
                return kept[op.offset:want]
            k *= 4

    def _wanted(self, item: SearchItem, op: SearchOp) -> bool:
        prefix = op.namespace_prefix
        return item.namespace[:len(prefix)] == prefix and matches(item.value, op.filter)

    def _namespaces(self, prefix: tuple[str, ...]) -> list[str]:
        """The dmem namespaces a search prefix can reach: the user's (and its scopes), or all of them."""
        users = self.rule.user_part(prefix)
        every = self._every_namespace()
        if not users:
            return every
        return [ns for ns in every if (labels := self.rule.join((), ns)) is not None
                and labels[:len(users)] == users]

    def _every_namespace(self) -> list[str]:
        """Namespaces holding live memories, listed again only after a write (read the version first)."""
        version = self._store.version()
        known_version, known = self._known
        if known_version != version:
            known = self._store.vectors.namespaces()
            self._known = (version, known)
        return known

    def _place(self, record: MemoryRecord) -> Place | None:
        """The (namespace tuple, key) a memory reads at, or None when it has no tuple under the rule."""
        stored, key = record.metadata.get(NAMESPACE_LABEL), record.metadata.get(KEY_LABEL)
        if isinstance(stored, str) and isinstance(key, str):
            return tuple(stored.split(".")), key
        labels = self.rule.join(self.rule.default_collection, record.namespace)
        return None if labels is None else (labels, record.id)

    def _item(self, record: MemoryRecord, score: float | None) -> SearchItem | None:
        place = self._place(record)
        if place is None:
            return None
        return SearchItem(namespace=place[0], key=place[1], value=item_value(record),
                          created_at=record.created_at, updated_at=record.updated_at, score=score)

    def _records_by_place(self) -> list[tuple[str, ...]]:
        """Every namespace tuple holding at least one item (for ``list_namespaces``)."""
        found: set[tuple[str, ...]] = set()
        for ns in self._store.vectors.namespaces():
            for record in self._store.vectors.list(ns):
                place = self._place(record)
                if place is not None:
                    found.add(place[0])
        return sorted(found)

    # Writes ---------------------------------------------------------------------------------
    def _write(self, ops: list[PutOp]) -> None:
        """Check every write, embed the new texts, then apply them all in one transaction."""
        planned = []
        for op in ops:
            collection, dmem_namespace = self.rule.split(op.namespace)
            value = None if op.value is None else split_value(op.value)
            planned.append((op, collection == self.rule.default_collection, dmem_namespace, value))
        texts = sorted({value[1] for *_, value in planned if value is not None})
        vectors = dict(zip(texts, self._embeddings.embed_documents(texts) if texts else [], strict=True))
        with self._store.transaction():
            for op, native, dmem_namespace, value in planned:
                record, free_id = locate(self._index, dmem_namespace, op.namespace, op.key, native)
                where = f"{self.reason}: namespace {op.namespace!r}, key {op.key!r}"
                if value is None:
                    if record is not None:
                        write_delete(self._store, record, f"deleted {where}")
                    continue
                reason = f"put {where}"
                field, text, labels = value
                if record is None:
                    labels = {**labels, NAMESPACE_LABEL: ".".join(op.namespace), KEY_LABEL: op.key}
                    write_new(self._store, free_id, dmem_namespace, text, vectors[text],
                              _with_field(labels, field), reason)
                else:
                    own = {k: v for k, v in record.metadata.items() if k.startswith(RESERVED) and k != FIELD_LABEL}
                    write_over(self._store, record, text, None if text == record.text else vectors[text],
                               _with_field({**labels, **own}, field), reason)

    @property
    def _index(self) -> KeyIndex:
        return cast(KeyIndex, self._store.vectors)

    def __repr__(self) -> str:
        return f"DmemStore({self._store.path!r}, rule={self.rule!r})"


def _with_field(labels: dict[str, Any], field: str) -> dict[str, Any]:
    """Labels plus the text field's name, when it is not the default one."""
    return labels if field == TEXT_FIELDS[0] else {**labels, FIELD_LABEL: field}
