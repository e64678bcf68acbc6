"""The retrieval and deliberation settings of issue 14: parsed, validated, and what a budget means in tokens."""

from __future__ import annotations

import pytest

from dmem.errors import ConfigError
from dmem.evidence.focus import budget_tokens
from dmem.state.context import Context, build_context


def test_defaults_are_hybrid_retrieval_and_focused_deliberation_at_half_the_transcript():
    ctx = Context()
    assert (ctx.retrieval_mode, ctx.deliberation_mode, ctx.deliberation_budget) == ("hybrid", "focused", 0.3)


def test_settings_come_from_the_environment_with_their_types():
    ctx = build_context(environ={"DMEM_DELIBERATION_MODE": "full", "DMEM_DELIBERATION_BUDGET": "12000",
                                 "DMEM_RETRIEVAL_MODE": "dense"})
    assert (ctx.deliberation_mode, ctx.deliberation_budget, ctx.retrieval_mode) == ("full", 12000.0, "dense")


@pytest.mark.parametrize("changes", [{"deliberation_mode": "partial"}, {"retrieval_mode": "sparse"},
                                     {"deliberation_budget": 0}, {"deliberation_budget": -0.2},
                                     {"ledger_limit": 0}])
def test_bad_values_are_config_errors_naming_the_setting(changes):
    with pytest.raises(ConfigError, match=next(iter(changes))):
        build_context(environ={}, **changes)


def test_a_budget_up_to_one_is_a_share_and_above_one_a_token_count():
    full, turns, size = 100_000, 1_000, 60
    assert budget_tokens(0.3, full, turns, size) == 30_000
    assert budget_tokens(1.0, full, turns, size) == full
    assert budget_tokens(12_000, full, turns, size) == 12_000


def test_a_budget_never_falls_below_one_chunk_of_the_transcript():
    assert budget_tokens(0.01, 100_000, 1_000, 60) == 6_000  # one chunk of 60 turns out of 1000
    assert budget_tokens(500, 10_000, 40, 60) == 10_000  # shorter than one chunk: read whole
