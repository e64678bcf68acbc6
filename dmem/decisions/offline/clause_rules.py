"""The admission rules that read a clause's words alone, each verdict naming its rule and quoting what decided it.

A transient state, a hypothetical or a reaction to the listener's news vetoes any admit criterion
(``reject_early``); then the first named admit criterion, a casual taste or a rating of the speaker's own admits
(``admit_criterion``); a clause no criterion claimed is small talk, a reaction, vague or impersonal unless it says
something of the speaker's (``reject_late``). A hedge is kept on an admitted verdict, never a veto (``hedged``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from dmem.decisions.offline import register, rules
from dmem.decisions.offline.clauses import Clause, ClauseVerdict, answer_words, informative_words
from dmem.text.words import SECOND_PERSON

MIN_INFORMATIVE_WORDS = 2  # informative (non-vague) content words a clause needs to count as content
# The admit criterion a clause whose he/she is no one of the speaker's (``Clause.foreign``) meets only by an age.
_CLOSE = "attribute of someone close"
# Answer words an opinion without a first-person word needs ("the lake trail has the best views": 3).
OPINION_MIN_WORDS = 3


def quote(m: re.Match[str]) -> str:
    """The words a pattern found, for a reason's quote: white space folded, no edge punctuation."""
    return " ".join(m.group(0).split()).strip(" ,;:")


def reject_early(text: str) -> ClauseVerdict | None:
    """Transient markers, hypotheticals, compliments and reactions to the listener's news veto any admit criterion."""
    if m := rules.TRANSIENT.search(rules.PRICE_TERM.sub(" ", text)):  # "£800 for the weekend": a price's term
        return ClauseVerdict(False, f"rejected: transient state ('{quote(m)}')", "transient")
    if why := register.unreal(text):
        return ClauseVerdict(False, f"rejected: not a fact about the speaker, {why}", "unreal")
    if (m := rules.LISTENER_REACTION.search(text)) and not rules.FIRST_PERSON.search(text[m.end():]):
        return ClauseVerdict(False, f"rejected: a reaction to the listener's news ('{quote(m)}')", "reaction")
    return None


def hedged(verdict: ClauseVerdict, text: str) -> ClauseVerdict:
    """An admitted clause said with a hedge keeps it as a confidence, not as a reason to reject."""
    if not verdict.admit or not (m := rules.HEDGE.search(text)):
        return verdict
    return replace(verdict, reason=f"{verdict.reason}; hedged ('{quote(m)}'), kept as hedged", hedge=quote(m))


def admit_criterion(clause: Clause) -> ClauseVerdict | None:
    """The first admit criterion the clause meets; then a casual taste, then a rating of the speaker's own."""
    for label, pattern in rules.ADMIT_CRITERIA:
        if clause.foreign and label == _CLOSE and not rules.AGE.search(clause.text):
            continue  # "she has been touring for years" of a singer, "he must be glad" of the listener's dad
        if m := pattern.search(clause.text):
            return ClauseVerdict(True, f"admitted: {label} ('{quote(m)}')", label)
    if m := register.TASTE.search(clause.text):
        return ClauseVerdict(True, f"admitted: taste ('{quote(m)}')", "taste")
    if clause.rated:
        return ClauseVerdict(True, f"admitted: rating of something the speaker had ('{clause.rated}')", "rated")
    return None


def reject_late(text: str) -> ClauseVerdict:
    """Clauses no admit criterion claimed: small talk, reactions, vague or impersonal content."""
    informative = informative_words(text)
    first_person = rules.FIRST_PERSON.search(text)
    if (m := rules.PHATIC.search(text)) and len(informative) < MIN_INFORMATIVE_WORDS + 1:
        return ClauseVerdict(False, f"rejected: phatic ('{quote(m)}')", "phatic")
    if (m := rules.EMOTION.search(text)) and not (first_person and len(informative) > MIN_INFORMATIVE_WORDS):
        return ClauseVerdict(False, f"rejected: generic emotional reaction ('{quote(m)}')", "emotional")
    if len(informative) < MIN_INFORMATIVE_WORDS:
        return ClauseVerdict(False, "rejected: vague content (no specific detail)", "vague")
    if first_person:
        return ClauseVerdict(True, "admitted: first-person statement with reusable content", "first_person")
    if (m := rules.OPINION.search(text)) and not SECOND_PERSON.search(text) \
            and len(answer_words(text)) >= OPINION_MIN_WORDS:
        return ClauseVerdict(True, f"admitted: the speaker's opinion ('{quote(m)}')", "opinion")
    return ClauseVerdict(False, "rejected: no personal fact about the speaker", "impersonal")
