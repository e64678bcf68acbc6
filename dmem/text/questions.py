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


_TYPED_WH = r"(?:when|where|who|how\s+(?:many|much|long|old))"
# "When and where did ...?", "Where and when ...?": one body, two question words.
_BOTH = re.compile(rf"^\s*(?P<a>{_TYPED_WH})\s+and\s+(?P<b>{_TYPED_WH})\b(?P<body>.+)$", re.I)
# "When did Ivo sow his beans, and how many?": a question, then a second question word alone, perhaps after a
# preposition ("and from when?", "and for how much?"), asking about the same thing.
_TAIL = re.compile(rf"^\s*(?P<first>(?P<wh>what|which|when|where|who|how(?:\s+(?:many|much|long|old))?)\b"
                   rf"(?P<body>.+?)),?\s+and\s+(?:(?:from|for|since|until|till|at|in|by|to)\s+)?"
                   rf"(?P<second>{_TYPED_WH})\s*\??\s*$", re.I)


def two_questions(question: str) -> tuple[str, str] | None:
    """The two questions a two-part question asks, each whole; None for a question that asks one thing.

    "When and where did Ivo propose?" asks "When did Ivo propose?" and "Where did Ivo propose?"; "How much
    is the rent going up, and from when?" asks "How much is the rent going up?" and "when is the rent going up?".
    """
    if m := _BOTH.match(question):
        body = m["body"].rstrip(" ?")
        return f"{m['a'].capitalize()}{body}?", f"{m['b'].capitalize()}{body}?"
    if (m := _TAIL.match(question)) and m["wh"].split()[0].lower() != m["second"].split()[0].lower():
        return f"{m['first'].rstrip(' ,?')}?", f"{m['second'].capitalize()}{m['body'].rstrip(' ,?')}?"
    return None
