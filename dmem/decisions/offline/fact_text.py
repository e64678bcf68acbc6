"""How a drafted fact's text is put, for every writer of facts: trimmed, tidied, without the listener addressed.

``splitting`` and ``followup_writing`` both write facts this way; the helpers live here so neither imports the other.
"""

from __future__ import annotations

import re

from dmem.decisions.offline import rules
from dmem.state.schemas import Category

# "my phone number changed, it's +351 ... now" -> "... phone number is now +351 ..."
_CHANGED_TO = re.compile(r"^(?P<subject>.+?)\s+(?:has\s+)?changed,?\s+(?:it's|it\s+is|it\u2019s)\s+(?P<value>.+?)"
                         r"(?:\s+now)?$", re.I)


def categorize(clause: str) -> list[Category]:
    """Categories by rules on the clause as said (multi-label; persona when nothing else fits)."""
    checks = [
        (Category.USER_RULE, rules.USER_RULE), (Category.ERROR_LEARNING, rules.ERROR_LEARNING),
        (Category.PROCEDURAL, rules.PROCEDURAL), (Category.PREFERENCE, rules.PREFERENCE),
        (Category.PERSONA, rules.PERSONA), (Category.EVENT, rules.EVENT),
    ]
    found = [cat for cat, pattern in checks if pattern.search(clause)]
    if Category.USER_RULE in found and Category.PREFERENCE in found:
        found.remove(Category.PREFERENCE)
    return found or [Category.PERSONA]


def trim(text: str) -> str:
    """One-spaced, without leading fillers ('yeah, so'), edge punctuation or the final stop."""
    return rules.LEADING_FILLER.sub("", " ".join(text.split())).strip(" ,;:-").rstrip(".!?")


def tidy(text: str) -> str:
    """A fact's final text: trimmed, a changed value stated as now, the first letter capitalised."""
    text = trim(text)
    text = _CHANGED_TO.sub(lambda m: f"{m['subject']} is now {m['value']}", text)
    return text[:1].upper() + text[1:]


def drop_vocative(text: str, listener: str | None) -> str:
    """'Priya, Theo had to...' / '... agrees, Maya': the listener addressed is not part of the fact."""
    if not listener:
        return text
    name = re.escape(listener)
    return re.sub(rf"^\s*{name}\s*[,!]\s+|,\s*{name}\s*[.!?]*\s*$", "", text)
