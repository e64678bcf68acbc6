"""Whether a question needs every matching fact (a list, a count or an order of events), for the ledger."""

from __future__ import annotations

import re

from dmem.text.questions import _COUNT, _LIST

_ORDER = re.compile(r"\b(?:first|last|earliest|latest|most\s+recent|before|after|earlier|later|order|"
                    r"sequence|since|until|previous|next)\b", re.I)


def needs_every_instance(question: str) -> bool:
    """A list, count or ordering question: its answer needs every matching fact, not only the best ones."""
    return bool(_COUNT.search(question) or _ORDER.search(question) or _LIST.search(question))
