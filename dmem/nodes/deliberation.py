"""Full Deliberation (System 2): chunk the raw transcript, read chunks in parallel, reduce, answer."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np
from langgraph.runtime import Runtime

from dmem.errors import ModelError, StructuredOutputError
from dmem.services import services_for
from dmem.state.context import Context
from dmem.state.graphs import ChunkTask, DeliberationState
from dmem.state.schemas import Message
from dmem.state.verdicts import NO_INFO, ScoredFact

log = logging.getLogger(__name__)


def make_chunks(question: str, messages: list[Message], size: int, history: int) -> list[ChunkTask]:
    """Cut messages into chunks of ``size``, each with the ``history`` messages before it, read-only."""
    chunks = []
    for index, start in enumerate(range(0, len(messages), size)):
        chunks.append(ChunkTask(question=question, index=index, chunk=messages[start:start + size],
                                preceding=messages[max(0, start - history):start]))
    return chunks


def plan_chunks(state: DeliberationState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Read the transcript of the namespaces asked about, in time order, and cut it into chunks."""
    svc = services_for(runtime.context)
    ctx = svc.context
    messages = svc.store.transcript.messages(list(state.get("namespaces") or ["default"]))
    chunks = make_chunks(state["question"], messages, ctx.chunk_size, ctx.chunk_history)
    if 0 < ctx.deliberation_top_chunks < len(chunks):
        chunks = top_chunks(chunks, state["question"], ctx.deliberation_top_chunks, svc.embed)
    return {"chunks": chunks}


def top_chunks(chunks: list[ChunkTask], question: str, keep: int,
               embed: Callable[[list[str]], list[list[float]]]) -> list[ChunkTask]:
    """The ``keep`` chunks holding the messages most similar to the question, in time order."""
    texts = [m.render() for c in chunks for m in c["chunk"]]
    vectors = np.asarray(embed([question, *texts]), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
    sims = vectors[1:] @ vectors[0]
    best, start = [], 0
    for c in chunks:
        best.append(float(sims[start:start + len(c["chunk"])].max()))
        start += len(c["chunk"])
    chosen = sorted(sorted(range(len(chunks)), key=lambda i: -best[i])[:keep])
    return [chunks[i] for i in chosen]


def deliberate_chunk(task: ChunkTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """Map step: scored, query-relevant facts from one chunk; a failed chunk is skipped, not fatal.

    Failed means malformed replies or a provider failing after retries; the spent calls are counted.
    """
    svc = services_for(runtime.context)
    try:
        out = svc.decider.read_chunk(task["question"], task["chunk"], task["preceding"])
    except ModelError as exc:
        log.warning("chunk %d skipped after retries: %s", task["index"], exc)
        return {"skipped_chunks": [task["index"]], "usage": [exc.usage] if exc.usage is not None else []}
    own = {m.turn_id for m in task["chunk"]}
    facts = []
    for f in out.value.facts:
        if f.score < svc.context.chunk_min_score:
            continue
        turn_ids = [t for t in f.turn_ids if t in own]
        facts.append(f.model_copy(update={"score": max(0, min(10, f.score)), "turn_ids": turn_ids}))
    return {"chunk_facts": facts, "usage": [out.usage]}


def reduce_facts(state: DeliberationState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Sort every worker's facts by score and keep those above the threshold."""
    ctx = services_for(runtime.context).context
    ranked = sorted(state.get("chunk_facts", []), key=lambda f: f.score, reverse=True)
    return {"kept": [f for f in ranked if f.score > ctx.fact_min_score]}


def select_facts(state: DeliberationState, runtime: Runtime[Context]) -> dict[str, Any]:
    """More facts than the limit remain: the model picks the ones needed (indexes from 1)."""
    svc = services_for(runtime.context)
    kept = state.get("kept", [])
    fallback = kept[: svc.context.select_above]
    try:
        out = svc.decider.select_facts(state["question"], kept)
    except ModelError as exc:
        log.warning("fact selection failed, keeping the top %d by score: %s", len(fallback), exc)
        return {"kept": fallback, "usage": [exc.usage] if exc.usage is not None else []}
    chosen = [kept[i - 1] for i in dict.fromkeys(out.value.keep) if 1 <= i <= len(kept)]
    return {"kept": chosen or fallback, "usage": [out.usage]}


def answer_from_facts(state: DeliberationState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Answer from the selected facts; no facts means no information, without a model call."""
    svc = services_for(runtime.context)
    facts: list[ScoredFact] = state.get("kept", [])
    if not facts:
        return {"deliberation_answer": NO_INFO, "facts_used": []}
    try:
        out = svc.decider.answer(state["question"], [f.fact for f in facts])
    except StructuredOutputError as exc:
        log.warning("deliberation answer failed: %s", exc)
        return {"deliberation_answer": NO_INFO, "facts_used": facts}
    return {"deliberation_answer": out.value.answer, "facts_used": facts, "usage": [out.usage]}
