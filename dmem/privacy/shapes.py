"""Values that look personal out of context: what an enrichment entity must never be or contain.

A model may name a PIN, a password or a phone number as a fact's "public entity". Out of its
sentence the detector cannot tell ``2580`` or ``Tr0ub4dor&3`` from a product name, so an entity is
also refused by shape: digits with separators, long numbers, credential-like tokens, e-mail and
phone shapes, spelled-out numbers. A few public names are refused with them ('Jet 747-400');
nothing private is asked about.
"""

from __future__ import annotations

import re

from dmem.privacy.numbers import NUMBER_WORDS

MIN_PHONE_DIGITS = 7
_SEPARATED_DIGITS = re.compile(r"\d+(?:[\s.,/:-]+\d+)+")
_LONG_NUMBER = re.compile(r"(?<!\d)\d{4,}(?!\d)")
_YEAR = re.compile(r"(?:19|20)\d\d")
_EMAIL_SHAPE = re.compile(r"@|[(\[{<]\s*(?:at|dot)\s*[)\]}>]|\w\s+dot\s+\w", re.IGNORECASE)
_SYMBOL = re.compile(r"[!#$%^&*+=?~|<>\\/@]")
_TOKEN = re.compile(r"\S+")


def _credential_like(token: str) -> bool:
    """Letters and digits interleaved (two digit runs), or letters, digits and a symbol in one token."""
    core = token.strip(".,;:!?\"'()[]")
    letters = bool(re.search(r"[A-Za-z]", core))
    digit_runs = len(re.findall(r"\d+", core))
    if letters and digit_runs >= 2 and re.search(r"[A-Za-z]\d+[A-Za-z]", core):
        return True
    if letters and digit_runs and _SYMBOL.search(core):
        return True
    joined = re.split(r"[-_.]", core)
    if letters and digit_runs and ("_" in core or len(joined) >= 3):
        return True  # 'heron-lake-31', 'quiet_otter19': a passphrase or a handle
    mixed = re.search(r"[a-z]", core) and re.search(r"[A-Z]", core) and digit_runs
    return bool(mixed and len(core) >= 12)


def personal_shape(text: str) -> str | None:
    """Why the text looks like a personal value ('digits with separators', ...), or None."""
    if sum(ch.isdigit() for ch in text) >= MIN_PHONE_DIGITS:
        return "a phone-length number"
    if _SEPARATED_DIGITS.search(text):
        return "digits with separators"
    if any(not _YEAR.fullmatch(m.group(0)) for m in _LONG_NUMBER.finditer(text)):
        return "a long number"
    if _EMAIL_SHAPE.search(text):
        return "an e-mail shape"
    if any(_credential_like(t) for t in _TOKEN.findall(text)):
        return "a credential-like token"
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", text)]
    if sum(w in NUMBER_WORDS for w in words) >= 2:
        return "spelled-out numbers"
    return None
