"""Someone a line names by role rather than by name: "my neighbour's kid", "our new intern", "the lady downstairs".

Such a noun phrase is a person a later he/she can mean, just as "my sister" is: "My neighbour's kid is helping.
She's nine and bossy" is about the kid, not about a mum named a few lines before. ``role_phrases`` finds them with
whose they are. A role that places someone in the speaker's life ("the intern", "the lady next door") is the
speaker's, as "my" makes it; a bare "a guy", "that woman", "the mum at the gate" is a stranger: no one's, so a
pronoun that means them is no fact of the speaker's life, and it still stops the pronoun from reaching back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dmem.decisions.offline import rules

# Nouns that name a person only by who they are to someone, at work or at home. A closed class kept short on
# purpose: the common roles of everyday talk; agent nouns by suffix (-er, -or) catch too many things ("the order").
ROLES = ("intern", "boss", "manager", "supervisor", "colleague", "coworker", "neighbour", "neighbor", "landlord",
         "landlady", "tenant", "flatmate", "housemate", "roommate", "teacher", "tutor", "coach", "trainer",
         "doctor", "dentist", "nurse", "vet", "therapist", "midwife", "plumber", "builder", "electrician",
         "mechanic", "cleaner", "nanny", "babysitter", "childminder", "hairdresser", "barber", "postman",
         "postwoman", "student", "pupil", "apprentice", "trainee", "assistant", "receptionist", "mentor")
# Nouns that name any person (and the speaker's kin and pets): someone's only when "my"/"your" says so.
_GENERIC = ("man", "woman", "lady", "guy", "bloke", "lad", "person", "mate", *rules.MALE, *rules.FEMALE,
            *rules.NEUTRAL, *rules.PETS, *rules.MUMS)
_GENDER = {**{w: "m" for w in (*rules.MALE, "man", "guy", "bloke", "lad", "landlord", "postman")},
           **{w: "f" for w in (*rules.FEMALE, "woman", "lady", "landlady", "postwoman", *rules.MUMS)}}
_PLURAL = frozenset(w for w in (*rules.PLURAL, *rules.PETS) if w.endswith("s"))
_HEADS = "|".join(sorted({*ROLES, *_GENERIC} - _PLURAL, key=len, reverse=True))
# Where someone lives or works relative to the speaker: it places a generic "the lady" in the speaker's life.
_PLACED = r"downstairs|upstairs|next\s+door|across\s+the\s+(?:road|street|hall|landing)|down\s+the\s+(?:road|street)"
_ROLE = re.compile(rf"\b(?P<det>my|our|your|ur|the|a|an|this|that)\s+(?P<rest>(?:[a-z]+'s\s+)*"
                   rf"(?:(?:new|old|little|big|older|younger|baby|best|twin|step|other|nice|young)\s+)?"
                   rf"(?P<head>{_HEADS})(?![\w'])(?:\s+(?P<where>{_PLACED})\b)?)", re.I)


@dataclass(frozen=True)
class Role:
    """A person a noun phrase names by role, where it starts, and whose they are."""

    start: int
    end: int
    key: str
    """The head noun, lowercased ('kid', 'intern'): what a later mention of them matches."""
    phrase: str
    """How their owner would say it ('my neighbour's kid', 'the lady downstairs')."""
    owner: str | None
    gender: str
    """'m', 'f' or 'n' (either or unknown)."""
    possessed: bool
    """Whether a my/our/your says whose they are: then they are someone wherever they stand, as "my sister" is;
    "the vet", "a guy" only where they open a clause ("the vet says ..."), not in passing ("took him to the vet")."""


def role_phrases(text: str, speaker: str, listener: str | None) -> list[Role]:
    """The people ``text`` (said by ``speaker``) names by role, in order, each with its owner or None."""
    found = []
    for m in _ROLE.finditer(text):
        det, head = m["det"].lower(), m["head"].lower()
        rest = re.sub(r"\s+", " ", m["rest"])
        possessed = det in ("my", "our", "your", "ur")
        if possessed:
            owner, phrase = (speaker if det in ("my", "our") else listener), f"my {rest}"
        elif det == "the" and (head in ROLES or m["where"]):
            owner, phrase = speaker, f"the {rest}"
        else:
            owner, phrase = None, f"{det} {rest}"
        found.append(Role(m.start(), m.end(), head, phrase, owner, _GENDER.get(head, "n"), possessed))
    return found
