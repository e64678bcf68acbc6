"""The framed memories formation writes: their one format, written and read back here.

The offline splitter keeps a short reply with the question it answers, a message continuing the
speaker's own one with what it continues, and a question that carries a fact as asked:
'Theo answered Maya's question "Which film?": the one with the lighthouse' (``answered``),
'Noor added to "Noor just started at the art school": it is right by the ferry pier' (``added``),
'Maya asked Theo: "How is the new puppy settling in?"' (``asked``). The frame ('answered Maya's
question', 'added to', 'asked Theo') tells how a line was said, not what happened: an answer span
taken from it is noise ("answered Maya's question" for 'What film does Theo like?'). The quoted
question or earlier message still says what the line is about, so a line is ranked whole and its span
comes from what was said (``said``).
"""

from __future__ import annotations

__all__ = ["JOIN", "Framed", "accepted", "added", "added_to", "answered", "asked", "attending", "framed", "is_asked",
           "joined", "picked", "pieces", "replied_to", "said"]

import re
from typing import NamedTuple

_NAME = r"[^\"]{1,60}?"
_REPLY = re.compile(rf"^\s*{_NAME} answered {_NAME}'s question \"(?P<about>[^\"]*)\":\s*(?P<said>\S.*)$", re.S)
_ADDED = re.compile(rf"^\s*{_NAME} added to \"(?P<about>[^\"]*)\":\s*(?P<said>\S.*)$", re.S)
JOIN = "; "
"""Between the replies joined under one question."""
_PICKED = re.compile(rf"^\s*{_NAME} (?:replied|agreed|added) to {_NAME}'s \"(?P<about>[^\"]*)\":\s*(?P<said>\S.*)$",
                     re.S)
_ACCEPTED = re.compile(rf"^\s*{_NAME} agreed to {_NAME}'s proposal:\s*(?P<said>\S.*)$", re.S)
_ATTENDING = re.compile(rf"^\s*{_NAME} will be at {_NAME}'s event:\s*(?P<said>\S.*)$", re.S)
_ASKED = re.compile(rf"^\s*{_NAME} asked {_NAME}:\s*\"(?P<said>[^\"]*\?)\"\s*$", re.S)
_FRAMES = (_REPLY, _ADDED, _PICKED, _ACCEPTED, _ATTENDING, _ASKED)  # the order ``said`` reads them in


def answered(speaker: str, asker: str, question: str, reply: str) -> str:
    """A reply kept with the question it answers."""
    return f'{speaker} answered {asker}\'s question "{question}": {reply}'


def added(speaker: str, earlier: str, addition: str) -> str:
    """A message kept with the speaker's own earlier message it continues."""
    return f'{speaker} added to "{earlier}": {addition}'


def picked(speaker: str, other: str, sentence: str, reply: str, agreed: bool) -> str:
    """A bare reply kept with the sentence of the other's message it names or agrees to (not a question)."""
    return f'{speaker} {"agreed" if agreed else "replied"} to {other}\'s "{sentence}": {reply}'


def accepted(speaker: str, other: str, proposal: str) -> str:
    """A bare "deal" kept as the proposal it accepts: what was agreed is the proposal, the "deal" says no more."""
    return f'{speaker} agreed to {other}\'s proposal: {proposal}'


def attending(speaker: str, other: str, event: str) -> str:
    """A bare "I'll be there" kept as the other's event the speaker will be at ('Quill will be at Maren's event: X')."""
    return f"{speaker} will be at {other}'s event: {event}"


def added_to(speaker: str, other: str, line: str, item: str) -> str:
    """A short "and ..." line kept with the line it adds to, the speaker's own (``added``) or the other's."""
    return added(speaker, line, item) if other == speaker else f'{speaker} added to {other}\'s "{line}": {item}'


def asked(speaker: str, listener: str, question: str) -> str:
    """A question carrying a fact, kept as asked (``question`` without its question mark)."""
    return f'{speaker} asked {listener}: "{question}?"'


def joined(first: str, second: str) -> str | None:
    """Two replies framed with the same question (or sentence, ``picked``) as one line: the frame once, joined by '; '.

    None when either line is not a framed reply or the two frames differ (another question or person).
    """
    a, b = _framed(first), _framed(second)
    if a is None or b is None or first[: a.start("said")] != second[: b.start("said")]:
        return None
    return f"{first[: a.start('said')]}{a['said'].rstrip()}{JOIN}{b['said']}"


def _framed(text: str) -> re.Match[str] | None:
    """A line framed under what it replies to: a question (``answered``) or a sentence it names (``picked``)."""
    return _REPLY.match(text) or _PICKED.match(text)


def pieces(text: str) -> list[str]:
    """What was said, piece by piece: the replies ``joined`` under one question apart, else ``said`` whole."""
    if (m := _framed(text)) is None:
        return [said(text)]
    return [p.strip() for p in m["said"].split(JOIN) if p.strip()] or [m["said"].strip()]


def replied_to(text: str) -> str | None:
    """The question a framed reply answers, as quoted in its frame; None for other lines."""
    return m["about"] if (m := _REPLY.match(text)) else None


def is_asked(text: str) -> bool:
    """Whether a line is a question kept as asked."""
    return _ASKED.match(text) is not None


class Framed(NamedTuple):
    """A framed line read back: its frame, what the frame quotes, and what was said."""

    frame: str
    """The frame as written up to what was said: the fixed words, the two names and the quote ('Maya answered
    Theo's question "Which film?": ')."""
    about: str | None
    """The question, sentence or earlier line the frame quotes; None for a frame quoting nothing (a proposal)."""
    said: str
    """What the line says in the frame (the reply, the addition, the proposal, the question as asked)."""


def framed(text: str) -> Framed | None:
    """A framed line's frame, quote and saying; None for a line formation wrote without a frame."""
    for frame in _FRAMES:
        if m := frame.match(text):
            groups = m.groupdict()
            return Framed(text[: m.start("said")], groups.get("about"), m["said"].strip())
    return None


def said(text: str) -> str:
    """What a framed line says (the reply, the addition, the question as asked); other lines whole.

    A question kept as asked ends with its question mark, so a line that only asks still reads as one.
    """
    return f.said if (f := framed(text)) else text
