"""Asking about a speaker (by another name the chat taught, too): both paths retrieve and answer about the speaker."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path

from dmem.api import Memory
from dmem.nodes.retrieval import asearch_memories, search_memories
from dmem.state.schemas import Message

T0 = datetime(2026, 3, 2, 9, 0)
LINES = [
    ("Alexandra", "Morning Tilda! Did your bakery open on time?"),
    ("Ottilie", "It did, I baked sourdough for the first queue."),
    ("Ottilie", "How about you Sasha, any plans tonight?"),
    ("Alexandra", "Pottery class at seven, I'm glazing a teapot."),
    ("Ottilie", "That sounds lovely. Have fun, Sasha!"),
    ("Alexandra", "Bye Tilda!"),
    ("Ottilie", "Are you still doing the marathon, Sasha?"),
    ("Alexandra", "Yes, I signed up for the Lakeside marathon in May."),
    ("Ottilie", "Congrats, Sasha!"),
    ("Alexandra", "My brother Radek is coming to cheer."),
    ("Ottilie", "On thursdays I play chess at the library."),
    ("Alexandra", "On thursdays I go climbing at the quarry gym."),
]


def _ingest(mem: Memory) -> None:
    mem.add([Message(conversation_id="c1", turn_id=f"c1-{i}", speaker=who, text=text,
                     timestamp=T0 + timedelta(minutes=i), seq=i) for i, (who, text) in enumerate(LINES)],
            user_id="c", conversation_id="c1", speaker_namespaces={"Alexandra": "c/a", "Ottilie": "c/o"})



def test_asking_with_an_alias_answers_about_that_speaker(tmp_path: Path) -> None:
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        _ingest(mem)
        ans = mem.ask("What does Sasha do on thursdays?", user_ids=["c/a", "c/o"])
        assert "climbing" in ans.answer and "chess" not in ans.answer
        assert ans.retrieved[0].memory.namespace == "c/a"
        assert ans.question == "What does Sasha do on thursdays?"
        assert ans.asked == "What does Alexandra do on thursdays?"  # as the answerer read it


def test_the_async_path_uses_the_same_aliases(tmp_path: Path) -> None:
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        _ingest(mem)
        ans = asyncio.run(mem.aask("What does Sasha do on thursdays?", user_ids=["c/a", "c/o"]))
        assert "climbing" in ans.answer and "chess" not in ans.answer
        assert ans.asked == "What does Alexandra do on thursdays?"


def test_a_question_naming_no_one_by_another_name_is_answered_as_asked(tmp_path: Path) -> None:
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        _ingest(mem)
        ans = mem.ask("What does Ottilie do on thursdays?", user_ids=["c/a", "c/o"])
        assert ans.asked == ans.question == "What does Ottilie do on thursdays?"


def test_both_paths_take_more_from_the_namespace_of_the_person_asked_about(tmp_path: Path) -> None:
    with Memory(tmp_path / "m", embeddings="hash", retrieval_top_k=2, episode_neighbours=0) as mem:
        _ingest(mem)
        svc = mem.services
        question = "What does Alexandra do on thursdays?"
        hits = search_memories(svc, question, ["c/a", "c/o"])
        ahits = asyncio.run(asearch_memories(svc, question, ["c/a", "c/o"]))
        assert [(r.id, s) for r, s in hits] == [(r.id, s) for r, s in ahits]
        assert sorted(r.namespace for r, _ in hits) == ["c/a", "c/a", "c/a", "c/o"]  # 3 + 1: still 2 per namespace
