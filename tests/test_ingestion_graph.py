"""Ingestion graph paths with the fake model: every branch of formation and the lifecycle."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dmem.state.schemas import Operation, Scope
from dmem.store.knowledge import StaticKnowledge
from tests.conftest import T0, last_section, scope_all


def pair(a: str, b: str, conv: str = "c1", start: int = 0, when: datetime = T0) -> list[dict[str, Any]]:
    return [
        {"speaker": "Maya", "text": a, "turn_id": f"t{start}", "timestamp": when.isoformat()},
        {"speaker": "Theo", "text": b, "turn_id": f"t{start + 1}", "timestamp": when.isoformat()},
    ]


def test_mixed_admit_reject_records_reasons_and_forms_facts(fake, memory_factory):
    fake.set_script("AdmissionVerdicts", [{"verdicts": [
        {"turn_id": "t0", "reason": "major life event", "admit": True},
        {"turn_id": "t1", "reason": "generic emotional reaction", "admit": False}]}])
    mem = memory_factory(fake)
    res = mem.add(pair("I joined a choir yesterday", "Wow, so happy for you!"), user_id="u1")
    ex = res.exchanges[0]
    assert ex.status == "formed"
    assert [d.admitted for d in ex.admissions] == [True, False]
    assert res.rejected[0].reason == "generic emotional reaction"
    # Only the admitted utterance reaches the splitter.
    split_prompt = last_section(fake.calls_for("FactDrafts")[0].messages, "current_exchange")
    assert "joined a choir" in split_prompt and "so happy" not in split_prompt
    # Deixis grounded from the message timestamp (8 May 2023 -> yesterday = 7 May 2023).
    assert res.facts[0].text == "Maya said: I joined a choir on 7 May 2023"
    assert res.facts[0].event_time and res.facts[0].event_time.date().isoformat() == "2023-05-07"
    assert [op.operation for op in res.operations] == [Operation.ADD]
    stored = mem.get_all(user_id="u1")
    assert [m.text for m in stored] == ["Maya said: I joined a choir on 7 May 2023"]
    # The audit trail is readable through the store.
    assert [a.reason for a in mem.store.history.admissions("u1")] == ["major life event", "generic emotional reaction"]
    assert mem.history(stored[0].id, user_id="u1")[0].operation == Operation.ADD


def test_nothing_admitted_ends_without_extraction_and_keeps_transcript(fake, memory_factory):
    fake.set_script("AdmissionVerdicts", lambda msgs: {"verdicts": []})
    mem = memory_factory(fake)
    res = mem.add(pair("hi", "hey"), user_id="u1")
    assert res.exchanges[0].status == "nothing_admitted"
    assert fake.calls_for("FactDrafts") == [] and fake.calls_for("LifecycleDecision") == []
    assert all(not d.admitted and "no verdict" in d.reason for d in res.exchanges[0].admissions)
    assert [m.text for m in mem.transcript(user_ids=["u1"])] == ["hi", "hey"]
    assert mem.get_all(user_id="u1") == []


def test_formation_off_runs_mem0_extraction(fake, memory_factory):
    fake.set_script("FactDrafts", [{"facts": [{"text": "Maya likes hiking", "speaker": "Maya"}]}])
    mem = memory_factory(fake, formation=False)
    res = mem.add(pair("I like hiking", "Nice"), user_id="u1")
    assert fake.calls_for("AdmissionVerdicts") == [] and fake.calls_for("ScopeLabels") == []
    assert res.exchanges[0].admissions == []
    assert [m.text for m in mem.get_all(user_id="u1")] == ["Maya likes hiking"]
    prompt = fake.calls_for("FactDrafts")[0].prompt
    assert "I like hiking" in prompt


def _two_facts(fake, first: str, second: str):
    fake.set_script("FactDrafts", [
        {"facts": [{"text": first, "speaker": "Maya", "source_turn_ids": ["t0"]}]},
        {"facts": [{"text": second, "speaker": "Maya", "source_turn_ids": ["t2"]}]},
    ])


def test_lifecycle_update_replaces_text_and_keeps_history(fake, memory_factory):
    _two_facts(fake, "Maya lives in Boston", "Maya lives in Boston now")
    fake.set_script("LifecycleDecision", [
        {"reason": "refines the address", "operation": "UPDATE", "target": 1,
         "text": "Maya lives in Boston near the harbor"}])
    mem = memory_factory(fake, lifecycle_mode="per_fact")
    mem.add(pair("I live in Boston", "ok"), user_id="u1")
    res = mem.add(pair("I live in Boston near the harbor now", "ok", start=2), user_id="u1")
    op = res.operations[0]
    assert op.operation == Operation.UPDATE and op.old_text == "Maya lives in Boston"
    [rec] = mem.get_all(user_id="u1")
    assert rec.text == "Maya lives in Boston near the harbor"
    assert [h.operation for h in mem.history(rec.id, user_id="u1")] == [Operation.ADD, Operation.UPDATE]
    # The first fact had nothing to compare with: added without a call. The model saw the
    # memory as label [1], never its real id.
    [call] = fake.calls_for("LifecycleDecision")
    assert rec.id not in call.prompt and "[1] " in call.prompt


def test_lifecycle_delete_removes_from_retrieval_history_keeps_text(fake, memory_factory):
    _two_facts(fake, "Maya owns a red car", "Maya owns a red car no longer")
    fake.set_script("LifecycleDecision", [{"reason": "she sold it", "operation": "DELETE", "target": 1}])
    mem = memory_factory(fake, lifecycle_mode="per_fact")
    first = mem.add(pair("I own a red car", "cool"), user_id="u1")
    mid = first.operations[0].memory_id
    mem.add(pair("I sold my red car", "oh", start=2), user_id="u1")
    assert mem.get_all(user_id="u1") == []
    assert mem.search("red car", user_id="u1") == []
    hist = mem.history(mid, user_id="u1")
    assert [h.operation for h in hist] == [Operation.ADD, Operation.DELETE]
    assert hist[-1].old_text == "Maya owns a red car" and hist[-1].reason == "she sold it"


def test_lifecycle_noop_stores_nothing_new(fake, memory_factory):
    _two_facts(fake, "Maya has a dog", "Maya has a dog")
    fake.set_script("LifecycleDecision", [{"reason": "already known", "operation": "NOOP", "target": 1}])
    mem = memory_factory(fake, lifecycle_mode="per_fact")
    mem.add(pair("I have a dog", "nice"), user_id="u1")
    res = mem.add(pair("I have a dog", "nice", start=2), user_id="u1")
    assert [o.operation for o in res.operations] == [Operation.NOOP]
    assert len(mem.get_all(user_id="u1")) == 1
    # The background shown was the similar memory (cosine > 0.8 with hash embeddings for equal text).
    assert "Maya has a dog" in fake.calls_for("LifecycleDecision")[0].prompt


def test_update_of_unknown_target_adds_instead_of_losing_the_fact(fake, memory_factory):
    _two_facts(fake, "Maya has a cat", "Maya has a cat")
    fake.set_script("LifecycleDecision", [{"reason": "bad id", "operation": "UPDATE", "target": 7, "text": "x y"}])
    mem = memory_factory(fake, lifecycle_mode="per_fact")
    mem.add(pair("I have a cat", "ok"), user_id="u1")
    res = mem.add(pair("I have a cat", "ok", start=2), user_id="u1")
    assert len(fake.calls_for("LifecycleDecision")) == 1
    assert [o.operation for o in res.operations] == [Operation.ADD]
    assert "added instead" in res.operations[0].reason


def test_garbage_reply_retried_then_kept_for_retry(fake, memory_factory):
    fake.set_script("FactDrafts", ["not json at all"])
    mem = memory_factory(fake, max_retries=1)
    res = mem.add(pair("I joined a choir", "wow"), user_id="u1")
    ex = res.exchanges[0]
    assert ex.status == "pending_retry" and "FactDrafts" in (ex.error or "")
    # 'auto': function calling twice (1 retry, error fed back), then JSON-in-prompt twice.
    calls = fake.calls_for("FactDrafts")
    assert [c.method for c in calls] == ["function_calling"] * 2 + ["prompt"] * 2
    assert "could not be used" in calls[1].prompt and "could not be used" in calls[3].prompt
    assert [m.turn_id for m, _ in mem.store.transcript.pending("u1")] == ["t0", "t1"]
    assert [(p.turn_id, "FactDrafts" in p.reason) for p in res.pending_turns] == [("t0", True), ("t1", True)]
    assert mem.get_all(user_id="u1") == []
    # Later, with a working model, the pending turns are formed.
    fake.set_script("FactDrafts", [{"facts": [{"text": "Maya joined a choir", "speaker": "Maya"}]}])
    again = mem.retry_pending(user_id="u1")
    assert again.exchanges[0].status == "formed"
    assert [m.text for m in mem.get_all(user_id="u1")] == ["Maya joined a choir"]
    assert mem.store.transcript.pending("u1") == [] and mem.pending(user_id="u1") == []


def test_reingest_same_turns_is_idempotent(fake, memory_factory):
    mem = memory_factory(fake)
    mem.add(pair("I joined a choir", "wow"), user_id="u1")
    n_calls = len(fake.calls)
    res = mem.add(pair("I joined a choir", "wow"), user_id="u1")
    assert res.exchanges[0].status == "duplicate"
    assert len(fake.calls) == n_calls
    assert len(mem.get_all(user_id="u1")) == 2
    assert len(mem.transcript(user_ids=["u1"])) == 2


def test_speaker_namespaces_keep_each_side_apart(fake, memory_factory):
    mem = memory_factory(fake)
    mem.add(pair("I joined a choir", "I bought a boat"), user_id="u1", conversation_id="conv",
            speaker_namespaces={"Maya": "conv/Maya", "Theo": "conv/Theo"})
    assert [m.text for m in mem.get_all(user_id="conv/Maya")] == ["Maya said: I joined a choir"]
    assert [m.text for m in mem.get_all(user_id="conv/Theo")] == ["Theo said: I bought a boat"]


def _scope(scope: str, entity: str | None = None):
    def label(msgs):
        out = scope_all(msgs, scope=scope, enrich=True)
        return {"labels": [{**lab, "entity": entity} for lab in out["labels"]]}

    return label


def test_user_pii_never_reaches_knowledge_source(fake, memory_factory):
    spy = StaticKnowledge({"555": ["should never be asked"], "maya": ["x"]})
    fake.set_script("ScopeLabels", _scope("USER_PII"))
    mem = memory_factory(fake, external_knowledge=True)
    mem.resources.knowledge = spy
    res = mem.add(pair("My number is 555-0100", "ok"), user_id="u1")
    assert res.facts and all(f.scope == Scope.USER_PII for f in res.facts)
    assert spy.queries == [] and fake.calls_for("Enrichment") == []


def test_external_enrichment_only_when_allowed(fake, memory_factory):
    spy = StaticKnowledge({"tesla": ["Tesla Model 3: electric vehicle, range 300 miles"]})
    fake.set_script("ScopeLabels", _scope("EXTERNAL", "Tesla"))
    blocked = memory_factory(fake, sub="a")
    blocked.resources.knowledge = spy
    blocked.add(pair("I drive a Tesla", "cool"), user_id="u1")
    assert spy.queries == []  # external_knowledge is off by default
    allowed = memory_factory(fake, sub="b", external_knowledge=True)
    allowed.resources.knowledge = spy
    res = allowed.add(pair("I drive a Tesla", "cool"), user_id="u1")
    assert spy.queries == ["Tesla"]  # the entity's name alone: never the fact or the speaker's name
    assert res.facts[0].enrichment == {"type": "thing"}
    assert res.facts[0].enrichment_source == "external:StaticKnowledge about 'Tesla'"
    assert allowed.get_all(user_id="u1")[0].enrichment_source == "external:StaticKnowledge about 'Tesla'"
    assert "Tesla Model 3" in fake.calls_for("Enrichment")[0].prompt


def test_internal_enrichment_uses_only_own_memories(fake, memory_factory):
    spy = StaticKnowledge({"sister": ["never"]})
    mem = memory_factory(fake, external_knowledge=True)
    mem.resources.knowledge = spy
    mem.add(pair("My sister is a nurse", "ok"), user_id="u1")  # GENERIC: stored, no enrichment
    fake.set_script("ScopeLabels", _scope("INTERNAL", "sister"))
    mem.add(pair("My sister is a nurse in Boston", "ok", start=2), user_id="u1")
    assert spy.queries == []
    assert "My sister is a nurse" in fake.calls_for("Enrichment")[0].prompt


def test_generic_fact_is_never_enriched(fake, memory_factory):
    fake.set_script("ScopeLabels", _scope("GENERIC"))
    mem = memory_factory(fake, external_knowledge=True)
    mem.add(pair("Water boils at 100 C", "ok"), user_id="u1")
    assert fake.calls_for("Enrichment") == []


def test_usage_is_reported_per_step(fake, memory_factory):
    mem = memory_factory(fake)
    res = mem.add(pair("I joined a choir", "wow"), user_id="u1")
    usage = res.usage()
    for stage in ("admit", "split_intents", "classify_scope"):
        assert usage[stage].calls >= 1 and usage[stage].input_tokens > 0
    assert "decide_lifecycle_batch" not in usage  # an empty store: facts are added without a call
    assert usage["total"].calls == sum(u.calls for k, u in usage.items() if k not in ("total", "retries"))
    assert usage["total"].calls == len(fake.calls)
    again = mem.add(pair("I adopted a dog", "wow", start=2), user_id="u1").usage()
    assert again["decide_lifecycle_batch"].calls == 1 and again["decide_lifecycle_batch"].input_tokens > 0


def test_provider_error_keeps_turns_pending_and_readd_forms_them(fake, memory_factory):
    fake.set_script("FactDrafts", [ConnectionError("server went away")])
    mem = memory_factory(fake, retry_backoff=0)  # the provider retries run at once: no backoff sleeps
    res = mem.add(pair("I joined a choir", "wow"), user_id="u1")
    [ex] = res.exchanges  # a provider failure is kept for retry, not raised, and says why
    assert ex.status == "pending_retry" and "split_intents" in (ex.error or "") and "server went away" in ex.error
    assert [p.turn_id for p in mem.pending(user_id="u1")] == ["t0", "t1"]
    assert len(mem.transcript(user_ids=["u1"])) == 2 and mem.get_all(user_id="u1") == []
    fake.set_script("FactDrafts", [{"facts": [{"text": "Maya joined a choir", "speaker": "Maya"}]}])
    res = mem.add(pair("I joined a choir", "wow"), user_id="u1")
    assert res.exchanges[0].status == "formed"
    assert [m.text for m in mem.get_all(user_id="u1")] == ["Maya joined a choir"]
    assert mem.add(pair("I joined a choir", "wow"), user_id="u1").exchanges[0].status == "duplicate"


def test_here_is_grounded_from_request_location_and_never_enriched_externally(fake, memory_factory):
    spy = StaticKnowledge({"lisbon": ["Lisbon: capital of Portugal"]})
    fake.set_script("ScopeLabels", _scope("EXTERNAL"))
    mem = memory_factory(fake, external_knowledge=True)
    mem.resources.knowledge = spy
    res = mem.add(pair("I love the food here", "ok"), user_id="u1", location="Lisbon")
    assert res.facts[0].text == "Maya said: I love the food in Lisbon"
    assert not any("Lisbon" in q for q in spy.queries)  # a place from the request context stays private


def test_export_then_import_restores_memories_and_history(fake, memory_factory, tmp_path):
    mem = memory_factory(fake)
    mem.add(pair("I joined a choir", "I bought a boat"), user_id="u1")
    data = mem.export(tmp_path / "export.json", user_id="u1")
    assert (tmp_path / "export.json").is_file() and len(data["memories"]) == 2 and data["history"]
    other = memory_factory(fake, sub="other")
    assert other.import_(tmp_path / "export.json", user_id="u1") == 2
    assert sorted(m.text for m in other.get_all(user_id="u1")) == sorted(m.text for m in mem.get_all(user_id="u1"))
    assert other.search("joined a choir", user_id="u1")[0].memory.text == "Maya said: I joined a choir"


def test_a_failed_enrichment_still_counts_what_it_spent(fake, memory_factory):
    fake.set_script("ScopeLabels", _scope("EXTERNAL", "Tesla"))
    fake.set_script("Enrichment", ["no JSON here"])  # every attempt malformed: enrichment is skipped
    mem = memory_factory(fake, external_knowledge=True)
    mem.resources.knowledge = StaticKnowledge({"tesla": ["Tesla Model 3: electric vehicle, range 300 miles"]})
    res = mem.add(pair("I drive a Tesla", "cool"), user_id="u1")
    assert res.facts and res.facts[0].enrichment in (None, {})
    attempts = len(fake.calls_for("Enrichment"))
    assert attempts >= 2 and res.usage()["enrich"].calls == attempts
    assert res.usage()["total"].calls == len(fake.calls)
