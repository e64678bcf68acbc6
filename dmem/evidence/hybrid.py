"""Hybrid retrieval: dense and lexical ranks, with time-cue matches, fused by reciprocal rank.

``memories`` is System 1's retrieval (both engines use it through the ``retrieve`` node);
``turns`` finds raw transcript turns for Focused Deliberation's seeds. The dense query over
memories leaves out the names most documents share (small sentence embeddings let a name outweigh
the topic: every line about a person looks alike), and the K memories kept are spread over distinct
source turns, so K memories point at as much evidence as they can. A question kept as asked (the
offline formation's 'Maya asked Theo: "..."') counts for less than a fact: it resembles the
questions put to memory without saying what happened. With per-speaker namespaces, ``shares``
gives the namespace of the person a question names more of the K slots than the others' (K per
namespace in all). A list question that names a category ('What hobbies does Maya have?') adds a
ranking of the memories that are instances of it (``kinds``); a question about someone's tastes
('Which games has Maya got in common with Theo?') a BM25 ranking of the words that state one (``kinds``).
Every question adds a ranking of the memories by the turns said just before theirs (``threads``): a
terse fragment's topic lives there.
With per-speaker namespaces the chat's people the question names leave every namespace's dense query
(``people``): in one speaker's memories the other's name marks their exchanges, not a topic.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from dmem.decisions.offline.chains import FRAGMENT_MAX_WORDS
from dmem.decisions.offline.frames import is_asked
from dmem.evidence.indexes import EvidenceIndexes, Labels, MemoryIndex, TurnIndex
from dmem.evidence.kinds import asked_kind, instance_ranking, taste_words
from dmem.evidence.search import DocIndex, fuse
from dmem.evidence.threads import speakerless_query, thread_ranking
from dmem.state.schemas import MemoryRecord
from dmem.store.base import MemoryStore, SearchFilter
from dmem.store.filters import Hit
from dmem.text.names import question_names, strip_names

POOL = 100  # candidates each signal ranks before fusion
ASKED_WEIGHT = 0.5
"""Share of its fused score a question kept as asked keeps (chosen leaving one conversation out: RESULTS, h26h)."""
OTHER_SHARE = 0.5
"""Share of K a namespace gives when the question asks about another namespace's person (``shares``; chosen on
LoCoMo's tuning half and invented batches 1-2, checked on RealTalk's and batch 3: RESULTS, h46c)."""
OWNER_SHARE = 0.5
"""A namespace is about a name when more than this share of its memories name it (and no other namespace's more)."""
INSTANCE_WEIGHT = 1.0
"""Weight in the fusion of the ranking of a list question's instances (``kinds``; 0.5 / 1 / 2 tried on LoCoMo's
tuning half and invented batches 1-2, 1 kept (0.5 the same), checked on RealTalk's and batches 3-4: RESULTS, h47b)."""
THREAD_WEIGHT = 0.5
"""Weight in the fusion of the ranking of memories by the turns of their thread (``threads``; 1 and 0.5 tried on
RealTalk's tuning Chat_1 and batch 14, 0.5 kept; checked on batch 12: RESULTS, h55c)."""
TASTE_WEIGHT = 1.0
"""Weight in the fusion of a taste question's ranking by the words that state a taste (``kinds.taste_words``; a full
signal's, chosen on RealTalk's tuning half: RESULTS, h63h)."""
TERSE_THREAD_WEIGHT = 1.0
"""Weight of the same ranking for memories all of whose source turns are terse (``terse``): a full signal's. At half
weight a terse line its thread ranks first stayed below the K kept of a long namespace; a longer line says its own
topic, and lifting it as much pushed list answers out in chats of long turns (RESULTS, h58e)."""
TERSE_WORDS = FRAGMENT_MAX_WORDS
"""Most words of a terse source turn: a reply that says little without what came before (``chains``)."""
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


def focused_query(docs: DocIndex, question: str, people: Sequence[str] = ()) -> str:
    """The question without the names most of these documents share, nor ``people`` (what the dense signal embeds)."""
    return strip_names(question, [*docs.shared_names(question), *people]) or question


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
    """The share of the namespace's memories whose text names ``name`` (any case), kept on the index."""
    key = name.lower()
    if key not in index.named:
        pattern = re.compile(rf"\b{re.escape(name)}\b", re.IGNORECASE)
        count = sum(bool(pattern.search(r.text)) for r in index.records)
        index.named[key] = count / len(index.records) if index.records else 0.0
    return index.named[key]


@dataclass(frozen=True)
class Asked:
    """What a list question asks for (``kinds``), read once per question for every namespace."""

    kind: str | None = None
    """The category the question names ('hobbies'), None when it names none."""
    vector: list[float] = field(default_factory=list)
    """The category's embedding alone (empty without a category)."""


@dataclass(frozen=True)
class Plan:
    """A question's retrieval plan: each namespace's memory index and share of K, and what a list question asks."""

    held: list[tuple[MemoryIndex, int]]
    asked: Asked
    people: tuple[str, ...] = ()
    """The question's names that are a namespace's person (``people``): left out of every namespace's dense query."""


def asked_for(question: str, embed: Embed) -> Asked:
    """The category a list question names and its embedding (one embedding, cached; none without a category)."""
    kind = asked_kind(question)
    if kind is None:
        return Asked()
    vector = embed([kind])[0].tolist()
    return Asked(kind, vector)


def plan(question: str, indexes: EvidenceIndexes, namespaces: Sequence[str], k: int, embed: Embed,
         labels: Labels | None = None) -> Plan:
    """Each namespace's index and share of K (``shares``), what is asked (``asked_for``), who is named (``people``).

    The index is brought up to its version once, what is asked read once, for every namespace. One version
    read per namespace serves both ``shares`` and ``memories`` (a query each on PostgreSQL).
    """
    held = [indexes.memories(ns, labels) for ns in namespaces]
    return Plan(list(zip(held, shares(question, held, k), strict=True)), asked_for(question, embed),
                people(question, held))


def people(question: str, held: Sequence[MemoryIndex]) -> tuple[str, ...]:
    """The question's names that some namespace is about (``about``, as ``shares`` reads it): the chat's people.

    With per-speaker namespaces every memory is about the speakers: a speaker's name tells who, which the
    shares already weigh, not what. Left in a namespace's query, the other speaker's name lifts the lines that
    name them most ('Theo answered Maya's question ...') over the ones about the topic asked. One namespace: none.
    """
    names, rows = name_shares(question, held)
    return tuple(n for j, n in enumerate(names) if max(r[j] for r in rows) > OWNER_SHARE)


def name_shares(question: str, held: Sequence[MemoryIndex]) -> tuple[list[str], list[list[float]]]:
    """The question's names and, per namespace, the share of its memories naming each (``about``).

    Both empty when there is one namespace or the question names no one: per-speaker reading needs two.
    """
    names = question_names(question)
    if len(held) < 2 or not names:
        return [], []
    return names, [[about(index, n) for n in names] for index in held]


def shares(question: str, held: Sequence[MemoryIndex], k: int) -> list[int]:
    """How many memories each namespace gives: ``k`` each, unless the question asks about some of them.

    Per-speaker namespaces (one for each person of a chat) each hold the memories about their
    person. A question naming one of them ('What does Maya bake?') is answered mostly from that
    person's namespace, so the others give ``OTHER_SHARE`` of ``k`` (at least one) and the named
    ones share what they gave up: the count returned stays ``k`` per namespace. A namespace is
    about a name when more than ``OWNER_SHARE`` of its memories name it and no other namespace's
    memories name it more often. Equal shares when the question names everyone's person, nobody's,
    or there is one namespace. ``held``: the namespaces' memory indexes (``plan``, the ones
    ``memories`` reads next); their name shares are kept on them (``about``).
    """
    names, rows = name_shares(question, held)
    if not names:
        return [k] * len(held)
    named = [any(row[j] > OWNER_SHARE and row[j] == max(r[j] for r in rows) for j in range(len(names)))
             for row in rows]
    if all(named) or not any(named):
        return [k] * len(held)
    other = max(1, round(k * OTHER_SHARE)) if k else 0
    extra, rest = divmod((k - other) * named.count(False), named.count(True))
    given, out = 0, []
    for is_named in named:
        out.append(k + extra + (1 if is_named and given < rest else 0) if is_named else other)
        given += is_named
    return out


def memories(question: str, store: MemoryStore, indexes: EvidenceIndexes, namespace: str, k: int,
             embed: Embed, labels: Labels | None = None, index: MemoryIndex | None = None,
             asked: Asked | None = None, people: Sequence[str] = ()) -> list[tuple[MemoryRecord, float]]:
    """The ``k`` memories of one namespace with the best fused rank, with their fusion scores.

    Signals: the focused query's cosine to the memory and to its closest source turn, BM25 over
    memory + source-turn text + day, the question's time cues, and the turns just before the memory's
    (``thread_query``); for a list question, its category's instances. With ``labels``, every signal ranks only the
    memories (and source turns) carrying them. ``index`` and ``asked``: the namespace's memory index and
    what the question asks for when the caller read them already (``plan``), else read here. ``people``: the
    chat's people the question names (``Plan.people``), left out of the dense query.
    """
    read, vector = memory_query(question, indexes, namespace, embed, labels, index, people)
    thread = thread_query(question, store, indexes, namespace, read, labels)
    asked = asked if asked is not None else asked_for(question, embed)
    where = SearchFilter.of_labels(labels)
    dense = store.vectors.search([namespace], vector, max(POOL, k), where=where)
    instances = store.vectors.search([namespace], asked.vector, POOL, where=where) if asked.kind else []
    return fused_memories(question, read, vector, dense, k, embed, asked, instances, thread)


async def amemories(question: str, store: MemoryStore, indexes: EvidenceIndexes, namespace: str, k: int,
                    embed: Embed, labels: Labels | None = None, index: MemoryIndex | None = None,
                    asked: Asked | None = None, people: Sequence[str] = ()) -> list[tuple[MemoryRecord, float]]:
    """``memories`` on the async path, with the dense search awaited (on the loop itself on PostgreSQL).

    The lexical index refresh (a cache of the namespace's rows, rebuilt when its version moved),
    embedding and fusion are CPU work: they run in worker threads (the refresh's reads awaited on
    the loop's async pool on PostgreSQL, ``store.aoffload``).
    """
    read, vector = await store.aoffload(memory_query, question, indexes, namespace, embed, labels, index, people)
    thread = await store.aoffload(thread_query, question, store, indexes, namespace, read, labels)
    asked = asked if asked is not None else await asyncio.to_thread(asked_for, question, embed)
    where = SearchFilter.of_labels(labels)
    dense = await store.vectors.asearch([namespace], vector, max(POOL, k), where=where)
    instances = await store.vectors.asearch([namespace], asked.vector, POOL, where=where) if asked.kind else []
    return await asyncio.to_thread(fused_memories, question, read, vector, dense, k, embed, asked, instances, thread)


def memory_query(question: str, indexes: EvidenceIndexes, namespace: str, embed: Embed, labels: Labels | None,
                 index: MemoryIndex | None = None, people: Sequence[str] = ()) -> tuple[MemoryIndex, list[float]]:
    """The namespace's lexical index (refreshed when its rows changed, unless given) and the focused query's vector."""
    index = index if index is not None else indexes.memories(namespace, labels)
    return index, embed([focused_query(index.docs, question, people)])[0]


def thread_query(question: str, store: MemoryStore, indexes: EvidenceIndexes, namespace: str, index: MemoryIndex,
                 labels: Labels | None = None) -> list[int]:
    """The namespace's memories ranked by the question's best turns of their thread (``threads``).

    The transcript index is the namespace's kept one; with ``labels``, the turns carrying them only. The
    question goes without its speakers' names only (``speakerless_query``): a third person's name stays.
    """
    if labels:
        turns = indexes.turns([namespace], store.transcript.messages([namespace], labels), labels)
    else:
        turns = indexes.transcript(namespace)
    return thread_ranking(speakerless_query(question, turns), index, turns)


def fused_memories(question: str, index: MemoryIndex, vector: list[float], dense: Sequence[Hit], k: int,
                   embed: Embed, asked: Asked | None = None, instances: Sequence[Hit] = (),
                   thread: Sequence[int] = ()) -> list[tuple[MemoryRecord, float]]:
    """Fuse the dense hits with the lexical, time-cue and source-turn rankings; keep ``k``.

    A list question (``asked`` names a category) adds the ranking of ``instances``, the dense hits for its
    category alone that do not say the word (at ``INSTANCE_WEIGHT``, ``kinds``). A question about someone's
    tastes adds the BM25 ranking of the words that state one (at ``TASTE_WEIGHT``, ``kinds.taste_words``).
    ``thread``: the memories ranked by the turns of their thread (``thread_query``): the terse ones (``terse``) at
    ``TERSE_THREAD_WEIGHT``, the others at ``THREAD_WEIGHT``, each in its own ranking.
    """
    position = {r.id: i for i, r in enumerate(index.records)}
    lists = [[position[h.record.id] for h in dense if h.record.id in position],
             *signal_rankings(index.docs, question)]
    weights = [1.0] * len(lists)
    if asked is not None and asked.kind is not None:
        lists.append(instance_ranking(asked.kind, instances, position))
        weights.append(INSTANCE_WEIGHT)
    if taste := taste_words(question):
        lists.append(index.docs.lexical(taste, POOL))
        weights.append(TASTE_WEIGHT)
    if thread:
        short = terse(index, thread)
        lists += [[i for i in thread if i in short], [i for i in thread if i not in short]]
        weights += [TERSE_THREAD_WEIGHT, THREAD_WEIGHT]
    lists.append(source_ranking(index, list(dict.fromkeys(i for ranking in lists for i in ranking)), vector, embed))
    weights.append(1.0)
    known = {h.record.id: h.record for h in dense}  # live records win over the index's copies
    known.update((h.record.id, h.record) for h in instances if h.record.id not in known)
    ranked = [(known.get(index.records[i].id, index.records[i]), score) for i, score in fuse(lists, weights)]
    return distinct_sources(asked_last(ranked), k)


def terse(index: MemoryIndex, positions: Sequence[int]) -> set[int]:
    """The memories (positions) whose source turns are all terse: at most ``TERSE_WORDS`` words each.

    ``index.sources`` holds the turns as rendered ('[time] speaker: text'): the words after the speaker count.
    """
    return {i for i in positions
            if index.sources[i] and all(len(t.split(": ", 1)[-1].split()) <= TERSE_WORDS for t in index.sources[i])}


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
