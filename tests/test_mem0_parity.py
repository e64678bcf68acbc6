"""mem0's API on Memory: ``add(..., infer=False)``, a search ``threshold``, per-stage instructions.

``reset`` has its own tests (tests/test_reset.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dmem.errors import DataError
from dmem.state.schemas import Operation, Scope
from dmem.testing import FakeChatModel


def test_infer_false_stores_each_message_as_said_without_a_model_call(fake: FakeChatModel,
                                                                      memory_factory: Any) -> None:
    mem = memory_factory(fake)
    out = mem.add([{"speaker": "Maya", "text": "My card number is 4111 1111 1111 1111"},
                   {"speaker": "Maya", "text": "I like quiet trains."}], user_id="maya", infer=False,
                  metadata={"source": "import"})
    assert fake.calls == []
    records = mem.get_all(user_id="maya")
    assert [(r.text, r.scope, r.metadata) for r in records] == [
        ("My card number is 4111 1111 1111 1111", Scope.USER_PII, {"source": "import"}),
        ("I like quiet trains.", Scope.GENERIC, {"source": "import"})]
    assert [op.operation for op in out.operations] == [Operation.ADD, Operation.ADD]
    assert [m.text for m in mem.transcript(user_id="maya")][1] == "I like quiet trains."
    assert all("infer=False" in mem.history(r.id, user_id="maya")[0].reason for r in records)
    again = mem.add([{"speaker": "Maya", "text": "My card number is 4111 1111 1111 1111"},
                     {"speaker": "Maya", "text": "I like quiet trains."}], user_id="maya", infer=False)
    assert again.operations == [] and len(mem.get_all(user_id="maya")) == 2
    assert mem.pending(user_id="maya") == [] and mem.retry_pending(user_id="maya").exchanges == []


def test_infer_false_on_the_async_path(memory_factory: Any) -> None:
    mem = memory_factory()
    asyncio.run(mem.aadd(["Theo owns a red kayak."], user_id="theo", infer=False))
    assert [r.text for r in mem.get_all(user_id="theo")] == ["Theo owns a red kayak."]


def test_search_threshold_drops_weak_matches(memory_factory: Any) -> None:
    mem = memory_factory()
    mem.add(["Maya grows basil on the balcony.", "Maya repairs old radios."], user_id="maya", infer=False)
    everything = mem.search("basil balcony", user_id="maya")
    assert len(everything) == 2 and everything[0].score > everything[1].score
    cut = (everything[0].score + everything[1].score) / 2
    assert [r.memory.text for r in mem.search("basil balcony", user_id="maya", threshold=cut)] == [
        "Maya grows basil on the balcony."]
    assert len(asyncio.run(mem.asearch("basil balcony", user_id="maya", threshold=cut))) == 1
    with pytest.raises(DataError, match="threshold"):
        mem.search("basil", user_id="maya", threshold=2)


def test_instructions_join_their_stage_prompt_per_run(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake, admission_instructions="Never keep anything about the user's employer.")
    mem.add(["I adopted a cat named Miso.", "Lovely."], user_id="maya")
    mem.ask("What is my cat called?", user_id="maya", answer_instructions="Answer in Portuguese.")
    mem.ask("What is my cat called?", user_id="maya")

    def system(schema: str) -> list[str]:
        return [str(c.messages[0].content) for c in fake.calls_for(schema)]

    assert all("Never keep anything about the user's employer." in s for s in system("AdmissionVerdicts"))
    assert not any("employer" in s for s in system("FactDrafts") + system("AnswerDraft"))
    with_rule, without = system("AnswerDraft")
    assert "<deployment_instructions>\nAnswer in Portuguese.\n</deployment_instructions>" in with_rule
    assert "Portuguese" not in without
    graph_run = mem.query_graph.invoke({"question": "Cat?", "namespaces": ["maya"]},
                                       context={"answer_instructions": "Answer in one word."})
    assert graph_run["answer"] and "Answer in one word." in system("AnswerDraft")[-1]


def test_each_stage_gets_its_own_instructions_and_no_other(fake: FakeChatModel, memory_factory: Any) -> None:
    rules = {"admission": "RULE-ADMIT", "extraction": "RULE-EXTRACT", "lifecycle": "RULE-LIFECYCLE",
             "gate": "RULE-GATE", "answer": "RULE-ANSWER"}
    mem = memory_factory(fake, update_min_similarity=0.0,  # every new fact is compared: lifecycle decides
                         **{f"{stage}_instructions": rule for stage, rule in rules.items()})
    mem.add(["I adopted a cat named Miso.", "Lovely."], user_id="maya")
    mem.add(["Miso now sleeps on the piano.", "Cute."], user_id="maya")
    mem.ask("What is my cat called?", user_id="maya", gate_policy="quality")
    stage_of = {"AdmissionVerdicts": "admission", "FactDrafts": "extraction", "LifecycleDecisions": "lifecycle",
                "LifecycleDecision": "lifecycle", "QualityGateVerdict": "gate", "AnswerDraft": "answer"}
    seen = set()
    for call in fake.calls:
        if call.schema not in stage_of:
            continue
        system = str(call.messages[0].content)
        stage = stage_of[call.schema]
        seen.add(stage)
        assert f"<deployment_instructions>\n{rules[stage]}\n</deployment_instructions>" in system, call.schema
        assert not any(rule in system for other, rule in rules.items() if other != stage), call.schema
    assert seen == set(rules)
