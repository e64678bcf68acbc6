"""Numbers as people write them: spelled-out digit runs, and the dates and ids that are not personal numbers.

A phone number or a PIN may be said in words ("five five five, one two three four"); a run of
number words is read as the digits it spells. Dates, clock times, version strings, UUIDs and our
own redaction markers are masked (same length, so spans stay aligned) before anything is looked
for, so that a timestamp or a run id never looks like a phone number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from dmem.text import words

UNITS = dict.fromkeys(["zero", "oh", *words.ONES.split()], 1)
TEENS = tuple(words.TEENS.split())
TENS = tuple(words.TENS.split())
_MULTIPLIERS = {"double": 2, "triple": 3}
_SCALES = words.SCALES  # digits a scale word adds ("five hundred" is three digits)
_WORD = (r"(?:" + "|".join([*UNITS, *TEENS, *TENS, *_MULTIPLIERS, *_SCALES]) + r")"
         + r"(?:-(?:" + "|".join(UNITS) + r"))?")
_TOKEN = rf"(?:{_WORD}|\d+)"
_GAP = r"(?:[\s,.;/-]+|\s+dash\s+)"
SPELLED_RUN = re.compile(rf"\b{_TOKEN}(?:{_GAP}{_TOKEN})+\b", re.IGNORECASE)
"""A run of number words and digit groups separated only by spaces, commas, dots or dashes."""
DIGIT_WORDS = rf"\b{_WORD}(?:{_GAP}{_WORD}){{2,}}\b"
"""Three or more number words in a row (a spelled-out code or PIN), as a pattern to embed."""

MARKER = re.compile(r"\[redacted[^\]\n]{0,120}\]")
"""Our own redaction markers ('[redacted: date of birth]'): never personal data themselves."""
_MASKS = [
    re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE),  # UUID
    re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"),
    re.compile(r"\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b"),  # 07/05/2023, 7.5.23
    re.compile(r"\b\d{4}\s*[-\u2013]\s*\d{4}\b"),  # year ranges: 2019-2023
    re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b"),  # clock times
    re.compile(r"\bv?\d+\.\d+\.\d+\b"),  # version strings
]


def mask_markers(text: str) -> str:
    """The text with our redaction markers replaced by '#' (same length)."""
    return MARKER.sub(lambda m: "#" * len(m.group(0)), text)


def mask_non_personal(text: str) -> str:
    """The text with dates, times, year ranges, versions and UUIDs replaced by '#' (same length)."""
    for pattern in _MASKS:
        text = pattern.sub(lambda m: "#" * len(m.group(0)), text)
    return text


def spelled_digits(run: str) -> int:
    """How many digits a run of number words and digit groups spells ('double five' is two)."""
    count = 0
    repeat = 1
    for token in re.findall(r"[a-z]+(?:-[a-z]+)?|\d+", run.lower()):
        if token.isdigit():
            count += len(token)
        elif token in _MULTIPLIERS:
            repeat = _MULTIPLIERS[token]
            continue
        elif token in _SCALES:
            count += _SCALES[token]
        elif token in UNITS:
            count += repeat
        elif token.split("-")[0] in (*TEENS, *TENS):
            count += 2 * repeat
        repeat = 1
    return count


def spelled_runs(text: str) -> Iterator[re.Match[str]]:
    """Runs that contain at least one number word (pure digit runs are left to the numeric patterns)."""
    for m in SPELLED_RUN.finditer(text):
        if re.search(r"[A-Za-z]", m.group(0)) and not re.fullmatch(r"[\d\s,.;/-]+", m.group(0)):
            yield m


NUMBER_WORDS = frozenset([*UNITS, *TEENS, *TENS, *_MULTIPLIERS, *_SCALES])
_WORDS = re.compile(r"[a-z0-9]+")
_LONG_TOKEN = re.compile(r"\S{16,}")


@dataclass(frozen=True)
class Clues:
    """A text prepared once for every finder, with cheap facts that let finders skip what cannot match."""

    text: str
    """The text, our redaction markers masked."""
    masked: str
    """The same, dates, times, versions and UUIDs masked too."""
    digits: bool
    """Whether the text holds a digit (outside what was masked)."""
    words: frozenset[str]
    """Its lowercase words."""
    long_token: bool
    """Whether it holds a run of 16 or more non-space characters (a key or token shape)."""

    @property
    def numeric(self) -> bool:
        """Digits, or number words that may spell them."""
        return self.digits or not self.words.isdisjoint(NUMBER_WORDS)


def clues(text: str) -> Clues:
    """Prepare a text for the finders."""
    plain = mask_markers(text)
    masked = mask_non_personal(plain) if re.search(r"\d", plain) else plain
    return Clues(text=plain, masked=masked, digits=bool(re.search(r"\d", masked)),
                 words=frozenset(_WORDS.findall(plain.lower())), long_token=bool(_LONG_TOKEN.search(plain)))
