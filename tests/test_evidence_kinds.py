"""List questions: the category they name ranks the memories that are instances of it; one-thing questions do not."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from dmem.evidence import hybrid, kinds
from dmem.evidence.indexes import EvidenceIndexes
from dmem.evidence.kinds import asked_kind, instance_ranking
from dmem.state.schemas import MemoryRecord
from dmem.store import open_store
from dmem.store.filters import Hit
from dmem.store.namespaces import Routing

T0 = datetime(2024, 5, 2, 9, 0)
INSTANCES = ("Maya adopted a dog called Rufus", "Maya feeds a parrot named Kiwi every morning")
CATEGORY_LINES = tuple(f"Maya talked about pets with Theo on walk number {i}" for i in range(8))


def _embed(texts: list[str]) -> np.ndarray:
    """A category alone sits with its instances; lines and questions that say the word sit between topics."""
    def one(text: str) -> list[float]:
        if text == "pets" or "dog" in text or "parrot" in text:
            return [1.0, 0.0]
        return [0.8, 0.6] if "pets" in text else [0.0, 1.0]
    return np.asarray([one(t) + [0.0] * 62 for t in texts], dtype=np.float32)


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "store", dim=64)
    s.transcript.append(Routing.of("maya"), [])
    texts = [*CATEGORY_LINES, *INSTANCES, *(f"Maya repaired shelf number {i}" for i in range(6))]
    for i, text in enumerate(texts):
        record = MemoryRecord(id=f"m{i}", namespace="maya", text=text, conversation_id="chat",
                              created_at=T0, updated_at=T0)
        s.vectors.add(record, _embed([text])[0].tolist())
    yield s
    s.close()


def _ids(store, question: str, k: int) -> list[str]:
    found = hybrid.memories(question, store, EvidenceIndexes(store), "maya", k, _embed)
    return [r.text for r, _ in found]


@pytest.mark.parametrize(("question", "kind"), [
    ("What hobbies does Maya have?", "hobbies"),
    ("Which cities has Theo been to?", "cities"),
    ("What are Maya's hobbies?", "hobbies"),
    ("What kind of music does Theo like?", "music"),
    ("What outdoor activities has Theo done?", "outdoor activities"),
])
def test_a_list_question_names_the_category_it_asks_for(question, kind):
    assert asked_kind(question) == kind


@pytest.mark.parametrize("question", [
    "What is Maya's job?", "Which city does Theo live in?", "What does Maya do on Sundays?",
    "What bus does Theo take?", "Does Maya have pets?", "What do Maya and Theo both like?",
])
def test_a_question_about_one_thing_or_no_category_names_none(question):
    assert asked_kind(question) is None


def test_the_category_ranks_its_instances_above_the_lines_that_repeat_the_word(store):
    found = _ids(store, "What pets does Maya have?", 6)
    assert set(INSTANCES) <= set(found)
    # The same words asked as a yes/no question name no category: the lines saying 'pets' fill K.
    assert not set(INSTANCES) & set(_ids(store, "Does Maya have pets?", 6))


def test_the_instance_ranking_leaves_out_the_memories_that_say_the_category(store):
    hits = [Hit(record=r, score=1.0) for r in store.vectors.list("maya")]
    position = {h.record.id: i for i, h in enumerate(hits)}
    ranked = [hits[i].record.text for i in instance_ranking("pets", hits, position)]
    assert not any("pets" in text for text in ranked)
    assert set(INSTANCES) <= set(ranked)


def test_a_question_about_one_thing_ranks_as_without_the_category_signal(store, monkeypatch):
    question = "What is the name of Maya's dog?"
    before = _ids(store, question, 4)
    monkeypatch.setattr(hybrid, "asked_for", lambda q, e: hybrid.Asked())  # the category signal switched off
    assert _ids(store, question, 4) == before


def test_the_async_path_finds_the_same_instances(store):
    import asyncio

    question = "What pets does Maya have?"
    found = asyncio.run(hybrid.amemories(question, store, EvidenceIndexes(store), "maya", 6, _embed))
    assert [r.text for r, _ in found] == _ids(store, question, 6)


def test_a_list_question_s_category_is_read_once_for_every_namespace(store):
    calls: list[list[str]] = []

    def counting(texts: list[str]) -> np.ndarray:
        calls.append(texts)
        return _embed(texts)

    indexes = EvidenceIndexes(store)
    planned = hybrid.plan("What pets does Maya have?", indexes, ["maya", "theo"], 6, counting)
    assert planned.asked.kind == "pets" and len(planned.asked.vector) == 64
    for ns, (index, share) in zip(["maya", "theo"], planned.held, strict=True):
        hybrid.memories("What pets does Maya have?", store, indexes, ns, share, counting, None, index, planned.asked)
    assert sum(texts == ["pets"] for texts in calls) == 1  # not once per namespace
    assert hybrid.plan("Where does Maya live?", indexes, ["maya"], 6, counting).asked == hybrid.Asked()


@pytest.mark.parametrize("question", [
    "What does Theo do in his spare time?", "What hobbies does Maya have?", "Is Theo interested in chess?",
    "Which games has Maya got in common with Theo?", "Which pastimes does Maya share with Theo?",
    "Which board games might Maya and Theo play together?", "What does Maya enjoy on weekends?",
    "Would Maya rather go skiing or skating?", "Which seat on the train does Theo prefer?",
    "What are Maya's preferences in tea?", "What games do Maya and Theo share?",
])
def test_a_question_about_someone_s_tastes_reads_the_words_that_state_one(question):
    assert kinds.taste_words(question) == kinds.TASTE_WORDS


@pytest.mark.parametrize("question", [
    "What is Maya's job?", "Where did Theo go on Saturday?", "Did Maya and Theo help each other move house?",
    "What did Maya cook for the party?", "When and where do Maya and Theo swim together?",
    "How did Maya and Theo plan the move together?", "Does Theo live together with his aunt?",
    "How many people share Maya's flat?", "Why did Theo take the bus rather than the ferry?",
    "Which flat did Maya choose?",
])
def test_a_question_about_no_taste_reads_no_taste_words(question):
    assert kinds.taste_words(question) is None


TASTE = "Theo loves bouldering at the quarry"
TIME_LINES = tuple(f"Theo spent his free time fixing bike number {i}" for i in range(12))
OTHER_LINES = tuple(f"Theo repaired gate number {i}" for i in range(12))


def _far(texts: list[str]) -> np.ndarray:
    """The taste line far from every question, so only words can lift it."""
    return np.asarray([([0.0, 1.0] if "loves" in t else [1.0, 0.0]) + [0.0] * 62 for t in texts], dtype=np.float32)


@pytest.fixture
def theo(tmp_path):
    s = open_store(tmp_path / "store", dim=64)
    s.transcript.append(Routing.of("theo"), [])
    for i, text in enumerate([*TIME_LINES, *OTHER_LINES, TASTE]):
        record = MemoryRecord(id=f"t{i}", namespace="theo", text=text, conversation_id="chat",
                              created_at=T0, updated_at=T0)
        s.vectors.add(record, _far([text])[0].tolist())
    yield s
    s.close()


def test_a_taste_question_ranks_a_line_stating_a_taste_into_the_k_kept(theo):
    def kept(question: str) -> list[str]:
        return [r.text for r, _ in hybrid.memories(question, theo, EvidenceIndexes(theo), "theo", 14, _far)]

    # The lines repeating "free time" fill most of K; the taste, sharing no word with the question, is kept too.
    assert TASTE in kept("What does Theo do in his free time?")
    # A question about no taste ranks the same lines without it: the taste stays out.
    assert TASTE not in kept("How does Theo spend his time fixing things?")
