"""The other names a speaker goes by, learned from what was said, and questions asked with them.

A speaker is recorded under one label ('Sasha'), but people call each other other things: a
self-introduction ("Hi, I'm Alexandra", "call me Sam"), or the other speaker of a two-person chat
addressing them ("Thanks, Alex!", "How about you Alex?"). Memories name the speaker by the label,
so a question asked with another name finds greetings instead of facts. Every alias keeps the
turns that taught it. Precision first: a name addressed in a chat of three or more people has no
known addressee; a name the speaker says of someone else, or the addresser mostly uses in the third
person (a pet, a child, a character), is not the speaker's; a name taken by two speakers is
nobody's.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from dmem.grounding.deixis import MONTHS, WEEKDAYS
from dmem.state.schemas import Message
from dmem.text.words import wordset

MIN_ADDRESSED = 2
"""Turns of the other speaker that must address the speaker by a name before it is an alias."""

_NOT_NAMES = {m.lower() for m in MONTHS} | set(WEEKDAYS) | wordset(
    "i i'm im you all everyone everybody guys girls there again so man girl dude buddy friend friends babe "
    "baby honey dear sweetie love bro sis mate team folks lol haha omg wow yes no ok okay oh well just and "
    "but god lord jesus mom dad mum mama papa sir madam miss mister today tonight tomorrow yesterday "
    "morning evening night afternoon guys the a this that")
_NAME = r"([A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?!['\u2019]s\b)"
_HELLO = r"(?:hi|hey|hello|hiya|heya|yo|morning|good\s+(?:morning|night|evening|afternoon)|thanks|thank\s+you|" \
         r"bye|congrats|congratulations|welcome\s+back|dear)"
_INTRODUCED = [re.compile(p) for p in (  # the lead-ins ignore case, the names do not
    rf"(?i:\bmy\s+name(?:['\u2019]s|\s+is)\s+){_NAME}",
    rf"(?i:\b(?:call|calls)\s+me\s+){_NAME}",
    rf"(?i:\b(?:everyone|everybody|people|friends|my\s+friends)\s+(?:says?|calls?\s+me)\s+){_NAME}",
    rf"(?m:^\s*[-\u2013\u2014~]\s*){_NAME}\s*$",
)]
_I_AM = re.compile(rf"(?i:\b(?:i['\u2019]m|i\s+am)\s+){_NAME}(?=\s*(?:[.!,;]|$))")
"""'I'm Alex.': a self-introduction when the message says it is one, or the other speaker calls them so
(not 'Hi! I'm Icelandic.')."""
_INTRODUCING = re.compile(r"\b(?:introduce|my\s+name|nice\s+to\s+meet)\b", re.I)
_ADDRESSED = [re.compile(p) for p in (
    rf"(?i:(?:^|[.!?]\s+)(?:{_HELLO})[\s,!]+){_NAME}\b(?!\s+(?:and|&)\b)",
    rf"(?:^|[.!?]\s+){_NAME}!",
    rf"(?i:\byou,?\s+){_NAME}\s*(?:[?!.,]|$)",
    rf"(?<!\w)(?P<before>(?:\S+\s+){{0,3}}\S+),\s+{_NAME}\s*(?:[?!.]|$)",
)]
_WORD = re.compile(r"\b[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b")
_OPENS = re.compile(r"(?:^|[.!?:\"\u201c])\s*$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_SECOND = re.compile(r"\b(?:you|your|yours|yourself|u|ur)\b", re.I)
_OWNED = re.compile(r"\b(?:my|our|his|her|their)\b", re.I)  # not "your": "Thanks for your help, Sasha!"


@dataclass(frozen=True)
class Alias:
    """Another name a speaker goes by, and the turns it was learned from."""

    name: str
    """The name as said ('Alex')."""
    speaker: str
    """The speaker's label in the transcript ('Sasha')."""
    turn_ids: tuple[str, ...]
    """The turns that taught it: the speaker's self-introductions, or the other speaker's lines addressing them."""
    how: Literal["introduced", "addressed"]
    """Said by the speaker ('call me Alex'), or by the other speaker addressing them ('Thanks, Alex!')."""


def introduced_names(text: str) -> list[str]:
    """Names a speaker gives for themselves: 'my name is X', 'call me X', 'let me introduce myself, I'm X', '- X'."""
    found = [m.group(1) for p in _INTRODUCED for m in p.finditer(text) if not _quoted(text, m.start())]
    if _INTRODUCING.search(text):
        found += [m.group(1) for m in _I_AM.finditer(text) if not _quoted(text, m.start())]
    return _names(found)


def addressed_names(text: str) -> list[str]:
    """Names a message addresses its listener by: 'Hey X', 'X!', 'how about you X?', '..., X!'."""
    found = []
    for p in _ADDRESSED:
        for m in p.finditer(text):
            if "before" in p.groupindex and _OWNED.search(m.group("before")):
                continue  # 'my sister, Ana.': an apposition, not a listener
            found.append(m.group(m.lastindex or 1))
    return _names(found)


def speaker_aliases(messages: Iterable[Message], names: Collection[str] | None = None) -> list[Alias]:
    """The aliases the messages teach, per conversation, without any taken by two speakers or naming one.

    With ``names``, only those names are looked for (only the lines saying one of them are read).
    """
    by_conversation: dict[str, list[Message]] = defaultdict(list)
    for m in messages:
        by_conversation[m.conversation_id].append(m)
    labels = {m.speaker.lower() for conv in by_conversation.values() for m in conv}
    labels |= {label.split()[0] for label in labels if label.split()}
    if names is not None:
        names = {n for n in names if n.lower() not in labels}
        if not names:
            return []
    found = [a for conv in by_conversation.values() for a in _conversation_aliases(conv, names)]
    if names is not None:
        found = [a for a in found if a.name in names]
    owners: dict[str, set[str]] = defaultdict(set)
    for a in found:
        owners[a.name].add(a.speaker.lower())
    return _merged(a for a in found if len(owners[a.name]) == 1 and a.name.lower() not in labels)


def with_speaker_names(question: str, aliases: Sequence[Alias]) -> str:
    """The question with each alias written as its speaker's label ('What did Alex cook?': 'What did Sasha cook?')."""
    for a in aliases:
        question = re.sub(rf"\b{re.escape(a.name)}\b", a.speaker.replace("\\", "\\\\"), question)  # the label as given
    return question


def _conversation_aliases(messages: Sequence[Message], names: Collection[str] | None) -> list[Alias]:
    speakers = list(dict.fromkeys(m.speaker for m in messages))
    if names is not None:  # a line that says none of the names teaches nothing about them
        messages = [m for m in messages if any(n in m.text for n in names)]
    named = {n for m in messages for n in _capitalized(m.text, inside=True)}
    out = [Alias(n, m.speaker, (m.turn_id,), "introduced") for m in messages for n in introduced_names(m.text)]
    if len(speakers) != 2:
        return out  # with three or more people, whom a greeting addresses is not known
    addressed: dict[tuple[str, str], list[str]] = defaultdict(list)
    mentioned: dict[tuple[str, str], int] = defaultdict(int)
    spoken_of: dict[tuple[str, str], int] = defaultdict(int)
    said_am: dict[tuple[str, str], list[str]] = defaultdict(list)
    for m in messages:
        listener = speakers[1] if m.speaker == speakers[0] else speakers[0]
        called = addressed_names(m.text)
        for n in called:
            addressed[(n, listener)].append(m.turn_id)
        am = [x.group(1) for x in _I_AM.finditer(m.text)]
        for n in am:
            said_am[(n, m.speaker)].append(m.turn_id)
        own = {*called, *introduced_names(m.text), *am}
        for n in set(_capitalized(m.text)) - own:
            mentioned[(n, m.speaker)] += 1  # 'Rex loves walks', 'I'm taking Leo out'
        for n in _spoken_of(m.text) - own:
            spoken_of[(n, m.speaker)] += 1
    for (name, listener), turns in addressed.items():
        caller = speakers[1] if listener == speakers[0] else speakers[0]
        if (len(turns) >= MIN_ADDRESSED and name in named and not mentioned[(name, listener)]
                and spoken_of[(name, caller)] <= len(turns)):
            out.append(Alias(name, listener, tuple(dict.fromkeys(turns)), "addressed"))
    for (name, speaker), turns in said_am.items():
        if addressed[(name, speaker)] and name in named:  # 'I'm Alex.' and called Alex: an introduction
            out.append(Alias(name, speaker, tuple(dict.fromkeys(turns + addressed[(name, speaker)])), "introduced"))
    return out


def _merged(aliases: Iterable[Alias]) -> list[Alias]:
    """One alias per (name, speaker): introductions first, the teaching turns of both ways together."""
    kept: dict[tuple[str, str], Alias] = {}
    for a in aliases:
        old = kept.get((a.name, a.speaker))
        if old is None:
            kept[(a.name, a.speaker)] = a
        else:
            first = old if old.how == "introduced" else a
            kept[(a.name, a.speaker)] = replace(first, turn_ids=tuple(dict.fromkeys(old.turn_ids + a.turn_ids)))
    return sorted(kept.values(), key=lambda a: (a.speaker, a.name))


def _names(found: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(n for n in found if n.lower() not in _NOT_NAMES))


def _capitalized(text: str, inside: bool = False) -> list[str]:
    """Capitalized words of the text; ``inside``: only those not opening a sentence (names, not 'Absolutely!')."""
    return _names(m.group(0) for m in _WORD.finditer(text)
                  if not inside or not _OPENS.search(text[:m.start()]))


def _spoken_of(text: str) -> set[str]:
    """Names outside second-person sentences: 'Rex loves the beach' speaks of Rex, 'Do you ski Alex?' to Alex."""
    return {n for sentence in _SENTENCE.split(text) if not _SECOND.search(sentence) for n in _capitalized(sentence)}


def _quoted(text: str, start: int) -> bool:
    """Whether a match starts inside quotation marks ('the book opens with "Call me Ishmael"')."""
    before = text[:start]
    return before.count('"') % 2 == 1 or before.count("\u201c") > before.count("\u201d")

