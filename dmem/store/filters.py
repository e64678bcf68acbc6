"""What a search keeps: the metadata filter of a vector search, its hits, and exact label matching.

``labels_match`` is the one definition of an exact metadata match (``True`` is not ``1``, ``1`` is
not ``1.0``, ``"1"`` is neither); memory filters, transcript label filters and their SQL forms
(``dmem.store.labelsql``, ``dmem.store.postgres.filters``) all follow it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from dmem.state.schemas import MemoryRecord


@dataclass(frozen=True)
class SearchFilter:
    """Metadata filters for a vector search; None means 'any'."""

    categories: frozenset[str] | None = None
    """Keep records carrying at least one of these categories."""
    scopes: frozenset[str] | None = None
    provenance: str | None = None
    speaker: str | None = None
    conversation_id: str | None = None
    metadata: tuple[tuple[str, Any], ...] | None = None
    """Keep records whose metadata has every one of these (key, value) pairs (see ``with_metadata``)."""

    @classmethod
    def with_metadata(cls, metadata: Mapping[str, Any], base: SearchFilter | None = None) -> SearchFilter:
        """``base`` (or no other filter) that also requires these metadata values."""
        pairs = tuple(sorted(metadata.items()))
        return replace(base, metadata=pairs) if base is not None else cls(metadata=pairs)

    @classmethod
    def of_labels(cls, labels: Mapping[str, Any] | None) -> SearchFilter | None:
        """The search filter of a label filter (every value required), or None for no or empty labels."""
        return cls.with_metadata(labels) if labels else None

    def matches(self, rec: MemoryRecord) -> bool:
        """True when the record passes every filter that is set."""
        if self.categories is not None and not self.categories.intersection(str(c) for c in rec.categories):
            return False
        if self.scopes is not None and str(rec.scope) not in self.scopes:
            return False
        if self.provenance is not None and str(rec.provenance) != self.provenance:
            return False
        if self.speaker is not None and (rec.speaker or "").lower() != self.speaker.lower():
            return False
        if self.metadata is not None and not labels_match(rec.metadata, dict(self.metadata)):
            return False
        return self.conversation_id is None or rec.conversation_id == self.conversation_id


_MISSING = object()


def _same(found: Any, wanted: Any) -> bool:
    """Exact metadata match: ``True`` does not equal ``1``, nor ``"1"``."""
    return type(found) is type(wanted) and found == wanted


def labels_match(labels: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
    """True when ``labels`` hold every one of the ``wanted`` values, exactly (nothing wanted: always)."""
    return all(_same(labels.get(k, _MISSING), v) for k, v in wanted.items())


@dataclass(frozen=True)
class Hit:
    """A search result: the record and its cosine similarity to the query."""

    record: MemoryRecord
    score: float
