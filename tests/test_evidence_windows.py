"""Focused Deliberation's reading plan: properties of window planning and chunk packing (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dmem.evidence.windows import SEED_AFTER, full_cost, pack, plan_cost, plan_windows, seed_count


@st.composite
def plans(draw: st.DrawFn) -> tuple[list[int], list[int], int, int, int]:
    """Token counts per turn, seeds (in priority order), a budget, a chunk size and a history."""
    tokens = draw(st.lists(st.integers(1, 40), min_size=1, max_size=120))
    seeds = draw(st.lists(st.integers(0, len(tokens) - 1), max_size=12))
    size = draw(st.integers(1, 15))
    history = draw(st.integers(0, 5))
    budget = draw(st.integers(0, full_cost(tokens, size, history) + 50))
    return tokens, seeds, budget, size, history


def seed_windows(seeds: list[int], after: int, n: int, history: int) -> list[range]:
    """Each seed with the ``after`` turns that follow it, merged where their gap is at most ``history``."""
    out: list[range] = []
    for s in sorted(set(seeds)):
        end = min(n, s + after + 1)
        if out and s - out[-1].stop <= history:
            out[-1] = range(out[-1].start, max(end, out[-1].stop))
        else:
            out.append(range(s, end))
    return out


@settings(max_examples=300, deadline=None)
@given(plans())
def test_plan_respects_the_budget(case):
    tokens, seeds, budget, size, history = case
    windows = plan_windows(tokens, seeds, budget, size, history)
    assert plan_cost(tokens, windows, size, history) <= budget


@settings(max_examples=300, deadline=None)
@given(plans())
def test_windows_are_ordered_disjoint_and_merged_where_they_touch(case):
    tokens, seeds, budget, size, history = case
    windows = plan_windows(tokens, seeds, budget, size, history)
    assert all(0 <= w.start < w.stop <= len(tokens) for w in windows)
    assert all(b.start - a.stop > history for a, b in zip(windows, windows[1:], strict=False))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=50), st.integers(0, 100_000))
def test_seeds_read_grow_with_the_budget_but_slower(tokens, budget):
    k = seed_count(tokens, budget)
    assert 1 <= k <= seed_count(tokens, 4 * budget) <= 2 * k + 1


def test_a_long_transcript_reads_its_best_seeds_and_widens_instead_of_reading_the_tail():
    tokens, seeds = [1] * 1000, list(range(0, 960, 16))  # 60 seeds, best first, all with replies fit in 200
    budget = 200
    read = {p for w in plan_windows(tokens, seeds, budget, size=1000, history=0) for p in w}
    kept = seed_count(tokens, budget)
    assert 0 < kept < len(seeds)
    assert set(seeds[:kept]) <= read
    assert not set(seeds[kept:]) & read
    assert len(read) == budget


@settings(max_examples=300, deadline=None)
@given(plans())
def test_every_seed_and_its_reply_are_read_when_the_budget_allows(case):
    tokens, seeds, budget, size, history = case
    seeds = list(dict.fromkeys(seeds))[: seed_count(tokens, budget)]
    wanted = seed_windows(seeds, SEED_AFTER, len(tokens), history)
    if plan_cost(tokens, wanted, size, history) > budget:
        return
    read = {p for w in plan_windows(tokens, seeds, budget, size, history) for p in w}
    assert {p for w in wanted for p in w} <= read


@settings(max_examples=200, deadline=None)
@given(plans())
def test_a_full_budget_reads_everything(case):
    tokens, seeds, _, size, history = case
    if not seeds:
        assert plan_windows(tokens, seeds, full_cost(tokens, size, history), size, history) == []
        return
    assert plan_windows(tokens, seeds, full_cost(tokens, size, history), size, history) == [range(len(tokens))]


@settings(max_examples=300, deadline=None)
@given(plans())
def test_packing_keeps_time_order_size_and_cost(case):
    tokens, seeds, budget, size, history = case
    windows = plan_windows(tokens, seeds, budget, size, history)
    chunks = pack(windows, size, history)
    content = [p for c in chunks for p in c.content]
    assert content == sorted(set(content))  # time order, nothing read twice as content
    assert all(0 < len(c.content) <= size and len(c.preceding) <= history for c in chunks)
    assert all(not c.preceding or c.preceding[-1] + 1 == c.content[0] for c in chunks)
    assert {p for w in windows for p in w} <= set(content)
    sent = sum(tokens[p] for c in chunks for p in (*c.preceding, *c.content))
    assert sent <= plan_cost(tokens, windows, size, history)


def test_full_scan_is_the_papers_chunking():
    chunks = pack([range(125)], 60, 4)
    assert [len(c.content) for c in chunks] == [60, 60, 5]
    assert [c.preceding for c in chunks] == [(), (56, 57, 58, 59), (116, 117, 118, 119)]
    assert full_cost([1] * 125, 60, 4) == 125 + 8 == sum(len(c.content) + len(c.preceding) for c in chunks)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 300), st.integers(1, 70), st.integers(0, 6))
def test_the_full_scan_sends_exactly_its_cost(n, size, history):
    chunks = pack([range(n)], size, history)
    assert sum(len(c.content) + len(c.preceding) for c in chunks) == full_cost([1] * n, size, history)


def test_windows_grow_from_the_best_seed_first():
    tokens = [10] * 100
    # Each seed alone costs 10 + 20 of context; 140 tokens are left to widen them, the first seed first.
    windows = plan_windows(tokens, [20, 80], budget=200, size=60, history=2)
    first, second = (next(w for w in windows if s in w) for s in (20, 80))
    assert len(first) >= len(second) > 1
    assert plan_cost(tokens, windows, 60, 2) <= 200


def test_seeds_that_do_not_all_fit_are_taken_best_first():
    tokens = [10] * 100
    # A seed with its two following turns costs 30 + 20 of context; alone, 10 + 20.
    windows = plan_windows(tokens, [70, 10, 40], budget=85, size=60, history=2)
    assert [any(s in w for w in windows) for s in (70, 10, 40)] == [True, True, False]
    assert range(70, 73) in windows and range(10, 11) in windows
