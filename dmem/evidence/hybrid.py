"""Hybrid retrieval: dense and lexical ranks, with time-cue matches, fused by reciprocal rank.

``memories`` is System 1's retrieval (both engines use it through the ``retrieve`` node);
``turns`` finds raw transcript turns for Focused Deliberation's seeds. The dense query over
memories leaves out the names most documents share (small sentence embeddings let a name outweigh
the topic: every line about a person looks alike), and the K memories kept are spread over distinct
source turns, so K memories point at as much evidence as they can. A question kept as asked (the
offline formation's 'Maya asked Theo: "..."') counts for less than a fact: it resembles the
questions put to memory without saying what happened. A second hop searches again with the query
moved towards the first hop's best facts (a broad question shares few words with the facts that
answer it), and ``shares`` gives the namespace of the person a question names more of the K
slots than the other speakers' namespaces (per-speaker namespaces; K per namespace in all).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from dmem.decisions.offline.frames import is_asked
from dmem.evidence.indexes import EvidenceIndexes, Labels, MemoryIndex, TurnIndex
from dmem.evidence.search import DocIndex, fuse
from dmem.state.schemas import MemoryRecord
from dmem.store.base import MemoryStore, SearchFilter
from dmem.store.filters import Hit
from dmem.text.names import question_names, strip_names

POOL = 100  # candidates each signal ranks before fusion
ASKED_WEIGHT = 0.5
"""Share of its fused score a question kept as asked keeps (chosen leaving one conversation out: RESULTS, h26h)."""
OTHER_SHARE = 0.5
"""Share of K a namespace keeps when the question asks about the person of another namespace (``shares``)."""
HOP_DEPTH = 3
"""First-hop facts the second hop's query moves towards (0: no second hop)."""
HOP_MIX = 1.0
"""Weight of the first hop's facts in the second hop's query (the focused query weighs 1)."""
HOP_WEIGHT = 1.0
"""Weight of the second hop's ranking in the fusion (each first-hop signal weighs 1)."""
OWNER_SHARE = 0.5
"""A namespace is about a name when more than this share of its memories name it (and no other namespace's more)."""
Embed = Callable[[list[str]], NDArray[np.float32]]
"""Embeds texts through the run's cache into a new float32 matrix (``Services.embed``)."""


def signal_rankings(docs: DocIndex, question: str) -> list[list[int]]:
    """The lexical and time-cue rankings of one index's memory documents (positions), best first.

    No ranking by the question's names: in a namespace of one person's memories a name says who is
    asked about, which the namespace already settles, and the few lines that do carry it are mostly
    the other speaker's words addressed to that person ('Thanks, Ilka!'), so ranking them first fills
    the K kept with greetings. A rare name still counts through BM25 and the dense query.
    """
    return [docs.lexical(question, POOL), docs.timed(question, POOL)]


def focused_query(docs: DocIndex, question: str) -> str:
    """The question without the names most of these documents share (what the dense signal embeds)."""
    return strip_names(question, docs.shared_names(question))


def distinct_sources(ranked: Sequence[tuple[MemoryRecord, float]], k: int) -> list[tuple[MemoryRecord, float]]:
    """The first ``k`` memories, those whose source turns the memories before them already cover last."""
    out: list[tuple[MemoryRecord, float]] = []
    covered: list[tuple[MemoryRecord, float]] = []
    seen: set[str] = set()
    for record, score in ranked:
        turns = set(record.source_turn_ids)
        (covered if turns and turns <= seen else out).append((record, score))
        seen |= turns
        if len(out) == k:
            break
    return (out + covered)[:k]


def source_ranking(index: MemoryIndex, candidates: Sequence[int], vector: Sequence[float], embed: Embed) -> list[int]:
    """Candidate memories (positions) ranked by their closest source turn to the query vector.

    Only the candidates' turns are embedded (through the run's embedding cache), so a large
    namespace costs at most a few pools of turns per question, never its whole transcript.
    """
    texts = list(dict.fromkeys(t for i in candidates for t in index.sources[i]))
    if not texts:
        return []
    matrix = np.asarray(embed(texts), dtype=np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-12
    query = np.asarray(vector, dtype=np.float32)
    sims = dict(zip(texts, (matrix @ (query / (np.linalg.norm(query) + 1e-12))).tolist(), strict=True))
    best = {i: max(sims[t] for t in index.sources[i]) for i in candidates if index.sources[i]}
    return sorted(best, key=lambda i: -best[i])


def about(index: MemoryIndex, name: str) -> float:
    """The share of the namespace's memories whose text names ``name`` (any case)."""
    if not index.records:
        return 0.0
    pattern = re.compile(rf"\b{re.escape(name)}\b", re.IGNORECASE)
    return sum(bool(pattern.search(r.text)) for r in index.records) / len(index.records)


def shares(question: str, indexes: EvidenceIndexes, namespaces: Sequence[str], k: int,
           labels: Labels | None = None) -> list[int]:
    """How many memories each namespace gives: ``k`` each, unless the question asks about some of them.

    Per-speaker namespaces (one for each person of a chat) each hold the memories about their
    person. A question naming one of them ('What does Maya bake?') is answered mostly from that
    person's namespace, so the others keep ``OTHER_SHARE`` of ``k`` and the named ones share what
    they give up: the count returned stays ``k`` per namespace. A namespace is about a name when
    more than ``OWNER_SHARE`` of its memories name it and no other namespace's memories name it
    more often. Equal shares when the question names everyone's person, nobody's, or there is one
    namespace. Reads only the namespaces' lexical indexes (the ones ``memories`` uses next).
    """
    names = question_names(question)
    if len(namespaces) < 2 or not names:
        return [k] * len(namespaces)
    held = [[about(indexes.memories(ns, labels), n) for n in names] for ns in namespaces]
    named = [any(row[j] > OWNER_SHARE and row[j] == max(r[j] for r in held) for j in range(len(names)))
             for row in held]
    if all(named) or not any(named):
        return [k] * len(namespaces)
    other = max(1, round(k * OTHER_SHARE)) if k else 0
    extra, rest = divmod((k - other) * named.count(False), named.count(True))
    given, out = 0, []
    for is_named in named:
        out.append(k + extra + (1 if is_named and given < rest else 0) if is_named else other)
        given += is_named
    return out


def memories(question: str, store: MemoryStore, indexes: EvidenceIndexes, namespace: str, k: int,
             embed: Embed, labels: Labels | None = None) -> list[tuple[MemoryRecord, float]]:
    """The ``k`` memories of one namespace with the best fused rank, with their fusion scores.

    Signals: the focused query's cosine to the memory and to its closest source turn, BM25 over
    memory + source-turn text + day, the question's time cues, and a second hop's cosine (the
    query moved towards the first hop's best facts, ``hop_query``: one more embedding call and
    vector search). With ``labels``, every signal ranks only the memories (and source turns)
    carrying them.
    """
    index, vector = memory_query(question, indexes, namespace, embed, labels)
    where = SearchFilter.of_labels(labels)
    dense = store.vectors.search([namespace], vector, max(POOL, k), where=where)
    lists, hop = first_hop(question, index, vector, dense, embed)
    second = store.vectors.search([namespace], hop, POOL, where=where) if hop is not None else []
    return kept_memories(index, dense, second, lists, k)


async def amemories(question: str, store: MemoryStore, indexes: EvidenceIndexes, namespace: str, k: int,
                    embed: Embed, labels: Labels | None = None) -> list[tuple[MemoryRecord, float]]:
    """``memories`` on the async path, with the dense search awaited (on the loop itself on PostgreSQL).

    The lexical index refresh (a cache of the namespace's rows, rebuilt when its version moved),
    embedding and fusion are CPU work: they run in worker threads (the refresh's reads awaited on
    the loop's async pool on PostgreSQL, ``store.aoffload``).
    """
    index, vector = await store.aoffload(memory_query, question, indexes, namespace, embed, labels)
    where = SearchFilter.of_labels(labels)
    dense = await store.vectors.asearch([namespace], vector, max(POOL, k), where=where)
    lists, hop = await asyncio.to_thread(first_hop, question, index, vector, dense, embed)
    second = await store.vectors.asearch([namespace], hop, POOL, where=where) if hop is not None else []
    return await asyncio.to_thread(kept_memories, index, dense, second, lists, k)


def memory_query(question: str, indexes: EvidenceIndexes, namespace: str, embed: Embed,
                 labels: Labels | None) -> tuple[MemoryIndex, list[float]]:
    """The namespace's lexical index (refreshed when its rows changed) and the focused query's vector."""
    index = indexes.memories(namespace, labels)
    return index, embed([focused_query(index.docs, question)])[0]


def first_hop(question: str, index: MemoryIndex, vector: list[float], dense: Sequence[Hit],
              embed: Embed) -> tuple[list[list[int]], list[float] | None]:
    """The first hop's rankings (``signal_lists``) and the second hop's query (``hop_query``; None: no second hop)."""
    lists = signal_lists(question, index, vector, dense, embed)
    return lists, hop_query(index, lists, vector, embed)


def signal_lists(question: str, index: MemoryIndex, vector: list[float], dense: Sequence[Hit],
                 embed: Embed) -> list[list[int]]:
    """The first hop's rankings (positions in ``index``): dense hits, lexical, time cues, source turns."""
    position = {r.id: i for i, r in enumerate(index.records)}
    lists = [[position[h.record.id] for h in dense if h.record.id in position],
             *signal_rankings(index.docs, question)]
    lists.append(source_ranking(index, list(dict.fromkeys(i for ranking in lists for i in ranking)), vector, embed))
    return lists


def hop_query(index: MemoryIndex, lists: Sequence[Sequence[int]], vector: Sequence[float],
              embed: Embed) -> list[float] | None:
    """The second hop's query: the focused query moved towards the first hop's ``HOP_DEPTH`` best facts.

    A broad question ('What does Maya do for fun?') shares few words with the facts that answer it
    ('Maya joined a climbing club'); the first hop finds some of them, and what they say about
    the person finds the rest. Questions kept as asked are left out (they state no fact). None
    when the first hop found nothing or ``HOP_DEPTH`` is 0. Costs one embedding of those facts.
    """
    if HOP_DEPTH <= 0:
        return None
    top = [index.records[i].text for i, _ in fuse(lists) if not is_asked(index.records[i].text)][:HOP_DEPTH]
    if not top:
        return None
    rows = np.asarray(embed(top), dtype=np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True) + 1e-12
    query = np.asarray(vector, dtype=np.float32)
    query /= np.linalg.norm(query) + 1e-12
    return (query + HOP_MIX * rows.mean(axis=0)).tolist()


def kept_memories(index: MemoryIndex, dense: Sequence[Hit], second: Sequence[Hit], lists: Sequence[Sequence[int]],
                  k: int) -> list[tuple[MemoryRecord, float]]:
    """Fuse the first hop's rankings with the second hop's dense hits; keep ``k`` (distinct sources, asked last)."""
    position = {r.id: i for i, r in enumerate(index.records)}
    hop = [position[h.record.id] for h in second if h.record.id in position]
    known = {h.record.id: h.record for h in (*second, *dense)}  # live records win over the index's copies
    fused = fuse([*lists, hop], [1.0] * len(lists) + [HOP_WEIGHT]) if hop else fuse(lists)
    ranked = [(known.get(index.records[i].id, index.records[i]), score) for i, score in fused]
    return distinct_sources(asked_last(ranked), k)


def asked_last(ranked: Sequence[tuple[MemoryRecord, float]]) -> list[tuple[MemoryRecord, float]]:
    """The fused list with each question kept as asked at ``ASKED_WEIGHT`` of its score, best first (stable).

    A chat question ('Maya asked Theo: "Did the new puppy settle in?"') reads like the questions asked
    of the memory, so every signal ranks it high, but it states no fact: at full weight such lines
    push the memories that answer out of the K kept.
    """
    weighed = [(r, score * ASKED_WEIGHT if is_asked(r.text) else score) for r, score in ranked]
    return sorted(weighed, key=lambda pair: -pair[1])


def nameless_query(question: str) -> str:
    """The question without any of its names: what a raw turn is about, not who is addressed in it."""
    return strip_names(question, question_names(question)) or question


def turns(question: str, index: TurnIndex, embed: Embed, k: int, told: Sequence[int] = ()) -> list[int]:
    """Positions of the ``k`` transcript turns with the best fused rank (dense, BM25, time cues, speaker).

    Names stay out of the dense query and the text signals: a raw turn rarely names the person it
    is about (they are speaking), while turns that name someone are mostly addressed to them. Who
    speaks is the signal instead: the dense order of the turns said by a speaker the question names.
    ``told`` is one more ranking when the caller has it: the turns behind the memories closest to
    the question (``told_turns``).
    """
    if not index.messages:
        return []
    query = np.asarray(embed([nameless_query(question)])[0], dtype=np.float32)
    query /= np.linalg.norm(query) + 1e-12
    order = np.argsort(-index.similarities(embed, query), kind="stable").tolist()
    lists = [order[:POOL], index.docs.lexical(question, POOL), index.docs.timed(question, POOL),
             spoken_by_named(index, question, order), list(told)[:POOL]]
    return [i for i, _ in fuse(lists)[:k]]


def told_turns(question: str, store: MemoryStore, namespaces: Sequence[str], index: TurnIndex,
               embed: Embed, labels: Labels | None = None) -> list[int]:
    """Positions in ``index`` of the source turns of the ``POOL`` memories closest to the whole question.

    A memory restates what its turn said as one third-person fact about a named person ('Theo
    adopted a puppy'), where the turn itself may be a long greeting about several things. So the
    memories are matched with the question as asked, names included, and lead to turns whose own
    text the question does not resemble. Only memories passing ``labels`` are searched.
    """
    where = SearchFilter.of_labels(labels)
    hits = store.vectors.search(list(namespaces), embed([question])[0], POOL, where=where)
    return list(dict.fromkeys(i for h in hits for i in index.positions.of(h.record)))[:POOL]


def spoken_by_named(index: TurnIndex, question: str, order: Sequence[int]) -> list[int]:
    """The turns, in ``order``, said by a speaker the question names ('What did Theo cook?': Theo's).

    Empty when it names no speaker or every speaker: then who spoke tells no turn apart.
    """
    names = {n.lower() for n in question_names(question)}
    speakers = {m.speaker for m in index.messages}
    named = {s for s in speakers if s.lower() in names or s.split()[0].lower() in names} if names else set()
    if not named or named == speakers:
        return []
    return [i for i in order if index.messages[i].speaker in named][:POOL]
