"""Query-graph nodes that answer: System 1's answer, the quality gate, and Majority Voting / Consensus."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from dmem.decisions.base import Decided
from dmem.errors import ModelError, StructuredOutputError
from dmem.evidence.citations import answer_trace
from dmem.services import Services
from dmem.state import gate_policy as gates
from dmem.state.context import Context
from dmem.state.graphs import GateVerdict, QueryState
from dmem.state.schemas import Usage
from dmem.state.verdicts import NO_INFO, AnswerDraft, QualityGateVerdict, group_answers, is_no_info

log = logging.getLogger(__name__)


def answer(state: QueryState, svc: Services) -> dict[str, Any]:
    """Answer from the retrieved memories (System 1).

    A malformed reply gives no answer; a provider failure after retries propagates (an answer is
    the one call a question cannot do without).
    """
    try:
        out = svc.decider.answer(state["question"], state.get("context", []), core=state.get("core_memories"))
    except StructuredOutputError as exc:
        return _no_answer(exc)
    return _answered(out, _trace(svc, out.value, state))


async def aanswer(state: QueryState, svc: Services) -> dict[str, Any]:
    """``answer`` with the decider awaited on the event loop."""
    try:
        out = await svc.decider.aanswer(state["question"], state.get("context", []),
                                        core=state.get("core_memories"))
    except StructuredOutputError as exc:
        return _no_answer(exc)
    return _answered(out, await svc.store.aoffload(_trace, svc, out.value, state))


def _no_answer(exc: StructuredOutputError) -> dict[str, Any]:
    log.warning("System 1 answer failed: %s", exc)
    return {"system1_answer": NO_INFO, "answer": NO_INFO, "usage": _spent(exc)}


def _trace(svc: Services, draft: AnswerDraft, state: QueryState) -> list[str] | None:
    """The turns the answer drew on (None: it names no line, or has none to give)."""
    if is_no_info(draft.answer):
        return None
    return answer_trace(svc.store.transcript, draft, state.get("memory_ids", []), state.get("memories", []))


def _answered(out: Decided[AnswerDraft], cited: list[str] | None) -> dict[str, Any]:
    result: dict[str, Any] = {"system1_answer": out.value.answer, "answer": out.value.answer, "usage": [out.usage],
                              "system1_evidence_turn_ids": cited or []}
    if cited is not None:
        result["evidence_turn_ids"] = cited  # the trace names what the answer used, not all retrieved
    return result


def _spent(exc: ModelError) -> list[Usage]:
    """The cost of a failed call, when it sent anything."""
    return [exc.usage] if exc.usage is not None else []


def _unaudited(policy: str, why: str, exc: ModelError, *, samples: list[str] | None = None) -> GateVerdict:
    log.warning("%s gate could not run, answer returned unaudited: %s", policy, exc)
    return gates.unaudited(policy, why, exc, samples=samples)


def quality_gate(state: QueryState, svc: Services) -> dict[str, Any]:
    """Check the answer on relevance, faithfulness & consistency, completeness; any fail escalates.

    A malformed verdict counts as a fail; a gate whose model keeps failing (provider errors) lets
    System 1's answer stand, marked unaudited.
    """
    draft = state.get("system1_answer", "")
    if is_no_info(draft):
        return _nothing_to_gate()
    try:
        out = svc.decider.quality_gate(state["question"], draft, state.get("context", []))
    except ModelError as exc:
        return _gate_failed(exc)
    return _gated(out, svc, state["question"], draft)


async def aquality_gate(state: QueryState, svc: Services) -> dict[str, Any]:
    """``quality_gate`` with the decider awaited on the event loop."""
    draft = state.get("system1_answer", "")
    if is_no_info(draft):
        return _nothing_to_gate()
    try:
        out = await svc.decider.aquality_gate(state["question"], draft, state.get("context", []))
    except ModelError as exc:
        return _gate_failed(exc)
    return _gated(out, svc, state["question"], draft)


def _nothing_to_gate() -> dict[str, Any]:
    return {"gate": gates.quality_failed("System 1 could not answer from memory")}


def _gate_failed(exc: ModelError) -> dict[str, Any]:
    """A malformed verdict fails the gate; a gate whose model keeps failing leaves the answer unaudited."""
    if isinstance(exc, StructuredOutputError):
        return {"gate": gates.quality_failed(f"quality gate unusable: {exc}"), "usage": _spent(exc)}
    return {"gate": _unaudited(gates.QUALITY, "the quality gate could not run", exc), "usage": _spent(exc)}


def _gated(out: Decided[QualityGateVerdict], svc: Services, question: str, draft: str) -> dict[str, Any]:
    """The verdict, and whether the answer stands should deliberation find nothing (``adopt_deliberation``)."""
    stands = out.value.only_incomplete and svc.decider.partial_stands(question, draft)
    return {"gate": gates.quality_verdict(out.value), "usage": [out.usage], "system1_may_stand": stands}


def vote(state: QueryState, svc: Services) -> dict[str, Any]:
    """Majority Voting / Consensus: sample answers at a higher temperature, group the equivalent ones.

    Samples whose model keeps failing leave the vote incomplete: the first answer obtained is
    returned unaudited (no sample at all is an error). A grouping reply that is malformed or never
    comes falls back to grouping identical normalised answers.
    """
    question = state["question"]
    samples, usage, failure = _sample(svc, question, state.get("context", []), state.get("core_memories"))
    if failure is not None:
        return _incomplete(svc.context, samples, usage, failure)
    try:
        grouped = svc.decider.group_answers(question, samples)
    except ModelError as exc:
        return _grouped_identically(svc.context, samples, usage, exc)
    return {**_tally(svc.context, samples, grouped.value.groups, grouped.value.best), "usage": [*usage, grouped.usage]}


async def avote(state: QueryState, svc: Services) -> dict[str, Any]:
    """``vote`` with the samples and the grouping awaited on the event loop."""
    question = state["question"]
    samples, usage, failure = await _asample(svc, question, state.get("context", []), state.get("core_memories"))
    if failure is not None:
        return _incomplete(svc.context, samples, usage, failure)
    try:
        grouped = await svc.decider.agroup_answers(question, samples)
    except ModelError as exc:
        return _grouped_identically(svc.context, samples, usage, exc)
    return {**_tally(svc.context, samples, grouped.value.groups, grouped.value.best), "usage": [*usage, grouped.usage]}


def _incomplete(ctx: Context, samples: list[str], usage: list[Usage], failure: ModelError) -> dict[str, Any]:
    """Some samples never came: the first answer obtained, unaudited (none at all: the error)."""
    if not samples:
        raise failure
    gate = _unaudited(ctx.gate_policy, f"{ctx.vote_samples - len(samples)} of {ctx.vote_samples} voting "
                      "samples failed", failure, samples=samples)
    return {"gate": gate, "answer": samples[0], "system1_answer": samples[0], "usage": usage}


def _grouped_identically(ctx: Context, samples: list[str], usage: list[Usage], exc: ModelError) -> dict[str, Any]:
    log.warning("answer grouping failed, grouping identical answers instead: %s", exc)
    note = f" (grouping call failed: identical answers grouped; {exc})"
    return {**_tally(ctx, samples, [], [], note), "usage": usage + _spent(exc)}


Sample = tuple[str | None, list[Usage], ModelError | None]


def _sampled(call: Callable[[], Decided[AnswerDraft]]) -> Sample:
    """One voting sample: its answer (a malformed one counts as no information), cost and provider failure."""
    try:
        out = call()
        return out.value.answer, [out.usage], None
    except StructuredOutputError as exc:
        log.warning("a voting sample failed: %s", exc)
        return NO_INFO, _spent(exc), None
    except ModelError as exc:
        return None, _spent(exc), exc


def _samples(results: list[Sample]) -> tuple[list[str], list[Usage], ModelError | None]:
    usage = [u for _, spent, _ in results for u in spent]
    failure = next((e for _, _, e in results if e is not None), None)
    return [a for a, _, _ in results if a is not None], usage, failure


def _sample(svc: Services, question: str, context: list[str],
            core: int | None) -> tuple[list[str], list[Usage], ModelError | None]:
    """The voting samples obtained, their cost, and the first provider failure if any sample failed."""
    ctx = svc.context

    def one(index: int) -> Sample:
        return _sampled(lambda: svc.decider.answer(question, context, temperature=ctx.vote_temperature, sample=index,
                                                   core=core))

    with ThreadPoolExecutor(max_workers=min(ctx.vote_samples, ctx.max_concurrency)) as pool:
        return _samples(list(pool.map(one, range(ctx.vote_samples))))


async def _asample(svc: Services, question: str, context: list[str], core: int | None
                   ) -> tuple[list[str], list[Usage], ModelError | None]:
    """``_sample`` on the event loop: at most ``max_concurrency`` samples at once (and the endpoint's limit)."""
    ctx = svc.context
    slots = asyncio.Semaphore(min(ctx.vote_samples, ctx.max_concurrency))

    async def one(index: int) -> Sample:
        async with slots:
            try:
                out = await svc.decider.aanswer(question, context, temperature=ctx.vote_temperature, sample=index,
                                                core=core)
            except ModelError as exc:
                caught = exc
            else:
                return _sampled(lambda: out)
        return _sampled(lambda: _raise(caught))  # classified as on the sync path

    return _samples(list(await asyncio.gather(*(one(i) for i in range(ctx.vote_samples)))))


def _raise(exc: ModelError) -> Decided[AnswerDraft]:
    raise exc


def _tally(ctx: Context, samples: list[str], groups: list[list[int]], best: list[int],
           note: str = "") -> dict[str, Any]:
    clean = group_answers(groups, samples)
    top = clean[0] if clean else []
    pick = next((b for b in best if b in top), top[0] if top else 1)
    chosen = samples[pick - 1] if samples else NO_INFO
    gate = gates.vote_verdict(ctx.gate_policy, samples, top, not is_no_info(chosen), clean, note)
    return {"gate": gate, "answer": chosen, "system1_answer": chosen}


def finish(state: QueryState) -> dict[str, Any]:
    """System 1's answer stands."""
    return {"answer": state.get("answer") or state.get("system1_answer") or NO_INFO, "route": "system1"}


def no_memory(state: QueryState) -> dict[str, Any]:
    """Nothing stored for these namespaces: say so, without deliberating over an empty transcript."""
    return {"answer": NO_INFO, "route": "no_memory",
            "gate": gates.no_memory_verdict()}


def adopt_deliberation(state: QueryState) -> dict[str, Any]:
    """Full Deliberation's answer replaces System 1's, unless it found nothing and System 1's answer may stand.

    System 1's answer may stand when the quality gate found it relevant and faithful and failed it only as
    incomplete, and the engine's rule keeps such an answer (``Decider.partial_stands``: the offline engine keeps
    one of the kind the question asks, a person for "who", a number for "how many", ..., never a date; the model
    engine none). It
    says part of what was asked; when deliberation then finds no information, that part stands.
    """
    found = state.get("deliberation_answer") or NO_INFO
    if is_no_info(found) and state.get("system1_may_stand"):
        gate = state.get("gate", {})
        note = ("deliberation found no information: System 1's relevant, faithful but incomplete answer, of the "
                "kind the question asks, stands")
        return {"answer": state["system1_answer"], "route": "deliberation",
                "evidence_turn_ids": state.get("system1_evidence_turn_ids", []),
                "gate": {**gate, "reasons": [*gate.get("reasons", []), note]}}
    return {"answer": found, "route": "deliberation"}
