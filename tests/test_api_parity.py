"""Memory.get / update / delete_all, metadata on add and in search, agent and run scoping, async twins."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest

from dmem import Memory
from dmem.errors import DataError, NotFoundError
from dmem.progress import LineProgress
from dmem.scopes import scope
from dmem.store import SearchFilter

CHAT = [{"speaker": "Maya", "text": "I adopted a beagle named Rex last week."},
        {"speaker": "Oskar", "text": "That's wonderful!"}]
MORE = [{"speaker": "Maya", "text": "I work as a nurse in Lisbon."}, {"speaker": "Oskar", "text": "Nice."}]


@pytest.fixture
def mem(tmp_path: Path) -> Any:
    with Memory(tmp_path / "store", embeddings="hash") as m:
        yield m


def test_scope_composition_rule() -> None:
    assert scope() == "default" and scope("maya") == "maya"
    assert scope("maya", "coach") == "maya/agent:coach"
    assert scope("maya", "coach", "r7") == "maya/agent:coach/run:r7"
    assert scope(agent_id="coach") == "default/agent:coach" and scope("maya", run_id="r7") == "maya/run:r7"
    for bad, message in ((dict(agent_id="a/b"), "contains '/'"), (dict(run_id=""), "non-empty"),
                         (dict(user_id=None), "got NoneType"), (dict(agent_id="x\n"), "control characters")):
        with pytest.raises(DataError, match=message):
            scope(**bad)


def test_metadata_on_add_is_stored_and_filters_search(mem: Memory) -> None:
    mem.add(CHAT, user_id="maya", metadata={"source": "chat", "week": 12, "checked": False})
    mem.add(MORE, user_id="maya", metadata={"source": "mail"})
    records = mem.get_all(user_id="maya")
    assert {r.metadata["source"] for r in records} == {"chat", "mail"}
    rex = next(r for r in records if "Rex" in r.text)
    assert rex.metadata == {"source": "chat", "week": 12, "checked": False}
    found = mem.search("anything", user_id="maya", metadata={"source": "chat"})
    assert [h.memory.id for h in found] == [rex.id]
    assert mem.search("anything", user_id="maya", metadata={"week": 12.5}) == []
    assert mem.search("anything", user_id="maya", metadata={"checked": 0}) == []  # exact: False is not 0
    where = SearchFilter.with_metadata({"source": "mail"})
    assert [r.text for r in mem.get_all(user_id="maya", where=where)] == ["Maya works as a nurse in Lisbon"]
    for bad in ({"k": [1]}, {"": 1}, {3: "x"}, "source=chat"):
        with pytest.raises(DataError):
            mem.add(MORE, user_id="maya", metadata=bad)  # type: ignore[arg-type]


def test_update_records_history_with_reason_and_reembeds(mem: Memory) -> None:
    mem.add(CHAT, user_id="maya")
    (rex,) = mem.get_all(user_id="maya")
    before = mem.store.vectors.vector("maya", rex.id)
    new = mem.update(rex.id, "Maya adopted a beagle called Rex.", user_id="maya", metadata={"ok": True},
                     reason="typo")
    assert mem.get(rex.id, user_id="maya") == new and new.metadata == {"ok": True} and new.created_at == rex.created_at
    assert mem.store.vectors.vector("maya", rex.id) != before
    last = mem.history(rex.id, user_id="maya")[-1]
    assert (last.operation, last.old_text, last.new_text, last.reason) == (
        "UPDATE", rex.text, "Maya adopted a beagle called Rex.", "typo")
    assert mem.update(rex.id, metadata={"more": 1}, user_id="maya").metadata == {"ok": True, "more": 1}
    with pytest.raises(NotFoundError):
        mem.update(rex.id, "stolen", user_id="oskar")
    with pytest.raises(DataError, match="non-empty"):
        mem.update(rex.id, "  ", user_id="maya")
    with pytest.raises(DataError, match="needs a new text"):
        mem.update(rex.id, user_id="maya")


def test_delete_all_removes_one_namespace_only(mem: Memory) -> None:
    mem.add(CHAT, user_id="maya")
    mem.add(MORE, user_id="maya", agent_id="coach")
    mem.add(MORE, user_id="oskar")
    (coached,) = mem.get_all(user_id="maya", agent_id="coach")
    assert coached.namespace == "maya/agent:coach"
    assert mem.delete_all(user_id="maya") == 1
    assert mem.get_all(user_id="maya") == [] and len(mem.get_all(user_id="maya/agent:coach")) == 1
    assert len(mem.get_all(user_id="oskar")) == 1
    assert mem.delete_all(user_id="maya") == 0
    assert mem.transcript(user_id="maya")  # the transcript stays for Full Deliberation


def test_async_twins_run_the_graphs_with_ainvoke(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_sync(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the sync graph path ran")

    monkeypatch.setattr(mem.ingestion_graph, "invoke", no_sync)
    monkeypatch.setattr(mem.query_graph, "invoke", no_sync)

    async def go() -> Any:
        added = await mem.aadd(MORE, user_id="maya", run_id="r1", metadata={"source": "chat"})
        answer = await mem.aask("Where does Maya work?", user_id="maya", run_id="r1")
        hits = await mem.asearch("nurse", user_id="maya", run_id="r1", metadata={"source": "chat"})
        return added, answer, hits

    added, answer, hits = asyncio.run(go())
    assert added.exchanges[0].status == "formed" and "Lisbon" in answer.answer
    assert hits and hits[0].memory.namespace == "maya/run:r1"


def test_piped_progress_lines_respect_the_interval() -> None:
    now = [0.0]
    out = io.StringIO()
    bar = LineProgress(out, interval=5.0, clock=lambda: now[0])
    bar.start("ingest", 10, "ingesting chat.json")
    for step in range(1, 11):
        now[0] += 2.0
        bar.update("ingest", step)
    lines = out.getvalue().splitlines()
    assert lines == ["dmem: ingesting chat.json: 3/10 (30%), 0:06 elapsed, ETA 0:14",
                     "dmem: ingesting chat.json: 6/10 (60%), 0:12 elapsed, ETA 0:08",
                     "dmem: ingesting chat.json: 9/10 (90%), 0:18 elapsed, ETA 0:02",
                     "dmem: ingesting chat.json: 10/10 (100%), 0:20 elapsed, done"]
    eager = io.StringIO()
    every = LineProgress(eager, interval=0.0, clock=lambda: 0.0, as_json=True)
    every.start("p", 2, "phase")
    every.advance("p")
    every.advance("p")
    assert [line.count('"progress": "phase"') for line in eager.getvalue().splitlines()] == [1, 1]
