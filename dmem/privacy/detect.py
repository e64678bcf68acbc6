"""The personal-data detector: deterministic, offline, the same for every decision engine.

``detect(text)`` finds contact details, credentials and account numbers, and special categories
(``contact``, ``credentials``, ``special``). A fact with any detection is personal (USER_PII),
whatever a model said about it; traces redact what it finds (``dmem.privacy.redact``).
"""

from __future__ import annotations

from dataclasses import dataclass

from dmem.privacy import contact, credentials, special
from dmem.privacy.numbers import clues

MIN_CHARS = 3  # the shortest finding is three characters ('DNA', 'HIV')
CATEGORY = {
    "e-mail address": "contact", "phone number": "contact", "street address": "contact",
    "password or key": "credential", "PIN or code": "credential", "API key or token": "credential",
    "account or ID number": "credential", "payment card number": "credential",
    "bank account number": "credential", "national ID number": "credential",
}


@dataclass(frozen=True)
class Detection:
    """One piece of personal data found in a text."""

    kind: str
    """What it is: 'phone number', 'PIN or code', 'health', ..."""
    start: int
    """Offset of the first character in the text."""
    end: int
    """Offset just past the last character."""
    text: str
    """The matched characters."""

    @property
    def category(self) -> str:
        """'contact', 'credential' or 'special'."""
        return CATEGORY.get(self.kind, "special")


def detect(text: str) -> list[Detection]:
    """Every piece of personal data in the text, in order; overlapping finds are merged into the first."""
    if len(text) < MIN_CHARS:
        return []
    prepared = clues(text)
    found = sorted({(s, -e, k) for finder in (contact.find, credentials.find, special.find)
                    for k, s, e in finder(prepared) if e > s})
    out: list[Detection] = []
    for start, neg_end, kind in found:
        end = -neg_end
        if out and start < out[-1].end:
            last = out[-1]
            if end > last.end:
                out[-1] = Detection(last.kind, last.start, end, text[last.start:end])
            continue
        out.append(Detection(kind, start, end, text[start:end]))
    return out


def personal_kinds(text: str) -> list[str]:
    """The kinds of personal data in the text, each once, in order of appearance."""
    return list(dict.fromkeys(d.kind for d in detect(text)))


def describe(text: str) -> str | None:
    """A short reason naming the first detection ("phone number ('555-0100')"), or None."""
    found = detect(text)
    if not found:
        return None
    first = found[0]
    return f"{first.kind} ('{first.text.strip()}')"
