"""The enrichment privacy rules, in code: which source a fact may consult, asked what, attaching what.

USER_PII never reaches any source; INTERNAL only the user's own memories; EXTERNAL the external
source when one is configured and allowed; GENERIC needs none. A lookup carries only the entity
the scope step named, checked here: it must be written in the fact, short, free of personal data
and of the user's or speaker's name. A reply line is attached only when it is about that entity,
within a size cap.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Literal

from dmem.privacy.detect import detect
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


def _tokens(text: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[\w]+", text)}
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words} - _STOP


def query_entity(entity: str | None, *, fact_text: str, private_names: Iterable[str]) -> str | None:
    """The entity name a lookup may carry, or None (then no lookup is made)."""
    name = (entity or "").strip().strip("\"'\u201c\u201d\u2018\u2019.,;:!?")
    if not name or len(name) > MAX_ENTITY_CHARS or len(name.split()) > MAX_ENTITY_WORDS:
        return None
    if name.lower() not in fact_text.lower() or name.lower() == fact_text.strip().rstrip(".").lower():
        return None  # invented, paraphrased, or the whole fact
    words = _tokens(name)
    if not words or words & _SELF_WORDS or detect(name):
        return None
    if any(_tokens(private) & words for private in private_names if private):
        return None  # the user's or the speaker's name
    if re.search(rf"\b(?:named|called|nicknamed)\s+{re.escape(name)}\b", fact_text, re.IGNORECASE):
        return None  # a name someone gave (a pet, a child): private, whatever brand it sounds like
    return name


def private_names(fact: Fact) -> list[str]:
    """Names a lookup must never carry: the fact's speaker and the parts of its namespace."""
    return [fact.speaker or "", *re.split(r"[/:|,]", fact.namespace)]


def enrichment_query(fact: Fact, *, external_allowed: bool, has_external: bool) -> tuple[Source, str] | None:
    """The source a flagged fact may consult and the entity to ask about, or None: no lookup."""
    source = permitted_source(fact.scope, external_allowed=external_allowed, has_external=has_external)
    if source is None or not fact.enrich or detect(fact.text):
        return None
    entity = query_entity(fact.entity, fact_text=fact.text, private_names=private_names(fact))
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
