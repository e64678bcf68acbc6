"""Memories the offline engine stores that others already hold: name them by rule, edit a copy of the stores.

Usage: python benchmarks/redundancy.py WORK/HASH SIMWORK RULE [--max-stems N]
Copies the stores formation.py ingested (WORK/HASH, every kind) to SIMWORK/RULE without their locks and
vector snapshots, then soft-deletes or merges the memories RULE names, and prints how many per kind (counts
only, no text). Measure the edited stores with formation.py's own figures, unchanged:
  python benchmarks/formation.py both --data ../shared/data --work SIMWORK --source RULE
Rules (a memory "A" of a speaker's namespace, "B" another live memory):
  subset          drop A when B (same namespace) has all of A's source turns and all of A's content stems;
  subset_stated   subset, but never drop an inferred memory ("Maya has a sister" beside "Maya's sister ...");
  asked           drop a question kept as asked when other memories (any namespace) source all its turns;
  covered         drop A when the same-namespace memories sharing its turns together hold its turns and stems;
  merge_turn      merge the memories of a namespace with the same source turns into one (texts joined, embedded);
  merge_fragments merge a memory of at most --max-stems content stems into a same-turn sibling.
Report-half and held-out stores (``formation.held_out``) are never copied: they must never be read.
"""

from __future__ import annotations

import argparse
import re
import shutil
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import formation  # the splits and the stores' embeddings; reads its own flags only when asked

from dmem.models.embeddings import make_embeddings
from dmem.state.schemas import MemoryRecord
from dmem.store.local.store import open_store
from dmem.store.records import sort_time
from dmem.text.lexical import content_stems

ASKED = re.compile(r'^\S+ asked \S+: "')


class Memo(NamedTuple):
    """One live memory: id, namespace, text, source turns, content stems, provenance."""

    id: str
    namespace: str
    text: str
    sources: frozenset[str]
    stems: frozenset[str]
    provenance: str


def contained(a: Memo, b: Memo) -> bool:
    """B holds A: same namespace, all of A's source turns and content stems (equal pairs: the later one goes)."""
    if a.namespace != b.namespace or not (a.sources <= b.sources and a.stems <= b.stems):
        return False
    return not (a.sources == b.sources and a.stems == b.stems and b.id < a.id)


def dropped(rule: str, memos: list[Memo]) -> set[str]:
    """Ids of the memories a dropping rule removes, in order, never leaning on one already removed."""
    gone: set[str] = set()
    for a in memos:
        others = [b for b in memos if b.id != a.id and b.id not in gone]
        if _drops(rule, a, others):
            gone.add(a.id)
    return gone


def _drops(rule: str, a: Memo, others: list[Memo]) -> bool:
    if rule == "subset":
        return any(contained(a, b) for b in others)
    if rule == "subset_stated":
        return a.provenance != "inferred" and any(contained(a, b) for b in others)
    if rule == "asked":
        return bool(ASKED.search(a.text)) and a.sources <= {t for b in others for t in b.sources}
    if rule == "covered":
        near = [b for b in others if b.namespace == a.namespace and b.sources & a.sources]
        return a.sources <= {t for b in near for t in b.sources} and a.stems <= {s for b in near for s in b.stems}
    raise SystemExit(f"unknown rule {rule}")


def merged(rule: str, memos: list[Memo], max_stems: int) -> list[list[Memo]]:
    """Groups to merge into their first member: same namespace and the same source turns."""
    groups: dict[tuple[str, frozenset[str]], list[Memo]] = defaultdict(list)
    for m in memos:
        groups[(m.namespace, m.sources)].append(m)
    out = []
    for (namespace, _), group in groups.items():
        if rule == "merge_turn":
            out.append(group)
            continue
        speaker = namespace.rsplit("/", 1)[-1].lower()
        stated = [m for m in group if m.provenance != "inferred"]
        small = [m for m in stated if len(m.stems - {speaker}) <= max_stems]
        full = [m for m in stated if m not in small]
        if small and full:
            out.append([full[0], *small])
    return [g for g in out if len(g) > 1]


def edit_store(directory: Path, rule: str, max_stems: int, embed: Callable[[str], list[float]]) -> tuple[int, int]:
    """Apply the rule to one store through its public API: (live memories before, memories removed).

    Memories are judged oldest first (``sort_time``, as ``list`` orders one namespace); merged texts are embedded
    before the one write transaction that updates and soft-deletes.
    """
    with open_store(directory, dim=None) as store:
        records = sorted((r for ns in store.vectors.namespaces() for r in store.vectors.list(ns)), key=sort_time)
        memos = [Memo(r.id, r.namespace, r.text, frozenset(r.source_turn_ids), frozenset(content_stems(r.text)),
                      r.provenance.value) for r in records]
        by_id = {r.id: r for r in records}
        updates: list[tuple[MemoryRecord, list[float]]] = []
        gone: set[str] = set()
        if rule.startswith("merge"):
            for group in merged(rule, memos, max_stems):
                text = ". ".join(m.text.rstrip(".") for m in group)
                updates.append((by_id[group[0].id].model_copy(update={"text": text}), embed(text)))
                gone |= {m.id for m in group[1:]}
        else:
            gone = dropped(rule, memos)
        with store.transaction():
            for record, vector in updates:
                store.vectors.update(record, vector)
            for memory_id in sorted(gone):
                store.vectors.delete(by_id[memory_id].namespace, memory_id)
    return len(memos), len(gone)


def _skipped(directory: str, names: list[str]) -> set[str]:
    """What the copy leaves out: locks, vector snapshots, and every store a script must not read."""
    kind = Path(directory).name
    return {n for n in names if n.startswith((".lock", "faiss")) or formation.held_out(kind, n)}


def main() -> None:
    """Copy the stores, edit them by the rule, print live memories and removals per kind."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("simwork", type=Path)
    parser.add_argument("rule")
    parser.add_argument("--max-stems", type=int, default=2)
    args = parser.parse_args()
    target = args.simwork / args.rule
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(args.source, target, ignore=_skipped)
    model = make_embeddings(formation.EMBEDDINGS) if args.rule.startswith("merge") else None
    before: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    def embed(text: str) -> list[float]:
        return model.embed_documents([text])[0] if model else []

    for db in sorted(target.glob("*/*/dmem.sqlite")):
        n, gone = edit_store(db.parent, args.rule, args.max_stems, embed)
        before[db.parent.parent.name] += n
        removed[db.parent.parent.name] += gone
    for kind in sorted(before):
        print(f"{args.rule} {kind}: {before[kind]} memories, {removed[kind]} removed "
              f"({100 * removed[kind] / max(1, before[kind]):.1f} %)")


if __name__ == "__main__":
    main()
