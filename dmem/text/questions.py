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
