"""The namespaces a store holds, and the hint a read prints when it names one that does not exist."""

from __future__ import annotations

import argparse
import difflib
from dataclasses import asdict, dataclass

from dmem.cli.base import note
from dmem.store import MemoryStore

SHOWN = 8
"""Namespaces named in a hint before '... and N more'."""


@dataclass(frozen=True)
class NamespaceCounts:
    """One namespace of a store: its live memories and recorded turns."""

    namespace: str
    memories: int
    turns: int

    def as_json(self) -> dict[str, object]:
        """JSON-ready fields."""
        return asdict(self)


def namespace_counts(store: MemoryStore, prefix: str | None = None) -> list[NamespaceCounts]:
    """Every namespace holding memories or turns (those starting with ``prefix``), sorted."""
    names = sorted(set(store.vectors.namespaces()) | set(store.transcript.namespaces()))
    return [NamespaceCounts(ns, store.vectors.count(ns), store.transcript.count(ns))
            for ns in names if prefix is None or ns.startswith(prefix)]


def suggestions(missing: str, known: list[str]) -> list[str]:
    """Known namespaces the user probably meant: same last part ('<conv>/<name>' for 'name'), else close ones."""
    last = missing.rsplit("/", 1)[-1].lower()
    same = [ns for ns in known if ns.rsplit("/", 1)[-1].lower() == last]
    return same or difflib.get_close_matches(missing, known, n=3, cutoff=0.6)


def hint_unknown(args: argparse.Namespace, store: MemoryStore, requested: list[str]) -> bool:
    """Print which namespaces the store holds when ``requested`` names one it does not; True if so."""
    known = sorted(set(store.vectors.namespaces()) | set(store.transcript.namespaces()))
    missing = [ns for ns in requested if ns not in known]
    if not missing:
        return False
    guesses = [g for ns in missing for g in suggestions(ns, known)]
    listed = ", ".join(known[:SHOWN]) + (f" and {len(known) - SHOWN} more" if len(known) > SHOWN else "")
    message = f"no namespace {', '.join(map(repr, missing))} in this store"
    if guesses:
        message += f"; did you mean {' or '.join(map(repr, guesses))}?"
    message += f" It holds {len(known)} namespace(s): {listed or 'none'} ('dmem users' lists them with counts)"
    note(args, message, missing=missing, suggestions=guesses, namespaces=known)
    return True
