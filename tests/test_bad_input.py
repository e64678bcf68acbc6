"""Every bad input is one DataError (one CLI line, exit 2) naming what is wrong, and stores nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from dmem.errors import DataError, DmemError

GOOD = {"speaker": "Ines", "text": "I planted tomatoes on the balcony.", "turn_id": "t0"}


@pytest.fixture
def mem(fake: Any, memory_factory: Any) -> Any:
    return memory_factory(fake)


BAD_MESSAGES = [
    (42, "expected a message .* got int"),
    (None, "expected a message .* got NoneType"),
    (b"raw bytes", "got bytes"),
    ([GOOD, {"text": {"nested": "dict"}}], "message 1: 'text' must be a string, got dict"),
    ([GOOD, {"text": "hi", "speaker": 7}], "message 1: 'speaker' must be a string, got int"),
    ([GOOD, {"text": "hi", "turn_id": 3}], "message 1: 'turn_id' must be a string, got int"),
    ([{"text": "hi", "seq": "3"}], "message 0: 'seq' must be a whole number, got str"),
    ([{"text": "hi", "seq": -1}], "message 0: seq -1 is out of range"),
    ([{"text": "hi", "seq": 2**63}], "out of range"),
    ([{"text": "hi", "seq": True}], "'seq' must be a whole number, got bool"),
    ([{"text": "hi", "timestamp": 1700000000}], "'timestamp' must be an ISO 8601 string"),
    ([{"text": "hi", "timestamp": "yesterday"}], "not ISO 8601"),
    ([GOOD, {"text": "broken \ud800 escape"}], r"message 1: text holds an unpaired surrogate"),
    ([{"speaker": "Ines"}], "message 0 has no 'text' or 'content'"),
    ([3.5], "message 0: cannot read a message from float"),
    ([{"text": "hi", "conversation_id": ""}], "conversation_id must be a non-empty string"),
]


@pytest.mark.parametrize(("messages", "message"), BAD_MESSAGES, ids=[m for _, m in BAD_MESSAGES])
def test_bad_messages_are_refused_whole(mem: Any, messages: object, message: str) -> None:
    with pytest.raises(DataError, match=message):
        mem.add(messages, user_id="ines")
    assert mem.store.transcript.count() == 0 and mem.get_all(user_id="ines") == []


@pytest.mark.parametrize(("user", "message"), [("", "non-empty"), ("  ", "non-empty"), (42, "got int"),
                                               (None, "got NoneType"), ("a\nb", "control characters"),
                                               ("x" * 300, "at most 256")])
def test_bad_user_ids_are_errors_not_a_silent_default(mem: Any, user: object, message: str) -> None:
    for call in (lambda: mem.add([GOOD], user_id=user), lambda: mem.get_all(user_id=user),
                 lambda: mem.search("tomatoes", user_id=user),
                 lambda: mem.ask("What?", user_id=user if user is not None else 1),
                 lambda: mem.retry_pending(user_id=user)):
        with pytest.raises(DataError):
            call()
    with pytest.raises(DataError, match=message):
        mem.add([GOOD], user_id=user)
    with pytest.raises(DataError, match="user_ids must be a list"):
        mem.ask("What?", user_ids="ines")
    with pytest.raises(DataError, match="speaker_namespaces must be a mapping"):
        mem.add([GOOD], user_id="ines", speaker_namespaces=["Ines"])  # type: ignore[arg-type]
    assert mem.store.transcript.count() == 0


@pytest.mark.parametrize("source", [[], 42, None])
def test_import_of_something_else_than_an_export(mem: Any, source: object) -> None:
    with pytest.raises(DataError, match="import_ takes a path to an export file or the export dict"):
        mem.import_(source)


def test_import_of_a_broken_file(mem: Any, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000, encoding="utf-8")
    with pytest.raises(DataError, match="nests JSON too deeply"):
        mem.import_(deep)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(DataError, match="not a UTF-8 text file"):
        mem.import_(binary)
    broken = {"format": "dmem-export", "version": 2, "embedding": mem.embedding, "dim": mem.store.dim,
              "memories": [{"id": "m1", "namespace": "ines", "text": "x"}]}
    with pytest.raises(DataError, match="memory 0 of the export is invalid: created_at"):
        mem.import_(broken, user_id="ines")


@pytest.mark.parametrize("stamp", ["0001-01-01T08:00:00", "9999-12-31T20:00:00"])
def test_deixis_at_the_edges_of_the_calendar_stays_as_said(fake: Any, memory_factory: Any, stamp: str) -> None:
    said = [{"speaker": "Ines", "text": "I planted tomatoes yesterday and will water them tomorrow.",
             "timestamp": stamp, "turn_id": "t0"}]
    for mem in (memory_factory(fake, sub="model"), memory_factory(sub="offline")):
        result = mem.add(said, user_id="ines")
        assert result.exchanges[0].status == "formed", result.exchanges[0].error
        text = " ".join(m.text for m in mem.get_all(user_id="ines"))
        assert "yesterday" in text or "tomorrow" in text  # the phrase that leaves the calendar stays as said


# ---- the CLI: one line, exit 2 -----------------------------------------------------------------


def one_line(code: int, err: str) -> str:
    assert code == 2 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, lines
    if lines[0].startswith("{"):  # --json: errors are JSON too
        return "dmem: error: " + json.loads(lines[0])["error"]
    assert lines[0].startswith("dmem: error: "), lines
    return lines[0]


def locomo(session: object) -> list[dict[str, Any]]:
    return [{"sample_id": "s-1", "conversation": {"speaker_a": "Ines", "speaker_b": "Ravi",
                                                  "session_1_date_time": "1:56 pm on 8 May, 2023",
                                                  "session_1": session}, "qa": []}]


BAD_FILES: list[tuple[str, bytes, str]] = [
    ("binary.json", b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8 text (byte 0"),
    ("latin1.json", json.dumps([{"text": "caf\u00e9"}]).encode("latin-1").replace(b"\\u00e9", b"\xe9"),
     "not UTF-8 text"),
    ("deep.json", b"[" * 100000 + b"]" * 100000, "nested too deeply"),
    ("lines.jsonl", b'{"text": "one"}\n{"text": "two"}\n{"text": "three",}\n', "lines.jsonl line 3: not valid JSON"),
    ("array.jsonl", b'{"text": "one"}\n\n[1, 2]\n', "array.jsonl line 3: expected a JSON object"),
    ("repr.json", json.dumps([{"text": ["a", "list"]}]).encode(), "message 0: 'text' must be a string, got list"),
    ("shape.json", json.dumps(locomo("not a list")).encode(), "sample 0 (s-1): session_1 is str, expected a list"),
    ("noid.json", json.dumps(locomo([{"speaker": "Ines", "text": "hi"}])).encode(),
     "sample 0 (s-1): session_1[0] has no 'dia_id'"),
    ("nospeaker.json", json.dumps(locomo([{"dia_id": "D1:1", "speaker": "Ines", "text": "hi"},
                                          {"dia_id": "D1:2", "text": "hi"}])).encode(),
     "session_1[1] has no 'speaker'"),
    ("numtext.json", json.dumps(locomo([{"dia_id": "D1:1", "speaker": "Ines", "text": 12}])).encode(),
     "session_1[0]: 'text' is int, expected text"),
]


@pytest.mark.parametrize(("name", "content", "message"), BAD_FILES, ids=[f[0] for f in BAD_FILES])
def test_bad_files_are_one_line_and_store_nothing(cli: Any, tmp_path: Path, name: str, content: bytes,
                                                  message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    code, out, err = cli("--json", "ingest", str(path))
    assert message in one_line(code, err) and out == ""
    store = tmp_path / "store" / "dmem.sqlite"
    if store.exists():
        conn = sqlite3.connect(store)
        assert conn.execute("SELECT count(*) FROM messages").fetchone() == (0,)
        conn.close()


def test_a_full_disk_is_one_store_error_line(cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dmem.store.local.sqlite import Database

    first = tmp_path / "first.json"
    first.write_text(json.dumps([GOOD]), encoding="utf-8")
    assert cli("--json", "ingest", str(first))[0] == 0
    connect = Database._connect

    def nearly_full(self: Database, lock_timeout: float) -> sqlite3.Connection:
        conn = connect(self, lock_timeout)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # SQLite answers SQLITE_FULL past this
        return conn

    monkeypatch.setattr(Database, "_connect", nearly_full)
    big = tmp_path / "big.json"
    big.write_text(json.dumps([{"speaker": "Ines", "text": f"note {i} " + "x" * 3000} for i in range(60)]),
                   encoding="utf-8")
    code, _, err = cli("--json", "ingest", str(big))
    line = one_line(code, err)
    assert "disk is full" in line and "sqlite3" not in line.split(":", 2)[1]
    monkeypatch.undo()
    code, out, _ = cli("--json", "memories")
    assert code == 0 and len(json.loads(out)) >= 1  # what was there before is intact


def test_errors_are_dmem_errors(mem: Any) -> None:
    with pytest.raises(DmemError):
        mem.add(42)
