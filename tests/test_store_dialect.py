"""The SQL dialects: one query, written once with ``?`` placeholders, means the same on both engines."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from psycopg.rows import dict_row

from dmem.store.dialect import POSTGRES, SQLITE, Dialect

ROWS = [("b", 1), ("B", 0), ("a", 1), ("a", 1), ("c", 0), ("a", 0)]
Run = Callable[[str, list[Any]], list[dict[str, Any]]]


def test_postgres_turns_placeholders_into_its_own_and_keeps_literal_percent() -> None:
    assert POSTGRES.sql("a = ? AND b LIKE '%x'") == "a = %s AND b LIKE '%%x'"
    assert SQLITE.sql("a = ? AND b LIKE '%x'") == "a = ? AND b LIKE '%x'"


def test_list_membership_takes_one_parameter_whatever_the_count() -> None:
    assert SQLITE.in_list("id", ("x", "y")) == ("id IN (SELECT value FROM json_each(?))", ['["x", "y"]'])
    assert SQLITE.in_list("id", ("x",))[0] == SQLITE.in_list("id", ("x", "y", "z"))[0]


def test_sqlite_list_membership_matches_any_text_exactly() -> None:
    texts = ["Åsa", 'say "hi"', "back\\slash", "o'clock", "tab\there", "bell\x07", "123", "nul\x00cut", ""]
    lite = sqlite3.connect(":memory:")
    lite.execute("CREATE TABLE t (id TEXT)")
    lite.executemany("INSERT INTO t VALUES (?)", [(t,) for t in [*texts, "nul", "other"]])
    for wanted in (texts, texts[:-2], ["nul\x00cut"], []):
        condition, params = SQLITE.in_list("id", wanted)
        assert sorted(r[0] for r in lite.execute(f"SELECT id FROM t WHERE {condition}", params)) == sorted(wanted)
    assert POSTGRES.in_list("id", ("x", "y")) == ("id = ANY(?)", [["x", "y"]])


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engine(request: pytest.FixtureRequest) -> Iterator[tuple[Dialect, Run]]:
    """A table of ``ROWS`` in a real engine, and a function running a shared query on it."""
    if request.param == "sqlite":
        lite = sqlite3.connect(":memory:")
        lite.row_factory = sqlite3.Row
        lite.execute("CREATE TABLE t (name TEXT, flag INTEGER)")
        lite.executemany("INSERT INTO t VALUES (?, ?)", ROWS)
        yield SQLITE, lambda sql, params: [dict(r) for r in lite.execute(SQLITE.sql(sql), params)]
        lite.close()
        return
    with psycopg.connect(request.getfixturevalue("postgres_url"), row_factory=dict_row, autocommit=True) as pg:
        pg.execute("CREATE TABLE t (name text, flag integer)")
        with pg.cursor() as cur:
            cur.executemany("INSERT INTO t VALUES (%s, %s)", ROWS)
        yield POSTGRES, lambda sql, params: pg.execute(POSTGRES.sql(sql), params).fetchall()


def test_one_query_gives_the_same_rows_on_both_engines(engine: tuple[Dialect, Run]) -> None:
    dialect, run = engine
    in_names, params = dialect.in_list("name", ["a", "B", "b", "z"])
    rows = run(f"SELECT name, {dialect.count_if('flag = ?')} AS n FROM t WHERE {in_names}"
               f" GROUP BY name ORDER BY name{dialect.collate}", [1, *params])
    # Byte order puts capitals first on both engines, whatever the server's locale.
    assert [(r["name"], int(r["n"])) for r in rows] == [("B", 0), ("a", 2), ("b", 1)]
