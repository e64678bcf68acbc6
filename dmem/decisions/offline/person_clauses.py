"""A clause about a person or pet of the speaker's life, though it says no "I".

Chat speaks of the people around the speaker by pronoun or name once the conversation has introduced
them: "Dad was over the moon." then "He keeps showing everyone the bottle you gave him"; "My mother had
an operation" then "My brother is with her". Such a clause is a fact of the speaker's life, but it names no
first person, so admission used to reject it as impersonal or vague.

Who the lines before name and whose they are is ``circle``. ``read`` then reads a clause: a leading he/she
binds to the latest person of fitting gender named in the last ``circle.V_PRONOUN_TURNS`` lines, a leading name to a
person known as someone's, and an object him/her after the subject to the latest other fitting person. Only when
that person is the speaker's is the pronoun written out ("my dad keeps showing everyone ..."), so a he/she meaning
the listener's person, a stranger ("that guy"), or nobody named stays as said and is judged as before. A he/she
no one near surely fits is followed back along its thread of lines to the name that opened it (``pronoun_thread``).
A he/she after a short aside or "then" ("good idea, he loves those") reads as a first-word one (``_opening``), and a
bare name, lowercase too, opening a clause before a verb reads as the person the lines before made the speaker's.
A fact of the listener's told them ("you're 31", "you made flashcards") reads as a fact about the listener, with their
name (``listener_facts``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dmem.decisions.offline import listener_facts
from dmem.decisions.offline.circle import Circle
from dmem.decisions.offline.named_people import mentions
from dmem.decisions.offline.person import LEAD, NOT_NAMES, OBJECT_PRONOUN, Person, fits
from dmem.decisions.offline.pronoun_thread import said_near, thread_person

# Prior lines whose people a he/she after an aside may mean: the aside answers the line before ("what's he studying
# again?" / "marine biology, he wants to work with seals"), so its he/she is someone that exchange names, never one
# further back. Chosen on released batches 1-20 (two lines: 2 of 3 wrong readings gone, 3 right ones not made).
ASIDE_TURNS = 2
# What follows a known person's name for the clause to be about them as its subject, so that ``_subject`` writes
# the name out as the speaker's ("Bo said ..." -> "my friend Bo said ..."): a verb of a closed list people do, an
# auxiliary, or a 's before an -ing ("Bo's coming"), never a possessive ("Bo's bike"). Stricter than
# ``person.MAY_BE_SUBJECT``, which only lets a word be someone: a wrong yes here writes a wrong fact.
_IS_SUBJECT = re.compile(r"^(?:'s\s+(?:been\s+)?\w+ing\b|\s+(?:(?:just|still|also|really|finally|never|always)\s+)?"
                         r"(?:says|said|told|asked|wants|wanted|thinks|thought|loves|loved|hates|cried|laughed|"
                         r"keeps|kept|promised|decided|texted|called|is\s+coming|was\s+coming|did|does|has|had|"
                         r"is|was|will|can|got|gets|went|started|starts|moved|finished|bought|sold|found|lost|won|"
                         r"broke|left|passed|graduated|needs)\b)", re.I)
_SUBJECT = re.compile(r"(?P<p>he|she)(?P<s>'s)?\b(?=\s+\w)", re.I)
# A he/she after a short aside or "then" is its clause's subject as a first word is: "good idea, he loves those",
# "a sprained wrist, she was lucky", "and then she left". The aside (up to three words before a comma) is kept in
# the fact. Not after a clause of its own: an aside with a pronoun, a verb ("Caddoc is five, he's ...", "don't
# laugh, he's ...") or a capital inside it says something of someone else.
_NOT_ASIDE = (r"(?!(?i:i|you|u|he|she|it|we|they|him|her|is|was|are|were|am|be|been|do|does|did|has|have|had|can|"
              r"will|would|could|should|says|said|told|texted|called|got)\b)(?![A-Za-z]*(?:n't|'s|'re|'m|'ll|'d)\b)")
_ASIDE = re.compile(rf"(?P<aside>{_NOT_ASIDE}[A-Za-z][a-z]*(?:\s+{_NOT_ASIDE}[a-z]+){{0,2}}\s*,\s+)"
                    r"(?=(?:he|she)\b)|(?P<then>(?i:and\s+)?(?i:then)\s+)(?=(?:he|she)\b)")
# A he/she reporting the aside ("wear and tear, she says", "stubbornness, she calls it"): the aside is what they
# said, and the clause no news of theirs.
_REPORTS = re.compile(r"(?:he|she)\s+(?:says|said|reckons|thinks|calls\s+it|called\s+it)\W*$", re.I)
_READABLE = re.compile(r"\b(?:he|she|him|her)\b", re.I)
# A participle after "'s" makes it "has" ("she's brought", "he's gone"): regular ones and the common irregular ones.
# Not a participle that names a state ("she's called Wren", "he's retired", "she's thrilled"), nor an age in -teen
# ("he's nineteen"): those read "is".
_HAS = re.compile(r"^\s+(?!(?:called|named|married|engaged|divorced|retired|supposed|based|thrilled|excited|pleased|"
                  r"delighted|scared|worried|tired|bored|stressed|exhausted|obsessed|interested|annoyed|amazed|"
                  r"convinced|determined|hooked|allowed|qualified)\b)(?![a-z]*teen\b)"
                  r"(?:been|got|gotten|brought|bought|made|done|had|found|left|lost|told|kept|sent|spent|taught|"
                  r"won|heard|gone|[a-z]+ed|[a-z]+en)\b", re.I)



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
    found = next((p for p in reversed(people) if p.key != skip and fits(pronoun, p)), None)
    return found if found and found.sure else None


def _aside(text: str) -> tuple[int, re.Match[str] | None]:
    """Where the clause starts past chat's lead-in, and the short aside or "then" before its he/she (``_ASIDE``).

    None when there is none, or when the he/she only reports the aside ("wear and tear, she says": ``_REPORTS``).
    """
    lead = LEAD.match(text)
    start = lead.end() if lead else 0
    aside = _ASIDE.match(text, start)
    return start, None if aside is None or _REPORTS.match(text, aside.end()) else aside


def _opening(text: str) -> tuple[str, int]:
    """What a clause keeps before its subject (chat's lead-in, a short aside), and where the subject starts.

    A short aside or "then" before a he/she ("good idea, he loves those") is kept, and the he/she after it read
    (``_aside``); "then" is left out ("and then she left": "my aunt left").
    """
    start, aside = _aside(text)
    if aside is None:
        return text[:start], start
    return (text[:aside.end()] if aside["aside"] else text[:start]), aside.end()


def _after_aside(text: str) -> bool:
    """Whether the clause's he/she comes after a short aside ("good idea, he loves those"), not after "then"."""
    aside = _aside(text)[1]
    return aside is not None and bool(aside["aside"])


def _subject(text: str, speaker: str, people: Sequence[Person], known: dict[str, Person]) -> About | None:
    kept, start = _opening(text)
    rest = text[start:]
    if m := _SUBJECT.match(rest):
        person = _latest(m["p"], people)
        if person is None or person.owner != speaker:
            return None
        verb = (" has" if _HAS.match(rest[m.end():]) else " is") if m["s"] else ""
        return About(kept + person.phrase + verb + rest[m.end():], person, person.turn_id)
    lead = LEAD.match(text)
    start = lead.end() if lead else 0
    rest = text[start:]
    word = re.match(r"[A-Za-z]+", rest)
    key = word.group(0).lower() if word else ""
    person = next((p for p in reversed(people) if p.key == key), known.get(key))
    if not word or person is None or not person.sure or person.owner != speaker \
            or not _IS_SUBJECT.match(rest[word.end():]):
        return None
    tail = rest[word.end():]
    if tail.startswith("'s"):
        tail = (" has" if _HAS.match(tail[2:]) else " is") + tail[2:]
    return About(text[:start] + person.phrase + tail, person, None)


def _object(text: str, speaker: str, people: Sequence[Person], subject: str | None) -> tuple[str, Person] | None:
    m = OBJECT_PRONOUN.search(text)
    if not m or m.start() == 0:
        return None
    person = _latest(m["p"], people, skip=subject)
    if person is None or person.owner != speaker:
        return None
    return text[: m.start()] + person.phrase + text[m.end():], person


def _threaded(pronoun: str, circle: Circle, people: list[Person]) -> list[Person]:
    """``people`` widened along the he/she's thread when no one near fits ``pronoun`` surely.

    No one near fits and the listener's lines near do not use it: the one person a little further back it fits
    (``circle.earlier``) goes first; no one near surely fits: the person that opened its thread
    (``pronoun_thread``) goes last.
    """
    speaker = circle.message.speaker
    if not any(fits(pronoun, p) for p in people) \
            and not said_near(pronoun, [m.text or "" for m in circle.window if m.speaker != speaker]):
        farther = [p for p in circle.earlier if fits(pronoun, p)]
        people = [*farther, *people] if len({p.key for p in farther}) == 1 else people
    if not any(fits(pronoun, p) and p.sure for p in people) and (opened := thread_person(pronoun, circle)):
        people = [*people, opened]
    return people


def read(text: str, circle: Circle, before: str = "") -> tuple[About | None, bool]:
    """``text`` (a clause of the circle's message) as a fact about a person of the speaker's life, or None.

    And whether it opens with a he/she that means someone else's person or nobody named ("he must be glad
    it's over" after the listener's "my dad had his hip done"). ``before``: the message's text before the
    clause (it may name the person).
    """
    speaker = circle.message.speaker
    if told := listener_facts.listener_age(text, circle) or listener_facts.listener_deed(text, circle):
        return About(told[0], told[1], None), False
    lead = LEAD.match(text)
    first = re.compile(r"[A-Za-z]+").match(text, lead.end() if lead else 0)
    opening = first.group(0) if first else ""
    # a lowercase word before a verb may be a name the lines before made someone's ("me and aurel" / "aurel is ...")
    lower = first is not None and opening.islower() and opening not in NOT_NAMES \
        and bool(_IS_SUBJECT.match(text[first.end():]))
    if not _READABLE.search(text) and not (opening[:1].isupper() and opening.lower() not in NOT_NAMES
                                           or opening.lower() in circle.known or lower):
        return None, False  # no pronoun to read and no name opening it: nothing to look up
    known = circle.known
    people = [*circle.people, *mentions(circle.message, before, circle.listener, known, circle.names,
                                          own_line=False)]
    pronoun = _SUBJECT.match(text, _opening(text)[1])
    if pronoun and _after_aside(text):  # an aside answers the line before: its he/she is one that exchange names
        recent = {m.turn_id for m in circle.prior[-ASIDE_TURNS:]} | {circle.message.turn_id}
        return _subject(text, speaker, [p for p in people if p.turn_id in recent], known), False
    if pronoun:
        people = _threaded(pronoun["p"], circle, people)
    if found := _subject(text, speaker, people, known):
        return found, False
    if pronoun:
        fit = next((p for p in reversed(people) if fits(pronoun["p"], p)), None)
        return None, fit is None or (fit.sure and fit.owner != speaker)
    own = re.match(r"^\W*(?:my|our)\s+(\w+)", text, re.I)
    # "My brother is with her": the speaker's own person is the subject, the pronoun after it one to read
    if own and (obj := _object(text, speaker, people, own[1].lower())):
        return About(obj[0], obj[1], obj[1].turn_id), False
    return None, False
