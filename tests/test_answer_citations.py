"""Answers that cite what they used: the System 1 trace names the used memories' turns, not all retrieved."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from dmem.decisions.offline.answer_extraction import answer
from dmem.evidence.citations import cited_turns
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import MemoryRecord, Message
from tests.conftest import PASS, last_section

NOW = datetime(2024, 6, 1, tzinfo=UTC)


def record(i: str, text: str, turns: list[str]) -> MemoryRecord:
    return MemoryRecord(id=i, namespace="u", text=text, source_turn_ids=turns, created_at=NOW, updated_at=NOW)


def test_cited_turns_follow_the_numbers_the_answer_gives() -> None:
    mems = [record("a", "Rosa grows leeks", ["D1:1"]), record("b", "Rosa lives in Ghent", ["D1:4", "D1:5"])]
    assert cited_turns([2], ["a", "b"], mems) == ["D1:4", "D1:5"]
    assert cited_turns([2, 1, 2], ["a", "b"], mems) == ["D1:4", "D1:5", "D1:1"]
    assert cited_turns([], ["a", "b"], mems) is None  # nothing named: the caller keeps its whole trace
    assert cited_turns([7, 0], ["a", "b"], mems) is None  # out of range is ignored


def test_the_offline_answer_names_the_line_it_drew_from() -> None:
    lines = ["[2024-05-01] Rosa grows leeks on her allotment", "[2024-05-02] Rosa moved to Ghent in April",
             "[2024-05-03] Kai plays the cello"]
    draft = answer(HashEmbeddings(), "Where did Rosa move to?", lines)
    assert draft.answer.startswith("Ghent") and draft.used == [2]


def test_system1_trace_names_the_used_memory_only(fake, memory_factory, tmp_path: Path) -> None:
    mem = memory_factory(fake)
    fake.set_script("AdmissionVerdicts", lambda msgs: {"verdicts": [
        {"turn_id": "1", "reason": "fact", "admit": True}, {"turn_id": "2", "reason": "fact", "admit": True}]})
    fake.set_script("FactDrafts", [{"facts": [
        {"text": "Rosa grows leeks", "speaker": "Rosa", "source_turn_ids": ["1"]},
        {"text": "Rosa lives in Ghent", "speaker": "Rosa", "source_turn_ids": ["2"]}]}])
    turns = [Message(turn_id=f"D1:{i}", speaker="Rosa", text=t, seq=i) for i, t in
             enumerate(["I grow leeks.", "I live in Ghent."], start=1)]
    mem.add(turns, user_id="u1")

    def cite(msgs: list) -> dict:  # the model names the numbered line it answers from
        line = next(x for x in last_section(msgs, "memories").splitlines() if "Ghent" in x)
        return {"reasoning": "the Ghent line", "used": [int(line.split(".")[0])], "answer": "Ghent"}

    fake.set_script("AnswerDraft", cite)
    fake.set_script("QualityGateVerdict", [{"relevance": PASS, "faithfulness": PASS, "completeness": PASS}])
    ans = mem.ask("Where does Rosa live?", user_id="u1")
    assert ans.route == "system1" and ans.answer == "Ghent"
    assert len(ans.retrieved) == 2 and ans.evidence_turn_ids == ["D1:2"]
