"""The enrichment privacy rules and trace redaction, unit by unit (invented examples)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dmem.privacy.detect import detect
from dmem.privacy.policy import about_entity, enrichment_query, query_entity
from dmem.privacy.redact import PERSONAL_MEMORY, TraceRedactor, redact_text
from dmem.state.schemas import Fact, Scope
from dmem.store.knowledge import StaticKnowledge
from dmem.testing import FakeChatModel
from tests.conftest import last_section, scope_all
from tests.privacy_corpus import NOT_PERSONAL, PERSONAL

FACT = "Maya drives a Tesla Model 3"


@pytest.mark.parametrize(("entity", "allowed"), [
    ("Tesla Model 3", True),
    ("  'Tesla Model 3'. ", True),
    ("tesla model 3", True),
    ("Maya", False),  # the speaker's name
    ("Maya drives a Tesla Model 3", False),  # the whole fact
    ("Model 3 by Tesla", False),  # not as written in the fact
    ("Rivian R1S", False),  # invented
    ("my Tesla", False),
    ("", False),
    (None, False),
])
def test_query_entity_carries_only_a_public_name_written_in_the_fact(entity: str | None, allowed: bool) -> None:
    got = query_entity(entity, fact_text=FACT, private_names=["Maya", "maya"])
    assert (got is not None) is allowed
    if allowed:
        assert got is not None and got.lower() == "tesla model 3"


def test_query_entity_refuses_names_people_gave_and_personal_data() -> None:
    assert query_entity("Pixel", fact_text="Maya adopted a cat named Pixel", private_names=["Maya"]) is None
    assert query_entity("555-867-5309", fact_text="Maya's number is 555-867-5309", private_names=[]) is None
    assert query_entity("Lind", fact_text="Maya Lind likes Lind Bakery", private_names=["Maya Lind"]) is None


def fact(text: str, scope: Scope, entity: str | None, enrich: bool = True, namespace: str = "maya") -> Fact:
    return Fact(text=text, namespace=namespace, speaker="Maya", scope=scope, entity=entity, enrich=enrich)


@pytest.mark.parametrize(("f", "external", "expected"), [
    (fact(FACT, Scope.EXTERNAL, "Tesla Model 3"), True, ("external", "Tesla Model 3")),
    (fact(FACT, Scope.EXTERNAL, "Tesla Model 3"), False, None),  # external knowledge not allowed
    (fact(FACT, Scope.EXTERNAL, None), True, None),  # no entity, no lookup
    (fact(FACT, Scope.EXTERNAL, "Tesla Model 3", enrich=False), True, None),
    (fact("Maya's sister is a nurse", Scope.INTERNAL, "sister"), False, ("internal", "sister")),
    (fact("Maya's PIN is 482913 for the Tesla app", Scope.EXTERNAL, "Tesla"), True, None),  # personal data
    (fact(FACT, Scope.USER_PII, "Tesla Model 3"), True, None),
    (fact(FACT, Scope.GENERIC, "Tesla Model 3"), True, None),
    (fact(FACT, Scope.EXTERNAL, "Tesla Model 3", namespace="team/tesla"), True, None),  # a namespace part
])
def test_enrichment_query(f: Fact, external: bool, expected: tuple[str, str] | None) -> None:
    assert enrichment_query(f, external_allowed=external, has_external=True) == expected


def test_knowledge_is_attached_only_about_the_entity_and_capped() -> None:
    lines = ["Paris is the capital of France.", "Tesla Model 3: electric sedan", "Model 3 range: 500 km",
             "The Tesla Model 3 seats five adults comfortably.", "Tesla Inc. makes cars"]
    assert about_entity(lines, "Tesla Model 3", 1000) == lines[1:4]
    assert about_entity(lines, "Tesla Model 3", 50) == lines[1:3]  # whole lines within the cap
    assert about_entity(["x" * 80 + " Tesla Model 3"], "Tesla Model 3", 30) == ["x" * 30]
    assert about_entity(lines, "Prado", 1000) == []


def test_redact_text_replaces_the_sentences_that_hold_personal_data() -> None:
    text = "Maya painted the harbour. Call her on 555-867-5309 tonight!\nHer PIN is 482913.\nShe likes tea."
    assert redact_text(text) == ("Maya painted the harbour. [redacted: phone number]\n"
                                 "[redacted: PIN or code]\nShe likes tea.")
    assert redact_text("run 01a22e3f-c286-7150-9661-9c424fa81c7c at 2023-05-08T13:56:00") == (
        "run 01a22e3f-c286-7150-9661-9c424fa81c7c at 2023-05-08T13:56:00")


def test_trace_redactor_hides_personal_memories_wherever_they_reappear() -> None:
    redactor = TraceRedactor("pii")
    secret = "Maya is seeing someone new"
    out = redactor({"memories": [{"id": "m1", "text": secret, "scope": "USER_PII", "namespace": "maya",
                                  "enrichment": {"partner": "Sam"}},
                                 {"id": "m2", "text": "Maya likes tea", "scope": "GENERIC"}],
                    "context": [f"[2023-05-08] {secret}", "[2023-05-08] Maya likes tea"]})
    assert out["memories"][0] == {"id": "m1", "text": PERSONAL_MEMORY, "scope": "USER_PII", "namespace": "maya",
                                  "enrichment": {"partner": PERSONAL_MEMORY}}
    assert out["context"] == [f"[2023-05-08] {PERSONAL_MEMORY}", "[2023-05-08] Maya likes tea"]
    later = redactor({"messages": [[{"content": f"Memories:\n1. {secret}\nQuestion: who?"}]]})  # a later prompt
    assert secret not in str(later) and PERSONAL_MEMORY in str(later)
    assert redactor({"email maya@example.com": 1}) == {"[redacted key 0]": 1}


def test_all_mode_keeps_only_structural_metadata_and_the_error_type() -> None:
    redactor = TraceRedactor("all")
    meta = {"route": "system1", "gate_passed": True, "gate_reasons": ["faithfulness: pass - Maya's PIN"],
            "namespace": "maya", "langgraph_node": "finish", "ls_provider": "openai"}
    assert redactor(meta) == {"route": "system1", "gate_passed": True, "langgraph_node": "finish",
                              "ls_provider": "openai"}
    assert redactor({"error": "ModelError('answer: Maya said 555-867-5309')\nTraceback ..."}) == {
        "error": "ModelError"}


def test_detector_merges_overlapping_finds() -> None:
    found = detect("Maya's card number is 4111 1111 1111 1111")
    assert len(found) == 1 and found[0].kind == "account or ID number" and found[0].category == "credential"


def _tesla_labels(messages: list[Any]) -> dict[str, Any]:
    out = scope_all(messages, scope="EXTERNAL", enrich=True)
    return {"labels": [{**lab, "entity": "Tesla Model 3"} for lab in out["labels"]]}


def test_the_enricher_attaches_at_most_the_configured_characters(fake: FakeChatModel, memory_factory: Any) -> None:
    lines = ["Tesla Model 3: " + "electric sedan " * 3, "Tesla Model 3 range: 500 km", "Tesla Model 3 seats five"]
    source = StaticKnowledge({"tesla": lines})
    fake.set_script("ScopeLabels", _tesla_labels)
    mem = memory_factory(fake, external_knowledge=True, enrichment_max_chars=90)
    mem.resources.knowledge = source
    res = mem.add([{"speaker": "Maya", "text": "I drive a Tesla Model 3."}, {"speaker": "assistant", "text": "Ok"}],
                  user_id="maya")
    assert source.queries == ["Tesla Model 3"]
    knowledge = last_section(fake.calls_for("Enrichment")[0].messages, "knowledge")
    assert knowledge.splitlines() == [f"- {lines[0].strip()}", f"- {lines[1]}"]  # the third would pass 90
    assert res.facts[0].enrichment_source == "external:StaticKnowledge about 'Tesla Model 3'"


def test_extraction_without_the_formation_layer_also_scopes_personal_data(fake: FakeChatModel,
                                                                         memory_factory: Any) -> None:
    mem = memory_factory(fake, formation=False)
    res = mem.add([{"speaker": "Maya", "text": "My PIN is 482913."}, {"speaker": "assistant", "text": "Noted."}],
                  user_id="maya")
    scopes = {f.text: f.scope for f in res.facts}
    assert scopes == {"Maya said: My PIN is 482913.": Scope.USER_PII, "assistant said: Noted.": Scope.GENERIC}


_SENTENCES = st.sampled_from([s for s, _, _ in PERSONAL] + [s for s, _ in NOT_PERSONAL])
_FILLER = st.text(alphabet=st.characters(codec="ascii", categories=["L", "N", "Zs", "P"]), max_size=40)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_SENTENCES, _FILLER, st.sampled_from([" ", "\n", ". "])), min_size=1, max_size=6))
def test_redacted_text_holds_no_personal_data(parts: list[tuple[str, str, str]]) -> None:
    text = "".join(f"{sentence}{sep}{filler}{sep}" for sentence, filler, sep in parts)
    out = redact_text(text)
    assert detect(out) == []
    for sentence, _, _value in PERSONAL:
        if sentence in text:
            assert sentence not in out
    assert redact_text(out) == out  # markers are never read as personal data: redaction is idempotent
