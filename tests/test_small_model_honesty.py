"""Small real models, honestly: an all-empty deliberation map is reported, and a timestamp written where
a turn id is asked is mapped to its turn when unique in the chunk. Fake models, invented transcripts."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.decisions.model.checks import clamp_chunk_facts, turn_at_time
from dmem.graphs.deliberation import compile_deliberation_graph
from dmem.state.schemas import Message
from dmem.store.namespaces import Routing
from dmem.testing import FakeChatModel

T0 = datetime(2024, 3, 5, 14, 0)
CHUNK = [Message(conversation_id="c", turn_id=f"D1:{i}", speaker=("Rosa", "Kai")[i % 2], seq=i,
                 text=f"line {i} about the allotment", timestamp=T0 + timedelta(minutes=10 * i)) for i in range(4)]


@pytest.mark.parametrize(
    ("raw", "turn"),
    [("2024-03-05 14:10", "D1:1"), ("[2024-03-05 14:20]", "D1:2"), ("14:30", "D1:3"), ("2024-03-05 14:00", "D1:0"),
     ("2024-03-05", None),  # the date alone names all four turns: not unique
     ("2024-03-06 14:10", None), ("09:15", None), ("soon", None), ("", None)],
)
def test_a_timestamp_maps_to_its_turn_when_unique(raw: str, turn: str | None) -> None:
    assert turn_at_time(raw, CHUNK) == turn


def test_chunk_facts_accept_labels_ids_and_timestamps() -> None:
    raw = [{"fact": "Rosa planted leeks", "score": 8, "turn_ids": ["2024-03-05 14:20", "2", "D1:3", "12:00"]}]
    assert clamp_chunk_facts(raw, CHUNK).facts[0].turn_ids == ["D1:2", "D1:1", "D1:3"]


def _deliberate(tmp_path: Path, read: Any, *, chunk_size: int = 2, offline: bool = False,
                question: str = "What did Rosa plant?") -> tuple[dict[str, Any], FakeChatModel]:
    fake = FakeChatModel(script={
        "ChunkFacts": read,
        "MemorySelection": [{"reason": "needed", "keep": [1]}],
        "AnswerDraft": [{"reasoning": "from the facts", "answer": "leeks"}],
    })
    with Memory(tmp_path / "m", llm=None if offline else fake, embeddings="hash") as mem:
        lines = [m.model_copy(update={"conversation_id": "c"}) for m in CHUNK * 1]
        mem.store.transcript.append(Routing.of("u"), lines)
        graph = compile_deliberation_graph(resources=mem.resources)
        ctx = mem.context.with_overrides(deliberation_mode="full", chunk_size=chunk_size)
        out = graph.invoke({"question": question, "namespaces": ["u"]}, context=ctx)
    return out, fake


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _warnings(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Records]:
    # A handler on the node's own logger: other tests (a CLI run, a server's logging set-up) may
    # reconfigure the root logger or disable existing loggers, which would hide the record from caplog.
    logger, seen = logging.getLogger("dmem.nodes.deliberation"), _Records()
    monkeypatch.setattr(logger, "disabled", False)
    logger.addHandler(seen)
    try:
        yield seen
    finally:
        logger.removeHandler(seen)


def test_every_chunk_returning_nothing_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with _warnings(monkeypatch) as seen:
        out, fake = _deliberate(tmp_path, lambda msgs: {})
    assert len(fake.calls_for("ChunkFacts")) == 2  # two chunks of two turns, both read
    assert out["empty_map"] is True
    assert any("every one returned no facts" in m for m in seen.messages)


@pytest.mark.parametrize("offline", [False, True], ids=["model", "offline"])
def test_one_empty_chunk_is_flagged_without_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       offline: bool) -> None:
    # One chunk with nothing relevant is an ordinary miss, and the offline engine's rules find nothing
    # in most chunks: the flag stays in the result, the log says nothing (the soak logged it per question).
    with _warnings(monkeypatch) as seen:
        out, fake = _deliberate(tmp_path, lambda msgs: {}, chunk_size=8, offline=offline,
                                question="Which train did Kai miss?")
    assert len(fake.calls_for("ChunkFacts")) == (0 if offline else 1)
    assert out["empty_map"] is True
    assert not any("every one returned no facts" in m for m in seen.messages)


def test_one_chunk_with_facts_is_not_an_empty_map(tmp_path: Path) -> None:
    replies = iter([{"facts": [{"fact": "Rosa planted leeks", "score": 9, "turn_ids": ["1"]}]}, {}])
    out, _ = _deliberate(tmp_path, lambda msgs: next(replies))
    assert out["empty_map"] is False and out["deliberation_answer"] == "leeks"
