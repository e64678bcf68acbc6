"""A noun's number as the rules write it: one home for "a"/"an" before a noun and "is"/"are" after one.

Read from the word alone: a final s that is not a double s ("cats", "boots"; not "glass", "class") makes it plural.
"""

from __future__ import annotations

__all__ = ["indefinite", "looks_plural"]


def looks_plural(noun: str) -> bool:
    """Whether ``noun`` (its last word) reads as plural: it ends in s but not in ss."""
    low = noun.lower()
    return low.endswith("s") and not low.endswith("ss")


def indefinite(noun: str) -> str:
    """``noun`` with "a" or "an" before it when singular ("an oven", "a kayak"), alone when plural ("boots")."""
    if looks_plural(noun):
        return noun
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"
