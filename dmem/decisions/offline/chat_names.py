"""Names a chat writes in lower case, and the name or role a reply gives ("what's it called?", "who's Ilse?").

The reply to "who's Ilse?" may give her role ("my old boss from the bakery"): ``answered_role``.

A chat written all in lower case writes its people so too ("so good. gervase cried during his speech", "oriane told
me something"), so a capital cannot tell a name from any word. A lowercase word is read as a name only where a
person stands: opening a clause before a verb only people do or news only a person has ("odile got the job!!",
"alaric called me", "pim says hi"), after "me and", asked after ("how's ewald taking it?", "how's silvan btw", "who's
tomek", "what about jago, is he ..."), or given to a role with a he/she after it ("owner's called gulliver. he
replied"); the words that stand there and are no one ("everyone", "work") or a role ("vet says ...": ``roles`` reads
it) are left out. A word shouted in capitals ("called ME") does not make a line one that writes its names with
capitals. ``named_people`` makes them people.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from dmem.decisions.offline import register, rules
from dmem.decisions.offline.roles import ROLES, role_phrases
from dmem.text.words import wordset

# Verbs of what someone does to the speaker ("told me"), and of what only people do at all ("cried").
_TO_SPEAKER_VERBS = "told|texted|messaged|emailed|rang|asked|thanked|invited"
# "says"/"said": what someone reports ("pim says hi", "jago says he'll help"); "called me": a phone call ("alaric
# called ME"), not a name given.
_PERSON_VERB = rf"(?:{_TO_SPEAKER_VERBS}|called\s+(?i:me|us)\b|cried|laughed|promised|decided|confided|says|said)"
# News only a person has: a job, an engagement, a move, a baby ("odile got the job!!", "bram is moving to leeds").
_PERSON_NEWS = (r"(?:got\s+(?:the\s+job|a\s+new\s+job|engaged|married|promoted|fired|in|into)|gets\s+married|"
                r"is\s+(?:moving|pregnant|engaged|getting\s+married)|had\s+(?:a|the|her|his)\s+baby|"
                r"moved\s+(?:to|in|out|back|away)|quit\s+(?:her|his)\b|graduated|passed\s+(?:her|his))")
# What a person's name stands before: a verb only people do or news only a person has ("just got the job").
_AS_PERSON = rf"\s+(?:just\s+|finally\s+|also\s+)?(?:{_PERSON_VERB}\b|{_PERSON_NEWS})"
_LOWER_NAME = re.compile(r"(?:^|[.!?]\s+|,\s+|\s(?=(?:and|but)\s))"
                         r"(?:(?:oh|and|but|so|also|plus|well|yeah|ya)\b[,!.]?\s+)*(?P<a>[a-z]{3,})"
                         rf"(?={_AS_PERSON})"
                         r"|\bhow(?:'s|s|\s+is)\s+(?P<b>[a-z]{3,})(?=\s+(?:taking|doing|getting\s+on|feeling|coping|btw)\b"
                         r"|\W*$)"
                         r"|\b(?:me|i)\s+and\s+(?P<c>[a-z]{3,})\b|\bwho(?:'s|s|\s+is)\s+(?P<d>[a-z]{3,})\W*$"
                         r"|\b(?:what|how)\s+about\s+(?P<e>[a-z]{3,}),?\s+(?=(?:is|was|does|did|has|will|can)\s+(?:he|she)\b)"
                         r"|\b[a-z]+(?:'s|\s+is)\s+called\s+(?P<f>[a-z]{3,})(?=[.!?,]\s+(?:he|she)\b)")
# "did you tell elspeth", "have u asked gus yet": the listener asked whether they told or asked someone, by a name
# ending the line (chat leaves it lowercase even where it writes capitals): a person the listener knows.
_TOLD_ASKED = re.compile(r"^\W*(?:(?:and|so|also|oh|ok|btw)\b[,!.]?\s+)*(?i:did|have|has)\s+(?i:you|u)\s+"
                         r"(?:(?:already|actually|ever)\s+)?(?:tell|told|ask|asked|call|called|text|texted|ring|rang)\s+"
                         r"(?P<g>[a-z]{3,})(?:\s+(?:yet|already|btw))?\W*$")
# "how was casimir": asks after someone or something; the reply's he/she shows which (``asked_how_was``).
_HOW_WAS = re.compile(r"^\W*(?:(?:and|so|also|oh|ok|btw)\b[,!.]?\s+)*how\s+was\s+(?P<x>[a-z]{3,})(?:\s+btw)?\W*$")
# Who did something to the speaker ("told me", "texted us") is someone of their life, whatever their gender; one who
# only cried or laughed may be anyone ("marvello cried on stage"), a person of theirs only when the line gives a gender.
_ACTS_ON_SPEAKER = re.compile(rf"\s+(?:just\s+|finally\s+|also\s+)?(?:{_TO_SPEAKER_VERBS}|called)\s+(?:me|us)\b", re.I)
# "what's it called?", "what's his name?", "what's the dog called?": a one-word reply names them.
_NAME_ASKED = re.compile(r"\bwhat(?:'s|s|\s+is|\s+was)\s+(?:(?P<g>it|he|she|his|her|its|their)\s+)?"
                         r"(?:(?:called|name)\b|(?:the\s+|your\s+|ur\s+)?(?P<noun>\w+)(?:'s\s+name|\s+called)\b)", re.I)
# Who a "what's the X called?" asks the name of: a pet, a relation, a role. "the band", "the song" are no one.
_SOMEONE_PETS = (*rules.PETS, "terrier", "tortoise", "rabbit", "parrot", "hamster", "horse", "budgie", "goldfish")
_SOMEONE = frozenset((*_SOMEONE_PETS, *rules.RELATIONS, *ROLES, "baby"))
PET_NEAR_TURNS = 3  # lines before "what's it called?" searched for the pet it asks the name of
_PET_WORD = re.compile(r"\b(?:" + "|".join(_SOMEONE_PETS) + r")s?\b", re.I)
# "who's Ilse?", "whos tomek", "who is Ilse again?", "Ilse??": the other asks who someone just named is.
_WHO_ASKED = re.compile(r"^\W*(?:(?:sorry|wait|um+|hm+|and|but|so|o+h+|ah+|ok|okay|lol|haha)\W+)?"
                        r"(?:who(?:'s|s|\s+is|\s+was)\s+(?P<a>[A-Za-z]{3,})(?:\s+again)?\W*"
                        r"|(?-i:(?P<b>[A-Z][a-z]{2,}))\s*\?+\s*)$", re.I)
# What may stand before the role in the reply: a reaction, the name echoed, or "she's" ("Ilse? my old boss").
_ROLE_LEAD = r"^\W*(?:(?:oh|ah|haha|lol|ha)\b\W*)?(?:{name}\s*[?!,.:-]+\s*)?(?:(?:he|she)(?:'s|\s+is|\s+was)\s+)?"
# Someone else's role ("romilly's nephew"): the owner's name and its 's.
_NAMED_OWNER = re.compile(r"^(?P<owner>[A-Za-z]{3,})'s\s+")
# What may follow the role: where they are from, how long, what they are to the speaker, no clause of its own
# ("from the bakery", "for three years now", ", the one with the van", "apparently"); not "my boss, she's stressed".
_ROLE_TAIL = re.compile(r"^(?:,?\s+(?:from|at|in|on|with|of|for|back\s+in|down|up|across|next|the\s+one)\b"
                        r"(?![^,]*\b(?:i|i'm|he|she|he's|she's|we|they|you|u)\b)[\w\s'-]*?)?"
                        r"(?:,?\s+(?:apparently|i\s+think|i\s+guess|now|actually|too))*$", re.I)
_ROLE_NOISE = re.compile(r"(?:\s+(?:lol|lmao|haha\w*|ha|xx?|tbh|obvs?)\b|\s*[^\w\s'-]+)+$", re.I)
# Roles a reply may give with its "my" dropped ("boss", "gf of 8 months"): kin and roles, not "guy" or "lady".
_BARE_ROLES = frozenset((*ROLES, *rules.RELATIONS, "mate"))


@dataclass(frozen=True)
class RoleAnswer:
    """Who a reply to "who's X?" says X is, and to whom."""

    name: str
    """X as the question writes it, capitalized ('Ilse', 'Tomek')."""
    phrase: str
    """The role as the speaker says it, short: 'my old boss', 'my cousin's husband', 'Romilly's nephew'."""
    said: str
    """The role in full, as a statement's object: 'my old boss from the bakery', 'Romilly's nephew, apparently'."""
    given: str
    """The reply's words that give the role, as written after lead words ('boss', 'my flatmate, for three years')."""
    gender: str
    """'m', 'f' or 'n' (either or unknown): from the role's noun or a he/she the reply opens with."""
    owner: str | None
    """Whose the role is when the reply names them ('Romilly'); None when it is the speaker's."""


def answered_role(question: str, reply: str, skip: Collection[str]) -> RoleAnswer | None:
    """The role a ``reply`` to "who's X?" (or a bare "X?") gives X, when the reply's first sentence is that role.

    "who's Ilse?" / "my old boss from the bakery" -> Ilse, 'my old boss'; "Pim?" / "my cousin's husband"; "whos
    pruett" / "boss. nursery boss" ('my' dropped: kin and roles only); "who's conrad?" / "romilly's nephew,
    apparently" (Romilly's). A first sentence that says more than the role, where it places them and how long
    ("my boss, she's stressed") gives none. ``skip``: words that are no name (lowercased).
    """
    asked = _WHO_ASKED.match(re.split(r"(?<=[.!?])\s+", question.strip())[-1])  # its last sentence
    if not asked or (name := asked["a"] or asked["b"]).lower() in skip or name.lower() in _NO_ONE:
        return None
    lead = re.match(_ROLE_LEAD.format(name=re.escape(name)), reply, re.I)
    given = _ROLE_NOISE.sub("", re.split(r"[.!?\n]", reply[lead.end() if lead else 0:], maxsplit=1)[0].strip())
    rest, owner = _standard(given), None
    if (named := _NAMED_OWNER.match(rest)) and named["owner"].lower() not in (*skip, name.lower(), "who"):
        owner = named["owner"][:1].upper() + named["owner"][1:]
        rest = rest[named.end():]
    bare = not re.match(r"(?:my|our)\s", rest, re.I)
    roles = role_phrases(f"my {rest}" if bare else rest, "", None)
    if not roles or roles[0].start != 0 or not roles[0].possessed or (bare and roles[0].key not in _BARE_ROLES):
        return None
    end = roles[0].end - 3 if bare else roles[0].end
    if not _ROLE_TAIL.match(rest[end:]):
        return None
    said = re.search(r"\b(?P<m>he)\b|\b(?P<f>she)\b", lead.group(0) if lead else "", re.I)
    gender = roles[0].gender if not said else "m" if said["m"] else "f"
    phrase, full = roles[0].phrase, f"my {rest}" if bare else rest
    if owner:
        phrase, full = f"{owner}'s {phrase[3:]}", f"{owner}'s {full[3:]}"
    return RoleAnswer(name[:1].upper() + name[1:], phrase, full, given, gender, owner)


def _standard(text: str) -> str:
    """Chat's short forms of a role written out ('gf' -> 'girlfriend')."""
    return register.standard(text) or text


_NO_ONE = wordset("everyone everybody everything someone somebody anyone anybody nobody things life work school uni "
                  "college business")


def writes_capitals(text: str) -> bool:
    """Whether a line writes any capital but a lone "I" or a shouted word ("ME"): such a line writes its names so."""
    return bool(re.search(r"[A-Z]", re.sub(r"\bI\b|\b[A-Z]{2,}\b", "", text)))


def lower_names(text: str, skip: Collection[str]) -> list[tuple[int, str]]:
    """Lowercase words of an all-lowercase line that stand where a person does, with where they start.

    ``skip``: words that are no name (lowercased: common words, the speakers). The one asked if the listener told
    them ("Did you tell elspeth") is read in a line that writes capitals too: the name ends a question to the listener.
    """
    def fit(word: str) -> bool:
        return word not in skip and word not in _NO_ONE and word not in ROLES and not word.endswith("ing")

    told = [(m.start("g"), m["g"]) for m in _TOLD_ASKED.finditer(text) if fit(m["g"])]
    if writes_capitals(text):
        return told  # a line that writes capitals writes its other names so
    out = []
    for m in _LOWER_NAME.finditer(text):
        group = next(g for g in "abcdef" if m[g])
        word = m[group]
        if fit(word):
            out.append((m.start(group), word))
    return sorted({*out, *told})


_NEWS_AFTER = re.compile(_AS_PERSON, re.I)
# A line that only asks after someone, its mark often dropped ("how's silvan btw", "hows tomek doing"): a question
# about the listener's person, however short.
_ASKS_AFTER = re.compile(r"^\W*(?:(?:and|so|also|oh|ok|btw)\b[,!.]?\s+)*how(?:'s|s|\s+is)\s+[a-z]{3,}"
                         r"(?:\s+(?:doing|getting\s+on|feeling|coping|btw|these\s+days))*\W*$")


def asked_how_was(question: str, reply: str, skip: Collection[str]) -> tuple[str, str] | None:
    """The name an all-lowercase "how was X" asks after when the reply goes on of them by he/she, and its gender.

    "how was casimir" / "he's alright. he did the veg station": X is a person, the replier's. Without the reply's
    he/she "how was lunch" asks after an event, so the reply decides.
    """
    asked, told = _HOW_WAS.match(question), re.match(r"\W*(?:(?P<m>he)|she)\b", reply, re.I)
    if not asked or not told or writes_capitals(question) or asked["x"] in skip or asked["x"] in _NO_ONE \
            or asked["x"] in ROLES:
        return None
    return asked["x"], "m" if told["m"] else "f"


def asks_after(text: str) -> bool:
    """Whether an all-lowercase line only asks after someone ("how's silvan btw"), with no question mark needed."""
    return bool(_ASKS_AFTER.match(text)) and not writes_capitals(text)


def person_news(after: str) -> bool:
    """Whether the words after a name bring news only a person has or do what only people do ("got the job")."""
    return bool(_NEWS_AFTER.match(after))


def acts_on_speaker(after: str) -> bool:
    """Whether the words after a name say it did something to the speaker ("told me", "texted us")."""
    return bool(_ACTS_ON_SPEAKER.match(after))


def answered_name(question: str, reply: str, skip: Collection[str],
                  pet_near: Callable[[], bool]) -> tuple[str, str] | None:
    """The name a one-word ``reply`` to "what's it called?" or "what's her name?" gives, and its gender.

    Gender: 'm', 'f' or 'n' (either, as "it" asks). ``skip``: words that are no name (lowercased). ``pet_near``:
    whether the lines before the question speak of a pet (without one, "what's it called?" may ask after a song or
    an app); called only for such an "it" question, so most replies read no line before.
    """
    asked = _NAME_ASKED.search(question)
    word = re.fullmatch(r"\W*(?P<w>[A-Za-z]{3,})\W*", reply)
    if not asked or not word or word["w"].lower() in skip or word["w"].lower() in _NO_ONE:
        return None
    if asked["noun"] and asked["noun"].lower() not in _SOMEONE:
        return None
    if not asked["noun"] and asked["g"] in (None, "it", "its", "their", "It", "Its", "Their") and not pet_near():
        return None
    pronoun = (asked["g"] or "").lower()
    gender = "m" if pronoun in ("he", "his") else "f" if pronoun in ("she", "her") else "n"
    return word["w"], gender


def pet_named(text: str) -> bool:
    """Whether a line speaks of a pet by its kind ("she got a dog", "a rescue terrier")."""
    return bool(_PET_WORD.search(text))
