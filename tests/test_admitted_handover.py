"""Admission's clause cuts handed to splitting within one exchange (``decisions/offline/admitted.py``).

Splitting reads the clauses admission cut and judged for the same line, read the same way, instead of cutting it
again; a line read otherwise is cut afresh; nothing of the hand-over outlives the exchange (no checkpoint, no
output, no store of the decider's).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from dmem.decisions.offline import splitting
from dmem.decisions.offline.admitted import Admitted
from dmem.decisions.offline.decider import OfflineDecider
from dmem.graphs import compile_ingestion_graph
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import MemoryRecord, Message
from dmem.state.verdicts import AdmissionVerdicts
from tests.conftest import T0, chat_turn


def turns(*lines: tuple[str, str]) -> list[Message]:
    return [chat_turn(text, speaker, i, session="D1", when=T0 + timedelta(minutes=i))
            for i, (speaker, text) in enumerate(lines, start=1)]


CHAT = turns(("Oswy", "What did you get up to at the weekend?"),
             ("Perrin", "I finally repainted the narrowboat. She's called the Quillwhistle now and she's moored at "
                        "Fennick Lock."),
             ("Oswy", "My brother Tamsett is learning the bodhran, he practises every night."),
             ("Perrin", "Nice one!"))
MEMORY = MemoryRecord(id="0", namespace="n", text="Perrin bought an old narrowboat", created_at=T0, updated_at=T0)


@pytest.fixture
def cuts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every line splitting cuts itself (its own ``clauses_of`` call), by turn id."""
    seen: list[str] = []
    cut = splitting.clauses_of

    def counted(message: Message, *args: Any, **kwargs: Any) -> Any:
        seen.append(message.turn_id)
        return cut(message, *args, **kwargs)

    monkeypatch.setattr(splitting, "clauses_of", counted)
    return seen


def drafts(engine: OfflineDecider, exchange: list[Message], history: list[Message],
           admission: Callable[[AdmissionVerdicts], AdmissionVerdicts | None]) -> list[tuple[str, list[str]]]:
    """The exchange admitted, then its admitted turns split as the graph splits them, handed ``admission(verdicts)``."""
    verdicts = engine.admit(exchange, history, [MEMORY]).value
    admitted = {v.turn_id for v in verdicts.verdicts if v.admit}
    ok = [m for m in exchange if m.turn_id in admitted]
    asked = exchange[: exchange.index(ok[0])]
    facts = engine.split(ok, [*history, *asked], [MEMORY], admission(verdicts)).value.facts
    return [(f.text, f.source_turn_ids) for f in facts]


def test_split_reads_admissions_cut_and_drafts_the_same(cuts: list[str]) -> None:
    engine = OfflineDecider(HashEmbeddings())
    afresh = drafts(engine, CHAT[1:3], CHAT[:1], lambda _: None)
    assert sorted(cuts) == ["D1:2", "D1:3"]  # without the hand-over, each admitted line is cut again
    cuts.clear()
    handed = drafts(engine, CHAT[1:3], CHAT[:1], lambda verdicts: verdicts)
    assert cuts == [] and handed == afresh and any("narrowboat" in text for text, _ in handed)


def test_a_line_read_otherwise_is_cut_afresh(cuts: list[str]) -> None:
    engine = OfflineDecider(HashEmbeddings())
    verdicts = engine.admit(CHAT[1:3], CHAT[:1], [MEMORY]).value
    engine.split(CHAT[2:3], [], [MEMORY], verdicts)  # another turn before it than admission read
    engine.split(CHAT[1:2], CHAT[:1], [], verdicts)  # other stored memories
    assert cuts == ["D1:3", "D1:2"]
    cuts.clear()
    engine.split(CHAT[1:2], CHAT[:1], [MEMORY], verdicts)
    assert cuts == []


def test_the_reading_is_admissions_judgement_of_the_line() -> None:
    verdicts = OfflineDecider(HashEmbeddings()).admit(CHAT[1:3], CHAT[:1], []).value
    reading = verdicts.reading
    assert isinstance(reading, Admitted)
    judged = reading.of(CHAT[1], CHAT[:1], [])
    assert judged is not None and judged.clauses and len(judged.clauses) == len(judged.verdicts)
    assert (judged.admit, judged.reason) == (verdicts.verdicts[0].admit, verdicts.verdicts[0].reason)
    assert reading.of(CHAT[1], [], []) is None and reading.of(CHAT[3], CHAT[:3], []) is None


def test_the_reading_is_in_no_schema_dump_or_checkpoint() -> None:
    verdicts = OfflineDecider(HashEmbeddings()).admit(CHAT[1:3], CHAT[:1], []).value
    assert verdicts.reading is not None
    assert "reading" not in str(AdmissionVerdicts.model_json_schema()) and set(verdicts.model_dump()) == {"verdicts"}
    serde = JsonPlusSerializer()
    again = serde.loads_typed(serde.dumps_typed(verdicts))
    assert again.verdicts == verdicts.verdicts and again.reading is None


def _graph_run(memory_factory: Any, cuts: list[str], lines: list[Message]) -> tuple[dict[str, Any], Any, Any]:
    mem = memory_factory()  # no chat model: the offline engine
    graph = compile_ingestion_graph(resources=mem.resources, checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "t1"}}
    out = graph.invoke({"turns": [t.model_dump() for t in lines], "user_id": "perrin"}, thread)
    return out, graph, thread


def test_the_graph_hands_admission_to_split_and_keeps_nothing(memory_factory: Any, cuts: list[str]) -> None:
    out, graph, thread = _graph_run(memory_factory, cuts, CHAT[:3])
    assert out["status"] == "formed" and any("narrowboat" in f.text for f in out["facts"])
    assert cuts == []  # split read admission's cut of every admitted line
    assert graph.get_state(thread).values.get("admitted_by") is None
    for past in graph.get_state_history(thread):  # no checkpoint holds the reading
        held = past.values.get("admitted_by")
        assert held is None or held.reading is None


def test_verdicts_nobody_split_are_cleared_at_the_end(memory_factory: Any, cuts: list[str]) -> None:
    out, graph, thread = _graph_run(memory_factory, cuts, turns(("Oswy", "haha"), ("Perrin", "ok")))
    assert not any(d.admitted for d in out["admissions"])
    assert graph.get_state(thread).values.get("admitted_by") is None


async def test_the_async_path_hands_it_over_too(memory_factory: Any, cuts: list[str]) -> None:
    mem = memory_factory()
    graph = compile_ingestion_graph(resources=mem.resources)
    out = await graph.ainvoke({"turns": [t.model_dump() for t in CHAT[:3]], "user_id": "perrin"})
    assert out["status"] == "formed" and cuts == []


class _ThreeArgumentDecider:
    """A decider written to the earlier ``split(admitted, history, memories)``, whose verdicts carry no reading."""

    def __init__(self) -> None:
        self.inner = OfflineDecider(HashEmbeddings())
        self.splits = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def admit(self, exchange: list[Message], history: list[Message], memories: list[MemoryRecord]) -> Any:
        out = self.inner.admit(exchange, history, memories)
        return type(out)(AdmissionVerdicts(verdicts=out.value.verdicts), out.usage)

    def split(self, admitted: list[Message], history: list[Message], memories: list[MemoryRecord]) -> Any:
        self.splits += 1
        return self.inner.split(admitted, history, memories)


def test_a_decider_without_the_admission_argument_still_splits(memory_factory: Any) -> None:
    mem = memory_factory()
    decider = _ThreeArgumentDecider()
    mem.resources.decider = decider
    graph = compile_ingestion_graph(resources=mem.resources)
    out = graph.invoke({"turns": [t.model_dump() for t in CHAT[:3]], "user_id": "perrin"})
    assert decider.splits == 1
    assert out["status"] == "formed" and any("narrowboat" in f.text for f in out["facts"])
