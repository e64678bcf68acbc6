"""The query graph: read_question → retrieve → [filter] → answer → gate → (finish | Full Deliberation).

Policies (their values and routes: ``dmem.state.gate_policy``): quality (the quality gate), majority /
consensus (vote), never (Mem0* only), always (System 2 only).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from dmem.graphs.deliberation import build_deliberation_graph
from dmem.graphs.runs import QUERY_INPUTS, ends_run, starts_run
from dmem.graphs.wiring import Wiring
from dmem.nodes.answering import (
    aanswer,
    adopt_deliberation,
    answer,
    aquality_gate,
    avote,
    finish,
    no_memory,
    quality_gate,
    vote,
)
from dmem.nodes.inputs import read_question
from dmem.nodes.retrieval import afilter_memories, aretrieve, filter_memories, retrieve
from dmem.services import Resources
from dmem.state.context import Context
from dmem.state.gate_policy import route_of, stands
from dmem.state.graphs import QueryInput, QueryOutput, QueryState
from dmem.tracing.outcome import reports_outcome


def route_after_retrieve(
    state: QueryState, ctx: Context
) -> Literal["filter_memories", "answer", "vote", "deliberate", "no_memory"]:
    """Nothing to read (under the label filter) → no_memory; 'always' skips System 1; voting policies sample."""
    route = route_of(ctx.gate_policy)
    if not state.get("memories"):
        return "deliberate" if route.deliberates_without_memories and state.get("has_transcript") else "no_memory"
    if route.first != "deliberate" and ctx.use_filter:
        return "filter_memories"
    return route.first


def route_after_filter(state: QueryState, ctx: Context) -> Literal["answer", "vote"]:
    """After the filter, voting policies sample; the others answer once."""
    return "vote" if route_of(ctx.gate_policy).first == "vote" else "answer"


def route_after_answer(state: QueryState, ctx: Context) -> Literal["quality_gate", "finish"]:
    """'never' returns System 1's answer; 'quality' sends it to the quality gate."""
    return "quality_gate" if route_of(ctx.gate_policy).quality_gate else "finish"


def route_after_gate(state: QueryState) -> Literal["finish", "deliberate"]:
    """A passed gate, or one that could not run (unaudited), returns System 1's answer; a fail escalates."""
    return "finish" if stands(state.get("gate", {})) else "deliberate"


def build_query_graph(*, resources: Resources) -> StateGraph[QueryState, Context, QueryInput, QueryOutput]:
    """The uncompiled query graph, its nodes closed over ``resources`` (Full Deliberation is a subgraph node)."""
    w = Wiring(resources)
    g = StateGraph(QueryState, context_schema=Context, input_schema=QueryInput, output_schema=QueryOutput)
    g.add_node("read_question", w.pure(starts_run(read_question, ("usage",), {"gate": {}, "system1_may_stand": False})),
               input_schema=QueryState)  # reads what the previous run left, to reset it
    g.add_node("retrieve", w.node(retrieve, aretrieve))
    g.add_node("filter_memories", w.node(filter_memories, afilter_memories))
    g.add_node("answer", w.node(answer, aanswer))
    g.add_node("quality_gate", w.node(quality_gate, aquality_gate))
    g.add_node("vote", w.node(vote, avote))
    g.add_node("deliberate", build_deliberation_graph(resources=resources).compile(name="dmem_full_deliberation"))
    g.add_node("adopt_deliberation", w.pure(ends_run(reports_outcome(adopt_deliberation), QUERY_INPUTS)),
               metadata={"route": "deliberation"})
    g.add_node("finish", w.pure(ends_run(reports_outcome(finish), QUERY_INPUTS)), metadata={"route": "system1"})
    g.add_node("no_memory", w.pure(ends_run(reports_outcome(no_memory), QUERY_INPUTS)),
               metadata={"route": "no_memory"})
    g.add_edge(START, "read_question")
    g.add_edge("read_question", "retrieve")
    g.add_conditional_edges("retrieve", w.router(route_after_retrieve), {
        "filter_memories": "filter_memories", "answer": "answer", "vote": "vote",
        "deliberate": "deliberate", "no_memory": "no_memory"})
    g.add_conditional_edges("filter_memories", w.router(route_after_filter), {"answer": "answer", "vote": "vote"})
    g.add_conditional_edges("answer", w.router(route_after_answer),
                            {"quality_gate": "quality_gate", "finish": "finish"})
    after_gate: dict[Hashable, str] = {"finish": "finish", "deliberate": "deliberate"}
    g.add_conditional_edges("quality_gate", w.router(route_after_gate), after_gate)
    g.add_conditional_edges("vote", w.router(route_after_gate), after_gate)
    g.add_edge("deliberate", "adopt_deliberation")
    g.add_edge("adopt_deliberation", END)
    g.add_edge("finish", END)
    g.add_edge("no_memory", END)
    return g


def compile_query_graph(
    *, resources: Resources, **kwargs: Any
) -> CompiledStateGraph[QueryState, Context, QueryInput, QueryOutput]:
    """Compile, bound to the ``Resources`` that own its store and models (kwargs go to ``compile``)."""
    return build_query_graph(resources=resources).compile(name="dmem_query", **kwargs)
