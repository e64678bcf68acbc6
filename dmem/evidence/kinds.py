"""The kind of thing a broad question asks for, and the memories that are instances of it.

"What hobbies does Maya have?" names a category; the memories that answer it each name one
instance ("Maya joined a climbing club") and rarely the category word, so BM25 and the dense
query rank first the lines that repeat the word ("hobbies matter to Maya"). ``asked_kind`` reads
the category a list question names (a plural noun after "what"/"which", or "what kind of X");
``instance_ranking`` ranks the memories closest to that category alone in the embedding space,
leaving out the ones whose own text already says the word (the other signals find those).
A question about what someone likes or prefers ("What does Maya do in her spare time?", "Which films do
Maya and Theo both enjoy?", "What could Maya and Theo do together?") reads as the category of tastes: ``taste_words``
gives the words its instances say ("Theo loves climbing", "Maya is a fan of jazz") for a lexical ranking of their own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.evidence.bm25 import terms
from dmem.store.filters import Hit

_AUX = r"(?:does|do|did|has|have|had|is|are|was|were|might|would|could|can|will|should)"
_KIND_OF = re.compile(r"^(?:what|which)\s+(?:kinds?|types?|sorts?)\s+of\s+((?:[\w+-]+\s+){0,2}?[\w+-]+?)\s+" + _AUX
                      + r"\b", re.IGNORECASE)
_PLURAL = re.compile(r"^(?:what|which)\s+((?:[\w+-]+\s+){0,2}?[\w+-]+[^su\W]s)\s+" + _AUX + r"\b", re.IGNORECASE)
_ARE = re.compile(r"^(?:what|which)\s+are\s+(?:some\s+of\s+|some\s+)?(?:[A-Z][\w-]*['\u2019]s\s+)?"
                  r"((?:[\w+-]+\s+)?[\w+-]+[^su\W]s)\s*\??$", re.IGNORECASE)
_TASTE = re.compile(r"\b(?:hobby|hobbies|interests?|interested|free\s+time|spare\s+time|pastimes?|enjoy|in\s+common|"
                    r"prefer(?:s|red|ences?)?|rather(?!\s+than))\b", re.IGNORECASE)
"""A question about someone's tastes or preferences ('Would Maya rather ski or skate?'; not 'rather than')."""
_SHARED = re.compile(r"^\W*(?:what|which)\b.*\b(?:together|share[sd]?)\b", re.IGNORECASE)
"""What two people share or could do together: their tastes; but not when, where or how they do a thing together,
nor whether they live together (chosen on RealTalk's tuning half and batches 22-23: RESULTS, h64d)."""
TASTE_WORDS = "love enjoy like favorite favourite fan passion hobby fun play watch"
"""What a line stating a taste says ('Theo loves climbing', 'Maya is a fan of jazz'): the category's members'
words, for BM25 (chosen on RealTalk's tuning half and batch 22, checked on batches 19-21 and LoCoMo's tuning half:
RESULTS, h63h)."""


def asked_kind(question: str) -> str | None:
    """The category a list question asks for ('What hobbies does Maya have?': 'hobbies'), else None.

    Only plural categories (or 'what kind of X'): a question about one thing ('What is Maya's job?',
    'Which city does Theo live in?') asks for a specific fact, which the other signals already rank.
    """
    text = question.strip()
    for pattern in (_KIND_OF, _PLURAL, _ARE):
        found = pattern.search(text)
        if found:
            return found.group(1).lower()
    return None


def taste_words(question: str) -> str | None:
    """``TASTE_WORDS`` for a question about someone's tastes ('What does Maya do in her spare time?'), else None.

    The lines that answer it state one taste each ("Theo loves climbing") and rarely say "interests" or
    "in common", so BM25 over the question alone ranks them far down a long namespace.
    "Together" and "share" read so only in a what/which question ('What could Maya and Theo do together?'):
    'When do Maya and Theo swim together?' asks for an arrangement, 'How many people share the flat?' a count.
    """
    return TASTE_WORDS if _TASTE.search(question) or _SHARED.search(question) else None


def instance_ranking(kind: str, hits: Sequence[Hit], position: dict[str, int]) -> list[int]:
    """Positions of the dense hits for ``kind`` alone, best first, without the memories that say the word."""
    said = set(terms(kind))
    return [position[h.record.id] for h in hits
            if h.record.id in position and not said & set(terms(h.record.text))]

