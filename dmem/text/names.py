"""The people a question names, and texts without them.

Names the question shares with many lines tell the lines apart no better than "the", and person names
dominate small sentence embeddings, so both engines and the evidence layer strip them the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.grounding.deixis import MONTHS, WEEKDAYS

SHARED_NAME_SHARE = 0.25  # a question name in more than this share of the lines is stripped before embedding
_NOT_NAMES = {m.lower() for m in MONTHS} | set(WEEKDAYS) | {"i", "i'm", "i've", "i'd", "i'll"}
_NAME = re.compile(r"(?<!^)\b[A-Z][\w-]*")


def question_names(question: str) -> list[str]:
    """Capitalized words of the question after its first word ('Maya', 'Pixel'), without "'s"."""
    found = [m.group(0) for m in _NAME.finditer(question.strip())]
    return list(dict.fromkeys(n for n in found if n.lower() not in _NOT_NAMES))


def _name_pattern(names: Sequence[str]) -> re.Pattern[str] | None:
    if not names:
        return None
    return re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")(?:['\u2019]s)?\b")


def mentions(text: str, names: Sequence[str]) -> bool:
    """True if the text names any of these people."""
    pattern = _name_pattern(names)
    return bool(pattern and pattern.search(text))


def shared_names(question: str, texts: Sequence[str]) -> list[str]:
    """Question names found in more than SHARED_NAME_SHARE of the texts: they do not tell lines apart."""
    if not texts:
        return []
    return [n for n in question_names(question)
            if sum(mentions(t, [n]) for t in texts) > SHARED_NAME_SHARE * len(texts)]


def strip_names(text: str, names: Sequence[str]) -> str:
    """The text without these names (and their possessive 's)."""
    pattern = _name_pattern(names)
    return " ".join(pattern.sub(" ", text).split()) if pattern else text
