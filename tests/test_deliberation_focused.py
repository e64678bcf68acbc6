"""Focused Deliberation, the ledger in the graph, the evidence trace, and skipped chunks (fake model)."""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta

import pytest
from rich.console import Console

from dmem.cli.render import print_answer
from dmem.graphs.deliberation import compile_deliberation_graph
from dmem.state.schemas import MemoryRecord, Message
from dmem.store.namespaces import Routing
from tests.conftest import last_section

T0 = datetime(2024, 4, 2, 19, 0)
NEEDLE = "I signed up for a glassblowing workshop on the island next month"


def chat(n: int, needle_at: int | None = None) -> list[Message]:
    """An invented chat between Ines and Tomas: small talk, with one telling line at ``needle_at``."""
    out = []
    for i in range(n):
        text = NEEDLE if i == needle_at else f"small talk line {i} about the weather and topic {i % 5}"
        out.append(Message(conversation_id="ines-tomas", turn_id=f"t{i}", speaker=("Ines", "Tomas")[i % 2],
                           text=text, timestamp=T0 + timedelta(hours=i), seq=i))
    return out


def turns_in(chunk: str) -> list[str]:
    """Turn ids of a chunk's labelled lines, from their times (turn i is said i hours after T0)."""
    stamps = re.findall(r"^\[\d+\] \[(\d{4}-\d{2}-\d{2} \d{2}:\d{2})\]", chunk, re.MULTILINE)
    return [f"t{int((datetime.fromisoformat(s) - T0).total_seconds() // 3600)}" for s in stamps]


def chunk_turns(call) -> list[str]:
    return turns_in(last_section(call.messages, "chunk"))


def filled(memory_factory, fake, n: int, needle_at: int | None = None, **settings):
    mem = memory_factory(fake, **settings)
    mem.add(chat(n, needle_at), user_id="ines")
    fake._state.calls.clear()
    return mem


@pytest.mark.slow
def test_focused_reads_windows_around_the_evidence_within_its_budget(fake, memory_factory):
    mem = filled(memory_factory, fake, 300, needle_at=210, deliberation_budget=0.25)
    ans = mem.ask("Where is the glassblowing workshop?", user_id="ines", gate_policy="always")
    read = [t for c in fake.calls_for("ChunkFacts") for t in chunk_turns(c)]
    assert "t210" in read and len(read) < 0.3 * 300
    assert 0 < ans.read_share <= 0.25
    assert ans.route == "deliberation" and set(ans.evidence_turn_ids) <= set(read)


def test_full_mode_reads_every_turn(fake, memory_factory):
    mem = filled(memory_factory, fake, 130, deliberation_mode="full")
    ans = mem.ask("Where is the glassblowing workshop?", user_id="ines", gate_policy="always")
    assert len(fake.calls_for("ChunkFacts")) == math.ceil(130 / 60)
    assert ans.read_share == 1.0


def test_a_short_transcript_is_read_whole_even_when_focused(fake, memory_factory):
    mem = filled(memory_factory, fake, 40, deliberation_budget=0.1)
    ans = mem.ask("What about the weather?", user_id="ines", gate_policy="always")
    assert sorted(t for c in fake.calls_for("ChunkFacts") for t in chunk_turns(c)) == sorted(f"t{i}" for i in range(40))
    assert ans.read_share == 1.0


def model_steps(graph, question: str, mem) -> list[int]:
    """Supersteps of the deliberation subgraph in which a model call ran."""
    steps = set()
    for event in graph.stream({"question": question, "namespaces": ["ines"]}, context=mem.context,
                              stream_mode="debug"):
        if event["type"] == "task_result":
            writes = dict(event["payload"]["result"])
            if any(u.calls for u in writes.get("usage", [])):
                steps.add(event["step"])
    return sorted(steps)


@pytest.mark.slow  # fills stores of up to 420 turns three times
def test_the_critical_path_is_three_model_calls_whatever_the_length(fake, memory_factory):
    fake.set_script("ChunkFacts", lambda msgs: {"facts": [
        {"fact": f"Ines said {turn}", "score": 8, "turn_ids": [str(label)]}
        for label, turn in enumerate(turns_in(last_section(msgs, "chunk"))[:4], start=1)]})
    for n, mode in ((130, "full"), (420, "full"), (420, "focused")):
        mem = filled(memory_factory, fake, n, sub=f"s{n}{mode}", deliberation_mode=mode)
        graph = compile_deliberation_graph(resources=mem.resources)
        steps = model_steps(graph, "Where is the glassblowing workshop?", mem)
        assert len(steps) == 3, (n, mode, steps)  # read (every chunk at once), select, answer
        assert len(fake.calls_for("ChunkFacts")) > 1 and fake.calls_for("MemorySelection")
        fake._state.calls.clear()


def test_a_chunk_whose_provider_call_fails_is_skipped_and_reported(fake, memory_factory):
    mem = filled(memory_factory, fake, 130, deliberation_mode="full", max_retries=0, retry_backoff=0)

    def reply(msgs):
        if "t70" in turns_in(last_section(msgs, "chunk")):
            return ConnectionError("connection refused by the provider")
        return {"facts": [{"fact": "Ines booked a workshop", "score": 9, "turn_ids": []}]}

    fake.set_script("ChunkFacts", reply)
    fake.set_script("AnswerDraft", [{"reasoning": "fact 1", "answer": "on the island"}])
    ans = mem.ask("Where is the glassblowing workshop?", user_id="ines", gate_policy="always")
    assert ans.answer == "on the island"
    assert [s.index for s in ans.skipped_chunks] == [1]
    skipped = ans.skipped_chunks[0]
    assert skipped.turn_ids[0] == "t60" and "t70" in skipped.turn_ids and "connection refused" in skipped.reason
    console = Console(record=True, width=200)
    print_answer(console, ans)
    assert "not read: chunk 2 (turns t60, t61" in console.export_text()


def test_a_count_question_skips_selection_and_keeps_every_instance(fake, memory_factory):
    mem = filled(memory_factory, fake, 60, deliberation_mode="full")
    fake.set_script("ChunkFacts", [{"facts": [
        {"fact": f"Ines went to pottery class number {i}", "score": 8, "turn_ids": [f"t{50 - 2 * i}"]}
        for i in range(9)]}])
    ans = mem.ask("How many pottery classes did Ines go to?", user_id="ines", gate_policy="always")
    assert fake.calls_for("MemorySelection") == []
    assert len(ans.facts_used) == 9
    days = [f.fact[1:11] for f in ans.facts_used]
    assert days == sorted(days)  # one dated timeline
    answer_lines = last_section(fake.calls_for("AnswerDraft")[-1].messages, "memories").splitlines()
    assert len(answer_lines) == 9


def test_system1_answers_carry_their_memories_source_turns(fake, memory_factory):
    mem = filled(memory_factory, fake, 6, needle_at=3)
    ans = mem.ask("Where is the glassblowing workshop?", user_id="ines")
    assert ans.route == "system1" and ans.read_share == 0.0
    sources = {t for r in ans.retrieved for t in r.memory.source_turn_ids}
    assert ans.evidence_turn_ids and set(ans.evidence_turn_ids) == sources


@pytest.mark.slow
def test_the_deliberation_graph_alone_finds_its_own_seeds(fake, memory_factory):
    mem = filled(memory_factory, fake, 300, needle_at=250, deliberation_budget=0.2)
    out = compile_deliberation_graph(resources=mem.resources).invoke({"question": "Where is the glassblowing workshop?",
                                               "namespaces": ["ines"]}, context=mem.context)
    read = [t for c in fake.calls_for("ChunkFacts") for t in chunk_turns(c)]
    assert "t250" in read and out["read_share"] <= 0.2


def test_focused_reading_follows_a_memory_to_a_turn_the_question_does_not_resemble(fake, memory_factory):
    # Turn t250 is small talk as said; the fact formed from it names the workshop. Only the memory
    # can lead the seeds there.
    mem = memory_factory(fake, deliberation_budget=0.1)
    svc = mem.services
    svc.store.transcript.append(Routing.of("ines"), chat(600))  # recorded, nothing formed yet
    question = "Where is the glassblowing workshop?"

    def read_turns() -> list[str]:
        fake._state.calls.clear()
        mem.ask(question, user_id="ines", gate_policy="always")
        return [t for c in fake.calls_for("ChunkFacts") for t in chunk_turns(c)]

    assert "t250" not in read_turns()
    fact = "Ines signed up for a glassblowing workshop on the island"
    record = MemoryRecord(id="m-glass", namespace="ines", text=fact, source_turn_ids=["t250"],
                          conversation_id="ines-tomas", created_at=T0, updated_at=T0)
    svc.store.vectors.add(record, svc.embed([fact])[0])
    assert "t250" in read_turns()
