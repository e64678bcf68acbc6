"""Offline enrichment: attributes read from the knowledge lines given, never invented.

'Key: value' lines become attributes as they are; other lines count only when they mention one of
the fact's entities (a named brand or place, a family member), so a lookup's stray results add nothing.
"""

from __future__ import annotations

import re

from dmem.decisions.offline.entities import sort_names
from dmem.decisions.offline.scoping import FAMILY_RE
from dmem.text.lexical import stem, tokenize

_KEY_VALUE = re.compile(r"^\s*(?:[-*\u2022]\s*)?(?P<key>[A-Za-z][\w /()-]{0,40}?)\s*[:=]\s*(?P<val>.+?)\s*$")
_IS_A = re.compile(r"^\s*(?P<ent>[^,.;]+?)\s+(?:is|are|was)\s+(?P<val>(?:an?|the)\s+[^.;]+?)\s*\.?\s*$")


def _entity_stems(text: str, speaker: str | None) -> set[str]:
    names = sort_names(text, speaker)
    words = [*names.public, *names.own, *names.home, *names.workplace, *[m.group(0) for m in FAMILY_RE.finditer(text)]]
    return {stem(t) for w in words for t in tokenize(w)}


def parse_knowledge(text: str, speaker: str | None, knowledge: list[str]) -> tuple[dict[str, str], str]:
    """Attributes from 'Key: value' lines and from sentences that mention the fact's entities."""
    if not knowledge:
        return {}, "no knowledge given: nothing to add"
    entities = _entity_stems(text, speaker)
    attrs: dict[str, str] = {}
    used: list[int] = []
    for i, line in enumerate(knowledge, start=1):
        kv = _KEY_VALUE.match(line)
        mentions = bool(entities & {stem(t) for t in tokenize(line)})
        if kv and not re.search(r"\s(?:is|are|was)\s", kv["key"]):
            attrs.setdefault(kv["key"].strip(), kv["val"].strip().strip("'\""))
        elif mentions and (isa := _IS_A.match(line)):
            attrs.setdefault(isa["ent"].strip(), isa["val"].strip())
        elif mentions:
            attrs.setdefault(f"note {len(attrs) + 1}", line.strip())
        else:
            continue
        used.append(i)
    if not used:
        return {}, "no knowledge line states an attribute or mentions the fact's entities"
    return attrs, f"parsed {len(attrs)} attribute(s) from knowledge line(s) {', '.join(map(str, used))}"
