"""Property: the SQL label filter of each dialect, plus its re-check, keeps exactly what ``labels_match`` keeps."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dmem.store.dialect import POSTGRES, SQLITE, Dialect
from dmem.store.filters import labels_match

KEYS = st.one_of(st.sampled_from(["a", "b"]), st.sampled_from(["a.b", '"q"', "ü", "x\x00"]))
CLOSE = st.sampled_from([True, False, 0, 1, 0.0, 1.0, -0.0, "1", "0", 2**64, float(2**64), float("inf"), float("nan")])
"""Values that equal each other in SQL or Python unless the type is checked too."""
VALUES = st.one_of(
    CLOSE, CLOSE, st.integers(-3, 3), st.integers(-(2**80), 2**80), st.sampled_from([0.5, 1e16, 0.1 + 0.2]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4),
    st.sampled_from(["true", "NaN", "Infinity", "", 'say "x"', "é😀", "a\x00", '{"a": 1}']),
)
LABELS = st.dictionaries(KEYS, VALUES, max_size=3)
Run = Callable[[str, list[Any]], list[tuple[int, Any]]]


def encode(labels: dict[str, Any]) -> str:
    """As ``dmem.store.turns`` writes the column."""
    return json.dumps(labels, sort_keys=True, ensure_ascii=False)


def kept(run: Run, dialect: Dialect, rows: list[dict[str, Any]], wanted: dict[str, Any]) -> list[int]:
    """Ids the SQL filter keeps, after the re-check it asks for."""
    query = dialect.labels_filter("labels", wanted)
    found = run(f"SELECT id, {query.loose} AS loose FROM t WHERE labels != '{{}}' AND {query.condition}"
                " ORDER BY id", query.params)
    return [i for i, loose in found if query.keeps(loose) or labels_match(rows[i], wanted)]


def check(run: Run, dialect: Dialect, rows: list[dict[str, Any]], free: dict[str, Any]) -> None:
    """Every row's labels, each of their pairs, and one free filter keep what ``labels_match`` keeps."""
    filters = [free, *rows, *({k: v} for labels in rows for k, v in labels.items())]
    for wanted in filters:
        expected = [i for i, labels in enumerate(rows) if labels and labels_match(labels, wanted)]
        assert kept(run, dialect, rows, wanted) == expected, wanted


@given(rows=st.lists(LABELS, min_size=1, max_size=6), data=st.data())
@settings(max_examples=200, deadline=None)
def test_sqlite_filter_equals_labels_match(rows: list[dict[str, Any]], data: st.DataObject) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id INTEGER, labels TEXT)")
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(i, encode(r)) for i, r in enumerate(rows)])
    check(lambda sql, params: conn.execute(SQLITE.sql(sql), params).fetchall(), SQLITE, rows, data.draw(LABELS))


@pytest.fixture(scope="module")
def pg(postgres_server: Any) -> Iterator[psycopg.Connection[Any]]:
    url = postgres_server.fresh_url()
    with psycopg.connect(url, autocommit=True) as conn:
        yield conn
    postgres_server.drop(url)


@pytest.mark.postgres
@given(rows=st.lists(LABELS, min_size=1, max_size=6), data=st.data())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_postgres_filter_equals_labels_match(pg: psycopg.Connection[Any], rows: list[dict[str, Any]],
                                             data: st.DataObject) -> None:
    pg.execute("CREATE TEMP TABLE IF NOT EXISTS t (id integer, labels text)")
    pg.execute("TRUNCATE t")
    with pg.cursor() as cur:
        cur.executemany("INSERT INTO t VALUES (%s, %s)", [(i, encode(r)) for i, r in enumerate(rows)])

    def run(sql: str, params: list[Any]) -> list[tuple[int, Any]]:
        return [(row[0], row[1]) for row in pg.execute(POSTGRES.sql(sql), params).fetchall()]

    check(run, POSTGRES, rows, data.draw(LABELS))
