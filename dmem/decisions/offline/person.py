"""A person or pet a chat line names, and the words every reader of people shares.

``Person`` is someone a line names with whose they are; ``fits`` says whether a he/she can mean them. The kin words
with their genders, the words that are no one (``NOT_NAMES``), chat's lead-in (``LEAD``), what may follow a clause's
subject and an object him/her are read alike by ``name_readers``, ``named_people``, ``known_people`` and the clause
reading of ``person_clauses``.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from dmem.decisions.offline import rules
from dmem.decisions.offline.entities import BRANDS, PLACES
from dmem.grounding.deixis import MONTHS, WEEKDAYS
from dmem.text.lexical import STOPWORDS
from dmem.text.words import alternation, wordset

_MUM = (*rules.MUMS, "mama", "nana")  # "mama", "nana": kin after my/your/our or a name's, no role ("the nana")
_DAD = ("papa", "grandad", "granddad")
GENDER = {**{r: "m" for r in (*rules.MALE, *_DAD)}, **{r: "f" for r in (*rules.FEMALE, *_MUM)},
          **{r: "n" for r in (*rules.NEUTRAL, *rules.PETS)}, **{r: "p" for r in rules.PLURAL}, "bf": "m", "gf": "f"}
KIN = "|".join(sorted(GENDER, key=len, reverse=True))
MODS = r"(?:(?:new|little|big|older|younger|baby|best|old|twin|step|late)\s+)?"
NAME = r"(?-i:[A-Z][a-z]+)"
# Chat words that open a line capitalised and are no one: greetings, reactions, "Tell", "Let's" (a suggestion).
NOT_NAMES = (wordset(" ".join(m.lower() for m in MONTHS)) | set(WEEKDAYS) | STOPWORDS | rules.INTERJECTIONS
              | frozenset(GENDER) | {p.lower() for p in (*PLACES, *BRANDS)}
              | wordset("ok okay lol haha omg yes yeah no hey hi hello thanks sorry also and but so oh wow "
                        "tell random unrelated honestly anyway ha aww yay nope god let"))
LEAD = re.compile(r"^(?P<lead>(?:(?:oh|and|but|so|yeah|ya|yes|lol|haha|ok|okay|well|also|plus|honestly)\b[,!.]?\s+)*)",
                   re.I)
# What follows a word that may stand as a clause's subject, read loosely (case-sensitive): a 's of any kind, an
# auxiliary, a common verb or any -ed word. A sentence-start capital before one may be a name ("Vasquelin first
# painted"), a role before one may be someone ("the vet says"); a capital that may be anyone leaves a he/she unread.
# ``person_clauses._IS_SUBJECT`` is the strict reading, for a known person's name whose clause it writes out.
MAY_BE_SUBJECT = re.compile(r"(?:'s|\s+(?:\w+ly\s+|just\s+|first\s+|still\s+|also\s+)?"
                            r"(?:[a-z]+ed|is|was|has|had|says|said|told|wants|thinks|loves|did|does|will|can|would))\b")
# What may follow a him/her that is an object ("told her", "gave him a lift", "took her home tonight"): the end, a
# mark, a preposition, article, particle or time; a noun makes "her" a possessive ("her keys"). One list for every
# reader of an object pronoun (``named_people._acts_on_another``, the object ``person_clauses`` writes out).
_AFTER_OBJECT = alternation("to for at in on with about a an the some back home up out off over round around today "
                            "yesterday tonight tomorrow again too so and but now there this every all")
OBJECT_PRONOUN = re.compile(rf"\b(?P<p>him|her)(?=\s*(?:[.,!?;:]|$|\s+(?:{_AFTER_OBJECT})\b))", re.I)
"""A him or her that is an object: its follower is in ``_AFTER_OBJECT``."""
# A capitalised word of three letters or more, Latin-1 letters too ("Tomé", "Élise"), or before a 's; not a
# contraction's head ("Didn't", "Couldn't").
_CAPITAL = re.compile(r"(?<![\w'\u2019])(?P<n>[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]{2,})(?!\w|['\u2019](?![sS]\b))")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")
_OWNERS = re.compile(r"['\u2019][sS]\b")


def capitalised(text: str, speakers: Collection[str] = (), *, starts: bool = True,
                no_one: Collection[str] = NOT_NAMES) -> list[re.Match[str]]:
    """The capitalised words of ``text`` that may name someone (group ``n``): the one reader of a name in a line.

    A word in ``no_one`` (lowercased; by default ``NOT_NAMES``: months, weekdays, chat words, kin, places, brands)
    or ``speakers`` (the lowercased words of the names a reader leaves out) is none; ``starts=False`` also leaves
    out a sentence's first word, capitalised whatever it is. A word before a 's is a name's owner within a sentence
    ("we fixed Bram's shed"), a word "is" follows at its start ("Painting's a joy"). ``remarked``, ``recalled``,
    ``short_pieces`` and ``pronoun_thread`` read names so, each with what it leaves out.
    """
    found = []
    for m in _CAPITAL.finditer(text):
        key, start = m["n"].lower(), _SENTENCE_START.search(text, 0, m.start())
        if key not in no_one and key not in speakers and not (start and (not starts or _OWNERS.match(text, m.end()))):
            found.append(m)
    return found


NameAt = tuple[int, str, bool]
"""A word of a line that may name a person: where it starts, the word, and whether it surely names one."""


@dataclass(frozen=True)
class Person:
    """Someone (or a pet) a message names, and whose life they belong to."""

    key: str
    """What later mentions match: the name, lowercased, else the relation word ('dad')."""
    phrase: str
    """How the owner would say it: 'my dad', 'my friend Bo', 'Leila'."""
    owner: str | None
    """The speaker whose person it is, or None when the text does not say."""
    gender: str
    """'m', 'f', 'n' (either, or unknown) or 'p' (plural)."""
    turn_id: str | None = None
    """The turn that named them."""
    sure: bool = True
    """Whether the text shows a person: a relation, a gender, 'me and', 'with', or a question about them.
    A bare name ("Harbourview is ...", "Note: ...") is not one, and a pronoun after it is left unread."""


def fits(pronoun: str, person: Person) -> bool:
    """Whether a he/him or she/her can mean ``person`` (a person of either or unknown gender fits both)."""
    return person.gender in ("n", "m" if pronoun.lower() in ("he", "him") else "f")


def opens(text: str, start: int) -> bool:
    """Whether a sentence (or chat's lead-in 'oh', 'lol') opens at ``start``."""
    head = text[:start].rstrip()
    return not head or head[-1] in ".!?" or (start < 40 and bool(LEAD.fullmatch(text[:start])))
