"""The ingestion graph: read_input → record → window → (formation layer | Mem0* extraction) → lifecycle → apply.

Formation: admit → split_intents → classify_scope → ground_deixis → [enrich per fact] → normalize.
Lifecycle: ``decide_operations`` for all facts of the exchange at once (``lifecycle_mode='batch'``)
or one ``decide_operation`` worker per fact (``Send``, ``'per_fact'``), then ``apply_operations``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Send

from dmem.graphs.runs import INGEST_INPUTS, ends_run, starts_run
from dmem.graphs.wiring import Wiring
from dmem.nodes.formation import (
    aadmit,
    aclassify_scope,
    admit,
    aenrich,
    aextract_facts,
    aground_deixis,
    asplit_intents,
    classify_scope,
    enrich,
    extract_facts,
    ground_deixis,
    normalize,
    split_intents,
)
from dmem.nodes.inputs import read_input
from dmem.nodes.lifecycle import (
    adecide_operation,
    adecide_operations,
    apply_operations,
    decide_operation,
    decide_operations,
)
from dmem.nodes.recording import build_window, keep_for_retry, record
from dmem.nodes.releasing import areleasing, releasing
from dmem.privacy.policy import enrichment_query
from dmem.services import Resources
from dmem.state.context import Context
from dmem.state.graphs import FactTask, IngestInput, IngestOutput, IngestState
from dmem.state.privacy_terms import of_settings


def route_after_record(state: IngestState) -> Literal["build_window", "__end__"]:
    """Nothing new in the exchange (already recorded) ends the run."""
    return "build_window" if state.get("exchange") else "__end__"


def route_after_window(state: IngestState, ctx: Context) -> Literal["admit", "extract_facts"]:
    """The formation layer setting picks Gated Memory or plain Mem0* extraction."""
    return "admit" if ctx.formation else "extract_facts"


def route_after_admit(state: IngestState) -> Literal["split_intents", "apply_operations", "keep_for_retry"]:
    """Nothing admitted skips to the commit (which records the rejections)."""
    if state.get("error"):
        return "keep_for_retry"
    if any(d.admitted for d in state.get("admissions", [])):
        return "split_intents"
    return "apply_operations"


def route_on_error(state: IngestState) -> Literal["continue", "keep_for_retry"]:
    """Any step whose model reply stayed malformed keeps the exchange for retry."""
    return "keep_for_retry" if state.get("error") else "continue"


def enrichment_router(owner: Resources) -> Callable[[IngestState, Context], list[Send] | Literal["normalize"]]:
    """The router after grounding, for an owner that may hold an external knowledge source (``owner.knowledge``)."""

    def route_after_grounding(state: IngestState, ctx: Context) -> list[Send] | Literal["normalize"]:
        """Send to the enricher only flagged facts with a permitted source and a safe entity to ask about."""
        if not ctx.enrichment:
            return "normalize"
        token = state.get("claim_token", "")
        sends = [
            Send("enrich", FactTask(index=i, fact=f, claim_token=token))
            for i, f in enumerate(state.get("facts", []))
            if enrichment_query(f, external_allowed=ctx.external_knowledge, has_external=owner.knowledge is not None,
                                extra=of_settings(ctx))
        ]
        return sends or "normalize"

    return route_after_grounding


def route_to_lifecycle(
    state: IngestState, ctx: Context
) -> list[Send] | Literal["decide_operations", "apply_operations", "keep_for_retry"]:
    """One decision for all facts ('batch') or one worker per fact ('per_fact'); no facts: commit."""
    if state.get("error"):
        return "keep_for_retry"
    facts = state.get("facts", [])
    if not facts:
        return "apply_operations"
    if ctx.lifecycle_mode == "batch":
        return "decide_operations"
    token = state.get("claim_token", "")
    return [Send("decide_operation", FactTask(index=i, fact=f, claim_token=token)) for i, f in enumerate(facts)]


def route_after_decisions(state: IngestState) -> Literal["apply_operations", "keep_for_retry"]:
    """A failed lifecycle decision applies nothing and keeps the exchange for retry."""
    return "keep_for_retry" if state.get("failures") else "apply_operations"


def collect_decisions(state: IngestState) -> dict[str, object]:
    """Join point after the lifecycle decisions (per-fact workers or the batch)."""
    return {}


def _add_nodes(g: StateGraph[IngestState, Context, IngestInput, IngestOutput], w: Wiring) -> None:
    """Every node of the ingestion graph, closed over the graph's owner.

    A node after ``record`` that raises releases the run's claim first (``releasing``).
    """

    def claimed(body: Any, abody: Any = None) -> Any:
        return w.node(releasing(body), areleasing(abody) if abody is not None else None)

    g.add_node("read_input", w.node(starts_run(read_input, ("usage", "enriched", "plans", "failures"), {
        "error": None, "admissions": [], "admitted_by": None, "facts": [], "operations": [], "exchange": [],
        "history": [], "background": []})))
    g.add_node("record", w.node(ends_run(record, INGEST_INPUTS, when=lambda update: not update.get("exchange"))))
    g.add_node("build_window", claimed(build_window))
    g.add_node("admit", claimed(admit, aadmit))
    g.add_node("split_intents", claimed(split_intents, asplit_intents))
    g.add_node("classify_scope", claimed(classify_scope, aclassify_scope))
    g.add_node("ground_deixis", claimed(ground_deixis, aground_deixis))
    g.add_node("enrich", claimed(enrich, aenrich), input_schema=FactTask)  # type: ignore[call-overload,arg-type]
    g.add_node("normalize", w.pure(normalize))
    g.add_node("extract_facts", claimed(extract_facts, aextract_facts))
    g.add_node("decide_operation", claimed(decide_operation, adecide_operation), input_schema=FactTask)  # type: ignore[call-overload,arg-type]
    g.add_node("decide_operations", claimed(decide_operations, adecide_operations))
    g.add_node("collect_decisions", w.pure(collect_decisions))
    # admission's verdicts left unread (nothing admitted, or a failure before split) go with the run's inputs
    g.add_node("apply_operations", claimed(ends_run(apply_operations, (*INGEST_INPUTS, "admitted_by"))))
    g.add_node("keep_for_retry", claimed(ends_run(keep_for_retry, (*INGEST_INPUTS, "admitted_by"))))


def build_ingestion_graph(*, resources: Resources) -> StateGraph[IngestState, Context, IngestInput, IngestOutput]:
    """The uncompiled ingestion graph, its nodes closed over ``resources``."""
    w = Wiring(resources)
    g = StateGraph(IngestState, context_schema=Context, input_schema=IngestInput, output_schema=IngestOutput)
    _add_nodes(g, w)
    g.add_edge(START, "read_input")
    g.add_edge("read_input", "record")
    g.add_conditional_edges("record", w.router(route_after_record), {"build_window": "build_window", END: END})
    g.add_conditional_edges("build_window", w.router(route_after_window),
                            {"admit": "admit", "extract_facts": "extract_facts"})
    g.add_conditional_edges("admit", w.router(route_after_admit), {
        "split_intents": "split_intents", "apply_operations": "apply_operations",
        "keep_for_retry": "keep_for_retry"})
    g.add_conditional_edges("split_intents", w.router(route_on_error),
                            {"continue": "classify_scope", "keep_for_retry": "keep_for_retry"})
    g.add_conditional_edges("classify_scope", w.router(route_on_error),
                            {"continue": "ground_deixis", "keep_for_retry": "keep_for_retry"})
    route_after_grounding = enrichment_router(resources)
    g.add_conditional_edges("ground_deixis", w.router(route_after_grounding), ["enrich", "normalize"])
    g.add_edge("enrich", "normalize")
    lifecycle_targets = ["decide_operation", "decide_operations", "apply_operations", "keep_for_retry"]
    g.add_conditional_edges("normalize", w.router(route_to_lifecycle), lifecycle_targets)
    g.add_conditional_edges("extract_facts", w.router(route_to_lifecycle), lifecycle_targets)
    g.add_edge("decide_operation", "collect_decisions")
    g.add_edge("decide_operations", "collect_decisions")
    g.add_conditional_edges("collect_decisions", w.router(route_after_decisions),
                            {"apply_operations": "apply_operations", "keep_for_retry": "keep_for_retry"})
    g.add_edge("apply_operations", END)
    g.add_edge("keep_for_retry", END)
    return g


def compile_ingestion_graph(
    *, resources: Resources, **kwargs: Any
) -> CompiledStateGraph[IngestState, Context, IngestInput, IngestOutput]:
    """Compile, bound to the ``Resources`` that own its store and models (kwargs go to ``compile``)."""
    return build_ingestion_graph(resources=resources).compile(name="dmem_ingestion", **kwargs)
