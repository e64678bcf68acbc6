"""The cross-chunk ledger: every chunk's facts merged into one dated timeline before selection.

Chunk workers cannot see each other, so the same event may come back from two chunks and a
multi-hop answer may need facts from several. The ledger dates each fact (a date written in it,
else when its turns were said), names its entity (whose turn it was read from), collapses
duplicates of one entity, and orders everything by event time, so selection and the answer read
one timeline. List, count and ordering questions need every instance, not the few best: they skip
selection (``questions.needs_every_instance``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime

from dmem.grounding.deixis import absolute_dates
from dmem.state.verdicts import ScoredFact
from dmem.text.lexical import content_stems

DUPLICATE_OVERLAP = 0.8  # content-word Jaccard at which two facts of one entity say the same thing
_TAGGED = re.compile(r"^\[\d{4}-\d{2}-\d{2}\] ")


def event_day(fact: ScoredFact, said: Mapping[str, datetime]) -> date | None:
    """The day a fact is about: a date written in it, else the earliest day its turns were said."""
    written = absolute_dates(_TAGGED.sub("", fact.fact))
    if written:
        return written[0][1]
    days = [said[t].date() for t in fact.turn_ids if t in said]
    return min(days) if days else None


def entity(fact: ScoredFact, speakers: Mapping[str, str]) -> str:
    """Whose fact it is: the speaker of its first turn ('' when it names no turn)."""
    return next((speakers[t] for t in fact.turn_ids if t in speakers), "").lower()


def _same(a: ScoredFact, b: ScoredFact) -> bool:
    sa, sb = set(content_stems(_TAGGED.sub("", a.fact))), set(content_stems(_TAGGED.sub("", b.fact)))
    if not sa or not sb:
        return a.fact.strip().lower() == b.fact.strip().lower()
    return len(sa & sb) / len(sa | sb) >= DUPLICATE_OVERLAP


def _merge(a: ScoredFact, b: ScoredFact) -> ScoredFact:
    """One fact for two duplicates: the better-scored (then longer) text, the best score, both turn sets."""
    keep = max((a, b), key=lambda f: (f.score, len(f.fact)))
    return keep.model_copy(update={"score": max(a.score, b.score),
                                   "turn_ids": list(dict.fromkeys([*a.turn_ids, *b.turn_ids]))})


def dated(fact: ScoredFact, day: date | None) -> ScoredFact:
    """The fact with its day in front ('[2024-03-17] ...'), so every reader sees when it happened."""
    if day is None or _TAGGED.match(fact.fact):
        return fact
    return fact.model_copy(update={"fact": f"[{day.isoformat()}] {fact.fact}"})


def build_ledger(facts: Sequence[ScoredFact], said: Mapping[str, datetime],
                 speakers: Mapping[str, str]) -> list[ScoredFact]:
    """Facts merged by entity (duplicates collapsed), dated, ordered by event time then entity."""
    by_entity: dict[str, list[ScoredFact]] = {}
    for fact in sorted(facts, key=lambda f: -f.score):
        group = by_entity.setdefault(entity(fact, speakers), [])
        twin = next((i for i, seen in enumerate(group) if _same(seen, fact)), None)
        if twin is None:
            group.append(fact)
        else:
            group[twin] = _merge(group[twin], fact)
    entries = [(event_day(f, said), who, f) for who, group in by_entity.items() for f in group]
    entries.sort(key=lambda e: (e[0] is None, e[0] or date.min, e[1], -e[2].score))
    return [dated(f, day) for day, _, f in entries]


def best_in_time_order(ledger: Sequence[ScoredFact], limit: int) -> list[ScoredFact]:
    """The ``limit`` best-scored ledger entries, still in the ledger's (time) order."""
    if len(ledger) <= limit:
        return list(ledger)
    chosen = set(sorted(range(len(ledger)), key=lambda i: (-ledger[i].score, i))[:limit])
    return [f for i, f in enumerate(ledger) if i in chosen]
