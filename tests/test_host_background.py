"""Deferred remembering (examples/background_memory.py): work is flushed, kept in order, and failures surface."""

from __future__ import annotations

import logging
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from dmem.errors import InputError
from dmem.host import BackgroundIngestion
from dmem.testing import FakeChatModel
from tests.conftest import admit_all
from tests.test_host_agent import load_example


def test_example_runs_offline(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    load_example("background_memory").main()
    assert list(tmp_path.iterdir()) == []  # its store was temporary: nothing is left behind
    out = capsys.readouterr().out
    assert "background failures: []" in out
    assert "beagle named Rex" in out and "Porto" in out and "host: (memory: Rex) Noted!" in out


def test_the_host_replies_before_memory_is_formed_and_flush_waits(fake: FakeChatModel, memory_factory: Any) -> None:
    """Admission blocks until the test releases it: the host's run must finish first."""
    example = load_example("host_agent")
    release = threading.Event()

    def admit_when_released(messages: list[BaseMessage]) -> dict[str, Any]:
        assert release.wait(timeout=30), "the host never finished its turn"
        return admit_all(messages)

    fake.set_script("AdmissionVerdicts", admit_when_released)
    memory = memory_factory(fake)
    with BackgroundIngestion() as background:
        host = example.build_host_graph(memory, background).compile(checkpointer=InMemorySaver())
        ctx = example.HostContext(model=FakeChatModel(script={"text": example.host_reply}), user_id="alice")
        config = {"configurable": {"thread_id": "t1"}}
        for text in ["I adopted a beagle named Rex last week.", "My sister Ana lives in Porto."]:
            out = host.invoke({"messages": [HumanMessage(text)]}, config, context=ctx)
            assert out["messages"][-1].text.endswith("Noted!")
        assert background.pending >= 1 and memory.get_all(user_id="alice") == []
        release.set()
        assert background.flush() == []
        assert background.pending == 0
    texts = [m.text for m in memory.get_all(user_id="alice")]
    assert any("Rex" in t for t in texts) and any("Porto" in t for t in texts)
    admitted = [c.prompt for c in fake.calls_for("AdmissionVerdicts")]
    assert "Rex" in admitted[0] and "Porto" in admitted[1]  # exchanges are formed in the order they came


def test_failures_are_logged_and_returned_not_lost(fake: FakeChatModel, memory_factory: Any,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    memory = memory_factory(fake)
    background = BackgroundIngestion()
    with caplog.at_level(logging.ERROR, logger="dmem.host.background"):
        bad = background.submit(memory.ingestion_graph, {"messages": []}, label="alice/t1")
        good = background.submit(memory.ingestion_graph, {"messages": [HumanMessage("I live in Porto.")],
                                                          "user_id": "alice"}, label="alice/t1")
        failures = background.close()
    assert [f.label for f in failures] == ["alice/t1"] and isinstance(failures[0].error, InputError)
    assert isinstance(bad.exception(), InputError) and good.result()["status"] == "formed"
    assert any("background memory formation failed for alice/t1" in r.getMessage() for r in caplog.records)
    with pytest.raises(RuntimeError, match="closed"):
        background.submit(memory.ingestion_graph, {"messages": []})
