"""A fact restating a stored memory is a NOOP that adds its turn to the memory's sources (invented chat)."""

from __future__ import annotations

from typing import Any

from dmem.decisions.offline.decider import OfflineDecider
from dmem.state.schemas import Fact, MemoryRecord, Operation
from tests.conftest import T0


def _pair(a: str, b: str, start: int) -> list[dict[str, Any]]:
    return [{"speaker": "Ines", "text": a, "turn_id": f"t{start}", "timestamp": T0.isoformat()},
            {"speaker": "Bruno", "text": b, "turn_id": f"t{start + 1}", "timestamp": T0.isoformat()}]


def _memory(text: str, sources: list[str]) -> MemoryRecord:
    return MemoryRecord(id="m0", namespace="u1", text=text, source_turn_ids=sources, speaker="Ines",
                        created_at=T0, updated_at=T0)


def test_offline_repeat_and_redundant_name_the_memory_they_restate(decider: OfflineDecider) -> None:
    fact = Fact(text="ines plays the cello", speaker="Ines", namespace="u1", source_turn_ids=["t9"])
    background = [_memory("Ines walks to work", ["t1"]), _memory("Ines plays the cello.", ["t3"])]
    repeat = decider.decide_lifecycle(fact, background).value
    assert (repeat.operation, repeat.target) == (Operation.NOOP, 1)
    fuller = [_memory("Ines plays the cello in the harbour orchestra", ["t3"])]
    redundant = decider.decide_lifecycle(fact, fuller).value
    assert (redundant.operation, redundant.target) == (Operation.NOOP, 0)


def test_offline_restatement_adds_its_turn_to_the_stored_memory(memory_factory: Any) -> None:
    mem = memory_factory(None)
    mem.add(_pair("I play the cello in the harbour orchestra.", "That sounds lovely.", 0), user_id="u1")
    [before] = mem.get_all(user_id="u1")
    res = mem.add(_pair("I play the cello in the harbour orchestra.", "You told me!", 2), user_id="u1")
    assert [o.operation for o in res.operations] == [Operation.NOOP]
    [after] = mem.get_all(user_id="u1")
    assert after.id == before.id and after.text == before.text
    assert after.source_turn_ids == [*before.source_turn_ids, "t2"]
    history = mem.history(after.id, user_id="u1")
    assert [h.operation for h in history] == [Operation.ADD, Operation.NOOP]
    assert history[-1].new_text == before.text and "t2" in history[-1].reason
    # The same restatement again adds nothing: the turn is already a source.
    mem.add(_pair("I play the cello in the harbour orchestra.", "You told me!", 2), user_id="u1")
    assert len(mem.history(after.id, user_id="u1")) == 2


def test_model_noop_with_a_target_keeps_the_new_turn(fake: Any, memory_factory: Any) -> None:
    fake.set_script("FactDrafts", [
        {"facts": [{"text": "Ines keeps bees", "speaker": "Ines", "source_turn_ids": ["t0"]}]},
        {"facts": [{"text": "Ines keeps bees", "speaker": "Ines", "source_turn_ids": ["t2"]}]},
        {"facts": [{"text": "Ines keeps bees", "speaker": "Ines", "source_turn_ids": ["t4"]}]},
    ])
    fake.set_script("LifecycleDecision", [{"reason": "already known", "operation": "NOOP", "target": 1},
                                          {"reason": "adds nothing", "operation": "NOOP"}])
    mem = memory_factory(fake, lifecycle_mode="per_fact")
    mem.add(_pair("I keep bees", "nice", 0), user_id="u1")
    mem.add(_pair("I keep bees", "nice", 2), user_id="u1")
    [kept] = mem.get_all(user_id="u1")
    assert kept.source_turn_ids == ["t0", "t2"]
    # A NOOP naming no memory changes nothing.
    res = mem.add(_pair("I keep bees", "nice", 4), user_id="u1")
    assert [o.operation for o in res.operations] == [Operation.NOOP]
    [same] = mem.get_all(user_id="u1")
    assert same.source_turn_ids == ["t0", "t2"]


def test_model_prompt_says_a_noop_names_the_memory(fake: Any, memory_factory: Any) -> None:
    from dmem.prompts.lifecycle import LIFECYCLE_BATCH_SYSTEM, LIFECYCLE_SYSTEM

    for system in (LIFECYCLE_SYSTEM, LIFECYCLE_BATCH_SYSTEM):
        assert "NOOP: a listed memory already says the same thing" in system
        assert "for UPDATE, DELETE and NOOP" in system
