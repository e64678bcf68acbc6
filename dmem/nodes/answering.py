"""Query-graph nodes that answer: System 1's answer, the quality gate, and Majority Voting / Consensus."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langgraph.runtime import Runtime

from dmem.errors import StructuredOutputError
from dmem.services import services_for
from dmem.state.context import Context
from dmem.state.graphs import GateVerdict, QueryState
from dmem.state.schemas import Usage
from dmem.state.verdicts import NO_INFO, is_no_info

log = logging.getLogger(__name__)


def answer(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Answer from the retrieved memories (System 1)."""
    svc = services_for(runtime.context)
    try:
        out = svc.decider.answer(state["question"], state.get("context", []))
    except StructuredOutputError as exc:
        log.warning("System 1 answer failed: %s", exc)
        return {"system1_answer": NO_INFO, "answer": NO_INFO}
    return {"system1_answer": out.value.answer, "answer": out.value.answer, "usage": [out.usage]}


def quality_gate(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Check the answer on relevance, faithfulness & consistency, completeness; any fail escalates."""
    svc = services_for(runtime.context)
    draft = state.get("system1_answer", "")
    if is_no_info(draft):
        gate = GateVerdict(policy="quality", passed=False, quality=None,
                           reasons=["System 1 could not answer from memory"])
        return {"gate": gate}
    try:
        out = svc.decider.quality_gate(state["question"], draft, state.get("context", []))
    except StructuredOutputError as exc:
        gate = GateVerdict(policy="quality", passed=False, quality=None, reasons=[f"quality gate unusable: {exc}"])
        return {"gate": gate}
    verdict = out.value
    reasons = [f"{name}: {'pass' if v.passed else 'fail'} - {v.reason}" for name, v in
               (("relevance", verdict.relevance), ("faithfulness", verdict.faithfulness),
                ("completeness", verdict.completeness))]
    gate = GateVerdict(policy="quality", passed=verdict.passed, quality=verdict, reasons=reasons)
    return {"gate": gate, "usage": [out.usage]}


def vote(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Majority Voting / Consensus: sample answers at a higher temperature, group the equivalent ones."""
    svc = services_for(runtime.context)
    ctx = svc.context
    question, context = state["question"], state.get("context", [])

    def sample(index: int) -> tuple[str, Usage | None]:
        try:
            out = svc.decider.answer(question, context, temperature=ctx.vote_temperature, sample=index)
            return out.value.answer, out.usage
        except StructuredOutputError as exc:
            log.warning("a voting sample failed: %s", exc)
            return NO_INFO, None

    with ThreadPoolExecutor(max_workers=min(ctx.vote_samples, ctx.max_concurrency)) as pool:
        results = list(pool.map(sample, range(ctx.vote_samples)))
    samples = [a for a, _ in results]
    usage = [u for _, u in results if u is not None]
    try:
        grouped = svc.decider.group_answers(question, samples)
    except StructuredOutputError as exc:
        gate = GateVerdict(policy=ctx.gate_policy, passed=False, samples=samples,
                           reasons=[f"answer grouping unusable: {exc}"])
        return {"gate": gate, "usage": usage}
    usage.append(grouped.usage)
    return {**_tally(ctx, samples, grouped.value.groups, grouped.value.best), "usage": usage}


def _tally(ctx: Context, samples: list[str], groups: list[list[int]], best: list[int]) -> dict[str, Any]:
    n = len(samples)
    clean = [[i for i in dict.fromkeys(g) if 1 <= i <= n] for g in groups]
    clean = [g for g in clean if g]
    ranked = sorted(range(len(clean)), key=lambda k: len(clean[k]), reverse=True)
    top = clean[ranked[0]] if ranked else []
    need = n if ctx.gate_policy == "consensus" else n // 2 + 1
    pick = best[ranked[0]] if ranked and ranked[0] < len(best) and best[ranked[0]] in top else (top or [1])[0]
    chosen = samples[pick - 1] if samples else NO_INFO
    passed = len(top) >= need and not is_no_info(chosen)
    reason = (f"{len(top)} of {n} answers agree ({'all' if need == n else 'a majority'} needed)")
    gate = GateVerdict(policy=ctx.gate_policy, passed=passed, samples=samples, groups=clean, reasons=[reason])
    return {"gate": gate, "answer": chosen, "system1_answer": chosen}


def finish(state: QueryState) -> dict[str, Any]:
    """System 1's answer stands."""
    return {"answer": state.get("answer") or state.get("system1_answer") or NO_INFO, "route": "system1"}


def no_memory(state: QueryState) -> dict[str, Any]:
    """Nothing stored for these namespaces: say so, without deliberating over an empty transcript."""
    return {"answer": NO_INFO, "route": "no_memory",
            "gate": GateVerdict(policy="none", passed=True, reasons=["no memories and no transcript"])}


def adopt_deliberation(state: QueryState) -> dict[str, Any]:
    """Full Deliberation's answer replaces System 1's."""
    return {"answer": state.get("deliberation_answer") or NO_INFO, "route": "deliberation"}
