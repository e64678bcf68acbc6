"""The enrichment privacy rules, in code: which source a fact may consult, asked what, attaching what.

USER_PII never reaches any source; INTERNAL only the user's own memories; EXTERNAL the external
source when one is configured and allowed; GENERIC needs none. A lookup carries only the entity
the scope step named, checked here: the model proposes, these rules decide. It must be written in
the fact (and in the utterance the fact came from), short, free of personal data and of anything
shaped like a personal value, and not the user's or speaker's name; the fact itself must hold no
personal data. ``entity_refusal`` says why an entity is refused. A reply line is attached only
when it is about that entity, within a size cap.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Literal

from dmem.privacy.detect import describe, detect
from dmem.privacy.shapes import personal_shape
from dmem.state.privacy_terms import NONE, Vocabulary
from dmem.state.schemas import Fact, Scope

Source = Literal["external", "internal"]
MAX_ENTITY_WORDS = 6
MAX_ENTITY_CHARS = 60
_SELF_WORDS = frozenset({"i", "me", "my", "mine", "we", "our", "ours", "us", "you", "your", "user"})
_STOP = frozenset({"the", "a", "an", "of", "and", "in", "on", "at", "for", "to", "by", "de", "la", "le"})


def permitted_source(scope: Scope, *, external_allowed: bool, has_external: bool) -> Source | None:
    """Which source a fact of this scope may consult: 'external', 'internal' or None."""
    if scope == Scope.USER_PII or scope == Scope.GENERIC:
        return None
    if scope == Scope.INTERNAL:
        return "internal"
    if scope == Scope.EXTERNAL and external_allowed and has_external:
        return "external"
    return None


_STRICTNESS = (Scope.USER_PII, Scope.INTERNAL, Scope.EXTERNAL, Scope.GENERIC)


def stricter_scope(a: Scope, b: Scope) -> Scope:
    """The more restrictive of two scopes: a memory updated by a personal fact becomes personal."""
    return a if _STRICTNESS.index(Scope(a)) <= _STRICTNESS.index(Scope(b)) else b


def _tokens(text: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[\w]+", text)}
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words} - _STOP


def _plain(text: str) -> str:
    return " ".join(text.lower().split())


def clean_entity(entity: str | None) -> str:
    """The entity name without surrounding quotes, spaces and punctuation."""
    return (entity or "").strip().strip("\"'\u201c\u201d\u2018\u2019.,;:!?")


_GIVEN = r"\b(?:named|called|nicknamed)\s+"
_GIVEN_NAME = re.compile(_GIVEN, re.IGNORECASE)


def given_name(name: str, text: str) -> bool:
    r"""Whether ``text`` says something is named, called or nicknamed ``name`` (any case, a whole word).

    The same test as ``re.search(_GIVEN + re.escape(name) + r"\b", text, re.IGNORECASE)``, without a
    pattern compiled per name (``re``'s cache would keep 512 of them in a long-running server): one
    fixed pattern finds the verbs, and the text after each is compared with the name letter by
    letter. Names or texts with letters whose case rules are irregular (``_irregular``) and names
    that start with a space take the regular expression, as before.
    """
    if name[:1].isspace():
        return _given_name_pattern(name, text)
    irregular = _irregular(name)
    for verb in _GIVEN_NAME.finditer(text):
        start, end = verb.end(), verb.end() + len(name)
        said = text[start:end]
        if len(said) < len(name):
            return False  # the later verbs leave even less text
        if irregular or _irregular(said):
            return _given_name_pattern(name, text)
        if all(a == b or a.lower() == b.lower() for a, b in zip(said, name, strict=True)) and _bound(text, end):
            return True
    return False


def _given_name_pattern(name: str, text: str) -> bool:
    return re.search(rf"{_GIVEN}{re.escape(name)}\b", text, re.IGNORECASE) is not None


def _irregular(text: str) -> bool:
    """Whether a letter's case rules differ from one-to-one lowercasing (ſ, ı, İ, ς, µ, ß, Greek symbol forms...)."""
    return not text.isascii() and any(
        len(low := c.lower()) != 1 or low != c.casefold() or len(c.upper()) != 1 or c.upper().lower() != low
        for c in text)


def _bound(text: str, at: int) -> bool:
    r"""Whether ``\b`` holds at ``at`` (a word character on exactly one side, as ``re`` defines it for str)."""
    def word(c: str) -> bool:
        return c.isalnum() or c == "_"
    return (at > 0 and word(text[at - 1])) != (at < len(text) and word(text[at]))


def entity_refusal(entity: str | None, *, fact_text: str, private_names: Iterable[str],
                   sources: Sequence[str] | None = None, extra: Vocabulary = NONE) -> str | None:
    """Why no lookup may carry this entity, or None when it may (``sources``: the utterances, when known)."""
    name = clean_entity(entity)
    if not name:
        return "no entity named"
    if len(name) > MAX_ENTITY_CHARS or len(name.split()) > MAX_ENTITY_WORDS:
        return "the entity is too long to be a name"
    if _plain(name) not in _plain(fact_text) or _plain(name) == _plain(fact_text.strip().rstrip(".")):
        return "the entity is not a name written in the fact"  # invented, paraphrased, or the whole fact
    if sources is not None and not any(_plain(name) in _plain(s) for s in sources):
        return "the entity is not written in the utterance the fact came from"
    words = _tokens(name)
    if not words or words & _SELF_WORDS:
        return "the entity refers to the user"
    if why := describe(name, extra):
        return f"the entity holds personal data: {why.split(' (')[0]}"
    if shape := personal_shape(name):
        return f"the entity looks like a personal value: {shape}"
    if any(_tokens(private) & words for private in private_names if private):
        return "the entity names the user or the speaker"
    if given_name(name, fact_text):
        return "the entity is a name someone gave (a pet, a child)"  # private, whatever brand it sounds like
    return None


def query_entity(entity: str | None, *, fact_text: str, private_names: Iterable[str],
                 sources: Sequence[str] | None = None, extra: Vocabulary = NONE) -> str | None:
    """The entity name a lookup may carry, or None (then no lookup is made)."""
    refused = entity_refusal(entity, fact_text=fact_text, private_names=private_names, sources=sources, extra=extra)
    return None if refused else clean_entity(entity)


def private_names(fact: Fact) -> list[str]:
    """Names a lookup must never carry: the fact's speaker and the parts of its namespace."""
    return [fact.speaker or "", *re.split(r"[/:|,]", fact.namespace)]


def enrichment_query(fact: Fact, *, external_allowed: bool, has_external: bool,
                     extra: Vocabulary = NONE) -> tuple[Source, str] | None:
    """The source a flagged fact may consult and the entity to ask about, or None: no lookup."""
    source = permitted_source(fact.scope, external_allowed=external_allowed, has_external=has_external)
    if source is None or not fact.enrich or fact.personal or detect(fact.text, extra):
        return None
    entity = query_entity(fact.entity, fact_text=fact.text, private_names=private_names(fact), extra=extra)
    return (source, entity) if entity else None


def mentions(line: str, entity: str) -> bool:
    """Whether a knowledge line is about the entity: it names it, or most of its words."""
    if entity.lower() in line.lower():
        return True
    want = _tokens(entity)
    got = want & _tokens(line)
    return len(got) >= math.ceil(len(want) / 2) and any(not w.isdigit() for w in got)


def about_entity(knowledge: Sequence[str], entity: str, max_chars: int) -> list[str]:
    """The reply lines about the entity, in order, whole lines within ``max_chars`` in total."""
    kept: list[str] = []
    used = 0
    for line in (k.strip() for k in knowledge):
        if not line or not mentions(line, entity):
            continue
        if used + len(line) > max_chars:
            if not kept:
                kept.append(line[:max_chars])
            break
        kept.append(line)
        used += len(line)
    return kept
