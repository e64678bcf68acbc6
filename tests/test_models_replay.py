"""dmem against real model output, without the server: replies a 0.5B model gave, replayed over HTTP.

The recordings (``tests/fixtures/replies/*.jsonl``, made by ``benchmarks/record_replies.py`` with
llama.cpp's server and Qwen2.5-0.5B-Instruct) are served by a loopback server, so the real OpenAI
client, dmem's structured-output chain, its checks and both graphs handle what a small real model
writes: verbose reasons, labels written as numbers, a gate verdict missing a field, a json_schema
rejection. Every request must find its own recorded reply: a prompt change that alters a request
makes these tests fail until the replies are recorded again (no live server is ever needed here).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dmem.errors import ModelError
from dmem.state.schemas import Category
from dmem.testing_http import ChatServer, Recording, replay
from tests.real_replies import (
    FIXTURES,
    MODES,
    POLICIES,
    QUESTION,
    conversation,
    run_forced_json_schema,
    run_json_mode_stages,
    run_mode,
)


@pytest.fixture
def recording() -> Recording:
    """Every recorded file together ('auto' reuses the function-calling replies)."""
    rec = Recording()
    for path in sorted(FIXTURES.glob("*.jsonl")):
        for key, items in Recording.load(path).entries.items():
            rec.entries.setdefault(key, []).extend(items)
    assert rec.entries, f"no recordings in {FIXTURES}"
    return rec


def assert_all_recorded(recording: Recording, sent: int) -> None:
    """Each request was answered with the reply recorded for that very request."""
    assert sent > 0 and recording.exact == sent and recording.near == 0, \
        f"{sent} requests, {recording.exact} recorded: record again with benchmarks/record_replies.py"


@pytest.mark.parametrize("mode", MODES)
def test_a_mode_runs_on_real_replies(mode: str, recording: Recording, tmp_path: Path) -> None:
    with ChatServer(replay(recording)) as server:
        run = run_mode(server.url, mode, tmp_path / mode)
        sent = len(server.requests)
    assert_all_recorded(recording, sent)
    turns = {m.turn_id for m in conversation(mode)}
    assert [ex.status for ex in run.ingest.exchanges] == ["formed"] * (len(conversation(mode)) // 2)
    assert run.ingest.facts
    for fact in run.ingest.facts:  # labels the model wrote (as numbers, too) are mapped back to turn ids
        assert fact.source_turn_ids and set(fact.source_turn_ids) <= turns
    if mode in ("function_calling", "auto"):  # it also copied a <reference_history> line as a fact: dropped
        assert [fact.source_turn_ids for fact in run.ingest.facts] == [["p0"], ["p2"], ["p4"]]
    for decision in run.ingest.admitted + run.ingest.rejected:
        assert decision.turn_id in turns
    ans = run.answers[(QUESTION, "quality")]
    assert ans.answer.strip() and ans.route in {"system1", "deliberation"} and ans.gate_reasons
    # Honest cost: every request the server saw is counted once by dmem, retries included.
    counted = run.ingest.usage()["total"].calls + sum(a.usage["total"].calls for a in run.answers.values())
    assert counted == sent


def test_every_gate_policy_runs_on_real_replies(recording: Recording, tmp_path: Path) -> None:
    with ChatServer(replay(recording)) as server:
        answers = run_mode(server.url, "function_calling", tmp_path).answers
        sent = len(server.requests)
    assert_all_recorded(recording, sent)
    assert {policy for _, policy in answers} == set(POLICIES)
    assert answers[(QUESTION, "never")].route == "system1" and not answers[(QUESTION, "never")].gate_reasons
    assert answers[(QUESTION, "always")].route == "deliberation"
    for policy in ("majority", "consensus"):
        ans = answers[(QUESTION, policy)]
        assert ans.answer.strip() and ans.route in {"system1", "deliberation"}
        # three sampled answers at the voting temperature, each a real call the server answered
        assert ans.usage["answer"].calls == 3 and ans.usage["group_answers"].calls == 1
        assert "3 of 3 answers agree" in ans.gate_reasons[0]


def test_auto_starts_with_function_calling(recording: Recording, tmp_path: Path) -> None:
    with ChatServer(replay(recording)) as server:
        run_mode(server.url, "auto", tmp_path)
        bodies = server.requests
    assert bodies and all(body.get("tools") for body in bodies)  # the server took tools: no fallback


def test_categories_the_model_misspells_are_mapped_without_a_retry(recording: Recording, tmp_path: Path) -> None:
    with ChatServer(replay(recording)) as server:
        _, drafts = run_json_mode_stages(server.url, tmp_path)
        sent = len(server.requests)
    # The 0.5B model wrote the category 'person' (for 'persona'): accepted at once, not asked again.
    assert sent == 2 and Category.PERSONA in drafts.facts[0].categories


def test_json_mode_replies_parse(recording: Recording, tmp_path: Path) -> None:
    with ChatServer(replay(recording)) as server:
        verdicts, drafts = run_json_mode_stages(server.url, tmp_path)
        bodies = server.requests
    assert_all_recorded(recording, len(bodies))
    assert all(body["response_format"]["type"] == "json_object" for body in bodies)
    turns = {m.turn_id for m in conversation("json_mode")}
    assert [v.turn_id for v in verdicts.verdicts] == [m.turn_id for m in conversation("json_mode")]
    assert drafts.facts and all(set(f.source_turn_ids) <= turns for f in drafts.facts)
    assert any("Pippa" in f.text for f in drafts.facts)


def test_forced_json_schema_rejected_by_the_server_is_one_line(recording: Recording, tmp_path: Path) -> None:
    with ChatServer(replay(recording)) as server:
        exc = run_forced_json_schema(server.url, tmp_path)
        url = server.url
    assert isinstance(exc, ModelError)
    message = str(exc)
    assert "json_schema" in message and url in message and "\n" not in message and "Traceback" not in message
