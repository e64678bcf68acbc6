"""Offline scope classification: USER_PII > INTERNAL > EXTERNAL > GENERIC, by ordered rules.

Privacy wins ties: a fact with personal data (``dmem.privacy.detect``, the detector both engines
share) is USER_PII; one naming a son, a friend, a pet or the user's own organization is INTERNAL,
even when it also names a brand. Which names are public and which are the user's own is
``entities``' call: a named pet, friend or possession is INTERNAL, and a home city is personal
context (GENERIC, like an occupation), never a public entity to look up. Besides the scope, each
fact gets the one entity a lookup may ask about (``None`` when there is nothing to look up).
"""

from __future__ import annotations

import re

from dmem.decisions.offline import rules
from dmem.decisions.offline.entities import sort_names
from dmem.privacy.detect import describe
from dmem.state.schemas import Scope

_FAMILY = tuple(r for r in rules.RELATIONS if r not in {"friend", "friends", "colleague", "colleagues",
                                                         "coworker", "coworkers", "neighbor", "neighbour",
                                                         "mentor", "roommate", "boy", "girl"})
FAMILY_RE = re.compile(rules.words(*_FAMILY, "family", "grandkids", "in-laws"), re.I)
_CIRCLE_RE = re.compile(r"\b(?:friends?|colleagues?|coworkers?|neighbou?rs?|mentor|roommate|classmate|"
                        r"boyfriend|girlfriend|partner|landlord|landlady|doctor|dentist|therapist)\s+"
                        r"(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)")
_PET_RE = re.compile(r"\b(?:(?:my|her|his|their|our|[A-Z][\w-]*'s)\s+(?:new\s+|little\s+|old\s+)?|(?:adopted|got|has|"
                     r"have|rescued)\s+an?\s+(?:new\s+|little\s+)?)(?P<name>" + "|".join(rules.PETS) + r")\b")
_ORG_RE = re.compile(r"\b(?:my|our|[A-Z][\w-]*'s)\s+(?:company|team|office|boss|manager|employer|coworkers?|"
                     r"colleagues?|department|startup|business|firm|organi[sz]ation|workplace)\b")
_MODEL_SUFFIX = r"(?:(?:\s+[A-Z][\w-]*)?\s+(?:\d[\w-]*|[a-z]\d[\w-]*))?"  # 'Tesla Model 3', 'Pixel 8a'


def _internal(text: str, speaker: str | None) -> tuple[str, str] | None:
    """The kind of private entity a fact names and the entity as written, if any."""
    if m := FAMILY_RE.search(text):
        return "family member", m.group(0)
    if m := _CIRCLE_RE.search(text):
        return "person the user knows", m.group("name")
    if m := _PET_RE.search(text):
        return "household pet", m.group("name")
    if m := _ORG_RE.search(text):
        return "own organization", m.group(0).split()[-1]
    names = sort_names(text, speaker)
    if names.own:
        return "the user's own pet, person or possession", names.own[0]
    if names.workplace:
        return "own organization", names.workplace[0]
    return None


def _with_model(text: str, name: str) -> str:
    """The public name with a model number that follows it in the text ('Tesla Model 3')."""
    m = re.search(re.escape(name) + _MODEL_SUFFIX, text)
    return m.group(0) if m else name


def classify(text: str, speaker: str | None) -> tuple[Scope, bool, str, str | None]:
    """Scope, enrich flag, reason, and the entity a lookup may ask about, for one fact."""
    if why := describe(text):
        return Scope.USER_PII, False, f"USER_PII: {why} must never leave the system", None
    if found := _internal(text, speaker):
        kind, private = found
        return Scope.INTERNAL, True, f"INTERNAL: {kind} ('{private}'); other memories may describe them", private
    names = sort_names(text, speaker)
    if names.public:
        public = _with_model(text, max(names.public, key=len))
        return Scope.EXTERNAL, True, f"EXTERNAL: named public entity ('{public}')", public
    if names.home:
        return (Scope.GENERIC, False, f"GENERIC: '{names.home[0]}' is where the user lives or comes from: "
                "personal context, not an entity to look up", None)
    return Scope.GENERIC, False, "GENERIC: no personal data, household/organization or named entity", None
