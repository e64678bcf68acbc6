"""Deliberation (System 2): plan what to read, read chunks in parallel, fold facts into a ledger, answer.

The plan is the papers' full scan or Focused Deliberation's windows (``deliberation_mode``); either
way each chunk is one worker and the critical path is three model calls (read, select, answer).
"""

from __future__ import annotations

import logging
from typing import Any

from dmem.decisions.base import Decided
from dmem.errors import ModelError, StructuredOutputError
from dmem.evidence.focus import ReadingPlan, reading_plan, seed_turns
from dmem.evidence.hybrid import told_turns
from dmem.evidence.indexes import Labels, TurnIndex
from dmem.evidence.ledger import best_in_time_order, build_ledger
from dmem.evidence.windows import Chunk, pack
from dmem.services import Services
from dmem.state.context import Context
from dmem.state.graphs import ChunkTask, DeliberationState
from dmem.state.schemas import Message, SkippedChunk
from dmem.state.verdicts import NO_INFO, ChunkFacts, MemorySelection, ScoredFact

log = logging.getLogger(__name__)


def make_chunks(question: str, messages: list[Message], size: int, history: int) -> list[ChunkTask]:
    """The full scan: every message in chunks of ``size``, each with the ``history`` messages before it."""
    return _tasks(question, messages, pack([range(0, len(messages))] if messages else [], size, history))


def _tasks(question: str, messages: list[Message], chunks: list[Chunk]) -> list[ChunkTask]:
    return [ChunkTask(question=question, index=i, chunk=[messages[p] for p in c.content],
                      preceding=[messages[p] for p in c.preceding]) for i, c in enumerate(chunks)]


def focus_seeds(svc: Services, question: str, namespaces: list[str], messages: list[Message],
                labels: Labels | None = None, index: TurnIndex | None = None) -> list[int]:
    """Focused reading's seed positions in ``messages`` (read with the filter ``labels``), best first.

    ``index`` is the index of ``messages`` when the caller has it (``grown_transcript``).
    """
    index = index or svc.indexes.turns(namespaces, messages, labels)
    told = told_turns(question, svc.store, namespaces, index, svc.embed, labels)
    return seed_turns(question, index, svc.embed, told)


def grown_transcript(svc: Services, namespaces: list[str], labels: Labels | None) -> TurnIndex | None:
    """The kept index of one namespace's whole transcript, grown from its new turns, when a focused plan reads it.

    Its messages are the transcript in time order, so the plan needs no read of the whole
    transcript; None for a full scan, a label filter or several namespaces (they read the transcript).
    """
    if svc.context.deliberation_mode != "focused" or labels or len(namespaces) != 1:
        return None
    return svc.indexes.transcript(namespaces[0])


def plan_reading(svc: Services, question: str, namespaces: list[str],
                 labels: Labels | None = None) -> tuple[list[Message], ReadingPlan]:
    """The namespaces' transcript in time order and what to read of it (``deliberation_mode``).

    With ``labels`` (the query's label filter) the transcript is only the turns recorded with
    them: chunks, their read-only history and the plan's share of the full scan all come from it.
    """
    index = grown_transcript(svc, namespaces, labels)
    messages = list(index.messages) if index is not None else svc.store.transcript.messages(namespaces, labels)
    return messages, plan_for(svc, question, namespaces, messages, labels, index)


def plan_for(svc: Services, question: str, namespaces: list[str], messages: list[Message],
             labels: Labels | None = None, index: TurnIndex | None = None) -> ReadingPlan:
    """What to read of ``messages`` (the transcript as read): all of it, or Focused Deliberation's windows."""
    ctx = svc.context
    focused = ctx.deliberation_mode == "focused" and messages
    seeds = focus_seeds(svc, question, namespaces, messages, labels, index) if focused else None
    plan = reading_plan(messages, seeds, ctx.deliberation_budget, ctx.chunk_size, ctx.chunk_history)
    log.debug("deliberation plan: %d chunks, %.0f%% of the full scan, %d seeds",
              len(plan.chunks), 100 * plan.share, plan.seeds)
    return plan


def plan_chunks(state: DeliberationState, svc: Services) -> dict[str, Any]:
    """Plan the chunks to read: the whole transcript, or focused windows around the evidence."""
    namespaces = list(state.get("namespaces") or ["default"])
    messages, plan = plan_reading(svc, state["question"], namespaces, state.get("metadata"))
    return {"chunks": _tasks(state["question"], messages, plan.chunks), "read_share": plan.share}


def deliberate_chunk(task: ChunkTask, svc: Services) -> dict[str, Any]:
    """Map step: scored, query-relevant facts from one chunk; a failed chunk is skipped, not fatal.

    Failed means malformed replies or a provider failing after retries; the spent calls are counted.
    """
    try:
        out = svc.decider.read_chunk(task["question"], task["chunk"], task["preceding"])
    except ModelError as exc:
        return _skipped(task, exc)
    return _chunk_facts(task, out, svc.context.chunk_min_score)


async def aplan_chunks(state: DeliberationState, svc: Services) -> dict[str, Any]:
    """``plan_chunks`` with the transcript read awaited (on the loop's async pool on PostgreSQL).

    The plan itself runs in a worker thread: Focused Deliberation's seeds embed turns and build lexical
    indexes; their memory search and index refreshes read through the loop's async pool (``store.aoffload``).
    """
    namespaces = list(state.get("namespaces") or ["default"])
    labels = state.get("metadata")
    index = await svc.store.aoffload(grown_transcript, svc, namespaces, labels)
    messages = list(index.messages) if index is not None else await svc.store.transcript.amessages(namespaces, labels)
    plan = await svc.store.aoffload(plan_for, svc, state["question"], namespaces, messages, labels, index)
    return {"chunks": _tasks(state["question"], messages, plan.chunks), "read_share": plan.share}


async def adeliberate_chunk(task: ChunkTask, svc: Services) -> dict[str, Any]:
    """``deliberate_chunk`` with the decider awaited on the event loop."""
    try:
        out = await svc.decider.aread_chunk(task["question"], task["chunk"], task["preceding"])
    except ModelError as exc:
        return _skipped(task, exc)
    return _chunk_facts(task, out, svc.context.chunk_min_score)


def _skipped(task: ChunkTask, exc: ModelError) -> dict[str, Any]:
    log.warning("chunk %d skipped after retries: %s", task["index"], exc)
    skipped = SkippedChunk(index=task["index"], turn_ids=[m.turn_id for m in task["chunk"]], reason=str(exc))
    return {"failed_chunks": [skipped], "usage": [exc.usage] if exc.usage is not None else []}


def _chunk_facts(task: ChunkTask, out: Decided[ChunkFacts], min_score: int) -> dict[str, Any]:
    own = {m.turn_id for m in task["chunk"]}
    facts = []
    for f in out.value.facts:
        if f.score < min_score:
            continue
        turn_ids = [t for t in f.turn_ids if t in own]
        facts.append(f.model_copy(update={"score": max(0, min(10, f.score)), "turn_ids": turn_ids}))
    empty = [task["index"]] if not out.value.facts and any(m.text.strip() for m in task["chunk"]) else []
    return {"chunk_facts": facts, "empty_chunks": empty, "usage": [out.usage]}


def reduce_facts(state: DeliberationState, ctx: Context) -> dict[str, Any]:
    """Fold every worker's facts into the ledger (dated, duplicates collapsed, time order); keep the strong ones.

    Pure logic over the run's settings ``ctx``: it runs inline on the event loop.
    """
    said = {m.turn_id: m.timestamp for c in state.get("chunks", []) for m in c["chunk"] if m.timestamp}
    speakers = {m.turn_id: m.speaker for c in state.get("chunks", []) for m in c["chunk"]}
    ledger = build_ledger(state.get("chunk_facts", []), said, speakers)
    return {"kept": [f for f in ledger if f.score > ctx.fact_min_score]}


def select_facts(state: DeliberationState, svc: Services) -> dict[str, Any]:
    """More facts than the limit remain: the model picks the ones needed (indexes from 1), kept in time order."""
    kept = state.get("kept", [])
    fallback = best_in_time_order(kept, svc.context.select_above)
    try:
        out = svc.decider.select_facts(state["question"], kept)
    except ModelError as exc:
        return _unselected(fallback, exc)
    return _selected(kept, fallback, out)


async def aselect_facts(state: DeliberationState, svc: Services) -> dict[str, Any]:
    """``select_facts`` with the decider awaited on the event loop."""
    kept = state.get("kept", [])
    fallback = best_in_time_order(kept, svc.context.select_above)
    try:
        out = await svc.decider.aselect_facts(state["question"], kept)
    except ModelError as exc:
        return _unselected(fallback, exc)
    return _selected(kept, fallback, out)


def _unselected(fallback: list[ScoredFact], exc: ModelError) -> dict[str, Any]:
    log.warning("fact selection failed, keeping the top %d by score: %s", len(fallback), exc)
    return {"kept": fallback, "usage": [exc.usage] if exc.usage is not None else []}


def _selected(kept: list[ScoredFact], fallback: list[ScoredFact],
              out: Decided[MemorySelection]) -> dict[str, Any]:
    chosen = [kept[i - 1] for i in sorted(set(out.value.keep)) if 1 <= i <= len(kept)]
    return {"kept": chosen or fallback, "usage": [out.usage]}


def empty_map(state: DeliberationState, engine: str) -> bool:
    """Every chunk read returned no facts although it had content (the result's ``empty_map`` flag).

    A warning is logged only when that points to a degenerate model: the ``model`` engine and
    several chunks all empty. One empty chunk is an ordinary miss (nothing relevant there), and the
    offline engine's rules find nothing in most chunks by design.
    """
    read = {c["index"] for c in state.get("chunks", [])} - {s.index for s in state.get("failed_chunks", [])}
    empty = bool(read) and read <= set(state.get("empty_chunks", []))
    if empty and engine == "model" and len(read) > 1:
        log.warning("deliberation read %d chunks and every one returned no facts: a model replying {} to every "
                    "chunk reads nothing (try another structured_output method or a larger model)", len(read))
    return empty


def answer_from_facts(state: DeliberationState, svc: Services) -> dict[str, Any]:
    """Answer from the ledger's timeline; no facts means no information, without a model call."""
    facts, trace = _timeline(state, svc)
    if not facts:
        return {**trace, "deliberation_answer": NO_INFO}
    try:
        out = svc.decider.answer(state["question"], [f.fact for f in facts])
    except StructuredOutputError as exc:
        return _unanswered(trace, exc)
    return {**trace, "deliberation_answer": out.value.answer, "usage": [out.usage]}


async def aanswer_from_facts(state: DeliberationState, svc: Services) -> dict[str, Any]:
    """``answer_from_facts`` with the decider awaited on the event loop."""
    facts, trace = _timeline(state, svc)
    if not facts:
        return {**trace, "deliberation_answer": NO_INFO}
    try:
        out = await svc.decider.aanswer(state["question"], [f.fact for f in facts])
    except StructuredOutputError as exc:
        return _unanswered(trace, exc)
    return {**trace, "deliberation_answer": out.value.answer, "usage": [out.usage]}


def _timeline(state: DeliberationState, svc: Services) -> tuple[list[ScoredFact], dict[str, Any]]:
    """The facts the answer is drawn from (dated, in time order) and the trace of the deliberation."""
    facts: list[ScoredFact] = best_in_time_order(state.get("kept", []), svc.context.ledger_limit)
    return facts, {"evidence_turn_ids": list(dict.fromkeys(t for f in facts for t in f.turn_ids)),
                   "skipped_chunks": sorted(state.get("failed_chunks", []), key=lambda s: s.index),
                   "facts_used": facts, "empty_map": empty_map(state, svc.decider.name)}


def _unanswered(trace: dict[str, Any], exc: StructuredOutputError) -> dict[str, Any]:
    log.warning("deliberation answer failed: %s", exc)
    return {**trace, "deliberation_answer": NO_INFO, "usage": [exc.usage] if exc.usage is not None else []}

