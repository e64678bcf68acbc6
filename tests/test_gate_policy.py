"""The gate policy's one home (dmem/state/gate_policy.py): every value has a route, and the verdicts say why."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import get_args

import pytest

from dmem.graphs.query import route_after_answer, route_after_filter, route_after_gate, route_after_retrieve
from dmem.state.context import Context
from dmem.state.gate_policy import GATE_POLICIES, ROUTES, stands, unaudited, vote_verdict, votes_needed
from dmem.state.graphs import QueryState
from dmem.state.schemas import MemoryRecord

NOW = datetime(2026, 3, 1, tzinfo=UTC)
SWIMS = MemoryRecord(id="m1", namespace="odile", text="Odile swims at the lido.", created_at=NOW, updated_at=NOW)

WITH_MEMORIES: QueryState = {"question": "Where does Odile swim?", "memories": [SWIMS]}
NOTHING_STORED: QueryState = {"question": "Where does Odile swim?", "memories": [], "has_transcript": False}
ONLY_TRANSCRIPT: QueryState = {"question": "Where does Odile swim?", "memories": [], "has_transcript": True}


def test_every_policy_setting_has_exactly_one_route() -> None:
    assert set(ROUTES) == set(GATE_POLICIES)
    assert set(GATE_POLICIES) == set(get_args(Context.model_fields["gate_policy"].annotation))


@pytest.mark.parametrize("policy", GATE_POLICIES)
def test_routers_follow_the_policy_route(policy: str) -> None:
    ctx = Context(gate_policy=policy)
    route = ROUTES[policy]  # type: ignore[index]
    assert route_after_retrieve(WITH_MEMORIES, ctx) == route.first
    assert route_after_retrieve(NOTHING_STORED, ctx) == "no_memory"
    assert route_after_retrieve(ONLY_TRANSCRIPT, ctx) == ("deliberate" if route.deliberates_without_memories
                                                          else "no_memory")
    filtered = Context(gate_policy=policy, use_filter=True)
    assert route_after_retrieve(WITH_MEMORIES, filtered) == ("deliberate" if policy == "always" else "filter_memories")
    if route.first != "deliberate":
        assert route_after_filter(WITH_MEMORIES, ctx) == route.first
    assert route_after_answer(WITH_MEMORIES, ctx) == ("quality_gate" if route.quality_gate else "finish")


def test_the_papers_policies_route_as_the_papers_say() -> None:
    assert ROUTES["quality"].gated and ROUTES["majority"].gated and ROUTES["consensus"].gated
    assert not ROUTES["never"].gated and not ROUTES["always"].gated
    assert ROUTES["never"].deliberates_without_memories is False
    assert ROUTES["always"].first == "deliberate"


def test_consensus_needs_every_sample_and_majority_more_than_half() -> None:
    assert [votes_needed("consensus", n) for n in (1, 3, 5)] == [1, 3, 5]
    assert [votes_needed("majority", n) for n in (1, 3, 4, 5)] == [1, 2, 3, 3]
    samples = ["the lido", "the lido", "the sea"]
    majority = vote_verdict("majority", samples, [1, 2], True, [[1, 2], [3]])
    consensus = vote_verdict("consensus", samples, [1, 2], True, [[1, 2], [3]])
    assert majority["passed"] and majority["reasons"] == ["2 of 3 answers agree (a majority needed)"]
    assert not consensus["passed"] and consensus["reasons"] == ["2 of 3 answers agree (all needed)"]
    assert not vote_verdict("majority", samples, [1, 2], False, [[1, 2], [3]])["passed"]  # agreeing on 'unknown'


def test_a_gate_that_could_not_run_lets_the_answer_stand() -> None:
    gate = unaudited("majority", "2 of 3 voting samples failed", RuntimeError("timeout"), samples=["the lido"])
    assert gate["unaudited"] and not gate["passed"] and gate["samples"] == ["the lido"]
    assert stands(gate) and route_after_gate({"question": "q", "gate": gate}) == "finish"
    assert unaudited("quality", "the quality gate could not run", RuntimeError("timeout"))["quality"] is None
    assert not stands({"policy": "quality", "passed": False})
