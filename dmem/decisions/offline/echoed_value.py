"""A terse line that echoes a value the other speaker stated a few lines back: "16. that's about 90 people".

Judged alone, "£69!!! see", "THIRD!!!", "70. so we're at" or "THE 27TH!!" says too little: it opens with a number,
an amount, a date or a place in a ranking and names nothing it is a value of. The other speaker stated that value
a few lines back ("The ticket is now £69 with it", "Third . Out of eighteen pairs", "home 27th morning"), often with
lines of both between ("NOT that one, she's too precious" before "9 is good" to "saturday at 9?"); the line takes
it up, and what it adds ("that's about 90 people") is said of it. A line opening with what a value was ("it was
74!!") sets it against the value the other just stated ("Now the same ticket is £96"). The pairing is by the value
itself, not by distance alone: the nearest line of either speaker within ``ECHO_BACK`` turns stating the same value
is the topic; when that is the speaker's own line, the line repeats itself and nothing is paired.
A PURE echo ("THIRD!!!", "£69!!! see", "8!", "74?? seriously") says nothing but the value, with punctuation, an
intensifier or a reaction word (``pure``): it adds nothing to the memory the other's line formed, so, as a reaction to
news does (``reacted``), it forms no memory of its own and its turn becomes a source of that memory, when that
memory states the value (``holds``; "flight booked. i fly 26th. home 27th" may form none of "27th").
A number said in words is read as its value on either side (``spelled_numbers``): "410" echoes "Four hundred and
ten pounds", "eleven" echoes "He has 11 teapots".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from dmem.decisions.offline import followup
from dmem.silence import silence_between
from dmem.state.schemas import Message
from dmem.text.spelled_numbers import spelled

# Most turns back the other's line stating the echoed value may be. Chosen on batches 28-30 and the tuning drafts.
ECHO_BACK = 4
# A value a line may echo: a number or an amount ("£69", "16", "1,200", "27th"), or a place in a ranking ("third").
_VALUE = re.compile(r"[£$€]?(\d[\d,]*(?:\.\d+)?)(?:st|nd|rd|th|k|p|am|pm)?\b|\b(first|second|third|fourth|fifth|"
                    r"sixth|seventh|eighth|ninth|tenth)\b", re.I)
# Most words before the value that opens the line ("THE 27TH!!", "so 70"): later in the line, it is another's.
_OPENS_AT = 1
# What a value was, opening the line ("it was 74!!", "was £40"): set against the other's value just stated.
_WAS = re.compile(r"^\W*(?:it|that|it'?s|its)?\s*(?:was|were)\s+[£$€]?\d", re.I)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
# A sentence stating the value that is little more than the value ("Third .", "45") is quoted with the rest of its
# line ("Third . Out of eighteen pairs"), when the line is at most ``_WHOLE`` words.
_SHORT, _WHOLE = 4, 20
# Words a pure echo may hold beside its value: an article, an intensifier or a reaction to it ("THE 27TH!!", "£69!!!
# see", "only 400", "74?? seriously", "6k! nice"). A clause of its own ("9 is good", "so about 90 people") says more.
_BARE = frozenset({"the", "a", "see", "only", "just", "so", "oh", "ooh", "wow", "whoa", "woah", "omg", "what", "wha",
                   "seriously", "really", "lol", "haha", "hahaha", "ha", "lmao", "jeez", "gosh", "damn", "wait",
                   "yes", "yeah", "yep", "exactly", "ikr", "huh", "ok", "okay", "right", "indeed", "nice", "good",
                   "great", "cool", "brilliant", "amazing", "lovely"})


def echoed(message: Message, prior: Sequence[Message]) -> tuple[Message, str] | None:
    """The other's turn stating the value a terse line opens with, and its sentence stating it; or None.

    The caller has found the line terse and asking nothing (``thread_value``).
    """
    said = followup.said(message)
    if _WAS.match(said):
        return _contrasted(message, prior)
    found = next(_values(said), None)
    if found is None or len(said[: found[0]].split()) > _OPENS_AT:
        return None
    value = found[2]
    for turn in reversed(prior[-ECHO_BACK:]):
        if silence_between(turn, message):
            return None  # a line after a silence opens a new talk
        if (stated := _stating(followup.said(turn), value)) is not None:
            return (turn, stated) if turn.speaker != message.speaker else None
    return None


def pure(text: str) -> bool:
    """Whether an echo says nothing but its value, with punctuation, an intensifier or a reaction word.

    "THIRD!!!", "£69!!! see", "8!", "74?? seriously" are pure; "16. that's about 90 people", "9 is good" and
    "it was 74!!" (what the value was, set against the new one) add something.
    """
    if _WAS.match(text) or (found := next(_values(text), None)) is None:
        return False
    rest = f"{text[: found[0]]} {text[found[1]:]}"
    return all(word in _BARE for word in re.findall(r"[a-z0-9']+", rest.lower()))


def holds(echo: str, text: str) -> bool:
    """Whether ``text`` (a memory) states the value the echo opens with ("£69!!! see": "... now £69 with it")."""
    found = next(_values(echo), None)
    return found is not None and any(value == found[2] for *_, value in _values(text))


def values(text: str) -> set[str]:
    """The values ``text`` states, as compared: "six thousand eight hundred pounds" and "6,800" both hold "6800"."""
    return {value for *_, value in _values(text)}


def _contrasted(message: Message, prior: Sequence[Message]) -> tuple[Message, str] | None:
    """The other's latest line stating a value, which "it was 74!!" sets itself against; or None.

    The speaker's own lines between may only react ("WHAT", shouted, or with no word of detail).
    """
    for turn in reversed(prior[-ECHO_BACK:]):
        if silence_between(turn, message):
            return None
        text = followup.said(turn)
        if turn.speaker == message.speaker:
            if followup.detail_words(re.findall(r"[a-z0-9']+", text.lower())) and not text.isupper():
                return None
            continue
        stated = [p.strip(" .!") for p in _SENTENCE.findall(text)
                  if next(_values(p), None) and not p.strip().endswith("?")]
        return (turn, stated[-1]) if stated else None
    return None


def _value(match: re.Match[str]) -> str:
    """A value as compared: the digits of a number without its thousands commas, or the ranking word."""
    return (match[1] or "").replace(",", "") or match[2].lower()


def _values(text: str) -> Iterator[tuple[int, int, str]]:
    """Each value of ``text`` in order, as (start, end, value compared): digits, ranking words, spelled numbers."""
    found = [(m.start(), m.end(), _value(m)) for m in _VALUE.finditer(text)]
    found += [(m.start(), m.end(), str(number)) for m, number in spelled(text)]
    return iter(sorted(found))


def _stating(text: str, value: str) -> str | None:
    """The sentence of ``text`` stating (or asking about) ``value``, stripped of its end mark, or None."""
    for part in (p.strip() for p in _SENTENCE.findall(text)):
        if any(stated == value for *_, stated in _values(part)):
            whole = len(part.split()) < _SHORT and len(text.split()) <= _WHOLE
            return (text if whole else part).strip(" .!")
    return None
