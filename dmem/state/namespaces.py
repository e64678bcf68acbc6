"""What a namespace may be called, and what text can be stored: checks the settings, the API and the store share.

They live below the store because ``Context`` checks its ``user_id`` with them when settings are
built, and the store checks every namespace and text it writes with the same rules.
"""

from __future__ import annotations

from dmem.errors import DataError

MAX_NAMESPACE = 256


def validate_namespace(value: object, what: str = "user_id") -> str:
    """Return ``value`` when it is a usable namespace; raise DataError saying what is wrong otherwise."""
    if not isinstance(value, str):
        raise DataError(f"{what} must be a non-empty string, got {type(value).__name__} {value!r:.40}")
    if not value.strip():
        raise DataError(f"{what} must be a non-empty string, got {value!r}")
    if len(value) > MAX_NAMESPACE:
        raise DataError(f"{what} is {len(value)} characters long; at most {MAX_NAMESPACE} are allowed")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise DataError(f"{what} {value!r} contains control characters")
    check_text(value, what)
    return value


def check_text(value: str, what: str) -> str:
    """Refuse text that cannot be stored as UTF-8 (lone surrogates from broken JSON escapes) or holds a NUL."""
    if "\x00" in value:
        raise DataError(f"{what} holds a NUL character at position {value.index(chr(0))}: PostgreSQL cannot store it")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise DataError(f"{what} holds an unpaired surrogate {value[exc.start]!r} at position {exc.start}: "
                        "not valid Unicode text") from None
    return value
