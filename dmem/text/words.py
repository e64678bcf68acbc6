"""Word lists written as one long string, read as a set; the first, second and third person's words: one home."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType


def wordset(text: str) -> frozenset[str]:
    """A set of the whitespace-separated words of a long lexicon string."""
    return frozenset(text.split())


def alternation(text: str) -> str:
    """The whitespace-separated words of ``text`` as a regex alternation (``a|b|c``), each escaped."""
    return "|".join(re.escape(w) for w in text.split())


def whole_words(text: str) -> re.Pattern[str]:
    """A case-blind pattern finding any of the whitespace-separated words of ``text`` as a whole word."""
    return re.compile(rf"\b(?:{alternation(text)})\b", re.I)


YOU = "you your yours u ur"
"""The listener as subject, object or owner, with chat's "u", "ur" ("you're", "you've" match by "you")."""

SECOND_PERSON = whole_words(f"{YOU} yourself")
"""The listener named anywhere in a clause (admission's opinion and confirmation, replies' question asked)."""

# Variants, each as its stage was tuned (stop 50: every stage on SECOND_PERSON_ASKED | "ya" drafts the same facts
# on the tuning half and batches 1-7; dropping "ya" where it stands changes one):
SECOND_PERSON_ASKED = whole_words(f"{YOU} yourself y'all")  # asked: a question to a group ("y'all in?") asks them too
SECOND_PERSON_CHAT = whole_words(f"{YOU} yourself ya")  # reusable: chat's "ya going monday"; elsewhere ya may be yes
LISTENER_SAID = whole_words(YOU)  # embedded (a subject is never "yourself"), worldline: no reflexive, as tuned
LISTENER_SAID_CHAT = whole_words(f"{YOU} ya")  # register's compliments and ratings: chat's "ya", no reflexive, as tuned

ONES = "one two three four five six seven eight nine"
TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
TENS = "twenty thirty forty fifty sixty seventy eighty ninety"
"""Number words below a hundred: privacy's spelled digits and the offline answerer's spelled numbers."""
SCALES: Mapping[str, int] = MappingProxyType({"hundred": 2, "thousand": 3})
"""The scale words with the zeros each adds ("five hundred" is 5 then 2 zeros): with ``ONES``, ``TEENS`` and ``TENS``
the one number vocabulary, read as values by ``text.spelled_numbers`` and as digit counts by ``privacy.numbers``."""

I_FORMS = "i i'm im i've ive i'd i'll"
"""The speaker as "I", with its contractions in chat's spellings ("im", "ive"): a line's subject said of themselves."""
ME = f"{I_FORMS} me my we our us"
"""The speaker as subject, object or owner, alone or with others ("we", "our"): the first person's words."""
ASKER_SAID = whole_words(ME)  # embedded, terse_asked: a question naming its asker asks about them
FIRST_PERSON = whole_words(f"{ME} mine")  # asked: a reply's first sentence about its speaker

SUBJECT_PRONOUNS: Mapping[str, str] = MappingProxyType({"m": "he", "f": "she", "p": "they"})
"""A third person as a clause's subject, by gender as ``person.GENDER`` spells it ('m', 'f', 'p' for plural):
"he's", "she'll" match by "he", "she" as whole words."""
OBJECT_PRONOUNS: Mapping[str, str] = MappingProxyType({"m": "him", "f": "her", "p": "them"})
"""A third person as an object, by gender ("her" is also a possessive)."""
POSSESSIVE_PRONOUNS: Mapping[str, str] = MappingProxyType({"m": "his", "f": "her hers", "p": "their theirs"})
"""A third person as an owner, before a noun or alone, by gender."""
REFLEXIVE_PRONOUNS: Mapping[str, str] = MappingProxyType({"m": "himself", "f": "herself", "p": "themselves"})
"""A third person as their own object, by gender."""
PRONOUN_KINDS = (SUBJECT_PRONOUNS, OBJECT_PRONOUNS, POSSESSIVE_PRONOUNS, REFLEXIVE_PRONOUNS)
"""Every kind of third-person pronoun: one home for the he/she/they words every reader of a person builds from."""


def third_person(genders: str, *kinds: Mapping[str, str]) -> str:
    """The third-person pronouns of these genders ("mf": he and she) and kinds (default: every kind), one string.

    ``third_person("m")`` is "he him his himself"; ``third_person("mf", SUBJECT_PRONOUNS)`` is "he she".
    """
    words = (w for kind in kinds or PRONOUN_KINDS for g in genders for w in kind[g].split())
    return " ".join(dict.fromkeys(words))  # "her" once, though object and possessive


HE_SHE = third_person("mf", SUBJECT_PRONOUNS)
"""One person as a subject, of a gender a he/she reader can fit: "they" is left out (it may be many, or no one)."""


def gender_of(pronoun: str) -> str:
    """The gender ('m', 'f' or 'p') of a third-person pronoun ("she" -> 'f'); ValueError for any other word."""
    for g in SUBJECT_PRONOUNS:
        if pronoun.lower() in third_person(g).split():
            return g
    raise ValueError(f"not a third-person pronoun: {pronoun!r}")


WHAT_CHAT = "wat wot wut"
"""Chat's spellings of "what" ("doing wat", "wat then"): the question word itself, a closed class."""

WH = "what whats when where who which why how hows"
"""The question words, with chat's "whats", "hows" ("what's", "how's" match by "what", "how" as whole words)."""

# Variants, each as its stage was tuned (stop 51 gave them one home; each drafts what it drafted before):
WH_ANYWHERE = whole_words(f"{WH} whens wheres whos whom whose")  # asked: any of them makes a check ask for more
WH_OPENING = re.compile(rf"^\W*(?:{alternation(WH)})\b", re.I)  # worldline: a short line opening as a question
WH_FOLLOWUP = f"{WH} whatd whose"  # followup: chat's "whatd" ("whatd he say") asks too, and "whose" (whose wedding)
