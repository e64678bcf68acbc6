"""Knowledge sources for enrichment (which source a fact may consult is ``dmem.privacy.policy``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class KnowledgeSource(Protocol):
    """Something that answers a short lookup with knowledge lines (a wiki, a search API, a KB)."""

    def lookup(self, query: str) -> list[str]:
        """Knowledge lines about the query's entities; empty when nothing is known."""
        ...


class StaticKnowledge:
    """A dictionary-backed source: entity name -> lines. Useful offline and in tests."""

    def __init__(self, entries: dict[str, Sequence[str]]) -> None:
        self.entries = {k.lower(): list(v) for k, v in entries.items()}
        self.queries: list[str] = []

    def lookup(self, query: str) -> list[str]:
        self.queries.append(query)
        low = query.lower()
        return [line for key, lines in self.entries.items() if key in low for line in lines]

