"""The listener's person a line tells of: "Your dad's paying", "your sister starts at the bakery on monday".

A line may open with someone of the listener's life ("your <relative or role>") and tell what they do. It says no
"I" and is no fact of the speaker's own life, so admission rejects it as no personal fact, though it is told as a fact
and a later question may ask it ("Who is paying for the cake?"). ``read`` writes such a clause as what the speaker
says of the listener's person, the person as the line said them with the listener as their owner: "Noor says Ivo's
dad is paying".

Only when it is safe:

1. the clause opens (after chat's lead-in) with "your"/"ur" and a relative, pet or role (``person.GENDER``,
   ``roles.ROLES``), not a bare "your man" (a way of saying "that man"), and a verb follows it as its subject's
   ("your dad's paying", "your mum rang", "your sister has booked"), not a possessive ("your dad's garage");
2. the clause guesses, wishes and asks nothing (no "would", "might", "will", "if", "?"), and besides the person says
   nothing of or to the speaker or the listener (any other "your" is the same person's: "so it's your dad's money")
   and says enough (``described.says_enough``, ``MIN_WORDS`` answer words).

Admission uses it only when nothing else admits the line (``Clause.described``), as ``described`` and ``recalled``.
A he/she that means the listener's person stays no fact (``recalled`` and ``person_clauses`` hold it so).
"""

from __future__ import annotations

import re

from dmem.decisions.offline.circle import Circle
from dmem.decisions.offline.described import Described, says_enough
from dmem.decisions.offline.person import GENDER, LEAD, MODS, Person
from dmem.decisions.offline.roles import ROLES
from dmem.text.verbs import IRREGULAR_PASTS

# Answer words the clause needs besides the person: "your dad's paying" says little, but says it of someone named.
MIN_WORDS = 1
# "your" and a relative, pet or role of the listener's life (a kin word of ``person.GENDER`` or ``roles.ROLES``), its
# head before a 's or a space: "your dad's paying", "your new boss rang". Not "your man" (a way of saying "that man").
_HEADS = "|".join(sorted({*GENDER, *ROLES}, key=len, reverse=True))
_YOUR = re.compile(rf"(?:your|ur)\s+(?P<rest>{MODS}(?P<head>{_HEADS}))(?!\w)", re.I)
_ADVERB = r"(?:(?:just|still|also|already|finally|never|always|actually|now)\s+)?"
# A 's before what makes it "is"/"has" ("your dad's paying", "'s been", "'s back"), not a possessive's noun.
_IS = re.compile(rf"'s\s+{_ADVERB}(?P<w>[a-z]+ing|been|got|gone|done|had|[a-z]{{3,}}ed|back|home|here|off|away|out|"
                 r"fine|better|ok|okay|not)\b", re.I)
# -ing nouns a possessive 's may stand before ("your mum's wedding").
_ING_NOUNS = frozenset(("wedding", "building", "painting", "ring", "thing", "king", "morning", "evening", "ceiling",
                        "feeling", "meeting", "clothing", "pudding", "stuffing", "icing", "earring", "string",
                        "wing", "spring", "swing", "sibling", "darling", "filling", "landing", "booking"))
_PARTICIPLES = re.compile(r"(?:been|got|gone|done|had|[a-z]{3,}ed)$", re.I)
_VERB = re.compile(rf"\s+{_ADVERB}(?:is|was|are|were|has|have|had|isn't|wasn't|hasn't|does|did|doesn't|didn't|can|"
                   rf"says|said|[a-z]{{3,}}ed|[a-z]{{2,}}[^s\W]s|{'|'.join(sorted(IRREGULAR_PASTS))})\b", re.I)
# A guess, a wish, a condition, an impression or what may happen: no fact told ("your mum sounds lovely").
_NOT_TOLD = re.compile(r"\?|\b(?:would|wouldn't|could|might|must|should|may|will|won't|shall|if|unless|probably|"
                       r"maybe|perhaps|bet|hope|guess|wish|reckon|(?:look|sound|seem)(?:s|ed)?)\b|'ll\b|'d\b", re.I)


def _subject_end(text: str, end: int) -> tuple[int, str] | None:
    """Where the verb after the person starts and how it is written ('is', 'has' for a 's, '' as it stands)."""
    if m := _IS.match(text, end):
        word = m["w"].lower()
        after = text[m.end():]
        if word in _ING_NOUNS or re.match(r"\s+(?:is|was|has|'s)\b", after, re.I):
            return None  # "your mum's wedding is on saturday": a possessive's noun
        return end + 2, " has" if _PARTICIPLES.fullmatch(word) else " is"
    if _VERB.match(text, end):
        return end, ""
    return None


def read(text: str, circle: Circle) -> Described | None:
    """``text`` (a clause of the circle's message) as what the speaker says of the listener's person it opens with."""
    listener, speaker = circle.listener, circle.message.speaker
    if not listener or _NOT_TOLD.search(re.sub(r'"[^"]*"|“[^”]*”', "", text)):  # a quote's "if" is theirs
        return None
    lead = LEAD.match(text)
    start = lead.end() if lead else 0
    role = _YOUR.match(text, start)
    if role is None or (said := _subject_end(text, role.end())) is None:
        return None
    at, verb = said
    said_as = re.sub(r"\s+", " ", role["rest"])
    key, person = role["head"].lower(), f"{listener}'s {said_as}"
    rest = re.sub(rf"\b(?:your|ur)\s+{re.escape(role['rest'])}\b", person, text[at:], flags=re.I)  # "your dad's"
    if not says_enough(rest, key, MIN_WORDS):
        return None
    return Described(f"{speaker} says {person}{verb}{rest}", Person(key, person, listener, GENDER.get(key, "n")))
