"""The people and pets of a speaker's life, and a clause about one of them though it says no "I".

Chat speaks of the people around the speaker by pronoun or name once the conversation has introduced
them: "Dad was over the moon." then "He keeps showing everyone the bottle you gave him"; "My mother had
an operation" then "My brother is with her". Such a clause is a fact of the speaker's life, but it names no
first person, so admission used to reject it as impersonal or vague.

``mentions`` lists the people a message names, each with whose they are: "my sister", "my cat Pesto",
a capitalized "Dad"/"Mum" (the speaker's), "your dad" (the listener's), a name said with "me and", "with"
or a relation (the speaker's), a name in "you and Sam" or in a question to the listener ("how's Leila's
cup situation?": the listener's). Stored memories add names with their relation ("Idris's friend Bo").
``about`` then reads a clause: a leading he/she binds to the latest person of fitting gender named in the
last ``V_PRONOUN_TURNS`` messages, a leading name to a person known as someone's, and an object him/her
after the subject to the latest other fitting person. Only when that person is the speaker's is the
pronoun written out ("my dad keeps showing everyone ..."), so a he/she meaning the listener's person, a
stranger ("that guy"), or nobody named stays as said and is judged as before.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from dmem.decisions.offline import rules, telegraphic
from dmem.decisions.offline.entities import BRANDS, PLACES
from dmem.grounding.deixis import MONTHS, WEEKDAYS
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import STOPWORDS
from dmem.text.words import wordset

V_PRONOUN_TURNS = 6  # prior messages searched for the person a he/she means
# Prior messages searched when those name no one the he/she fits: a thread's person carries over a short exchange
# about them ("mum's bday thing" ... "tickets for smth" / "she hates crowds"). The ingestion window's
# ``history_messages`` default; chosen on batch 15 and checked on batches 12-14 and the tuning half.
V_PRONOUN_FAR_TURNS = 8
_MUM = ("mum", "mam", "mama", "nan", "nana", "granny", "gran")
_DAD = ("papa", "grandad", "granddad")
_GENDER = {**{r: "m" for r in (*rules.MALE, *_DAD)}, **{r: "f" for r in (*rules.FEMALE, *_MUM)},
           **{r: "n" for r in (*rules.NEUTRAL, *rules.PETS)}, **{r: "p" for r in rules.PLURAL}, "bf": "m", "gf": "f"}
_KIN = "|".join(sorted(_GENDER, key=len, reverse=True))
_MODS = r"(?:(?:new|little|big|older|younger|baby|best|old|twin|step|late)\s+)?"
_NAME = r"(?-i:[A-Z][a-z]+)"
_RELATION = re.compile(rf"\b(?P<own>my|our|your|ur)\s+{_MODS}(?P<rel>{_KIN})\b(?!')"
                       rf"(?:,?\s+(?P<name>{_NAME})\b)?", re.I)
_BARE_KIN = re.compile(r"(?<!\bmy )(?<!\byour )(?<!\bour )\b(?-i:(?P<rel>Dad|Mum|Mom|Mam|Mother|Father|Grandma|"
                       r"Grandpa|Gran|Granny|Nan|Grandad))\b(?!\s+[A-Z])")
# Chat's bare kin noun, lowercase with no determiner ("mum's bday thing", "dad says hi"): the speaker's, as a
# capitalised "Mum" is. A word before it that gives it another owner ("ur mum", "jo's dad", "the mum") rules it out.
_CHAT_KIN = re.compile(r"(?<![\w'])(?-i:(?P<rel>mum|mam|mom|dad|nan|gran|granny|grandma|grandpa|grandad))(?![\w-])")
_OTHER_OWNER = re.compile(r"(?:\b(?:my|our|your|ur|yr|ya|his|her|their|the|a|an|whose|every|some|any|no)|\w's|s')\s+$",
                          re.I)
_WORD = re.compile(r"\b[A-Z][a-z]+\b")
_NOT_NAMES = (wordset(" ".join(m.lower() for m in MONTHS)) | set(WEEKDAYS) | STOPWORDS | rules.INTERJECTIONS
              | frozenset(_GENDER) | {p.lower() for p in (*PLACES, *BRANDS)}
              | wordset("ok okay lol haha omg yes yeah no hey hi hello thanks sorry also and but so oh wow "
                        "tell random unrelated honestly anyway ha aww yay nope god"))
# "Italian cooking class", "Spanish food": a nationality before a noun, not a person.
_ADJECTIVE = re.compile(r"[A-Z][a-z]+(?:ian|ese|ish|ch)\s+(?!(?:is|was|has|had|said|says|will|can|did)\b)"
                        r"[a-z]+\b(?<!s)(?<!ed)")
_PLACE_BEFORE = re.compile(r"\b(?:in|at|to|from|near|on|the|a|an|called|named)\s+$", re.I)
# A name opens a clause as its subject when a finite verb follows it ("Bo's coming Friday", "Sam said").
_SUBJECT_VERB = re.compile(r"^(?:'s\s+(?:been\s+)?\w+ing\b|\s+(?:(?:just|still|also|really|finally|never|always)\s+)?"
                      r"(?:says|said|told|asked|wants|wanted|thinks|thought|loves|loved|hates|cried|laughed|"
                      r"keeps|kept|promised|decided|texted|called|is\s+coming|was\s+coming|did|does|has|had|"
                      r"is|was|will|can)\b)", re.I)
_MINE = re.compile(rf"\b(?:me|i)\s+and\s+(?P<a>{_NAME})|(?P<b>{_NAME})\s+and\s+(?:i|me)\b|\bwith\s+(?P<c>{_NAME})",
                   re.I)
_YOURS = re.compile(rf"\b(?:you|u)\s+and\s+(?P<a>{_NAME})|(?P<b>{_NAME})\s+and\s+(?:you|u)\b", re.I)
_MEMORY_REL = re.compile(rf"\b(?P<owner>{_NAME})'s\s+{_MODS}(?P<rel>{_KIN})\s+(?P<name>{_NAME})\b")
_MEMORY_PAIR = re.compile(rf"^(?P<owner>{_NAME})\s+and\s+(?P<name>{_NAME})\b")
_LEAD = re.compile(r"^(?P<lead>(?:(?:oh|and|but|so|yeah|ya|yes|lol|haha|ok|okay|well|also|plus|honestly)\b[,!.]?\s+)*)",
                   re.I)
_SUBJECT = re.compile(r"(?P<p>he|she)(?P<s>'s)?\b(?=\s+\w)", re.I)
_OBJECT = re.compile(r"\b(?P<p>him|her)(?=\s*(?:[.,!?;]|$|\s+(?:to|for|at|in|on|with|about|today|yesterday|again|"
                     r"too|back|home|up|out|so|and|but|now|there|tonight|tomorrow|this|every|all)\b))", re.I)
# A sentence-start capital followed by a verb may be a name ("Vasquelin first painted"): it leaves a he/she unread.
_VERB_AFTER = re.compile(r"(?:'s|\s+(?:\w+ly\s+|just\s+|first\s+|still\s+|also\s+)?(?:[a-z]+ed|is|was|has|had|"
                         r"says|said|told|wants|thinks|loves|did|does|will|can|would))\b")
_READABLE = re.compile(r"\b(?:he|she|him|her)\b", re.I)
# A participle after "'s" makes it "has" ("she's brought", "he's gone"): regular ones and the common irregular ones.
_HAS = re.compile(r"^\s+(?:been|got|gotten|brought|bought|made|done|had|found|left|lost|told|kept|sent|spent|taught|"
                  r"won|heard|gone|[a-z]+ed|[a-z]+en)\b", re.I)


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


def _fits(pronoun: str, person: Person) -> bool:
    return person.gender in ("n", "m" if pronoun.lower() in ("he", "him") else "f")


def _relations(text: str, speaker: str, listener: str | None, turn_id: str | None) -> list[tuple[int, Person]]:
    found = []
    for m in _RELATION.finditer(text):
        owner = speaker if m["own"].lower() in ("my", "our") else listener
        rel = m["rel"].lower()
        phrase = f"my {rel}" + (f" {m['name']}" if m["name"] else "")
        key = m["name"].lower() if m["name"] else rel
        found.append((m.start(), Person(key, phrase, owner, _GENDER[rel], turn_id)))
    for m in (*_BARE_KIN.finditer(text), *_CHAT_KIN.finditer(text)):
        if m.re is _CHAT_KIN and _OTHER_OWNER.search(text[: m.start()]):
            continue
        rel = m["rel"].lower()
        found.append((m.start(), Person(rel, f"my {rel}", speaker, _GENDER[rel], turn_id)))
    return found


def _opens(text: str, start: int) -> bool:
    """Whether a sentence (or chat's lead-in 'oh', 'lol') opens at ``start``."""
    head = text[:start].rstrip()
    return not head or head[-1] in ".!?" or (start < 40 and bool(_LEAD.fullmatch(text[:start])))


def _names(text: str, speakers: set[str], known: set[str]) -> list[tuple[int, str, bool]]:
    """Capitalized words that may name a person, with whether they surely do.

    One word (a full name is often someone public), not a common word, place, nationality or speaker; at a
    sentence start only surely when the context names it elsewhere (``known``): "Element arrived" is any word.
    """
    out = []
    for m in _WORD.finditer(text):
        word = m.group(0)
        if word.lower() in _NOT_NAMES or word in speakers:
            continue
        near = text[max(0, m.start() - 24): m.start()]  # the words just before it: 'in', 'the', another capital
        after = text[m.end(): m.end() + 40]
        if _PLACE_BEFORE.search(near) or re.search(r"[A-Z][\w'-]*\s+$", near) or re.match(r"\s+[A-Z]", after):
            continue
        if _vocative(text, m.start(), m.end()) or _ADJECTIVE.match(word + after):
            continue
        out.append((m.start(), word, not _opens(text, m.start()) or word.lower() in known))
    return out


def _vocative(text: str, start: int, end: int) -> bool:
    """'Tamsin!', 'How about you, Odile?', 'Jo, guess what': a name said to the listener, not of someone."""
    bounded = _opens(text, start) or text[:start].rstrip().endswith(",")
    return bounded and bool(re.match(r"\s*(?:[,.!?]|$)", text[end:]))


def context_names(texts: Sequence[str]) -> set[str]:
    """Names said inside a sentence somewhere in ``texts`` (lowercased): a sentence-start word is one too."""
    return {w.lower() for t in texts for _, w, sure in _names(t, set(), set()) if sure}


def _gender(text: str, start: int) -> str:
    """A name's gender from the first he/his/him or she/her after it in the same text, else 'n'."""
    m = re.search(r"\b(?P<m>he|his|him)\b|\b(?P<f>she|her)\b", text[start:], re.I)
    return "n" if not m else "m" if m["m"] else "f"


def mentions(message: Message, text: str, listener: str | None, known: dict[str, Person],
             names: Collection[str] = ()) -> list[Person]:
    """The people ``text`` (of ``message``) names, in order, each with its owner where the text says it."""
    speaker, tid = message.speaker, message.turn_id
    # "Dog had surgery this morning": chat's dropped 'my' put back (``telegraphic``) names the speaker's dog
    owned = " ".join(telegraphic.restore_owner(s, (), speaker) for s in rules.SENTENCE_END.split(text))
    found = _relations(owned, speaker, listener, tid)
    claimed = {p.key for _, p in found}
    mine = {n.lower() for m in _MINE.finditer(text) for n in m.groups() if n}
    yours = {n.lower() for m in _YOURS.finditer(text) for n in m.groups() if n}
    asked = asks(text)
    for start, word, named in _names(text, {speaker, *([listener] if listener else [])}, set(known) | set(names)):
        key = word.lower()
        if key in claimed:
            continue
        if not named:  # a capital that may be anyone ("Vasquelin first painted"): a pronoun after it is left unread
            if _VERB_AFTER.match(text[start + len(word):]):
                found.append((start, Person(key, word, None, "n", tid, sure=False)))
            continue
        if key in known and known[key].owner:
            person = replace(known[key], turn_id=tid)
        elif key in yours or (asked and key not in mine):
            person = Person(key, word, listener, _gender(text, start), tid)
        else:
            gender = _gender(text, start)
            person = Person(key, word, speaker, gender, tid, sure=key in mine or gender != "n")
        found.append((start, person))
    return [p for _, p in sorted(found, key=lambda x: x[0])]


def registry(memories: Sequence[str], speakers: set[str]) -> dict[str, Person]:
    """Names the stored memories give an owner: 'Idris's friend Bo' (Bo, Idris's friend), 'Idris and Sam ...'."""
    known: dict[str, Person] = {}
    for memory in memories:
        for m in _MEMORY_REL.finditer(memory):
            if m["owner"] in speakers and m["name"] not in speakers:
                rel = m["rel"].lower()
                known.setdefault(m["name"].lower(), Person(m["name"].lower(), f"my {rel} {m['name']}", m["owner"],
                                                            _GENDER[rel]))
    for memory in memories:  # "Idris and Sam both came": a companion of the speaker's, relation unknown
        for m in _MEMORY_PAIR.finditer(memory):
            if m["owner"] in speakers and m["name"] not in speakers:
                known.setdefault(m["name"].lower(), Person(m["name"].lower(), m["name"], m["owner"], "n"))
    return known


@dataclass(frozen=True)
class About:
    """A clause read as a fact about a person of the speaker's life."""

    text: str
    """The clause with that person written out as the speaker would say it ('my dad keeps ...')."""
    person: Person
    introduced: str | None
    """The earlier turn that named the person, when the clause needs it to be read (a pronoun)."""


def _latest(pronoun: str, people: Sequence[Person], skip: str | None = None) -> Person | None:
    """The latest person the pronoun fits; None when that is a bare name (it may be anyone)."""
    found = next((p for p in reversed(people) if p.key != skip and _fits(pronoun, p)), None)
    return found if found and found.sure else None


def _subject(text: str, speaker: str, people: Sequence[Person], known: dict[str, Person]) -> About | None:
    lead = _LEAD.match(text)
    start = lead.end() if lead else 0
    rest = text[start:]
    if m := _SUBJECT.match(rest):
        person = _latest(m["p"], people)
        if person is None or person.owner != speaker:
            return None
        verb = (" has" if _HAS.match(rest[m.end():]) else " is") if m["s"] else ""
        return About(text[:start] + person.phrase + verb + rest[m.end():], person, person.turn_id)
    word = re.match(r"[A-Za-z]+", rest)
    key = word.group(0).lower() if word else ""
    person = next((p for p in reversed(people) if p.key == key), known.get(key))
    if not word or person is None or not person.sure or person.owner != speaker \
            or not _SUBJECT_VERB.match(rest[word.end():]):
        return None
    tail = rest[word.end():]
    if tail.startswith("'s"):
        tail = (" has" if _HAS.match(tail[2:]) else " is") + tail[2:]
    return About(text[:start] + person.phrase + tail, person, None)


def _object(text: str, speaker: str, people: Sequence[Person], subject: str | None) -> tuple[str, Person] | None:
    m = _OBJECT.search(text)
    if not m or m.start() == 0:
        return None
    person = _latest(m["p"], people, skip=subject)
    if person is None or person.owner != speaker:
        return None
    return text[: m.start()] + person.phrase + text[m.end():], person


class Circle:
    """What the turns before a message say about whose people are whom; read only when a clause needs it."""

    def __init__(self, message: Message, prior: Sequence[Message], listener: str | None,
                 memories: Sequence[str] = ()) -> None:
        self.message, self.listener, self.memories = message, listener, memories
        self.window = prior[-V_PRONOUN_TURNS:]
        self.far = prior[-V_PRONOUN_FAR_TURNS:-V_PRONOUN_TURNS] if len(prior) > V_PRONOUN_TURNS else ()
        self.speakers = {message.speaker, *(m.speaker for m in prior)}

    @cached_property
    def known(self) -> dict[str, Person]:
        """Names the stored memories give a relation and an owner."""
        return registry(self.memories, self.speakers)

    @cached_property
    def names(self) -> frozenset[str]:
        """Names said inside a sentence in the window, the message or the memories."""
        return frozenset(context_names([*(m.text or "" for m in self.window), self.message.text or "",
                                        *self.memories]))

    @cached_property
    def people(self) -> tuple[Person, ...]:
        """The people the last ``V_PRONOUN_TURNS`` turns name, in order, with their owners."""
        return self._named(self.window)

    @cached_property
    def earlier(self) -> tuple[Person, ...]:
        """The people the turns before the window name, up to ``V_PRONOUN_FAR_TURNS`` back."""
        return self._named(self.far)

    def _named(self, turns: Sequence[Message]) -> tuple[Person, ...]:
        people: list[Person] = []
        for m in turns:
            other = self.listener if m.speaker == self.message.speaker else self.message.speaker
            people += mentions(m, m.text or "", other, self.known, self.names)
        return tuple(people)


def _said_near(pronoun: str, texts: Sequence[str]) -> bool:
    """Whether the near lines already speak of someone by the pronoun's gender ("he got stung").

    Whoever that is, the thread's person is not one named further back.
    """
    said = r"\b(?:he|him|his)\b" if pronoun.lower() == "he" else r"\b(?:she|her|hers)\b"
    return any(re.search(said, t, re.I) for t in texts)


def read(text: str, circle: Circle, before: str = "") -> tuple[About | None, bool]:
    """``text`` (a clause of the circle's message) as a fact about a person of the speaker's life, or None.

    And whether it opens with a he/she that means someone else's person or nobody named ("he must be glad
    it's over" after the listener's "my dad had his hip done"). ``before``: the message's text before the
    clause (it may name the person).
    """
    speaker = circle.message.speaker
    lead = _LEAD.match(text)
    first = re.match(r"[A-Za-z]+", text[lead.end() if lead else 0:])
    opening = first.group(0) if first else ""
    if not _READABLE.search(text) and not (opening[:1].isupper() and opening.lower() not in _NOT_NAMES
                                           or opening.lower() in circle.known):
        return None, False  # no pronoun to read and no name opening it: nothing to look up
    known = circle.known
    people = [*circle.people, *mentions(circle.message, before, circle.listener, known, circle.names)]
    pronoun = _SUBJECT.match(text[lead.end() if lead else 0:])
    if pronoun and not any(_fits(pronoun["p"], p) for p in people) \
            and not _said_near(pronoun["p"], [*(m.text or "" for m in circle.window), before]):
        # no one near fits: the thread's person from a little further back, when only one fits there
        farther = [p for p in circle.earlier if _fits(pronoun["p"], p)]
        people = [*farther, *people] if len({p.key for p in farther}) == 1 else people
    if found := _subject(text, speaker, people, known):
        return found, False
    if pronoun:
        fit = next((p for p in reversed(people) if _fits(pronoun["p"], p)), None)
        return None, fit is None or (fit.sure and fit.owner != speaker)
    own = re.match(r"^\W*(?:my|our)\s+(\w+)", text, re.I)
    # "My brother is with her": the speaker's own person is the subject, the pronoun after it one to read
    if own and (obj := _object(text, speaker, people, own[1].lower())):
        return About(obj[0], obj[1], obj[1].turn_id), False
    return None, False
