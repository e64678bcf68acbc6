"""Personal values as patterns that find them again however a rewrite spells them.

A PIN said as "four eight two one" may come back from a model as "4821", a phone number
"555-867-5309" as "555.867.5309". Each remembered value becomes a pattern: its digits with any
common separators between them, its spelled digits as numerals too, whole words only, any case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_DIGIT_OF = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
             "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_REPEAT = {"double": 2, "triple": 3}
_SEPARATORS = r"[\s.,()/-]{0,2}"
MIN_DIGITS = 3  # values with fewer digits are matched as written


def spelled_as_digits(value: str) -> str | None:
    """'four eight two one' -> '4821'; None unless every word is a digit word (or 'double'/'triple')."""
    words = re.findall(r"[a-z]+", value.lower())
    if len(words) < 3 or re.search(r"\d", value):
        return None
    out, repeat = [], 1
    for word in words:
        if word in _REPEAT:
            repeat = _REPEAT[word]
            continue
        if word not in _DIGIT_OF:
            return None
        out.append(_DIGIT_OF[word] * repeat)
        repeat = 1
    return "".join(out)


_EMAIL_PART = re.compile(r"[A-Za-z0-9][\w-]{3,}")
_EMAIL_GLUE = frozenset({"dot", "mail", "email", "com", "org", "net", "info", "example"})


def parts(value: str) -> list[str]:
    """Pieces a rewrite may carry alone: an address's domain, a number's digit groups, spelled groups."""
    out: list[str] = []
    domain = re.split(r"@|\s*[(\[{<]?\s*\bat\b\s*[)\]}>]?\s*", value, maxsplit=1, flags=re.IGNORECASE)
    if len(domain) == 2:  # an address's domain names ('fjordpost'); its local part is often the user's name
        out += [p for p in _EMAIL_PART.findall(domain[1]) if p.lower() not in _EMAIL_GLUE]
    groups = re.split(r"[\s,;/]+", value)
    if len(groups) > 1:
        out += [g for g in groups if sum(ch.isdigit() for ch in g) >= 4]
    for group in re.split(r"[,;]", value):
        if (spelled := spelled_as_digits(group)) and len(spelled) >= 3:
            out.append(group.strip())
    return [p for p in out if p != value]


def value_patterns(value: str) -> list[str]:
    """Regular expressions (without boundaries) that find the value, or a piece of it, again."""
    patterns = []
    for piece in [value, *parts(value)]:
        chars = re.sub(r"[\W_]", "", piece)
        digits = sum(ch.isdigit() for ch in chars)
        if digits >= MIN_DIGITS and digits * 2 >= len(chars):
            patterns.append(_SEPARATORS.join(map(re.escape, chars)))  # mostly a number: however it is separated
            continue
        patterns.append(r"\s+".join(map(re.escape, piece.split())))
        if spelled := spelled_as_digits(piece):
            patterns.append(_SEPARATORS.join(spelled))
    return patterns


def compile_values(values: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern finding any of the values as a whole (not inside a longer word, number or id)."""
    parts = sorted({p for v in values for p in value_patterns(v)}, key=len, reverse=True)
    if not parts:
        return None
    return re.compile(rf"(?<![\w-])(?:{'|'.join(parts)})(?![\w])", re.IGNORECASE)
