"""Query graph paths with the fake model: gates, Full Deliberation map-reduce, usage and concurrency."""

from __future__ import annotations

import math
import re

import pytest

from dmem.nodes.deliberation import make_chunks
from dmem.state.verdicts import NO_INFO
from tests.conftest import FAIL, PASS, conversation, last_section


def seeded(memory_factory, fake, n_messages: int = 10, **settings):
    """A store with one memory and a transcript of n messages in namespace u1 (deliberation: full scan)."""
    settings.setdefault("deliberation_mode", "full")
    mem = memory_factory(fake, **settings)
    fake.set_script("FactDrafts", [{"facts": [{"text": "Maya went to a baking workshop on 7 May 2023",
                                               "speaker": "Maya"}]}, {"facts": []}])
    mem.add(conversation(n_messages), user_id="u1")
    fake._state.calls.clear()
    return mem


def test_quality_gate_pass_returns_system1(fake, memory_factory):
    mem = seeded(memory_factory, fake)
    ans = mem.ask("When did Maya go to the baking workshop?", user_id="u1")
    assert ans.route == "system1" and ans.answer == "7 May 2023" and ans.gate_passed is True
    assert fake.calls_for("ChunkFacts") == []
    assert ans.memory_ids and len(ans.gate_reasons) == 3
    assert "7 May 2023" in last_section(fake.calls_for("AnswerDraft")[0].messages, "memories")


def test_quality_gate_fail_runs_full_deliberation(fake, memory_factory):
    mem = seeded(memory_factory, fake, n_messages=130)
    fake.set_script("QualityGateVerdict", [{"relevance": PASS, "faithfulness": PASS, "completeness": FAIL}])
    fake.set_script("AnswerDraft", [{"answer": "8 May 2023"}, {"answer": "7 May 2023"}])
    ans = mem.ask("When did Maya go to the baking workshop?", user_id="u1")
    assert ans.route == "deliberation" and ans.answer == "7 May 2023" and ans.gate_passed is False
    assert any("completeness: fail" in r for r in ans.gate_reasons)
    assert len(fake.calls_for("ChunkFacts")) == math.ceil(130 / 60) == 3
    assert ans.facts_used and all(f.turn_ids for f in ans.facts_used)


def test_the_model_engine_keeps_no_incomplete_answer_when_deliberation_finds_nothing(fake, memory_factory):
    """The offline engine's rule (a partial answer of the kind asked stands) is not the model engine's."""
    mem = seeded(memory_factory, fake, n_messages=130)
    fake.set_script("QualityGateVerdict", [{"relevance": PASS, "faithfulness": PASS, "completeness": FAIL}])
    fake.set_script("AnswerDraft", [{"used": [1], "answer": "7 May 2023"}, {"answer": NO_INFO}])
    ans = mem.ask("When did Maya go to the baking workshop, and with whom?", user_id="u1")
    assert ans.route == "deliberation" and ans.gate_passed is False and ans.answer == NO_INFO
    assert not any("answer" in r and "stands" in r for r in ans.gate_reasons)


def test_no_info_answer_escalates_without_the_quality_gate(fake, memory_factory):
    mem = seeded(memory_factory, fake)
    fake.set_script("AnswerDraft", [{"answer": NO_INFO}, {"answer": "Boston"}])
    ans = mem.ask("Where does Maya live?", user_id="u1")
    assert ans.route == "deliberation" and ans.answer == "Boston"
    assert fake.calls_for("QualityGateVerdict") == []


@pytest.mark.parametrize("policy, groups, route", [
    ("majority", [[1, 2], [3]], "system1"),
    ("majority", [[1], [2], [3]], "deliberation"),
    ("consensus", [[1, 2, 3]], "system1"),
    ("consensus", [[1, 2], [3]], "deliberation"),
])
def test_voting_policies(fake, memory_factory, policy, groups, route):
    mem = seeded(memory_factory, fake)
    fake.set_script("AnswerDraft", [{"answer": "7 May"}, {"answer": "May 7"}, {"answer": "June"},
                                    {"answer": "from deliberation"}])
    fake.set_script("AnswerGroups", [{"reason": "r", "groups": groups, "best": [2] + [1] * (len(groups) - 1)}])
    ans = mem.ask("When?", user_id="u1", gate_policy=policy)
    assert ans.route == route
    # The samples are drawn concurrently, so which scripted reply is sample 2 depends on arrival order.
    assert sorted(ans.samples) == ["7 May", "June", "May 7"]
    temps = [c.temperature for c in fake.calls_for("AnswerDraft")[:3]]
    assert temps == [0.7, 0.7, 0.7]
    if route == "system1":
        assert ans.answer == ans.samples[1]  # the top group's best sample, by its number in the vote
    else:
        assert ans.answer == "from deliberation"


def test_never_policy_skips_gate_and_always_skips_system1(fake, memory_factory):
    mem = seeded(memory_factory, fake)
    ans = mem.ask("When?", user_id="u1", gate_policy="never")
    assert ans.route == "system1" and fake.calls_for("QualityGateVerdict") == [] and fake.calls_for("ChunkFacts") == []
    fake._state.calls.clear()
    ans = mem.ask("When?", user_id="u1", gate_policy="always")
    assert ans.route == "deliberation"
    assert len(fake.calls_for("AnswerDraft")) == 1 and fake.calls_for("QualityGateVerdict") == []


def test_filter_keeps_selected_and_falls_back_when_empty(fake, memory_factory):
    mem = seeded(memory_factory, fake)
    fake.set_script("MemorySelection", [{"reason": "none needed", "keep": []}])
    ans = mem.ask("When?", user_id="u1", use_filter=True, gate_policy="never")
    assert ans.memory_ids  # empty selection -> unfiltered context kept
    assert "baking workshop" in last_section(fake.calls_for("AnswerDraft")[0].messages, "memories")


def test_empty_store_answers_no_information_without_deliberation(fake, memory_factory):
    mem = memory_factory(fake)
    ans = mem.ask("Anything?", user_id="nobody")
    assert ans.route == "no_memory" and ans.answer == NO_INFO
    assert fake.calls == []


def test_chunks_have_read_only_history_at_boundaries():
    msgs = conversation(125)
    chunks = make_chunks("q", msgs, 60, 4)
    assert [len(c["chunk"]) for c in chunks] == [60, 60, 5]
    assert chunks[0]["preceding"] == []
    assert [m.seq for m in chunks[1]["preceding"]] == [56, 57, 58, 59]
    assert [m.seq for m in chunks[2]["preceding"]] == [116, 117, 118, 119]


def test_worker_prompt_separates_history_from_chunk(fake, memory_factory):
    mem = seeded(memory_factory, fake, n_messages=70)
    mem.ask("q?", user_id="u1", gate_policy="always")
    second = next(c for c in fake.calls_for("ChunkFacts")
                  if "message number 60 " in last_section(c.messages, "chunk"))
    assert re.findall(r"message number (\d+) ", last_section(second.messages, "preceding_messages")) == [
        "56", "57", "58", "59"]
    assert "[1] " not in last_section(second.messages, "preceding_messages")  # context lines carry no label


def test_score_thresholds_and_selection(fake, memory_factory):
    mem = seeded(memory_factory, fake, n_messages=60)
    scores = [10, 9, 8, 7, 7, 7, 7, 6, 5, 4]
    fake.set_script("ChunkFacts", [{"facts": [{"fact": f"f{s}-{i}", "score": s, "turn_ids": ["c1-1"]}
                                              for i, s in enumerate(scores)]}])
    fake.set_script("MemorySelection", [{"reason": "r", "keep": [2, 1]}])
    ans = mem.ask("q?", user_id="u1", gate_policy="always")
    # 7 facts score > 6 -> more than 6 -> the selection step runs over the ledger (one day: best first).
    sel_prompt = last_section(fake.calls_for("MemorySelection")[0].messages, "facts")
    assert sel_prompt.splitlines()[0].startswith("1. [2023-05-08] f10") and len(sel_prompt.splitlines()) == 7
    assert [f.fact for f in ans.facts_used] == ["[2023-05-08] f10-0", "[2023-05-08] f9-1"]


def test_selection_skipped_with_six_or_fewer(fake, memory_factory):
    mem = seeded(memory_factory, fake, n_messages=60)
    fake.set_script("ChunkFacts", [{"facts": [{"fact": f"f{i}", "score": 7, "turn_ids": []} for i in range(6)]
                                    + [{"fact": "low", "score": 6, "turn_ids": []}]}])
    ans = mem.ask("q?", user_id="u1", gate_policy="always")
    assert fake.calls_for("MemorySelection") == []
    assert len(ans.facts_used) == 6 and "low" not in [f.fact for f in ans.facts_used]


def test_bad_chunk_reply_is_skipped_and_question_still_answered(fake, memory_factory):
    mem = seeded(memory_factory, fake, n_messages=130, max_retries=0)
    good = {"facts": [{"fact": "good fact", "score": 9, "turn_ids": []}]}

    def reply(msgs):
        return "garbage" if "message number 0 " in last_section(msgs, "chunk") else good
    fake.set_script("ChunkFacts", reply)
    fake.set_script("AnswerDraft", [{"answer": "from good"}])
    ans = mem.ask("q?", user_id="u1", gate_policy="always")
    # The two good chunks said the same thing: the ledger keeps it once; the bad chunk is reported unread.
    assert ans.answer == "from good" and [f.fact for f in ans.facts_used] == ["good fact"]
    assert [s.index for s in ans.skipped_chunks] == [0] and "c1-0" in ans.skipped_chunks[0].turn_ids


def test_usage_summed_across_stages_and_workers(fake, memory_factory):
    mem = seeded(memory_factory, fake, n_messages=130)
    fake.set_script("QualityGateVerdict", [{"relevance": FAIL, "faithfulness": PASS, "completeness": PASS}])
    ans = mem.ask("q?", user_id="u1")
    assert ans.usage["read_chunk"].calls == 3
    assert ans.usage["total"].calls == len(fake.calls) == 1 + 1 + 3 + 1
    assert ans.usage["total"].input_tokens == sum(u.input_tokens for k, u in ans.usage.items() if k != "total")


@pytest.mark.slow
def test_chunk_workers_run_concurrently(fake, memory_factory):
    mem = seeded(memory_factory, fake, n_messages=240, max_concurrency=4)
    fake.delay = 0.2
    mem.ask("q?", user_id="u1", gate_policy="always")
    assert len(fake.calls_for("ChunkFacts")) == 4
    assert fake.max_in_flight("ChunkFacts") >= 2


def test_namespace_isolation(fake, memory_factory):
    mem = memory_factory(fake)
    fake.set_script("FactDrafts", [{"facts": [{"text": "Alice secret: password hint is blue", "speaker": "a"}]}])
    mem.add([{"speaker": "a", "text": "my hint is blue", "turn_id": "a1"}], user_id="alice")
    ans = mem.ask("What is the password hint?", user_id="bob")
    assert ans.route == "no_memory" and ans.memory_ids == []
    fake.set_script("FactDrafts", [{"facts": [{"text": "Bob likes tea", "speaker": "b"}]}])
    mem.add([{"speaker": "b", "text": "I like tea", "turn_id": "b1"}], user_id="bob")
    fake._state.calls.clear()
    mem.ask("What is the password hint?", user_id="bob", gate_policy="always")
    prompts = "\n".join(c.prompt for c in fake.calls)
    assert "blue" not in prompts and "tea" in prompts


def test_a_failed_deliberation_answer_still_counts_what_it_spent(fake, memory_factory):
    mem = seeded(memory_factory, fake)
    fake.set_script("AnswerDraft", ["no JSON here"])  # every attempt malformed: the answer call fails
    ans = mem.ask("q?", user_id="u1", gate_policy="always")
    assert ans.answer == NO_INFO and ans.route == "deliberation"
    attempts = len(fake.calls_for("AnswerDraft"))
    assert attempts >= 2 and ans.usage["answer"].calls == attempts
    assert ans.usage["total"].calls == len(fake.calls)


def test_deliberation_input_holds_only_what_the_graph_reads():
    from dmem.state.graphs import DeliberationInput

    assert set(DeliberationInput.__annotations__) == {"question", "namespaces", "metadata"}
