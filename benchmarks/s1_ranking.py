"""System 1 ranking replayed over ingested stores: where formed evidence is lost, and what a ranking change does.

No ingestion and no chat model: each question's hybrid retrieval is recomputed over stores that
`dmem eval` or `benchmarks/formation.py` already ingested (``--stores``: a folder with one store per
conversation), or over one long conversation made elsewhere (``--proxy DIR``: DIR/conversation.json
holds a ``Conversation``, DIR/namespaces.json maps its speakers to namespaces, DIR/store its store).
Prints System 1 evidence recall at K = retrieval_top_k per namespace (times wide_retrieval_factor for a list, count
or both-speaker question, then up to episode_neighbours memories of the best ones' neighbouring turns, as
``retrieve`` does; existing ids, categories 1-4, the eval's column; each question
asked as ``retrieve`` asks it, a speaker's other name written as their label, like ``formation.py``) per conversation,
and with ``--diagnose`` every gold evidence turn that is the source of a memory but not among the memories kept,
counted by:
- rank: where its best memory lands in the namespace's fused list (after ``distinct_sources``);
- best signal: which signal ranks that memory highest (dense, lexical, timed, thread, source);
- question: time cue or 'when'; list ('all', 'what ... things'); several evidence turns;
- the kept memories: how many share a source turn, how many are questions.
``invented --chats DIR`` replays a folder of invented chats (RealTalk format) over the stores ``formation.py
invented`` built for it (``--stores`` its ``<work>/<source>/invented`` folder); a batch not released, or the
question corpus's check half, is refused (``formation.held_out``).
Usage: python benchmarks/s1_ranking.py locomo|realtalk|invented (--stores DIR [--only ID,ID] | --proxy DIR)
       [--chats DIR (invented)] [--diagnose] [--set NAME=VALUE ...] [--data DIR (default ../shared/data)]
       [--save FILE] [--against FILE]
``--set`` overrides a setting of the run's Context (for instance ``retrieval_top_k=50``). ``--save`` writes each
question's recall (JSON); ``--against`` a file so saved counts the questions whose recall went up and down since.
Also prints the mean retrieval time per question (``search_memories``), the cost a ranking change adds.
"""

from __future__ import annotations

import dataclasses
import json
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import formation  # held_out: which stores a script must never read; reads its own flags with parse_known_args
from _fake_world import ROOT

from dmem.api import Memory
from dmem.datasets.datasets import Conversation, QAItem, load_dataset
from dmem.eval.methods import speaker_namespaces
from dmem.evidence import hybrid
from dmem.evidence.cues import time_cues
from dmem.nodes.retrieval import asked_by_speaker_names, search_memories, top_k
from dmem.services import Services

EMBEDDINGS = "local:all-MiniLM-L6-v2"
CATEGORIES = (1, 2, 3, 4)
LIST_QUESTION = re.compile(r"\b(all|both|ways|things|activities|kinds|types|events|places|items)\b", re.I)


def option(name: str, default: str | None = None) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def settings() -> dict[str, object]:
    """The ``--set NAME=VALUE`` overrides (ints and floats parsed)."""
    out: dict[str, object] = {}
    for i, arg in enumerate(sys.argv):
        if arg == "--set":
            name, value = sys.argv[i + 1].split("=", 1)
            number = value.replace(".", "", 1).isdigit()
            out[name] = int(value) if value.isdigit() else float(value) if number else value
    return out


def conversations(kind: str) -> list[tuple[Conversation, Path, dict[str, str]]]:
    """(conversation, its store, speaker namespaces) for the stores asked for (never a held-out invented chat's)."""
    if proxy := option("--proxy"):
        folder = Path(proxy)
        conv = Conversation.model_validate_json((folder / "conversation.json").read_text())
        return [(conv, folder / "store", json.loads((folder / "namespaces.json").read_text()))]
    data = Path(option("--data", str(ROOT.parent / "shared" / "data")) or "")
    path = data / "locomo" / "locomo-dev6.json" if kind == "locomo" else data / "realtalk"
    if kind == "invented":
        path = Path(option("--chats") or "")
    stores = Path(option("--stores") or "")
    only = (option("--only") or "").split(",")
    out = []
    for conv in load_dataset("locomo" if kind == "locomo" else "realtalk", path).conversations:
        store = store_of(stores, kind, conv.conversation_id)
        if store is not None and (only == [""] or conv.conversation_id in only):
            if kind == "invented" and formation.held_out(kind, store.name):
                raise SystemExit(f"s1_ranking.py: {store.name} is held out (not released for tuning)")
            out.append((conv, store, speaker_namespaces(conv)))
    return out


def store_of(stores: Path, kind: str, conv_id: str) -> Path | None:
    """The conversation's store under ``stores``: named by its id, an invented chat's with its text's hash after it."""
    if kind != "invented":
        return stores / conv_id if (stores / conv_id).exists() else None
    return next((p for p in sorted(stores.glob(f"{conv_id}-*")) if p.is_dir()), None)


def compared(saved: dict[str, float], before: Path) -> str:
    """'N up, M down' of each question's recall against an earlier ``--save`` file (the questions both hold)."""
    old = json.loads(before.read_text())
    both = [q for q in saved if q in old]
    up = sum(saved[q] > old[q] + 1e-9 for q in both)
    down = sum(saved[q] < old[q] - 1e-9 for q in both)
    return f"against {before.name}: {up} questions up, {down} down, of {len(both)}"


def recall(qa: QAItem, found: set[str]) -> float:
    return sum(e in found for e in qa.evidence) / len(qa.evidence)


def full_ranking(svc: Services, question: str, namespace: str) -> tuple[list, dict[str, list[str]]]:
    """The namespace's whole fused list (``distinct_sources`` order) and each signal's list, as memory ids."""
    index, vector = hybrid.memory_query(question, svc.indexes, namespace, svc.embed, None)
    pool = max(hybrid.POOL, top_k(svc.context, question))
    dense = svc.store.vectors.search([namespace], vector, pool)
    thread = hybrid.thread_query(question, svc.store, svc.indexes, namespace, index)
    every = hybrid.fused_memories(question, index, vector, dense, len(index.records), svc.embed, thread=thread)
    position = {r.id: i for i, r in enumerate(index.records)}
    lists = [[position[h.record.id] for h in dense if h.record.id in position],
             *hybrid.signal_rankings(index.docs, question), list(thread)]
    lists.append(hybrid.source_ranking(index, list(dict.fromkeys(i for r in lists for i in r)), vector, svc.embed))
    names = ("dense", "lexical", "timed", "thread", "source")
    return every, {n: [index.records[i].id for i in lst] for n, lst in zip(names, lists, strict=True)}


def diagnose(svc: Services, qa: QAItem, namespaces: list[str], found: set[str], formed: set[str],
             counts: Counter[str]) -> None:
    """Count why each formed-but-missed evidence turn of ``qa`` was not kept."""
    k = top_k(svc.context, qa.question)  # what ``search_memories`` kept for this question (before ``shares``)
    ranked = {ns: full_ranking(svc, qa.question, ns) for ns in namespaces}
    for turn in qa.evidence:
        if turn in found or turn not in formed:
            continue
        best: tuple[int, str, str] | None = None
        for ns, (every, _) in ranked.items():
            for rank, (record, _) in enumerate(every, start=1):
                if turn in record.source_turn_ids:
                    if best is None or rank < best[0]:
                        best = (rank, ns, record.id)
                    break
        counts["formed, missed"] += 1
        if best is None:
            counts["rank: in no signal's pool"] += 1
            continue
        rank, ns, rid = best
        bucket = "31-45" if rank <= 45 else "46-100" if rank <= 100 else "101-300" if rank <= 300 else ">300"
        counts[f"rank: {bucket}"] += 1
        every, lists = ranked[ns]
        places = {n: lst.index(rid) + 1 for n, lst in lists.items() if rid in lst}
        top = min(places, key=places.__getitem__) if places else "none"
        counts[f"best signal {top}"] += 1
        if "dense" not in places:
            counts["not in dense pool"] += 1
        kept = [r for r, _ in every[:k]]
        turns = Counter(t for r in kept for t in r.source_turn_ids)
        counts["kept share a turn (mean)"] += sum(c > 1 for c in turns.values())
        counts["kept questions (sum)"] += sum("?" in r.text or " asked " in r.text for r in kept)
        question = qa.question
        counts["q time" if time_cues(question) or question.lower().startswith("when") else "q not time"] += 1
        if LIST_QUESTION.search(question):
            counts["q list"] += 1
        if len(qa.evidence) > 1:
            counts["q several evidence turns"] += 1


def main() -> None:
    kind = sys.argv[1]
    overrides = settings()
    per: dict[str, list[float]] = {}
    counts: Counter[str] = Counter()
    ranked: Counter[str] = Counter()
    saved: dict[str, float] = {}
    spent = 0.0
    for conv, store, mapping in conversations(kind):
        namespaces = list(dict.fromkeys(mapping.values()))
        with Memory(store, embeddings=EMBEDDINGS, read_only=True) as mem:
            svc = mem.services
            formed = {t for ns in namespaces for r in svc.store.vectors.list(ns) for t in r.source_turn_ids}
            if overrides:
                svc = dataclasses.replace(svc, context=svc.context.with_overrides(**overrides))
            for n, qa in enumerate(q for q in conv.qa if q.category in CATEGORIES and q.evidence):
                qa = qa.model_copy(update={"question": asked_by_speaker_names(svc, qa.question, namespaces)})
                started = time.perf_counter()
                hits = search_memories(svc, qa.question, namespaces)
                spent += time.perf_counter() - started
                found = {t for r, _ in hits for t in r.source_turn_ids}
                got = saved[f"{conv.conversation_id}#{n}"] = recall(qa, found)
                per.setdefault(conv.conversation_id, []).append(got)
                ranked["formed"] += sum(e in formed for e in qa.evidence)
                ranked["kept"] += sum(e in formed and e in found for e in qa.evidence)
                if "--diagnose" in sys.argv:
                    diagnose(svc, qa, namespaces, found, formed, counts)
    means = {c: statistics.mean(v) for c, v in per.items()}
    every = [x for v in per.values() for x in v]
    kept = f"{ranked['kept']}/{ranked['formed']} = {ranked['kept'] / max(1, ranked['formed']):.3f}"
    print(f"{kind} {overrides or 'defaults'}: S1 recall {statistics.mean(every):.4f} over {len(every)} questions; "
          + ", ".join(f"{c} {m:.4f} ({len(per[c])})" for c, m in means.items()) + f"; formed evidence kept {kept}; "
          f"{1000 * spent / max(1, len(every)):.0f} ms per question")
    if save := option("--save"):
        Path(save).write_text(json.dumps(saved))
    if against := option("--against"):
        print(compared(saved, Path(against)))
    for key, value in sorted(counts.items()):
        print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
