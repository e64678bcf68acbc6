"""Topology of the three graphs: a Mermaid snapshot each, plus the nodes and routes the design requires.

A changed drawing fails the snapshot test; if the change is intended, rewrite the snapshots with
``DMEM_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/test_topology.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from langgraph.graph.state import CompiledStateGraph

from dmem.graphs import deliberation_graph, ingestion_graph, query_graph

SNAPSHOTS = Path(__file__).parent / "snapshots"
# Read at import: the autouse fixture in conftest clears DMEM_* variables before each test.
UPDATE = os.environ.get("DMEM_UPDATE_SNAPSHOTS") == "1"
GRAPHS: dict[str, CompiledStateGraph] = {
    "ingestion": ingestion_graph, "query": query_graph, "deliberation": deliberation_graph}

NODES = {
    "ingestion": {"read_input", "record", "build_window", "admit", "split_intents", "classify_scope", "ground_deixis",
                  "enrich", "normalize", "extract_facts", "decide_operation", "apply_operations",
                  "keep_for_retry"},
    "query": {"read_question", "retrieve", "filter_memories", "answer", "quality_gate", "vote", "deliberate", "finish",
              "no_memory"},
    "deliberation": {"read_question", "plan_chunks", "deliberate_chunk", "reduce_facts", "select_facts",
                     "answer_from_facts"},
}

# (source, target) pairs that must be routed by a conditional edge (a router with a path_map / Send).
CONDITIONAL = {
    "ingestion": {
        ("record", "build_window"), ("record", "__end__"),          # duplicate exchange ends the run
        ("build_window", "admit"), ("build_window", "extract_facts"),  # formation layer on / off (Mem0*)
        ("admit", "split_intents"), ("admit", "apply_operations"), ("admit", "keep_for_retry"),
        ("split_intents", "keep_for_retry"), ("classify_scope", "keep_for_retry"),
        ("ground_deixis", "enrich"), ("ground_deixis", "normalize"),  # Send per enrichable fact
        ("normalize", "decide_operation"), ("extract_facts", "decide_operation"),  # Send per fact
        ("normalize", "apply_operations"), ("extract_facts", "apply_operations"),
    },
    "query": {
        ("retrieve", "answer"), ("retrieve", "filter_memories"), ("retrieve", "vote"),
        ("retrieve", "deliberate"), ("retrieve", "no_memory"),
        ("answer", "quality_gate"), ("answer", "finish"),
        ("quality_gate", "finish"), ("quality_gate", "deliberate"),
        ("vote", "finish"), ("vote", "deliberate"),
    },
    "deliberation": {
        ("plan_chunks", "deliberate_chunk"), ("plan_chunks", "reduce_facts"),  # Send per chunk
        ("reduce_facts", "select_facts"), ("reduce_facts", "answer_from_facts"),
    },
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_mermaid_matches_snapshot(name: str) -> None:
    drawn = GRAPHS[name].get_graph().draw_mermaid()
    path = SNAPSHOTS / f"{name}.mmd"
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(drawn, encoding="utf-8")
    if not path.is_file():
        pytest.fail(f"no snapshot {path}; review the graph, then write it with "
                    "DMEM_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/test_topology.py")
    assert drawn == path.read_text(encoding="utf-8"), (
        f"the {name} graph changed; if intended, rerun with DMEM_UPDATE_SNAPSHOTS=1 and review the diff")


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_required_nodes_exist(name: str) -> None:
    nodes = set(GRAPHS[name].get_graph().nodes)
    missing = NODES[name] - nodes
    assert not missing, f"{name} graph lacks nodes {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_required_conditional_edges_exist(name: str) -> None:
    edges = {(e.source, e.target): e.conditional for e in GRAPHS[name].get_graph().edges}
    missing = sorted(pair for pair in CONDITIONAL[name] if pair not in edges)
    assert not missing, f"{name} graph lacks edges {missing}"
    plain = sorted(pair for pair in CONDITIONAL[name] if not edges[pair])
    assert not plain, f"{name} graph: these edges must be conditional (routed) {plain}"


def test_every_node_is_reachable_from_start_and_reaches_end() -> None:
    for name, graph in GRAPHS.items():
        drawn = graph.get_graph()
        forward: dict[str, set[str]] = {}
        backward: dict[str, set[str]] = {}
        for e in drawn.edges:
            forward.setdefault(e.source, set()).add(e.target)
            backward.setdefault(e.target, set()).add(e.source)
        for start, links in (("__start__", forward), ("__end__", backward)):
            seen, todo = {start}, [start]
            while todo:
                for nxt in links.get(todo.pop(), set()) - seen:
                    seen.add(nxt)
                    todo.append(nxt)
            assert seen == set(drawn.nodes), f"{name}: {sorted(set(drawn.nodes) - seen)} cut off from {start}"


def test_full_deliberation_is_a_subgraph_of_the_query_graph() -> None:
    inner = {n for n in query_graph.get_graph(xray=True).nodes if n.startswith("deliberate:")}
    assert {f"deliberate:{n}" for n in NODES["deliberation"]} <= inner
