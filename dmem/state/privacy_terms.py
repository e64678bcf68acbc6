"""A deployment's own personal data: extra terms and patterns beside the built-in detector.

Set ``privacy_terms`` (words or phrases, matched whole and case-insensitively: a clinic's name, an
internal project) and ``privacy_patterns`` (regular expressions: an employee number's shape) in
the settings; every detection (scope, enrichment rules, trace redaction) then finds them too. The
compiled vocabulary lives beside the settings it is made of, so ``Context`` refuses a bad pattern
when settings are built.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dmem.errors import ConfigError

Found = tuple[str, int, int, int]
TERM_KIND = "deployment term"
PATTERN_KIND = "deployment pattern"


@dataclass(frozen=True)
class Vocabulary:
    """The compiled extra terms and patterns of one deployment (empty: the built-in detector only)."""

    terms: re.Pattern[str] | None = None
    """One alternation of every term, whole words, case-insensitive."""
    patterns: tuple[re.Pattern[str], ...] = ()
    """Each pattern, compiled as given."""

    def __bool__(self) -> bool:
        return self.terms is not None or bool(self.patterns)

    def find(self, text: str) -> Iterator[Found]:
        """Every term and pattern match, as (kind, start, end, value start)."""
        if self.terms is not None:
            for m in self.terms.finditer(text):
                yield TERM_KIND, m.start(), m.end(), m.start()
        for pattern in self.patterns:
            for m in pattern.finditer(text):
                if m.end() > m.start():
                    yield PATTERN_KIND, m.start(), m.end(), m.start()


NONE = Vocabulary()


def of_settings(ctx: Any) -> Vocabulary:
    """The vocabulary of a ``Context`` (its ``privacy_terms`` and ``privacy_patterns``)."""
    return vocabulary(tuple(getattr(ctx, "privacy_terms", ())), tuple(getattr(ctx, "privacy_patterns", ())))


@lru_cache(maxsize=16)
def vocabulary(terms: tuple[str, ...] = (), patterns: tuple[str, ...] = ()) -> Vocabulary:
    """Compile a deployment's terms and patterns (a bad pattern is a ``ConfigError`` naming it)."""
    compiled = []
    for p in patterns:
        try:
            compiled.append(re.compile(p))
        except re.error as exc:
            raise ConfigError(f"setting 'privacy_patterns': {p!r} is not a regular expression ({exc})") from None
        if compiled[-1].fullmatch(""):
            raise ConfigError(f"setting 'privacy_patterns': {p!r} matches the empty string")
    words = sorted({t for t in terms if t}, key=len, reverse=True)
    alternation = "|".join(r"\s+".join(map(re.escape, w.split())) for w in words)
    term_re = re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE) if words else None
    return Vocabulary(term_re, tuple(compiled))
