"""Deliberation as a map-reduce subgraph (the full scan, or focused windows by ``deliberation_mode``).

read_question → plan_chunks → deliberate_chunk ×N (Send) → reduce_facts (the cross-chunk ledger)
→ [select_facts] → answer_from_facts.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Send

from dmem.evidence.questions import needs_every_instance
from dmem.graphs.runs import DELIBERATION_INPUTS, ends_run, starts_run
from dmem.graphs.wiring import Wiring
from dmem.nodes.deliberation import (
    aanswer_from_facts,
    adeliberate_chunk,
    answer_from_facts,
    aplan_chunks,
    aselect_facts,
    deliberate_chunk,
    plan_chunks,
    reduce_facts,
    select_facts,
)
from dmem.nodes.inputs import read_question
from dmem.services import Resources
from dmem.state.context import Context
from dmem.state.graphs import ChunkTask, DeliberationInput, DeliberationOutput, DeliberationState


def route_after_plan(state: DeliberationState) -> list[Send] | Literal["reduce_facts"]:
    """One worker per chunk; an empty transcript goes straight to the reduce step."""
    chunks = state.get("chunks", [])
    return [Send("deliberate_chunk", c) for c in chunks] or "reduce_facts"


def route_after_reduce(state: DeliberationState, ctx: Context) -> Literal["select_facts", "answer_from_facts"]:
    """Select only when more facts remain than the limit, and never for a list, count or ordering question."""
    if needs_every_instance(state["question"]):
        return "answer_from_facts"
    return "select_facts" if len(state.get("kept", [])) > ctx.select_above else "answer_from_facts"


def build_deliberation_graph(
    *, resources: Resources
) -> StateGraph[DeliberationState, Context, DeliberationInput, DeliberationOutput]:
    """The uncompiled deliberation graph, its nodes closed over ``resources`` (full scan or focused)."""
    w = Wiring(resources)
    g = StateGraph(DeliberationState, context_schema=Context, input_schema=DeliberationInput,
                   output_schema=DeliberationOutput)
    g.add_node("read_question", w.pure(starts_run(read_question, ("usage", "chunk_facts", "failed_chunks"))),
               input_schema=DeliberationState)  # reads what the previous run left, to reset it
    g.add_node("plan_chunks", w.node(plan_chunks, aplan_chunks))
    g.add_node("deliberate_chunk", w.node(deliberate_chunk, adeliberate_chunk), input_schema=ChunkTask)  # type: ignore[call-overload,arg-type]
    g.add_node("reduce_facts", w.pure(reduce_facts))
    g.add_node("select_facts", w.node(select_facts, aselect_facts))
    g.add_node("answer_from_facts", w.node(ends_run(answer_from_facts, DELIBERATION_INPUTS),
                                                  ends_run(aanswer_from_facts, DELIBERATION_INPUTS)))
    g.add_edge(START, "read_question")
    g.add_edge("read_question", "plan_chunks")
    g.add_conditional_edges("plan_chunks", w.router(route_after_plan), ["deliberate_chunk", "reduce_facts"])
    g.add_edge("deliberate_chunk", "reduce_facts")
    g.add_conditional_edges("reduce_facts", w.router(route_after_reduce),
                            {"select_facts": "select_facts", "answer_from_facts": "answer_from_facts"})
    g.add_edge("select_facts", "answer_from_facts")
    g.add_edge("answer_from_facts", END)
    return g


def compile_deliberation_graph(
    *, resources: Resources, **kwargs: Any
) -> CompiledStateGraph[DeliberationState, Context, DeliberationInput, DeliberationOutput]:
    """Compile, bound to the ``Resources`` that own its store and models (kwargs go to ``compile``)."""
    return build_deliberation_graph(resources=resources).compile(name="dmem_full_deliberation", **kwargs)
