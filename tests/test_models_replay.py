"""dmem against real model output, without the server: replies a 0.5B model gave, replayed over HTTP.

The recordings (``tests/fixtures/replies/*.jsonl``, made by ``benchmarks/record_replies.py`` with
llama.cpp's server and Qwen2.5-0.5B-Instruct) are served by a loopback server, so the real OpenAI
client, dmem's structured-output chain, its checks and both graphs handle what a small real model
writes: verbose reasons, echoed labels, partial verdicts, a json_schema rejection.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dmem.errors import ModelError
from dmem.testing_http import ChatServer, Recording, replay
from tests.real_replies import FIXTURES, MODES, POLICIES, asked, conversation, run_forced_json_schema, run_mode


@pytest.fixture(scope="module")
def recording() -> Recording:
    """Every recorded file together ('auto' reuses the function-calling replies)."""
    rec = Recording()
    for path in sorted(FIXTURES.glob("*.jsonl")):
        for key, items in Recording.load(path).entries.items():
            rec.entries.setdefault(key, []).extend(items)
    assert rec.entries, f"no recordings in {FIXTURES}"
    return rec


@pytest.mark.parametrize("mode", MODES)
def test_a_mode_runs_on_real_replies(mode: str, recording: Recording, tmp_path: Path) -> None:
    with ChatServer(replay(recording)) as server:
        run = run_mode(server.url, mode, tmp_path / mode)
        sent = len(server.requests)
    turns = {m.turn_id for m in conversation(mode)}
    statuses = [ex.status for ex in run.ingest.exchanges]
    assert len(statuses) == len(conversation(mode)) // 2
    assert set(statuses) <= {"formed", "nothing_admitted", "no_facts", "pending_retry"}
    for fact in run.ingest.facts:  # labels the model echoed are mapped back to real turn ids
        assert set(fact.source_turn_ids) <= turns
    for decision in run.ingest.admitted + run.ingest.rejected:
        assert decision.turn_id in turns
    assert set(run.answers) == set(asked(mode))
    for (question, policy), ans in run.answers.items():
        assert ans.answer.strip(), (question, policy)
        assert ans.route in {"system1", "deliberation", "no_memory"}
        assert ans.gate_reasons or policy == "never"
        if policy in ("majority", "consensus") and ans.route != "no_memory":
            assert len(ans.samples) == 3 or ans.unaudited
    # Honest cost: every request the server saw is counted once by dmem.
    counted = run.ingest.usage()["total"].calls + sum(a.usage["total"].calls for a in run.answers.values())
    assert counted == sent
    assert {p for _, p in asked("auto")} == set(POLICIES)


def test_forced_json_schema_rejected_by_the_server_is_one_line(recording: Recording, tmp_path: Path) -> None:
    with ChatServer(replay(recording)) as server:
        exc = run_forced_json_schema(server.url, tmp_path)
        url = server.url
    assert isinstance(exc, ModelError)
    message = str(exc)
    assert "json_schema" in message and url in message and "\n" not in message and "Traceback" not in message
