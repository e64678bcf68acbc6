"""What kind of answer a question wants: several things or a count.

Both the ledger (which facts reach the answer) and the offline answerer (how many spans it joins)
ask it; the rules are about the question's form, never about a particular conversation.
"""

from __future__ import annotations

import re

_COUNT = re.compile(r"\bhow\s+(?:many|often)\b|\bnumber\s+of\b|\bhow\s+much\s+times\b", re.I)
_NOT_PLURAL = r"(?!(?:is|was|does|has|this|its|his|us|yes|always|perhaps)\b)"
_LIST = re.compile(r"\b(?:list|all|every|each|both|various|several|any\s+other)\b"
                   r"|^\s*(?:what|which)\s+(?:are|were)\b"
                   rf"|^\s*(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?{_NOT_PLURAL}[a-z]+[^s\W]s\b", re.I)


def asks_for_list(question: str) -> bool:
    """A question whose answer is several things ('What books...', 'Which cities...', 'all', 'both')."""
    return bool(_LIST.search(question)) and not _COUNT.search(question)


# Idioms whose words are not the words of the fact that answers them, restated in those words:
# "What does Maya do for a living?" is answered by "Maya works as a nurse"; the 'living' of the idiom
# would otherwise match "Maya is living in Graz".
_IDIOMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b(?P<aux>do|does|did)\s+(?P<who>.+?)\s+do\s+(?:for\s+(?:a\s+)?(?:living|work|money)|"
                r"professionally)\b", re.I), r"\g<aux> \g<who> do for work"),
    (re.compile(r"^(?P<lead>\s*what\s+(?:do|does|did))\s+(?P<who>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)"
                r"\s+do\s*\?\s*$", re.I), r"\g<lead> \g<who> do for work?"),
    (re.compile(r"\bline\s+of\s+work\b", re.I), "work"),
]


def restate(question: str) -> str:
    """The question with its idioms in the words of the fact that answers it ('do for a living' -> 'do for work')."""
    for pattern, replacement in _IDIOMS:
        question = pattern.sub(replacement, question)
    return question
