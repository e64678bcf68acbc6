"""Someone a line names by role rather than by name: "my neighbour's kid", "our new intern", "the lady downstairs".

Such a noun phrase is a person a later he/she can mean, just as "my sister" is: "My neighbour's kid is helping.
She's nine and bossy" is about the kid, not about a mum named a few lines before. ``role_phrases`` finds them with
whose they are. A role that places someone in the speaker's life ("the intern", "the lady next door") is the
speaker's, as "my" makes it; a bare "a guy", "that woman", "the mum at the gate" is a stranger: no one's, so a
pronoun that means them is no fact of the speaker's life, and it still stops the pronoun from reaching back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from dmem.decisions.offline import rules

# Nouns that name a person only by who they are to someone, at work or at home. A closed class kept short on
# purpose: the common roles of everyday talk; agent nouns by suffix (-er, -or) catch too many things ("the order").
ROLES = ("intern", "boss", "manager", "supervisor", "colleague", "coworker", "neighbour", "neighbor", "landlord",
         "landlady", "tenant", "flatmate", "housemate", "roommate", "teacher", "tutor", "coach", "trainer",
         "doctor", "dentist", "nurse", "vet", "therapist", "midwife", "plumber", "builder", "electrician",
         "mechanic", "cleaner", "nanny", "babysitter", "childminder", "hairdresser", "barber", "postman",
         "postwoman", "student", "pupil", "apprentice", "trainee", "assistant", "receptionist", "mentor")
TRADES = ("roofer", "carer", "instructor", "physio", "consultant", "surgeon", "optician", "gardener", "driver",
          "decorator", "painter", "locksmith", "solicitor", "lawyer", "accountant", "agent", "estate agent", "vicar",
          "priest", "caretaker", "warden", "porter", "chef", "cook", "captain", "engineer", "organiser", "organizer",
          "host", "owner", "keeper", "referee", "inspector", "surveyor", "pharmacist", "optometrist", "social worker")
"""Heads that name someone by what they do for the speaker's household beyond ``ROLES`` ("the roofer came to
quote"), none of them in ``ROLES``: ``recalled`` reads both as people a he/she may mean; ``role_phrases`` reads
``ROLES`` only, as before."""
# Nouns that name any person (and the speaker's kin and pets): someone's only when "my"/"your" says so.
_GENERIC = ("man", "woman", "lady", "guy", "bloke", "lad", "person", "mate", *rules.MALE, *rules.FEMALE,
            *rules.NEUTRAL, *rules.PETS, *rules.MUMS)
_GENDER = {**{w: "m" for w in (*rules.MALE, "man", "guy", "bloke", "lad", "landlord", "postman")},
           **{w: "f" for w in (*rules.FEMALE, "woman", "lady", "landlady", "postwoman", *rules.MUMS)}}
_PLURAL = frozenset(w for w in (*rules.PLURAL, *rules.PETS) if w.endswith("s"))
# Where someone lives or works relative to the speaker: it places a generic "the lady" in the speaker's life.
_PLACED = r"downstairs|upstairs|next\s+door|across\s+the\s+(?:road|street|hall|landing)|down\s+the\s+(?:road|street)"


def phrase_pattern(heads: Iterable[str], determiners: str, before: str, after: str = "") -> re.Pattern[str]:
    """A noun phrase naming someone by one of ``heads``: a determiner, owners ("my neighbour's"), ``before``, the head.

    ``determiners`` and ``before`` (the words a head may have before it) are regex alternatives; ``after`` what
    must follow the head. A match has groups ``det``, ``rest`` (the phrase after its determiner) and ``head``.
    """
    alternatives = "|".join(sorted(heads, key=len, reverse=True))
    return re.compile(rf"\b(?P<det>{determiners})\s+(?P<rest>(?:[a-z]+'s\s+)*{before}(?P<head>{alternatives}){after})",
                      re.I)


_ROLE = phrase_pattern({*ROLES, *_GENERIC} - _PLURAL, "my|our|your|ur|the|a|an|this|that",
                       r"(?:(?:new|old|little|big|older|younger|baby|best|twin|step|other|nice|young)\s+)?",
                       rf"(?![\w'])(?:\s+(?P<where>{_PLACED})\b)?")


@dataclass(frozen=True)
class Phrase:
    """One noun phrase a ``phrase_pattern`` read, as said."""

    start: int
    end: int
    det: str
    """Its determiner, lowercased ('my', 'the')."""
    rest: str
    """The phrase after the determiner, its white space folded ("neighbour's kid")."""
    head: str
    """The head noun, lowercased ('kid')."""
    placed: bool = False
    """Whether a place follows the head ("the lady downstairs")."""


def phrases(pattern: re.Pattern[str], text: str) -> list[Phrase]:
    """The noun phrases ``pattern`` (a ``phrase_pattern``) reads in ``text``, in order."""
    return [Phrase(m.start(), m.end(), m["det"].lower(), re.sub(r"\s+", " ", m["rest"]), m["head"].lower(),
                   bool(m.groupdict().get("where"))) for m in pattern.finditer(text)]


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
    for p in phrases(_ROLE, text):
        possessed = p.det in ("my", "our", "your", "ur")
        if possessed:
            owner, phrase = (speaker if p.det in ("my", "our") else listener), f"my {p.rest}"
        elif p.det == "the" and (p.head in ROLES or p.placed):
            owner, phrase = speaker, f"the {p.rest}"
        else:
            owner, phrase = None, f"{p.det} {p.rest}"
        found.append(Role(p.start, p.end, p.head, phrase, owner, _GENDER.get(p.head, "n"), possessed))
    return found
