"""What a question's answer needs: every matching fact (a list, a count, an order of events), or a wider search.

``needs_every_instance`` is for the ledger (deliberation keeps every matching fact); ``needs_wide_retrieval`` for
System 1 (a list, count or both-speaker question gets more memories per namespace, ``retrieval_budget``). Both read
the question's form only, never a particular conversation.
"""

from __future__ import annotations

import re

from dmem.text.questions import _COUNT, _LIST

_ORDER = re.compile(r"\b(?:first|last|earliest|latest|most\s+recent|before|after|earlier|later|order|"
                    r"sequence|since|until|previous|next)\b", re.I)
_BOTH_SPEAKERS = re.compile(r"\b(?:in\s+common|share[ds]?|sharing|both|together|each\s+other|one\s+another)\b",
                            re.I)
"""A question about what two people share or do for each other ("Which hobby has Pavel in common with Ines?")."""


def needs_every_instance(question: str) -> bool:
    """A list, count or ordering question: its answer needs every matching fact, not only the best ones."""
    return bool(_COUNT.search(question) or _ORDER.search(question) or _LIST.search(question))


def needs_wide_retrieval(question: str) -> bool:
    """A list or count question, or one about what two people share: its evidence is many turns.

    Such a question's evidence is spread over many turns (each instance, or both speakers' sides of a topic), so
    System 1's K, sized for a question about one fact, cuts off part of it. An ordering question ('What did Theo
    do after the race?') asks for one fact placed in time: a wider K found no more of its evidence (RESULTS, h62b).
    """
    return bool(_COUNT.search(question) or _LIST.search(question) or _BOTH_SPEAKERS.search(question))


def retrieval_budget(question: str, top_k: int, wide_factor: float) -> int:
    """Memories per namespace System 1 retrieves for ``question``: ``top_k``, times ``wide_factor`` for a wide one.

    A factor of 1 gives every question the same K (the papers' top-K).
    """
    if wide_factor == 1.0 or not needs_wide_retrieval(question):
        return top_k
    return max(top_k, int(top_k * wide_factor + 0.5))  # half up: 7 x 1.5 gives 11
