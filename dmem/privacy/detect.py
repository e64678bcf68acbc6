"""The personal-data detector: deterministic, offline, the same for every decision engine.

``detect(text)`` finds contact details, credentials and account numbers, and special categories
(``contact``, ``credentials``, ``special``), and a deployment's own terms and patterns
(``custom``). A fact with any detection is personal (USER_PII), whatever a model said about it;
traces redact what it finds (``dmem.privacy.redact``). ``secret_values`` gives the values themselves
(a PIN's digits, not the words around them), which lose their context once a model rewrites them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dmem.privacy import contact, credentials, special
from dmem.privacy.neighbours import MAX_KINDS, content_words, sentence_at
from dmem.privacy.numbers import clues
from dmem.state.privacy_terms import NONE, PATTERN_KIND, TERM_KIND, Vocabulary

MIN_CHARS = 3  # the shortest finding is three characters ('DNA', 'HIV')
CATEGORY = {
    "e-mail address": "contact", "phone number": "contact", "street address": "contact",
    "password or key": "credential", "PIN or code": "credential", "API key or token": "credential",
    "account or ID number": "credential", "payment card number": "credential",
    "bank account number": "credential", "national ID number": "credential", "security answer": "credential",
    TERM_KIND: "deployment", PATTERN_KIND: "deployment",
}
CONTEXT_FREE = frozenset({"special"})
"""Categories whose words are personal wherever they appear ('diagnosed'): no value to carry apart."""
Raw = tuple[str, int, int, int]


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
        """'contact', 'credential', 'deployment' or 'special'."""
        return CATEGORY.get(self.kind, "special")


def _raw(text: str, extra: Vocabulary) -> list[Raw]:
    """Every finder's finds, unmerged, as (kind, start, end, value start)."""
    if len(text) < MIN_CHARS:
        return []
    prepared = clues(text)
    out: list[Raw] = []
    for finder in (contact.find, special.find):
        out += [(k, s, e, s) for k, s, e in finder(prepared) if e > s]
    out += [f for f in credentials.find(prepared) if f[2] > f[1]]
    if extra:
        out += list(extra.find(prepared.text))
    return out


_BIRTH_WORDS = re.compile(r"^(?:date of birth|d\.?o\.?b\.?|birth ?date|born|birthday)(?:\s+(?:is|was|on|in|the|:))*\s*",
                          re.IGNORECASE)


def _values(text: str, raw: list[Raw]) -> list[str]:
    values = []
    special = {(sentence_at(text, start), kind) for kind, start, _e, _v in raw
               if CATEGORY.get(kind, "special") in CONTEXT_FREE and kind != "date of birth"}
    for bounds in {b for b, _k in special}:
        if len({k for b, k in special if b == bounds}) <= MAX_KINDS:
            values += content_words(text, bounds)  # the words a rewrite keeps when it drops the cue word
    for kind, start, end, value_start in raw:
        if kind == "date of birth":
            values.append(_BIRTH_WORDS.sub("", text[start:end]))
        elif CATEGORY.get(kind, "special") in CONTEXT_FREE:
            continue
        values.append(text[value_start:end])
    cleaned = (v.strip().strip("\"'\u201c\u201d\u2018\u2019.,;:!?") for v in values)
    return list(dict.fromkeys(v for v in cleaned if len(v) >= MIN_CHARS))


def _merge(text: str, raw: list[Raw]) -> list[Detection]:
    found = sorted({(s, -e, k) for k, s, e, _v in raw})
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


def secret_values(text: str, extra: Vocabulary = NONE) -> list[str]:
    """The personal values in the text ('2580', 'maya@example.com'), without the words that introduce them.

    Special-category words are left out: they are recognised wherever they appear.
    """
    return _values(text, _raw(text, extra))


def scan(text: str, extra: Vocabulary = NONE) -> tuple[list[Detection], list[str]]:
    """``detect`` and ``secret_values`` of one text, from one pass of the finders."""
    raw = _raw(text, extra)
    return _merge(text, raw), _values(text, raw)


def detect(text: str, extra: Vocabulary = NONE) -> list[Detection]:
    """Every piece of personal data in the text, in order; overlapping finds are merged into the first."""
    return _merge(text, _raw(text, extra))


def personal_kinds(text: str, extra: Vocabulary = NONE) -> list[str]:
    """The kinds of personal data in the text, each once, in order of appearance."""
    return list(dict.fromkeys(d.kind for d in detect(text, extra)))


def describe(text: str, extra: Vocabulary = NONE) -> str | None:
    """A short reason naming the first detection ("phone number ('555-0100')"), or None."""
    found = detect(text, extra)
    if not found:
        return None
    first = found[0]
    return f"{first.kind} ('{first.text.strip()}')"
