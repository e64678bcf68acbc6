"""Gated Memory formation: admission, multi-intent split, scope, deictic grounding, enrichment, normalize.

With the formation layer off, ``extract_facts`` replaces the whole layer (Mem0* extraction).
"""

from __future__ import annotations

import functools
import itertools
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from dmem.decisions.base import Decided
from dmem.errors import ModelError
from dmem.grounding.deixis import ground_place, ground_time
from dmem.nodes.recording import namespace_for
from dmem.privacy.carry import screen_all
from dmem.privacy.policy import about_entity, enrichment_query
from dmem.services import Services
from dmem.state.graphs import FactTask, IngestState
from dmem.state.privacy_terms import of_settings
from dmem.state.schemas import AdmissionDecision, Fact, Message, Scope
from dmem.state.verdicts import AdmissionVerdicts, FactDraft, FactDrafts, ScopeLabels

log = logging.getLogger(__name__)
_VOLATILE = re.compile(
    r"^(?:right now|at the moment|currently|just now|these days|for now|today|tonight),?\s+", re.IGNORECASE
)


def _failed(stage: str, exc: ModelError) -> dict[str, Any]:
    log.warning("%s failed: %s", stage, exc)
    return {"error": f"{stage}: {exc}", "usage": [exc.usage] if exc.usage is not None else []}


def admit(state: IngestState, svc: Services) -> dict[str, Any]:
    """Judge each utterance of the current exchange, whole, against the admission criteria."""
    try:
        out = svc.decider.admit(state["exchange"], state.get("history", []), state.get("background", []))
    except ModelError as exc:
        return _failed("admit", exc)
    return _admitted(state["exchange"], out)


async def aadmit(state: IngestState, svc: Services) -> dict[str, Any]:
    """``admit`` with the decider awaited on the event loop."""
    try:
        out = await svc.decider.aadmit(state["exchange"], state.get("history", []), state.get("background", []))
    except ModelError as exc:
        return _failed("admit", exc)
    return _admitted(state["exchange"], out)


def _admitted(exchange: list[Message], out: Decided[AdmissionVerdicts]) -> dict[str, Any]:
    verdicts = {v.turn_id: v for v in out.value.verdicts}
    decisions = []
    for msg in exchange:
        v = verdicts.get(msg.turn_id)
        admitted = bool(v and v.admit)
        reason = v.reason if v else "no verdict returned: rejected"
        decisions.append(AdmissionDecision(turn_id=msg.turn_id, speaker=msg.speaker,
                                           utterance=_utterance(msg), admitted=admitted, reason=reason))
    return {"admissions": decisions, "admitted_by": out.value, "usage": [out.usage]}


def _utterance(msg: Message) -> str:
    return f"{msg.text} [shares a photo: {msg.image_caption}]" if msg.image_caption else msg.text


def _to_facts(state: IngestState, drafts: list[FactDraft], sources: list[Message]) -> list[Fact]:
    by_turn = {m.turn_id: m for m in sources}
    # A reply's fact may also name the question it answers: a turn of the window, not a source.
    window = {m.turn_id: m for m in [*state.get("history", []), *state["exchange"]]}
    facts = []
    for d in drafts:
        if not d.text.strip():
            continue
        turn_ids = [t for t in d.source_turn_ids if t in by_turn or t in window]
        if any(t in by_turn for t in turn_ids):
            src = by_turn[next(t for t in turn_ids if t in by_turn)]
        elif _earlier_line(d, turn_ids, window):
            src = window[turn_ids[0]]
        else:
            turn_ids = [m.turn_id for m in sources]
            src = by_turn[turn_ids[0]]
        speaker = d.speaker or src.speaker
        facts.append(Fact(text=d.text.strip(), namespace=namespace_for(state, speaker), speaker=speaker,
                          categories=d.categories, provenance=d.provenance, language=d.language,
                          source_turn_ids=turn_ids, conversation_id=src.conversation_id,
                          event_time=src.timestamp))
    return facts


def _earlier_line(draft: FactDraft, turn_ids: list[str], window: dict[str, Message]) -> bool:
    """Whether a fact is about an earlier turn of the window only, its own speaker's (the listener took it up)."""
    return bool(turn_ids) and bool(draft.speaker) and all(window[t].speaker == draft.speaker for t in turn_ids)


def _draft_facts(state: IngestState, stage: str, sources: list[Message],
                 decide: Callable[..., Decided[FactDrafts]]) -> dict[str, Any]:
    """Run a fact-drafting decision over ``sources`` with the window as context."""
    try:
        out = decide(sources, state.get("history", []), state.get("background", []))
    except ModelError as exc:
        return _failed(stage, exc)
    return {"facts": _to_facts(state, out.value.facts, sources), "usage": [out.usage]}


async def _adraft_facts(state: IngestState, stage: str, sources: list[Message],
                        decide: Callable[..., Awaitable[Decided[FactDrafts]]]) -> dict[str, Any]:
    """``_draft_facts`` with the decision awaited."""
    try:
        out = await decide(sources, state.get("history", []), state.get("background", []))
    except ModelError as exc:
        return _failed(stage, exc)
    return {"facts": _to_facts(state, out.value.facts, sources), "usage": [out.usage]}


def split_intents(state: IngestState, svc: Services) -> dict[str, Any]:
    """Split admitted utterances into atomic, categorized, grounded facts, with admission's reading of them.

    The verdicts ``admit`` handed over (``admitted_by``) are read once, here, and emptied: nothing of them outlives
    the exchange.
    """
    window, admitted = _split_inputs(state)
    return {**_draft_facts(window, "split_intents", admitted, _with_reading(svc.decider.split, state)),
            "admitted_by": None}


async def asplit_intents(state: IngestState, svc: Services) -> dict[str, Any]:
    """``split_intents`` with the decider awaited on the event loop."""
    window, admitted = _split_inputs(state)
    return {**await _adraft_facts(window, "split_intents", admitted, _with_reading(svc.decider.asplit, state)),
            "admitted_by": None}


def _with_reading(split: Callable[..., Any], state: IngestState) -> Callable[..., Any]:
    """``split``, handed admission's reading of the exchange when the engine that admitted left one.

    Only then is ``admission`` passed, so a decider written to the earlier three-argument ``split`` still works.
    """
    verdicts = state.get("admitted_by")
    if verdicts is None or verdicts.reading is None:
        return split
    return functools.partial(split, admission=verdicts)


def _split_inputs(state: IngestState) -> tuple[IngestState, list[Message]]:
    """The admitted turns, and the state whose history also holds the rejected turns before them."""
    admitted_ids = {d.turn_id for d in state.get("admissions", []) if d.admitted}
    admitted = [m for m in state["exchange"] if m.turn_id in admitted_ids]
    # Rejected turns before the first admitted one (a question it answers) join the reference history.
    asked = list(itertools.takewhile(lambda m: m.turn_id not in admitted_ids, state["exchange"]))
    window = {**state, "history": [*state.get("history", []), *asked]}
    return window, admitted  # type: ignore[return-value]


def extract_facts(state: IngestState, svc: Services) -> dict[str, Any]:
    """Formation layer off: Mem0* extraction from the exchange, top memories and recent messages."""
    return _personal_facts(_draft_facts(state, "extract_facts", state["exchange"], svc.decider.extract_facts),
                           state, svc)


async def aextract_facts(state: IngestState, svc: Services) -> dict[str, Any]:
    """``extract_facts`` with the decider awaited on the event loop."""
    out = await _adraft_facts(state, "extract_facts", state["exchange"], svc.decider.aextract_facts)
    return _personal_facts(out, state, svc)


def _personal_facts(out: dict[str, Any], state: IngestState, svc: Services) -> dict[str, Any]:
    if "facts" in out:  # personal data in a fact or its utterance wins over what the engine said
        out["facts"] = screen_all(out["facts"], state["exchange"], of_settings(svc.context))
    return out


def classify_scope(state: IngestState, svc: Services) -> dict[str, Any]:
    """Exactly one scope per fact, the entity it names, and whether enrichment would help."""
    try:
        out = svc.decider.classify_scope(state.get("facts", []))
    except ModelError as exc:
        return _failed("classify_scope", exc)
    return _labelled(state, svc, out)


async def aclassify_scope(state: IngestState, svc: Services) -> dict[str, Any]:
    """``classify_scope`` with the decider awaited on the event loop."""
    try:
        out = await svc.decider.aclassify_scope(state.get("facts", []))
    except ModelError as exc:
        return _failed("classify_scope", exc)
    return _labelled(state, svc, out)


def _labelled(state: IngestState, svc: Services, out: Decided[ScopeLabels]) -> dict[str, Any]:
    facts = state.get("facts", [])
    labels = {lab.index: lab for lab in out.value.labels}
    labelled = []
    for i, fact in enumerate(facts, start=1):
        lab = labels.get(i)
        scope = lab.scope if lab else Scope.USER_PII  # unlabelled: the most restrictive scope
        update = {"scope": scope, "enrich": bool(lab and lab.enrich), "entity": lab.entity if lab else None}
        labelled.append(fact.model_copy(update=update))
    # Personal data in a fact or its utterance wins over the model; the rules vet each entity.
    return {"facts": screen_all(labelled, state["exchange"], of_settings(svc.context)), "usage": [out.usage]}


def ground_deixis(state: IngestState, svc: Services) -> dict[str, Any]:
    """Relative times to absolute dates from each message's timestamp; 'here' from request context."""
    ctx = svc.context
    by_turn = {m.turn_id: m for m in state["exchange"]}
    grounded = []
    for fact in state.get("facts", []):
        src = next((by_turn[t] for t in fact.source_turn_ids if t in by_turn), None)
        update: dict[str, Any] = {}
        if src is not None and src.timestamp is not None:
            g = ground_time(fact.text, src.timestamp)
            update = {"text": g.text, "event_time": g.event_time or src.timestamp}
        text = update.get("text", fact.text)
        placed = ground_place(text, ctx.location)
        if placed != text:
            # The place came from the user's request context: it stays private.
            update.update(text=placed, enrich=fact.enrich and fact.scope != Scope.EXTERNAL)
        grounded.append(fact.model_copy(update=update))
    return {"facts": grounded}


async def aground_deixis(state: IngestState, svc: Services) -> dict[str, Any]:
    """``ground_deixis`` inline on the event loop: pure logic, no I/O."""
    return ground_deixis(state, svc)


def enrich(task: FactTask, svc: Services) -> dict[str, Any]:
    """Add attributes from the one source the fact's scope permits, asked only about the named entity.

    The external source receives the entity's name alone; its reply lines are kept only when they
    are about that entity, within ``enrichment_max_chars``; the memory records where they came from.
    """
    fact = task["fact"]
    query = enrichment_query(fact, external_allowed=svc.context.external_knowledge,
                             has_external=svc.knowledge is not None, extra=of_settings(svc.context))
    if query is None:  # the router sends only facts with a permitted query; checked again here
        return {"enriched": []}
    source, entity = query
    if source == "external" and svc.knowledge is not None:
        lines = svc.knowledge.lookup(entity)
        origin = f"external:{getattr(svc.knowledge, 'name', None) or type(svc.knowledge).__name__}"
    else:
        vector = svc.embed([fact.text])[0]
        lines = [h.record.text for h in svc.store.vectors.search([fact.namespace], vector, 5)]
        origin = "internal:memories"
    knowledge = about_entity(lines, entity, svc.context.enrichment_max_chars)
    if not knowledge:
        return {"enriched": []}
    try:
        out = svc.decider.enrich(fact, knowledge)
    except ModelError as exc:
        log.warning("enrichment skipped for %r: %s", fact.text, exc)
        return {"enriched": [], "usage": [exc.usage] if exc.usage is not None else []}
    if not out.value.attributes:
        return {"enriched": [], "usage": [out.usage]}
    enriched = fact.model_copy(update={"enrichment": dict(out.value.attributes),
                                       "enrichment_source": f"{origin} about {entity!r}"})
    return {"enriched": [FactTask(index=task["index"], fact=enriched)], "usage": [out.usage]}


async def aenrich(task: FactTask, svc: Services) -> dict[str, Any]:
    """``enrich`` in a worker thread, its store reads awaited on the loop's async pool on PostgreSQL.

    The knowledge source and the decider run there as on the sync path (``store.aoffload``).
    """
    return await svc.store.aoffload(enrich, task, svc)


def normalize(state: IngestState) -> dict[str, Any]:
    """Merge enrichment, strip volatile session context, drop duplicate facts."""
    facts = list(state.get("facts", []))
    for item in state.get("enriched", []):
        facts[item["index"]] = item["fact"]
    seen: set[tuple[str, str]] = set()
    out = []
    for fact in facts:
        text = _VOLATILE.sub("", fact.text).strip()
        text = text[:1].upper() + text[1:] if text else text
        key = (fact.namespace, text.lower())
        if not text or key in seen:
            continue
        seen.add(key)
        out.append(fact.model_copy(update={"text": text}))
    return {"facts": out}
