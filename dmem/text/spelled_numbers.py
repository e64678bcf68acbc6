"""Numbers spelled out in words, read as their value: "four hundred and ten" is 410, "ninety-five" is 95.

Chat states an amount in words on one side and in digits on the other ("Four hundred and ten pounds" / "410",
"He has eleven teapots" / "11!"); a rule pairing the two lines by their value reads both the same way. Only
cardinals: "first" to "tenth" are places in a ranking, and a lone "one" is mostly a pronoun ("the one that").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dmem.text import words

_SMALL = {w: i for i, w in enumerate(f"{words.ONES} {words.TEENS}".split(), start=1)}
_SMALL.update({w: 10 * i for i, w in enumerate(words.TENS.split(), start=2)})
_SCALES = {w: 10**zeros for w, zeros in words.SCALES.items()}
_WORD = "|".join(sorted([*_SMALL, *_SCALES], key=len, reverse=True))
SPELLED = re.compile(rf"\b(?:{_WORD})(?:(?:\s+and\s+|[\s-]+)(?:{_WORD}))*\b", re.I)
"""A run of number words, joined by spaces, hyphens or "and" ("One thousand two hundred and forty")."""


def value(run: str) -> int | None:
    """The number a run of number words spells, or None when it spells none (a lone "one", "hundred" alone)."""
    said = [t for t in re.split(r"[\s-]+", run.lower()) if t]
    if any(t == "and" and (i == 0 or said[i - 1] not in _SCALES) for i, t in enumerate(said)):
        return None  # "and" joins a scale to what follows it ("hundred and ten"), not two numbers ("two and three")
    tokens = [t for t in said if t != "and"]
    if not tokens or tokens == ["one"] or tokens[0] in _SCALES:
        return None
    total = current = 0
    for token in tokens:
        if _SCALES.get(token, 1000) < 1000:  # "hundred" scales the group it ends ("four hundred")
            current *= _SCALES[token]
        elif token in _SCALES:  # "thousand" closes a group ("two thousand" then "three hundred")
            total, current = total + current * _SCALES[token], 0
        elif token in _SMALL:
            current += _SMALL[token]
        else:
            return None
    return total + current


def spelled(text: str) -> Iterator[tuple[re.Match[str], int]]:
    """Each run of number words in ``text`` that spells a number, with that number."""
    for found in SPELLED.finditer(text):
        if (number := value(found[0])) is not None:
            yield found, number
