"""Word lists written as one long string, read as a set."""

from __future__ import annotations


def wordset(text: str) -> frozenset[str]:
    """A set of the whitespace-separated words of a long lexicon string."""
    return frozenset(text.split())
