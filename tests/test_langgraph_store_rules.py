"""Pure pieces of the store adapter, property-tested: the namespace rule, namespace matching, value filters."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.store.base import ListNamespacesOp, MatchCondition
from langgraph.store.memory import _compare_values, _does_match

from dmem.langgraph_store.listing import list_namespaces
from dmem.langgraph_store.namespaces import NamespaceRule
from dmem.langgraph_store.values import item_value, matches, split_value
from dmem.state.schemas import MemoryRecord

label = st.text(st.characters(codec="utf-8", exclude_characters="./\x00", exclude_categories=("Cc", "Cs")),
                min_size=1, max_size=8).filter(lambda s: s.strip() and not s.startswith(("agent:", "run:")))
scope_id = label.filter(lambda s: ":" not in s)


@settings(deadline=None)
@given(st.lists(label, min_size=0, max_size=2), label, st.none() | scope_id, st.none() | scope_id)
def test_a_tuple_and_its_dmem_namespace_map_both_ways(collection: list[str], user: str, agent: str | None,
                                                      run: str | None) -> None:
    rule = NamespaceRule(collection_depth=len(collection), default_collection=tuple(collection))
    labels = (*collection, user, *([f"agent:{agent}"] if agent else []), *([f"run:{run}"] if run else []))
    got_collection, dmem_namespace = rule.split(labels)
    assert got_collection == tuple(collection)
    assert rule.join(got_collection, dmem_namespace) == labels


namespaces = st.lists(st.lists(st.sampled_from(["a", "b", "c", "users"]), min_size=1, max_size=4).map(tuple),
                      max_size=12, unique=True)
path = st.lists(st.sampled_from(["a", "b", "c", "*"]), min_size=0, max_size=3).map(tuple)


@settings(deadline=None)
@given(namespaces, st.none() | path, st.none() | path, st.none() | st.integers(1, 4), st.integers(0, 5),
       st.integers(0, 3))
def test_namespace_listing_matches_langgraphs(found: list[tuple[str, ...]], prefix: Any, suffix: Any,
                                              depth: int | None, limit: int, offset: int) -> None:
    conditions = tuple(MatchCondition(match_type=kind, path=p) for kind, p in (("prefix", prefix), ("suffix", suffix))
                       if p is not None)
    op = ListNamespacesOp(match_conditions=conditions, max_depth=depth, limit=limit, offset=offset)
    expected = [ns for ns in found if all(_does_match(c, ns) for c in conditions)]
    expected = sorted({ns[:depth] for ns in expected}) if depth is not None else sorted(expected)
    assert list_namespaces(found, op) == expected[offset:offset + limit]


scalar = st.one_of(st.text(max_size=5), st.integers(-3, 3), st.floats(-3, 3, allow_nan=False))


@settings(deadline=None)
@given(st.dictionaries(st.sampled_from(["k", "n", "x"]), scalar, max_size=3),
       st.dictionaries(st.sampled_from(["k", "n", "x"]), scalar, max_size=2))
def test_plain_filters_agree_with_langgraphs_when_types_agree(value: dict[str, Any], wanted: dict[str, Any]) -> None:
    same_types = all(type(value.get(k)) is type(v) for k, v in wanted.items() if k in value)
    if same_types:
        assert matches(value, wanted) == all(_compare_values(value.get(k), v) for k, v in wanted.items())


storable = st.characters(exclude_characters="\x00", exclude_categories=("Cs",))
"""Characters a store keeps: a NUL or a lone surrogate is refused with a DataError (tests/test_bad_input.py)."""
label_value = st.one_of(st.text(storable, min_size=1, max_size=5).filter(str.strip), st.integers(), st.booleans())


@settings(deadline=None)
@given(st.sampled_from(["content", "text", "memory", "data"]),
       st.text(storable, min_size=1, max_size=20).filter(str.strip),
       st.dictionaries(st.sampled_from(["kind", "n", "ok"]), label_value, max_size=3))
def test_a_value_reads_back_as_put(field: str, text: str, rest: dict[str, Any]) -> None:
    got_field, got_text, labels = split_value({field: text, **rest})
    metadata = {**labels, **({} if got_field == "content" else {"store:field": got_field})}
    record = MemoryRecord(id="m", namespace="maya", text=got_text, created_at="2024-01-01T00:00:00Z",
                          updated_at="2024-01-01T00:00:00Z", metadata=metadata)
    assert item_value(record) == {field: text.strip(), **rest}
