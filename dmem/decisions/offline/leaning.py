"""A piece of a statement that cannot stand alone joins the fact before it from the same message.

A message told in several sentences is split into facts, one per clause. A clause opening with a word
that points back ('It's also her favourite season', 'That was the best part') says little alone: what
it is about is in the sentence before. Each such piece was a memory of its own with the same source
turns as the fact before it; System 1 never shows two memories of the same turns
(``hybrid.distinct_sources``), so it cost the store and served only as another line to rank. It now
joins the fact before it ('; '), keeping its words for search.
"""

from __future__ import annotations

from dmem.decisions.offline import frames
from dmem.state.schemas import Provenance
from dmem.state.verdicts import FactDraft
from dmem.text.lexical import first_word

POINTS_BACK = frozenset({"it", "it's", "its", "this", "that", "these", "those", "they", "they're", "their",
                         "them", "he", "she", "his", "her", "also", "and", "but", "so", "plus", "which", "then"})
"""First words by which a piece points back to the piece before it ('it', 'they', 'also', 'but')."""

JOIN = "; "
"""Between a fact and the piece joined to it (as between replies joined under one question)."""


def points_back(text: str) -> bool:
    """Whether a piece opens with a word that points back to what was said before it."""
    return first_word(text).lower().strip(",.!") in POINTS_BACK


def head(text: str) -> str:
    """A line up to its first piece joined because it points back ('Ivo got a dog; it snores' -> 'Ivo got a dog').

    The fact such pieces lean on, which they dilute when the line is ranked whole; a line with none is its own head.
    """
    parts = text.split(JOIN)
    for n, part in enumerate(parts[1:], start=1):
        if part[:1].islower() and points_back(part):
            return JOIN.join(parts[:n])
    return text


def joined_back(drafts: list[FactDraft], draft: FactDraft) -> bool:
    """Join a statement's fact that points back to the message's fact just before it; False when it stays apart.

    The fact before must be the same speaker's and name every source turn of the piece (the same message,
    perhaps with the question it answers); a question kept as asked is left alone. The joined fact is
    stated when either part was (as replies joined under one question).
    """
    if not drafts or not points_back(draft.text):
        return False
    earlier = drafts[-1]
    if (earlier.speaker != draft.speaker or frames.is_asked(earlier.text)
            or not set(draft.source_turn_ids) <= set(earlier.source_turn_ids)):
        return False
    stated = Provenance.STATED in (earlier.provenance, draft.provenance)
    drafts[-1] = earlier.model_copy(update={
        "text": f"{earlier.text}{JOIN}{draft.text[:1].lower()}{draft.text[1:]}",
        "categories": list(dict.fromkeys([*earlier.categories, *draft.categories])),
        "provenance": Provenance.STATED if stated else earlier.provenance})
    return True
