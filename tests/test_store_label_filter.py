"""A transcript label filter runs in SQL on both backends and keeps exactly what ``labels_match`` keeps."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from dmem.store import MemoryStore, Routing
from dmem.store.base import labels_match
from dmem.store.labelsql import postgres_labels, sqlite_labels
from dmem.store.sql import Sql
from tests.test_store_contract import BACKENDS, make_store, msg

LABELLED: dict[int, dict[str, Any]] = {
    1: {"flag": True},
    2: {"flag": 1},
    3: {"flag": 1.0},
    4: {"flag": "1"},
    5: {"flag": False, "n": 0},
    6: {"n": 0.0},
    7: {"n": -0.0, "team": "a"},
    8: {"n": 2**70, "team": "b"},
    9: {"n": 0.1, "team": 'say "hi" \\ back'},
    10: {"n": 1e16, "team": "ünïcødé 😀"},
    11: {"team": '{"flag": true}', "a.b": "dotted"},
    12: {'"k"': "quoted key", "team": "a", "n": 3},
    13: {"team": "A"},
    14: {"n": 0.30000000000000004},
}
"""Turn number -> its labels; turns 15 and 16 stay unlabelled."""

FILTERS: list[dict[str, Any]] = [
    {"flag": True}, {"flag": 1}, {"flag": 1.0}, {"flag": "1"}, {"flag": False}, {"flag": 0},
    {"n": 0}, {"n": 0.0}, {"n": -0.0}, {"n": 2**70}, {"n": float(2**70)}, {"n": 2**70 + 1},
    {"n": 0.1}, {"n": 0.1 + 0.2}, {"n": 0.3}, {"n": 1e16}, {"n": 10**16}, {"n": 3}, {"n": 3.0},
    {"team": 'say "hi" \\ back'}, {"team": "ünïcødé 😀"}, {"team": "unicode"}, {"team": '{"flag": true}'},
    {"flag": {"nested": True}}, {"team": "a"}, {"team": "a", "n": 3}, {"team": "a", "n": -0.0},
    {"team": "a", "n": 4}, {"a.b": "dotted"}, {"a": "dotted"}, {'"k"': "quoted key"}, {"missing": 1},
    {"team": None},
]


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStore]:
    s = make_store(request.param, tmp_path, request)
    yield s
    s.close()


class RowSpy:
    """Counts the transcript rows each SQL read hands back to Python."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rows: list[int] = []
        real = Sql.query

        def spy(sql: Sql, text: str, params: Any = ()) -> list[Any]:
            found = real(sql, text, params)
            if "FROM messages" in text:
                self.rows.append(len(found))
            return found

        monkeypatch.setattr(Sql, "query", spy)


def record(store: MemoryStore, labelled: Mapping[int, dict[str, Any]], ns: str = "alice") -> None:
    for n, labels in labelled.items():
        store.transcript.append(Routing.of(ns), [msg("c", n)], labels)
    store.transcript.append(Routing.of(ns), [msg("c", 15), msg("c", 16)])


def expected(labelled: Mapping[int, dict[str, Any]], wanted: Mapping[str, Any]) -> list[str]:
    return [f"c:{n}" for n, labels in labelled.items() if labels_match(labels, wanted)]


def test_every_filter_keeps_what_labels_match_keeps(store: MemoryStore) -> None:
    record(store, LABELLED)
    for wanted in FILTERS:
        got = [m.turn_id for m in store.transcript.messages(["alice"], wanted)]
        assert got == expected(LABELLED, wanted), wanted
    assert expected(LABELLED, {"flag": 1}) == ["c:2"]  # the table does tell True, 1 and 1.0 apart
    assert expected(LABELLED, {"n": 0.0}) == ["c:6", "c:7"]  # and -0.0 equals 0.0, as floats do


def test_sql_returns_only_the_matches_when_it_can_judge_them(store: MemoryStore, monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    many = {n: {"team": "a", "week": n} for n in range(1, 41)} | {41: {"team": "b", "week": 41}}
    record(store, many)
    spy = RowSpy(monkeypatch)
    exact = [{"team": "b"}, {"team": "a", "week": 7}, {"week": 41}, {"flag": True}, {"team": "a"}]
    for wanted in exact:
        spy.rows.clear()
        got = [m.turn_id for m in store.transcript.messages(["alice"], wanted)]
        assert got == expected(many, wanted) and spy.rows == [len(got)], wanted  # Python filtered nothing out


def test_loose_labels_are_rechecked_and_never_break_a_query(store: MemoryStore) -> None:
    loose = {1: {"x": float("inf"), "team": "a"}, 2: {"x": float("nan"), "team": "a"},
             3: {"x": "NaN", "team": "b"}, 4: {"x": "nul\x00here", "team": "a"}, 5: {"x": 1.5, "team": "a"},
             6: {"nul\x00key": 1, "team": "c"}}
    record(store, loose)
    for wanted in [{"team": "a"}, {"x": float("inf")}, {"x": float("nan")}, {"x": "NaN"}, {"x": "nul\x00here"},
                   {"x": 1.5}, {"team": "b"}, {"nul\x00key": 1}, {"team": "c", "nul\x00key": 1.0}]:
        assert [m.turn_id for m in store.transcript.messages(["alice"], wanted)] == expected(loose, wanted), wanted


def test_the_filter_reads_only_the_namespaces_asked(store: MemoryStore) -> None:
    record(store, {1: {"team": "a"}}, ns="alice")
    record(store, {2: {"team": "a"}}, ns="bob")
    assert [m.turn_id for m in store.transcript.messages(["bob"], {"team": "a"})] == ["c:2"]
    assert len(store.transcript.messages(["alice", "bob"], {"team": "a"})) == 2
    assert len(store.transcript.messages(["alice"], {})) == 3  # no filter: unlabelled turns too


@pytest.mark.parametrize("build", [sqlite_labels, postgres_labels])
def test_only_values_sql_cannot_compare_exactly_ask_for_a_recheck(build: Any) -> None:
    assert build("labels", {"s": "x", "b": True, "i": 7, "neg": -(2**63)}).exact
    assert not build("labels", {"f": float("nan")}).exact
    assert build("labels", {"f": 0.5}).exact is (build is postgres_labels)  # SQLite's float parsing may round
    assert build("labels", {"big": 2**64}).exact is (build is postgres_labels)
