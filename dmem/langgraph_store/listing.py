"""``list_namespaces`` over the namespace tuples that hold items: prefix and suffix matches, depth, paging."""

from __future__ import annotations

from collections.abc import Sequence

from langgraph.store.base import ListNamespacesOp, MatchCondition


def list_namespaces(namespaces: Sequence[tuple[str, ...]], op: ListNamespacesOp) -> list[tuple[str, ...]]:
    """The tuples matching every condition, cut to ``max_depth`` (then deduplicated), sorted, paged."""
    kept = [ns for ns in namespaces if all(_matches(cond, ns) for cond in op.match_conditions or ())]
    if op.max_depth is not None:
        kept = list({ns[:op.max_depth] for ns in kept})
    return sorted(kept)[op.offset:op.offset + op.limit]


def _matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """A prefix or suffix match, where the label '*' matches any label."""
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    part = namespace[:len(path)] if condition.match_type == "prefix" else namespace[len(namespace) - len(path):]
    if condition.match_type not in ("prefix", "suffix"):
        raise ValueError(f"unknown namespace match type {condition.match_type!r}")
    return all(want == "*" or got == want for got, want in zip(part, path, strict=True))
