"""Drafts of one exchange that another draft of the same turn already says: written once, their turns kept.

A turn is cut into clauses and framed in more than one way, so one exchange can draft a fact twice: a short clause
and a longer one holding all its words ('Ines has 4 weeks' and 'Ines has 4 weeks and no flat'), or two replies to
one question where one repeats the other. The lifecycle compares a fact only with stored memories, never with the
other facts of its own exchange, so both were stored. A draft whose words (without its speaker's name) are all
said by another draft of the same speaker sharing one of its source turns is dropped, and its source turns and
categories join the draft that says it: formation is counted by source turns, and a turn that formed the dropped
draft still sources the one kept.

What a framed line says is its saying (``frames.said``), not the question or earlier line it quotes: a plain fact
is never folded into a frame that only quotes its words ('Brannigan is Noor's boss' beside 'Noor answered Ivo's
question "who's Brannigan?": bakery boss' stays, the fact is the role), and a framed line only into one of the same
frame, where the quote is shared and the sayings are compared. A fact inferred in passing ('Sam has a son' beside
'Sam looked for gift ideas for Sam's son') is kept: it is written apart on purpose, as the person's own fact,
and so is a fact of another kind (no category shared: 'Maya is vegetarian' and the rule it sets, 'Assistant should
suggest vegetarian restaurants for Maya').
"""

from __future__ import annotations

from dmem.decisions.offline import frames
from dmem.state.schemas import Provenance
from dmem.state.verdicts import FactDraft
from dmem.text.lexical import content_stems


def _said(draft: FactDraft) -> frozenset[str]:
    """The content stems of what a draft says (a framed line's saying), without its speaker's name."""
    return frozenset(content_stems(frames.said(draft.text))) - frozenset(content_stems(draft.speaker or ""))


def _frame(draft: FactDraft) -> str | None:
    """A framed draft's frame (fixed words, names and quote); None for a plain line."""
    return f.frame if (f := frames.framed(draft.text)) else None


def _holds(holder: FactDraft, held: FactDraft, words: frozenset[str], holder_words: frozenset[str]) -> bool:
    """Whether ``holder`` says every word ``held`` says, of the same speaker, turn, kind and frame.

    Same speaker, a shared source turn, a shared category (a preference and the rule it sets for the assistant are
    two facts), and a frame the held line may join.
    """
    if held.provenance == Provenance.INFERRED or holder.speaker != held.speaker \
            or not set(holder.source_turn_ids) & set(held.source_turn_ids) \
            or (held.categories and holder.categories and not set(held.categories) & set(holder.categories)):
        return False
    frame = _frame(held)
    return (frame is None or frame == _frame(holder)) and words <= holder_words


def said_once(drafts: list[FactDraft]) -> list[FactDraft]:
    """The drafts without those another draft of theirs already says, whose source turns and categories it takes.

    Most words first, so a draft is only ever folded into one that is kept; the drafts' order is kept.
    """
    said = [_said(d) for d in drafts]
    kept: dict[int, FactDraft] = {}
    for i in sorted(range(len(drafts)), key=lambda k: -len(said[k])):
        mine = drafts[i]
        holder = next((j for j in kept if _holds(drafts[j], mine, said[i], said[j])), None) if said[i] else None
        if holder is None:
            kept[i] = mine
            continue
        kept[holder] = kept[holder].model_copy(update={
            "source_turn_ids": list(dict.fromkeys([*kept[holder].source_turn_ids, *mine.source_turn_ids])),
            "categories": list(dict.fromkeys([*kept[holder].categories, *mine.categories]))})
    return [kept[i] for i in sorted(kept)]
