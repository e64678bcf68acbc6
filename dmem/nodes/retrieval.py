"""System 1 retrieval: top-K memories per namespace asked about (hybrid or dense), and the paper's optional Filter."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from dmem.decisions.base import Decided
from dmem.errors import ModelError
from dmem.evidence import episodes, hybrid
from dmem.evidence.indexes import Labels
from dmem.evidence.questions import retrieval_budget
from dmem.services import Services
from dmem.state.context import Context
from dmem.state.graphs import QueryState
from dmem.state.schemas import MemoryRecord
from dmem.state.verdicts import MemorySelection
from dmem.store.base import SearchFilter
from dmem.text.aliases import speaker_aliases, with_speaker_names
from dmem.text.names import question_names

log = logging.getLogger(__name__)


def search_memories(svc: Services, question: str, namespaces: list[str],
                    labels: Labels | None = None) -> list[tuple[MemoryRecord, float]]:
    """Top K per namespace (``top_k``), merged best first: fused ranks (hybrid) or cosine (dense).

    Hybrid: a question about the person of some of the namespaces takes more from those and less from
    the others, K per namespace in all (``hybrid.shares``). With ``labels`` (the query's label filter),
    only memories carrying every one of them. A wide question's memories are those of the same K first,
    then its wider share (``same_k_first``); hybrid retrieval then adds up to ``episode_neighbours`` memories
    of the best ones' neighbouring turns (``with_neighbours``).
    """
    return retrieved_memories(svc, question, namespaces, labels)[0]


def retrieved_memories(svc: Services, question: str, namespaces: list[str],
                       labels: Labels | None = None) -> tuple[list[tuple[MemoryRecord, float]], int]:
    """``search_memories``' hits and how many of the first are the memories of the same K every question gets."""
    k, wide = svc.context.retrieval_top_k, top_k(svc.context, question)
    hits = _search(svc, question, namespaces, labels, wide)
    core = hits if wide == k else _search(svc, question, namespaces, labels, k)
    merged = hits if wide == k else same_k_first(core, hits)
    return with_neighbours(svc, merged, namespaces, labels), len(core)


async def aretrieved_memories(svc: Services, question: str, namespaces: list[str],
                              labels: Labels | None = None) -> tuple[list[tuple[MemoryRecord, float]], int]:
    """``retrieved_memories`` with the vector searches awaited."""
    k, wide = svc.context.retrieval_top_k, top_k(svc.context, question)
    hits = await _asearch(svc, question, namespaces, labels, wide)
    core = hits if wide == k else await _asearch(svc, question, namespaces, labels, k)
    merged = hits if wide == k else same_k_first(core, hits)
    return await svc.store.aoffload(with_neighbours, svc, merged, namespaces, labels), len(core)


def with_neighbours(svc: Services, hits: list[tuple[MemoryRecord, float]], namespaces: list[str],
                    labels: Labels | None = None) -> list[tuple[MemoryRecord, float]]:
    """``hits`` and, after them, up to ``episode_neighbours`` memories of their best ones' episodes (hybrid only).

    The memories said in the turns next to the best retrieved ones' (``episodes.neighbours``) come last, with the
    last hit's score: whatever was retrieved keeps its place, so the same-K memories still come first.
    """
    limit = svc.context.episode_neighbours
    if not limit or not hits or svc.context.retrieval_mode != "hybrid":
        return hits
    held = {ns: (svc.indexes.memories(ns, labels), svc.indexes.transcript(ns)) for ns in namespaces}
    extra = episodes.neighbours([record for record, _ in hits], held, limit)
    return hits + [(record, hits[-1][1]) for record in extra]


def same_k_first(core: list[tuple[MemoryRecord, float]],
                 wide: list[tuple[MemoryRecord, float]]) -> list[tuple[MemoryRecord, float]]:
    """The same-K memories in their order, then the wider retrieval's others, best first, each once.

    The first ``len(core)`` lines are then exactly what any question gets, so an answerer may read them
    first and the wider share only for what they lack (the offline engine does: ``wide_context``).
    """
    seen = {record.id for record, _ in core}
    return core + [(record, score) for record, score in wide if record.id not in seen]


def _search(svc: Services, question: str, namespaces: list[str], labels: Labels | None,
            k: int) -> list[tuple[MemoryRecord, float]]:
    hits: list[tuple[MemoryRecord, float]] = []
    if svc.context.retrieval_mode == "hybrid":
        planned = hybrid.plan(question, svc.indexes, namespaces, k, svc.embed, labels)
        for ns, (index, share) in zip(namespaces, planned.held, strict=True):
            hits.extend(hybrid.memories(question, svc.store, svc.indexes, ns, share, svc.embed, labels, index,
                                        planned.asked, planned.people))
        return _best_first(hits)
    vector = svc.embed([question])[0]  # the question as asked, the same for every namespace
    for ns in namespaces:
        found = svc.store.vectors.search([ns], vector, k, where=SearchFilter.of_labels(labels))
        hits.extend((h.record, h.score) for h in found)
    return _best_first(hits)


async def asearch_memories(svc: Services, question: str, namespaces: list[str],
                           labels: Labels | None = None) -> list[tuple[MemoryRecord, float]]:
    """``search_memories`` with the vector searches awaited (on the loop on PostgreSQL), embedding in a thread."""
    return (await aretrieved_memories(svc, question, namespaces, labels))[0]


async def _asearch(svc: Services, question: str, namespaces: list[str], labels: Labels | None,
                   k: int) -> list[tuple[MemoryRecord, float]]:
    hits: list[tuple[MemoryRecord, float]] = []
    if svc.context.retrieval_mode == "hybrid":
        planned = await svc.store.aoffload(hybrid.plan, question, svc.indexes, namespaces, k, svc.embed, labels)
        for ns, (index, share) in zip(namespaces, planned.held, strict=True):
            hits.extend(await hybrid.amemories(question, svc.store, svc.indexes, ns, share, svc.embed, labels, index,
                                               planned.asked, planned.people))
        return _best_first(hits)
    vector = (await asyncio.to_thread(svc.embed, [question]))[0]
    for ns in namespaces:
        found = await svc.store.vectors.asearch([ns], vector, k, where=SearchFilter.of_labels(labels))
        hits.extend((h.record, h.score) for h in found)
    return _best_first(hits)


def top_k(context: Context, question: str) -> int:
    """Memories per namespace for ``question``: ``retrieval_top_k``, more for a wide one (``retrieval_budget``).

    A list, count or both-speaker question (``questions.needs_wide_retrieval``) gets ``retrieval_top_k`` times
    ``wide_retrieval_factor``.
    """
    return retrieval_budget(question, context.retrieval_top_k, context.wide_retrieval_factor)


def _best_first(hits: list[tuple[MemoryRecord, float]]) -> list[tuple[MemoryRecord, float]]:
    hits.sort(key=lambda pair: pair[1], reverse=True)
    return hits


def source_turns(memories: list[MemoryRecord]) -> list[str]:
    """The turns the memories were formed from, in memory order, each once: System 1's evidence trace."""
    return list(dict.fromkeys(t for m in memories for t in m.source_turn_ids))


def retrieve(state: QueryState, svc: Services) -> dict[str, Any]:
    """Retrieve the memories System 1 answers from, rendered with event times.

    Without a memory, it also looks up whether the (label-filtered) transcript holds a turn, so the
    router after it reads state only (routers never do I/O: they run on the server's event loop).
    """
    namespaces = list(state.get("namespaces") or ["default"])
    question = asked_by_speaker_names(svc, state["question"], namespaces)
    hits, core = retrieved_memories(svc, question, namespaces, state.get("metadata"))
    found = bool(hits) or svc.store.transcript.has_turns(namespaces, state.get("metadata"))
    return _retrieved(hits, core, found, question)


async def aretrieve(state: QueryState, svc: Services) -> dict[str, Any]:
    """``retrieve`` on the async path: store reads awaited (on the loop's async pool on PostgreSQL)."""
    namespaces = list(state.get("namespaces") or ["default"])
    question = await svc.store.aoffload(asked_by_speaker_names, svc, state["question"], namespaces)
    hits, core = await aretrieved_memories(svc, question, namespaces, state.get("metadata"))
    found = bool(hits) or await svc.store.transcript.ahas_turns(namespaces, state.get("metadata"))
    return _retrieved(hits, core, found, question)


def asked_by_speaker_names(svc: Services, question: str, namespaces: list[str]) -> str:
    """The question with the other names a speaker goes by (learned from the namespaces' transcripts) as their label.

    Memories name a speaker by the transcript's label, so 'What did Alex cook?' asks about Sasha when
    the chat taught that Sasha is called Alex (``dmem.text.aliases``). Reads nothing when the question
    names no one.
    """
    names = set(question_names(question))
    if not names:
        return question
    turns = {(m.conversation_id, m.turn_id): m for ns in namespaces for m in svc.indexes.transcript(ns).messages}
    found = speaker_aliases(turns.values(), names)
    if found:
        log.info("question names a speaker by another name: %s",
                 "; ".join(f"{a.name} is {a.speaker} (turns {', '.join(a.turn_ids[:3])})" for a in found))
    return with_speaker_names(question, found)


def _retrieved(hits: list[tuple[MemoryRecord, float]], core: int, has_transcript: bool,
               question: str) -> dict[str, Any]:
    memories = [record for record, _ in hits]
    return {
        "core_memories": core,
        "question": question,
        "asked": question,
        "memories": memories,
        "has_transcript": has_transcript,
        "scores": [score for _, score in hits],
        "context": [m.render() for m in memories],
        "memory_ids": [m.id for m in memories],
        "evidence_turn_ids": source_turns(memories),
        "answer": "",
        "route": "system1",
        "facts_used": [],
        "read_share": 0.0,
        "skipped_chunks": [],
    }


def filter_memories(state: QueryState, svc: Services) -> dict[str, Any]:
    """Keep only the memories strictly needed; an empty selection or a failed call keeps them all."""
    memories = state.get("memories", [])
    try:
        out = svc.decider.filter_memories(state["question"], memories)
    except ModelError as exc:  # malformed, or a provider failing after retries: the optional step is skipped
        return _unfiltered(exc)
    return _filtered(memories, out)


async def afilter_memories(state: QueryState, svc: Services) -> dict[str, Any]:
    """``filter_memories`` with the decider awaited on the event loop."""
    memories = state.get("memories", [])
    try:
        out = await svc.decider.afilter_memories(state["question"], memories)
    except ModelError as exc:
        return _unfiltered(exc)
    return _filtered(memories, out)


def _unfiltered(exc: ModelError) -> dict[str, Any]:
    log.warning("filter failed, using the unfiltered context: %s", exc)
    return {"usage": [exc.usage] if exc.usage is not None else []}


def _filtered(memories: list[MemoryRecord], out: Decided[MemorySelection]) -> dict[str, Any]:
    keep = [memories[i - 1] for i in dict.fromkeys(out.value.keep) if 1 <= i <= len(memories)]
    if not keep:
        return {"usage": [out.usage]}
    # The memories the filter kept are the answer's, all alike: no wider share is left to read last.
    return {"context": [m.render() for m in keep], "memory_ids": [m.id for m in keep], "core_memories": len(keep),
            "evidence_turn_ids": source_turns(keep), "usage": [out.usage]}
