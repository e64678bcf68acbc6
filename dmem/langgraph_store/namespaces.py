"""The rule that maps a LangGraph namespace tuple to a dmem namespace, and back.

A tuple is ``(*collection, user, *scopes)``: ``collection_depth`` leading labels name a collection
(default one: ``("memories",)``), the next label is the user, and optional trailing labels
``"agent:<id>"`` and ``"run:<id>"`` scope it as ``dmem.scopes`` does::

    ("memories", "maya")                            -> user "maya", collection ("memories",)
    ("memories", "maya", "agent:planner")           -> "maya/agent:planner"
    ("memories", "maya", "agent:planner", "run:r7") -> "maya/agent:planner/run:r7"
    ("notes", "maya")                               -> user "maya", collection ("notes",)

Back: a dmem namespace becomes ``(*collection, user, *scopes)`` by the same rule. Memories dmem
formed itself belong to ``default_collection``; an item put through the store keeps the collection
it was put in. A user id holding '.' has no tuple (LangGraph forbids '.' in labels).
"""

from __future__ import annotations

from dataclasses import dataclass

from langgraph.store.base import InvalidNamespaceError

from dmem.errors import DataError
from dmem.scopes import scope

SCOPE_PREFIXES = ("agent:", "run:")


@dataclass(frozen=True)
class NamespaceRule:
    """Where the user sits in a namespace tuple, and the collection dmem's own memories appear in."""

    collection_depth: int = 1
    """Labels before the user label (``("memories", user)``: 1; ``(user,)``: 0)."""
    default_collection: tuple[str, ...] = ("memories",)
    """The collection of memories dmem formed itself (not put through the store); its length is ``collection_depth``."""

    def __post_init__(self) -> None:
        if self.collection_depth < 0:
            raise DataError(f"collection_depth must be 0 or more, got {self.collection_depth}")
        if len(self.default_collection) != self.collection_depth:
            raise DataError(f"default_collection {self.default_collection!r} must have collection_depth="
                            f"{self.collection_depth} labels")

    def split(self, namespace: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
        """(collection, dmem namespace) of a full namespace tuple; InvalidNamespaceError saying the rule otherwise."""
        depth = self.collection_depth
        if len(namespace) <= depth:
            raise InvalidNamespaceError(f"namespace {namespace!r} has no user label: dmem reads "
                                        f"{depth} collection label(s), then the user (e.g. {self.example()!r})")
        user, rest = namespace[depth], namespace[depth + 1:]
        agent = run = None
        for label in rest:
            if label.startswith("agent:") and agent is None and run is None:
                agent = label.removeprefix("agent:")
            elif label.startswith("run:") and run is None:
                run = label.removeprefix("run:")
            else:
                raise InvalidNamespaceError(
                    f"namespace {namespace!r}: after the user {user!r} only 'agent:<id>' then 'run:<id>' may "
                    f"follow, got {label!r} (set NamespaceRule(collection_depth=...) to read more collection labels)")
        try:
            return namespace[:depth], scope(user, agent, run)
        except DataError as exc:
            raise InvalidNamespaceError(f"namespace {namespace!r}: {exc}") from None

    def join(self, collection: tuple[str, ...], dmem_namespace: str) -> tuple[str, ...] | None:
        """The tuple of a dmem namespace in a collection (None when a label would hold '.')."""
        parts = dmem_namespace.split("/")
        tail: list[str] = []
        while len(parts) > 1 and parts[-1].startswith(SCOPE_PREFIXES) and len(tail) < 2:
            tail.insert(0, parts.pop())
        labels = (*collection, "/".join(parts), *tail)
        return None if any("." in label or not label for label in labels) else labels

    def user_part(self, prefix: tuple[str, ...]) -> tuple[str, ...]:
        """The labels of a search prefix from the user on (empty when the prefix stops before the user)."""
        return prefix[self.collection_depth:]

    def example(self) -> tuple[str, ...]:
        """A namespace this rule reads, for messages."""
        return (*self.default_collection, "maya")
