"""Answers that cite what they used: the System 1 trace names the turns the answer drew on, not all retrieved.

A used memory's linked question turn is named only when the answer needs it. Invented conversations only."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dmem.api import Memory
from dmem.decisions.offline.answer_extraction import answer
from dmem.evidence.citations import cited_turns, memory_turns, turns_said
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


def said(turns: list[tuple[str, str, str]]) -> dict[str, Message]:
    """Recorded turns by id, from (id, speaker, text)."""
    return {i: Message(turn_id=i, speaker=who, text=text) for i, who, text in turns}


LINKED = [("D2:1", "Maya", "Which film did you like best at the festival?"),
          ("D2:2", "Rosa", "The one about the lighthouse keeper.")]


def test_a_linked_question_turn_is_cited_only_when_the_answer_needs_it() -> None:
    mem = record("a", 'Rosa answered Maya\'s question "Which film did you like best at the festival?": The one '
                 "about the lighthouse keeper", ["D2:1", "D2:2"])
    turns = said(LINKED)
    assert memory_turns(mem, turns, "the lighthouse keeper one") == ["D2:2"]  # the reply alone says it
    asked = said([("D3:1", "Maya", "Did you sail to Vlieland last summer?"), ("D3:2", "Rosa", "Twice!")])
    sailed = record("b", "Rosa sailed to Vlieland twice last summer", ["D3:1", "D3:2"])
    assert memory_turns(sailed, asked, "Vlieland") == ["D3:1", "D3:2"]  # only the question names the place
    assert memory_turns(sailed, asked, "twice") == ["D3:2"]
    assert cited_turns([1, 2], ["a", "b"], [mem, sailed], {"a": turns, "b": asked}, "Twice") == ["D2:2", "D3:2"]


def test_turns_of_one_speaker_or_not_recorded_are_all_cited() -> None:
    merged = record("a", "Rosa moved to Ghent and took up rowing", ["D1:4", "D5:2"])
    own = said([("D1:4", "Rosa", "I moved to Ghent."), ("D5:2", "Rosa", "I row on Sundays now.")])
    assert memory_turns(merged, own, "Ghent") == ["D1:4", "D5:2"]  # statements, merged: each may be the one
    linked = record("b", "Rosa liked the lighthouse film best", ["D2:1", "D2:2"])
    assert memory_turns(linked, said(LINKED[1:]), "lighthouse") == ["D2:1", "D2:2"]  # the question not recorded
    assert cited_turns([1], ["b"], [linked], None, "lighthouse") == ["D2:1", "D2:2"]


class CountingTranscript:
    """A transcript holding fixed turns that counts its reads."""

    def __init__(self, turns: list[Message]) -> None:
        self.turns, self.reads = turns, []

    def with_ids(self, namespace: str, turn_ids: list[str]) -> list[Message]:
        self.reads.append((namespace, list(turn_ids)))
        return [m for m in self.turns if m.turn_id in turn_ids]


def test_source_turns_are_read_once_per_namespace_and_kept_to_their_memory() -> None:
    here = [Message(turn_id=i, speaker=who, text=text, conversation_id="c1") for i, who, text in LINKED]
    elsewhere = Message(turn_id="D2:2", speaker="Theo", text="The ferry one.", conversation_id="c2")
    sailed = [Message(turn_id="D3:1", speaker="Maya", text="Did you sail?", conversation_id="c1"),
              Message(turn_id="D3:2", speaker="Rosa", text="Twice!", conversation_id="c1")]
    transcript = CountingTranscript([*here, elsewhere, *sailed])
    film = MemoryRecord(id="a", namespace="u", text="Rosa liked the lighthouse film", source_turn_ids=["D2:1", "D2:2"],
                        conversation_id="c1", created_at=NOW, updated_at=NOW)
    sail = record("b", "Rosa sailed twice", ["D3:1", "D3:2"])
    single = record("c", "Rosa rows", ["D9:1"])  # one source turn: nothing to read
    found = turns_said(transcript, [film, sail, single])  # type: ignore[arg-type]
    assert transcript.reads == [("u", ["D2:1", "D2:2", "D3:1", "D3:2"])]
    assert {k: {t: m.text for t, m in v.items()} for k, v in found.items()} == {
        "a": {"D2:1": LINKED[0][2], "D2:2": LINKED[1][2]},  # its conversation's D2:2, not c2's
        "b": {"D3:1": "Did you sail?", "D3:2": "Twice!"}}


@pytest.mark.parametrize("path", ["sync", "async"])
def test_system1_trace_leaves_out_the_question_the_answer_did_not_need(fake, memory_factory, path: str) -> None:
    mem = memory_factory(fake)
    fake.set_script("AdmissionVerdicts", lambda msgs: {"verdicts": [
        {"turn_id": "1", "reason": "asks", "admit": False}, {"turn_id": "2", "reason": "answer", "admit": True}]})
    fake.set_script("FactDrafts", [{"facts": [
        {"text": "Rosa liked the film about the lighthouse keeper best at the festival", "speaker": "Rosa",
         "source_turn_ids": ["1", "2"]}]}])
    mem.add([Message(turn_id=i, speaker=who, text=text, seq=n) for n, (i, who, text) in enumerate(LINKED, start=1)],
            user_id="u1")
    fake.set_script("AnswerDraft", [{"reasoning": "line 1", "used": [1],
                                     "answer": "the one about the lighthouse keeper"}])
    fake.set_script("QualityGateVerdict", [{"relevance": PASS, "faithfulness": PASS, "completeness": PASS}])
    question = "Which film did Rosa like best at the festival?"
    ans = mem.ask(question, user_id="u1") if path == "sync" else asyncio.run(mem.aask(question, user_id="u1"))
    assert ans.route == "system1" and ans.retrieved[0].memory.source_turn_ids == ["D2:1", "D2:2"]
    assert ans.evidence_turn_ids == ["D2:2"]


def test_the_offline_engine_cites_the_reply_it_drew_from(tmp_path: Path) -> None:
    with Memory(tmp_path / "store", embeddings="hash") as mem:
        mem.add([Message(turn_id=i, speaker=who, text=text, seq=n, conversation_id="c")
                 for n, (i, who, text) in enumerate(LINKED, start=1)], user_id="u1")
        [stored] = [m for m in mem.get_all(user_id="u1") if "lighthouse" in m.text]
        ans = mem.ask("Which film did Rosa like best at the festival?", user_id="u1", gate_policy="never")
    assert stored.source_turn_ids == ["D2:1", "D2:2"]  # the reply is kept with the question it answers
    assert "lighthouse" in ans.answer and ans.evidence_turn_ids == ["D2:2"]
