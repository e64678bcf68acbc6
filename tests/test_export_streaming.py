"""A JSON Lines export is written as the store is read, never collected: a large user fits in little memory.

Runs on SQLite here and on PostgreSQL through ``tests/test_postgres_langgraph_store.py``.
"""

from __future__ import annotations

import json
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from dmem.errors import DataError
from dmem.messages import to_messages
from dmem.state.schemas import MemoryRecord
from dmem.store import Routing


class SizeSpy:
    """Forwards to a store part, noting the export file's size at every call (what was written by then)."""

    def __init__(self, target: Any, path: Path, sizes: list[int]) -> None:
        self._target, self._path, self._sizes = target, path, sizes

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._target, name)
        if not callable(found):
            return found

        def called(*args: Any, **kwargs: Any) -> Any:
            self._sizes.append(self._path.stat().st_size if self._path.exists() else 0)
            return found(*args, **kwargs)

        return called


def test_rows_reach_the_file_while_the_store_is_still_being_read(memory_factory: Any, tmp_path: Path) -> None:
    mem = memory_factory()
    mem.add([f"Maya noted fact number {i} about her allotment garden." for i in range(300)], user_id="maya",
            infer=False)
    path = tmp_path / "maya.jsonl"
    sizes: list[int] = []
    mem.store.transcript = SizeSpy(mem.store.transcript, path, sizes)
    summary = mem.export(path, user_id="maya")
    # the turns are read last: by then the memories (with their vectors) were already in the file
    assert sizes and sizes[-1] > 300 * 1000
    assert path.stat().st_size > sizes[-1]
    assert summary["counts"] == {"memories": 300, "history": 300, "transcript": 300}
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 900 and json.loads(lines[-1])["kind"] == "turn"


def large_user(mem: Any, n: int) -> None:
    """``n`` memories (with vectors and an ADD history row each) and ``n`` turns, written in bulk."""
    texts = [f"Maya noted fact number {i}: " + "the plums ripen late on the north wall. " * 5 for i in range(n)]
    now = datetime.now(UTC)
    records = [MemoryRecord(id=f"m{i}", namespace="maya", text=text, created_at=now, updated_at=now)
               for i, text in enumerate(texts)]
    mem.store.import_records("maya", records, mem.services.embed(texts), "bulk")
    mem.store.transcript.append(Routing.of("maya"), to_messages(texts, "maya"))


@pytest.mark.slow
def test_exporting_a_large_user_holds_a_page_not_the_user(memory_factory: Any, tmp_path: Path) -> None:
    mem = memory_factory()
    large_user(mem, 6000)
    path = tmp_path / "maya.jsonl"
    tracemalloc.start()
    try:
        summary = mem.export(path, user_id="maya")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    size = path.stat().st_size
    assert size > 20_000_000
    # one page of rows at a time (about 6 MB here); collecting the user would hold more than the file
    assert peak < size / 2, f"export peaked at {peak / 1e6:.1f} MB for a {size / 1e6:.1f} MB file"
    assert summary["counts"] == {"memories": 6000, "history": 6000, "transcript": 6000}


class CountedLines:
    """A text file whose lines are counted as they are read (how far the reader got)."""

    def __init__(self, inner: Any, seen: list[int]) -> None:
        self._inner, self._seen = inner, seen

    def __iter__(self) -> Any:
        for line in self._inner:
            self._seen[0] += 1
            yield line

    def __enter__(self) -> CountedLines:
        return self

    def __exit__(self, *exc: object) -> None:
        self._inner.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def test_an_import_writes_before_it_has_read_the_whole_file(memory_factory: Any, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    source = memory_factory()
    source.add([f"Maya noted fact number {i} about her allotment garden." for i in range(600)], user_id="maya",
               infer=False)
    path = tmp_path / "maya.jsonl"
    source.export(path, user_id="maya")
    total = len(path.read_text(encoding="utf-8").splitlines())
    read = [0]
    real_open = Path.open

    def counted_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        opened = real_open(self, *args, **kwargs)
        return CountedLines(opened, read) if self == path else opened

    target = memory_factory(sub="target")
    at_write: list[int] = []
    real_import = target.store.import_records

    def spied(*args: Any, **kwargs: Any) -> int:
        at_write.append(read[0])
        return real_import(*args, **kwargs)

    monkeypatch.setattr(Path, "open", counted_open)
    monkeypatch.setattr(target.store, "import_records", spied)
    assert target.import_(path, user_id="maya") == 600
    assert at_write and at_write[0] < total / 2, (at_write, total)  # the first page went in with most lines unread
    assert len(target.get_all(user_id="maya")) == 600 and len(target.transcript(user_id="maya")) == 600


def test_a_bad_row_after_the_first_pages_leaves_nothing_imported(memory_factory: Any, tmp_path: Path) -> None:
    source = memory_factory()
    source.add([f"Maya noted fact number {i} about her allotment garden." for i in range(600)], user_id="maya",
               infer=False)
    path = tmp_path / "maya.jsonl"
    source.export(path, user_id="maya")
    lines = path.read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([*lines[:-1], '{"kind": "turn", "namespace": "maya"}']) + "\n", encoding="utf-8")
    target = memory_factory(sub="target")
    with pytest.raises(DataError, match="turn 599 of the export is invalid"):
        target.import_(broken, user_id="maya")
    assert target.get_all(user_id="maya") == [] and target.transcript(user_id="maya") == []
    headless = tmp_path / "headless.jsonl"
    headless.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="line 1: a JSON Lines export starts with its header line"):
        target.import_(headless, user_id="maya")
    assert target.import_(path, user_id="maya") == 600 and len(target.transcript(user_id="maya")) == 600
