"""A label filter on asking (``ask(metadata=...)``, the query graph's ``metadata``) limits everything read.

One namespace holds three conversations: one labelled ``source=chat``, one ``source=mail`` and one
without labels. Under a filter, neither System 1 (dense or hybrid retrieval, the filter step, the
quality gate, voting) nor deliberation (full scan or focused windows, with their read-only history)
sees a word of the others: every prompt the fake model receives is checked. ``tests/test_postgres_memory.py``
runs this module again on PostgreSQL.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dmem.errors import DataError, InputError
from dmem.evidence.indexes import EvidenceIndexes, build_memory_index
from dmem.graphs.deliberation import compile_deliberation_graph
from dmem.state.verdicts import NO_INFO
from dmem.testing import FakeChatModel
from tests.conftest import FAIL, PASS

CHAT = [{"speaker": "Maya", "text": "I started pottery lessons on Tuesday", "turn_id": "c1"},
        {"speaker": "Theo", "text": "Pottery sounds like fun", "turn_id": "c2"}]
MAIL = [{"speaker": "Maya", "text": "My new office is in Porto near the river", "turn_id": "m1"},
        {"speaker": "Theo", "text": "Noted, the Porto office by the river", "turn_id": "m2"}]
PLAIN = [{"speaker": "Maya", "text": "I keep a lemon tree on my balcony", "turn_id": "p1"},
         {"speaker": "Theo", "text": "A lemon tree on a balcony is lovely", "turn_id": "p2"}]
WORDS = {"chat": "pottery", "mail": "Porto", "plain": "lemon"}
TURNS = {"chat": {"c1", "c2"}, "mail": {"m1", "m2"}}


def labelled(memory_factory: Any, fake: FakeChatModel, user: str = "u", **settings: Any) -> Any:
    """A store whose user ``u`` has a chat-labelled, a mail-labelled and an unlabelled conversation."""
    mem = memory_factory(fake, **settings)
    mem.add(CHAT, user_id=user, conversation_id="chat", metadata={"source": "chat", "week": 1})
    mem.add(MAIL, user_id=user, conversation_id="mail", metadata={"source": "mail"})
    mem.add(PLAIN, user_id=user, conversation_id="plain")
    fake._state.calls.clear()
    return mem


def prompts(fake: FakeChatModel) -> str:
    """Every prompt the model received since the last clear, joined."""
    return "\n".join(c.prompt for c in fake.calls)


def seen(fake: FakeChatModel) -> set[str]:
    """Which conversations' words reached the model."""
    text = prompts(fake).lower()
    return {name for name, word in WORDS.items() if word.lower() in text}


@pytest.mark.parametrize("mode", ["hybrid", "dense"])
def test_system1_reads_only_memories_with_the_filters_labels(fake: FakeChatModel, memory_factory: Any,
                                                            mode: str) -> None:
    mem = labelled(memory_factory, fake, retrieval_mode=mode, use_filter=True)
    ans = mem.ask("Where is Maya's office?", user_id="u", metadata={"source": "chat"})
    assert ans.route == "system1" and ans.retrieved
    assert {r.memory.metadata["source"] for r in ans.retrieved} == {"chat"}
    assert set(ans.evidence_turn_ids) <= TURNS["chat"]
    assert seen(fake) == {"chat"}  # answer, filter step and quality gate: only the chat conversation
    fake._state.calls.clear()
    assert {r.memory.metadata.get("source") for r in mem.ask("Where is the office?", user_id="u").retrieved} \
        == {"chat", "mail", None}  # without a filter (and after a filtered ask) everything is read again
    fake._state.calls.clear()
    ans = mem.ask("Where is Maya's office?", user_id="u", metadata={"source": "mail"})
    assert {r.memory.metadata["source"] for r in ans.retrieved} == {"mail"} and seen(fake) == {"mail"}


@pytest.mark.parametrize("mode", ["full", "focused"])
def test_forced_deliberation_reads_only_turns_recorded_with_the_labels(fake: FakeChatModel, memory_factory: Any,
                                                                      mode: str) -> None:
    mem = labelled(memory_factory, fake, deliberation_mode=mode)
    ans = mem.ask("What lessons did Maya start?", user_id="u", metadata={"source": "mail"}, gate_policy="always")
    assert ans.route == "deliberation" and fake.calls_for("ChunkFacts")
    assert seen(fake) == {"mail"}  # chunks and their read-only history alike
    assert ans.facts_used and {t for f in ans.facts_used for t in f.turn_ids} <= TURNS["mail"]
    assert set(ans.evidence_turn_ids) <= TURNS["mail"]
    assert ans.read_share == pytest.approx(1.0)  # a share of the filtered transcript, all of which was read


@pytest.mark.parametrize(("policy", "script"), [
    ("quality", {"QualityGateVerdict": [{"relevance": PASS, "faithfulness": PASS, "completeness": FAIL}]}),
    ("majority", {"AnswerDraft": [{"answer": "a"}, {"answer": "b"}, {"answer": "c"}, {"answer": "d"}],
                  "AnswerGroups": [{"reason": "all differ", "groups": [[1], [2], [3]], "best": [1, 2, 3]}]}),
])
def test_gate_and_voting_escalations_stay_inside_the_filter(fake: FakeChatModel, memory_factory: Any,
                                                            policy: str, script: dict[str, Any]) -> None:
    mem = labelled(memory_factory, fake, deliberation_mode="full")
    for schema, outputs in script.items():
        fake.set_script(schema, outputs)
    ans = mem.ask("What lessons did Maya start?", user_id="u", metadata={"source": "chat"}, gate_policy=policy)
    assert ans.route == "deliberation" and fake.calls_for("ChunkFacts")
    assert seen(fake) == {"chat"}
    assert {t for f in ans.facts_used for t in f.turn_ids} <= TURNS["chat"]


def test_a_filter_nothing_carries_answers_no_memory_without_reading(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = labelled(memory_factory, fake)
    ans = mem.ask("Where is Maya's office?", user_id="u", metadata={"source": "fax"})
    assert ans.route == "no_memory" and ans.answer == NO_INFO and ans.retrieved == []
    assert fake.calls == []
    ans = mem.ask("Where is Maya's office?", user_id="u", metadata={"week": True}, gate_policy="always")
    assert ans.route == "no_memory" and fake.calls == []  # labelled week=1: True is not 1


def test_turns_match_labels_exactly_and_unlabelled_turns_match_no_filter(fake: FakeChatModel,
                                                                        memory_factory: Any) -> None:
    mem = labelled(memory_factory, fake)
    read = mem.store.transcript.messages
    assert {m.turn_id for m in read(["u"], {"source": "chat"})} == TURNS["chat"]
    assert [m.turn_id for m in read(["u"], {"source": "chat", "week": 1})] == ["c1", "c2"]
    assert read(["u"], {"week": True}) == [] and read(["u"], {"week": 1.5}) == []
    assert read(["u"], {"source": "chat", "week": 2}) == []
    assert len(read(["u"], {})) == len(read(["u"])) == 6


def test_an_empty_filter_is_no_filter(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = labelled(memory_factory, fake, deliberation_mode="full")
    runs = []
    for metadata in (None, {}):
        before = len(fake.calls)
        ans = mem.ask("Where is Maya's office?", user_id="u", metadata=metadata, gate_policy="always")
        calls = {stage: (u.calls, u.input_tokens, u.output_tokens) for stage, u in ans.usage.items()}
        runs.append((ans.model_dump(exclude={"seconds", "usage"}), calls, [c.prompt for c in fake.calls[before:]]))
    assert runs[0] == runs[1]
    assert seen(fake) == {"chat", "mail", "plain"}


def test_colliding_ids_and_labels_of_two_users_never_cross(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake, deliberation_mode="full")
    for user, text in (("maya", "I play the cello every evening"), ("theo", "I collect old stamps from Peru")):
        mem.add([{"speaker": user, "text": text, "turn_id": "t1"}], user_id=user, conversation_id="same",
                metadata={"source": "chat"})
    fake._state.calls.clear()
    ans = mem.ask("What does Theo collect?", user_id="maya", metadata={"source": "chat"}, gate_policy="always")
    assert ans.route == "deliberation" and "cello" in prompts(fake) and "stamps" not in prompts(fake)
    fake._state.calls.clear()
    ans = mem.ask("What does Theo collect?", user_id="theo", metadata={"source": "chat"})
    assert [r.memory.namespace for r in ans.retrieved] == ["theo"] and "cello" not in prompts(fake)


@pytest.mark.parametrize(("metadata", "problem"), [
    (["source", "chat"], "must be a mapping"),
    ({"tags": ["a", "b"]}, "'tags' is a list"),
    ({"": "x"}, "is not a non-empty string"),
])
def test_a_bad_filter_is_a_clear_error_and_nothing_is_read(fake: FakeChatModel, memory_factory: Any,
                                                          metadata: Any, problem: str) -> None:
    mem = labelled(memory_factory, fake)
    with pytest.raises(DataError, match=problem):
        mem.ask("Where is Maya's office?", user_id="u", metadata=metadata)
    with pytest.raises(InputError, match=f"input field 'metadata': .*{problem}"):
        mem.query_graph.invoke({"question": "Where is Maya's office?", "namespaces": ["u"], "metadata": metadata})
    with pytest.raises(InputError, match="input field 'metadata'"):
        mem.query_graph.invoke({"question": "Where?", "namespaces": ["u"], "metadata": metadata},
                               context={"gate_policy": "always"})
    assert fake.calls == []


def test_query_graph_input_and_async_ask_take_the_filter(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = labelled(memory_factory, fake)
    out = mem.query_graph.invoke({"question": "Where is Maya's office?", "namespaces": ["u"],
                                  "metadata": {"source": "mail"}})
    assert {m.metadata["source"] for m in out["memories"]} == {"mail"} and seen(fake) == {"mail"}
    fake._state.calls.clear()
    ans = asyncio.run(mem.aask("What lessons?", user_id="u", metadata={"source": "chat"}, gate_policy="always"))
    assert ans.route == "deliberation" and seen(fake) == {"chat"}
    fake._state.calls.clear()
    out = compile_deliberation_graph(resources=mem.resources).invoke(
        {"question": "Where is the office?", "namespaces": ["u"], "metadata": {"source": "mail"}})
    assert {t for f in out["facts_used"] for t in f.turn_ids} <= TURNS["mail"] and seen(fake) == {"mail"}


def test_filtered_indexes_hold_only_labelled_memories_and_turns(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = labelled(memory_factory, fake)
    office = next(m for m in mem.get_all(user_id="u") if "Porto" in m.text)
    mem.update(office.id, user_id="u", metadata={"source": "chat"})  # relabelled memory; its source turn stays mail
    index = build_memory_index(mem.store, "u", {"source": "chat"})
    assert {r.metadata["source"] for r in index.records} == {"chat"} and office.id in {r.id for r in index.records}
    assert not any("Porto" in text for sources in index.sources for text in sources)  # the mail turn is not read
    assert any("pottery" in text for sources in index.sources for text in sources)


def test_filtered_and_whole_indexes_are_kept_apart_and_reused(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = labelled(memory_factory, fake)
    indexes = EvidenceIndexes(mem.store)
    whole, week_one = indexes.memories("u"), indexes.memories("u", {"week": 1})
    assert indexes.memories("u", {"week": True}) is not week_one and not indexes.memories("u", {"week": True}).records
    assert indexes.memories("u") is whole and indexes.memories("u", {"week": 1}) is week_one
    everything, chat = mem.store.transcript.messages(["u"]), mem.store.transcript.messages(["u"], {"source": "chat"})
    turns_all, turns_chat = indexes.turns(["u"], everything), indexes.turns(["u"], chat, {"source": "chat"})
    builds = indexes.builds
    assert indexes.turns(["u"], everything) is turns_all
    assert indexes.turns(["u"], chat, {"source": "chat"}) is turns_chat
    assert indexes.builds == builds
