"""Mem0* update phase: decide ADD/UPDATE/DELETE/NOOP per fact or per exchange, then apply in one transaction.

A fact with no stored memory similar enough (cosine above ``update_min_similarity``) has an empty
background, as in the papers: there is nothing to update or delete, so it is added without a
model call.
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime
from typing import Any

from dmem.decisions.base import Decided
from dmem.errors import ModelError
from dmem.nodes.recording import (
    ExchangeLabels,
    exchange_labels,
    exchange_turns,
    mark_processed,
    namespace_for,
    still_claimed,
)
from dmem.privacy.policy import stricter_scope
from dmem.services import Services
from dmem.state.graphs import FactTask, IngestState, PlannedOperation
from dmem.state.schemas import AppliedOperation, Fact, MemoryRecord, MetadataValue, Operation
from dmem.state.verdicts import LifecycleDecision

log = logging.getLogger(__name__)
UNSEEN = "no stored memory is similar enough to compare with: added without a model call"


def _backgrounds(svc: Services, facts: list[Fact]) -> list[list[MemoryRecord]]:
    """Each fact's update background: its top-k similar memories above the cosine threshold."""
    ctx = svc.context
    vectors = svc.embed([f.text for f in facts])
    return [[h.record for h in svc.store.vectors.search([f.namespace], v, ctx.update_top_k)
             if h.score > ctx.update_min_similarity] for f, v in zip(facts, vectors, strict=True)]


def _added(fact: Fact) -> LifecycleDecision:
    return LifecycleDecision(reason=UNSEEN, operation=Operation.ADD, text=fact.text)


def _failed(stage: str, exc: ModelError) -> dict[str, Any]:
    log.warning("%s failed: %s", stage, exc)
    return {"failures": [f"{stage}: {exc}"], "usage": [exc.usage] if exc.usage is not None else []}


def decide_operation(task: FactTask, svc: Services) -> dict[str, Any]:
    """One fact: the decider picks the operation against its background (empty background: ADD)."""
    fact = task["fact"]
    [background] = _backgrounds(svc, [fact])
    if not background:
        return _unseen(task)
    try:
        out = svc.decider.decide_lifecycle(fact, background)
    except ModelError as exc:
        return _failed("decide_lifecycle", exc)
    return _planned(task, out, background)


async def adecide_operation(task: FactTask, svc: Services) -> dict[str, Any]:
    """``decide_operation``: the background search in a worker thread, the decision awaited on the loop."""
    fact = task["fact"]
    [background] = await svc.store.arun(_backgrounds, svc, [fact])
    if not background:
        return _unseen(task)
    try:
        out = await svc.decider.adecide_lifecycle(fact, background)
    except ModelError as exc:
        return _failed("decide_lifecycle", exc)
    return _planned(task, out, background)


def _unseen(task: FactTask) -> dict[str, Any]:
    return {"plans": [PlannedOperation(index=task["index"], decision=_added(task["fact"]), background=[])]}


def _planned(task: FactTask, out: Decided[LifecycleDecision], background: list[MemoryRecord]) -> dict[str, Any]:
    plan = PlannedOperation(index=task["index"], decision=out.value, background=background)
    return {"plans": [plan], "usage": [out.usage]}


def decide_operations(state: IngestState, svc: Services) -> dict[str, Any]:
    """Every fact of the exchange in one decision, against the union of their backgrounds (as mem0 does).

    Facts with an empty background are added without being asked about.
    """
    facts = state.get("facts", [])
    plans, asked, union = _batch(facts, _backgrounds(svc, facts))
    if not asked:
        return {"plans": plans}
    try:
        out = svc.decider.decide_lifecycle_batch([facts[i] for i in asked], union)
    except ModelError as exc:
        return _failed("decide_lifecycle_batch", exc)
    return _batch_planned(plans, asked, union, out)


async def adecide_operations(state: IngestState, svc: Services) -> dict[str, Any]:
    """``decide_operations``: the background searches in a worker thread, the decision awaited on the loop."""
    facts = state.get("facts", [])
    plans, asked, union = _batch(facts, await svc.store.arun(_backgrounds, svc, facts))
    if not asked:
        return {"plans": plans}
    try:
        out = await svc.decider.adecide_lifecycle_batch([facts[i] for i in asked], union)
    except ModelError as exc:
        return _failed("decide_lifecycle_batch", exc)
    return _batch_planned(plans, asked, union, out)


def _batch(facts: list[Fact], backgrounds: list[list[MemoryRecord]]
           ) -> tuple[list[PlannedOperation], list[int], list[MemoryRecord]]:
    """Plans for the facts added unasked, the positions asked about, and the union of their backgrounds."""
    plans = [PlannedOperation(index=i, decision=_added(f), background=[])
             for i, (f, b) in enumerate(zip(facts, backgrounds, strict=True)) if not b]
    asked = [i for i, b in enumerate(backgrounds) if b]
    return plans, asked, list({m.id: m for i in asked for m in backgrounds[i]}.values())


def _batch_planned(plans: list[PlannedOperation], asked: list[int], union: list[MemoryRecord],
                   out: Decided[list[LifecycleDecision]]) -> dict[str, Any]:
    plans += [PlannedOperation(index=i, decision=d, background=union)
              for i, d in zip(asked, out.value, strict=True)]
    return {"plans": plans, "usage": [out.usage]}


def apply_operations(state: IngestState, svc: Services) -> dict[str, Any]:
    """Write admissions, labelled operations and their history rows together, then mark the turns formed.

    Embeddings are computed before the write transaction (which holds the store's write lock).
    Inside it, the run first checks it still holds its turns' claim: if another worker took them
    over (this run outlived its lease), nothing is written and the other worker's result stands.
    The labels the caller gave with the turns are read and written in that same commit, so a
    memory never exists without them, whoever forms the turns and whenever.
    """
    facts = state.get("facts", [])
    plans = sorted(state.get("plans", []), key=lambda p: p["index"])
    texts = [_text(facts[p["index"]], p) for p in plans]
    needed = sorted({t for p, t in zip(plans, texts, strict=True) if p["decision"].operation in _WRITES})
    vectors = dict(zip(needed, svc.embed(needed), strict=True)) if needed else {}
    applied: list[AppliedOperation] = []
    with svc.store.transaction():
        if not still_claimed(state, svc):
            log.warning("another worker took over turns %s; this run writes nothing", exchange_turns(state))
            return {"status": "claimed", "operations": [],
                    "error": "another worker took these turns over while this run was forming them"}
        conversations = {m.turn_id: m.conversation_id for m in state.get("exchange") or []}
        for decision in state.get("admissions", []):
            conversation = conversations.get(decision.turn_id, "default")
            svc.store.history.record_admission(namespace_for(state, decision.speaker), conversation, decision)
        gone: set[str] = set()
        labels = exchange_labels(state, svc)
        for plan, text in zip(plans, texts, strict=True):
            op = _apply(svc, facts[plan["index"]], plan, text, vectors, gone, labels)
            if op is not None:
                applied.append(op)
        mark_processed(state, svc)
    status = state.get("status") or "formed"
    if not any(d.admitted for d in state.get("admissions", [])) and svc.context.formation:
        status = "nothing_admitted"
    elif not facts:
        status = "no_facts"
    return {"operations": applied, "status": status}


_WRITES = (Operation.ADD, Operation.UPDATE)


def _text(fact: Fact, plan: PlannedOperation) -> str:
    return (plan["decision"].text or fact.text).strip()


def _apply(svc: Services, fact: Fact, plan: PlannedOperation, text: str, vectors: dict[str, list[float]],
           gone: set[str], labels: ExchangeLabels) -> AppliedOperation | None:
    decision = plan["decision"]
    background = plan["background"]
    target = None
    if decision.target is not None and 0 <= decision.target < len(background):
        chosen = background[decision.target]
        target = svc.store.vectors.get(chosen.namespace, chosen.id)
        if target is not None and target.id in gone:
            target = None
    op = decision.operation
    if op in (Operation.UPDATE, Operation.DELETE) and target is None:
        if op == Operation.DELETE:
            return None
        op = Operation.ADD  # the memory to update is gone: keep the new fact rather than lose it
    now = datetime.now(UTC)
    if op == Operation.NOOP:
        if target is not None:
            _restated(svc, fact, target, decision.reason, now)
        return AppliedOperation(operation=op, memory_id=target.id if target else None,
                                namespace=fact.namespace, new_text=fact.text, reason=decision.reason)
    if op == Operation.ADD:
        return _add(svc, fact, text, vectors[text], decision.reason, now, labels.of(fact, fact.namespace))
    assert target is not None
    if op == Operation.DELETE:
        svc.store.vectors.delete(target.namespace, target.id)
        gone.add(target.id)
        svc.store.history.append(target.namespace, target.id, op, target.text, None, decision.reason, now)
        return AppliedOperation(operation=op, memory_id=target.id, namespace=target.namespace,
                                old_text=target.text, reason=decision.reason)
    updated = target.model_copy(update={
        "text": text, "updated_at": now, "event_time": fact.event_time or target.event_time,
        "scope": stricter_scope(target.scope, fact.scope),
        "categories": sorted(set(target.categories) | set(fact.categories)),
        "source_turn_ids": list(dict.fromkeys([*target.source_turn_ids, *fact.source_turn_ids])),
        "enrichment": {**target.enrichment, **fact.enrichment},
        "enrichment_source": fact.enrichment_source or target.enrichment_source,
        "metadata": {**target.metadata, **labels.of(fact, target.namespace)},
    })
    svc.store.vectors.update(updated, vectors[text])
    svc.store.history.append(target.namespace, target.id, op, target.text, text, decision.reason, now)
    return AppliedOperation(operation=op, memory_id=target.id, namespace=target.namespace,
                            old_text=target.text, new_text=text, reason=decision.reason)


def _restated(svc: Services, fact: Fact, target: MemoryRecord, reason: str, now: datetime) -> None:
    """A fact restating ``target``: its turns join the memory's sources (text and vector stay).

    So the turn that said it again is still the source of a memory (what it said is findable from its
    turn) without a second memory saying the same thing. The history keeps the memory's text as it was.
    """
    sources = list(dict.fromkeys([*target.source_turn_ids, *fact.source_turn_ids]))
    if sources == target.source_turn_ids:
        return
    svc.store.vectors.update(target.model_copy(update={"source_turn_ids": sources, "updated_at": now}), None)
    svc.store.history.append(target.namespace, target.id, Operation.NOOP, target.text, target.text,
                             f"{reason}; source turns {', '.join(fact.source_turn_ids)} added", now)


def _add(svc: Services, fact: Fact, text: str, vector: list[float], reason: str, now: datetime,
         metadata: dict[str, MetadataValue]) -> AppliedOperation:
    record = MemoryRecord(
        id=str(uuid.uuid4()), namespace=fact.namespace, text=text, categories=fact.categories,
        provenance=fact.provenance, scope=fact.scope, source_turn_ids=fact.source_turn_ids,
        speaker=fact.speaker, event_time=fact.event_time, created_at=now, updated_at=now,
        language=fact.language, conversation_id=fact.conversation_id, enrichment=fact.enrichment,
        enrichment_source=fact.enrichment_source, metadata=metadata,
    )
    svc.store.vectors.add(record, vector)
    svc.store.history.append(record.namespace, record.id, Operation.ADD, None, text, reason, now)
    return AppliedOperation(operation=Operation.ADD, memory_id=record.id, namespace=record.namespace,
                            new_text=text, reason=reason)
