"""Detect at the source, carry the verdict; the model proposes, rules decide (invented examples).

A model that rewrites a secret out of the detector's sight, or names it as the "public entity" of a
fact, must not get it stored unscoped, sent to a knowledge source, or written into a pii trace.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from dmem.privacy.carry import screen
from dmem.privacy.detect import personal_kinds, secret_values
from dmem.privacy.policy import entity_refusal, stricter_scope
from dmem.privacy.redact import PERSONAL_VALUE, TraceRedactor
from dmem.privacy.shapes import personal_shape
from dmem.privacy.values import spelled_as_digits
from dmem.state.schemas import Fact, Message, Scope
from dmem.store.knowledge import StaticKnowledge
from dmem.testing import FakeChatModel
from tests.conftest import last_section, scope_all
from tests.test_tracing_collector import collector, count  # noqa: F401  (the collector fixture)

LOCKER = "The passcode of my locker at the climbing gym is 7714."
REWRITE = "Odile's climbing gym locker opens with 7714"  # what a model might store: no keyword, no detection


def test_the_rewrite_alone_is_not_detected_but_the_utterance_is() -> None:
    assert personal_kinds(REWRITE) == []  # why detection must run on the source
    assert personal_kinds(LOCKER) == ["password or key"]
    assert secret_values(LOCKER) == ["7714"]


def _rewrite(messages: list[BaseMessage]) -> dict[str, Any]:
    ids = re.findall(r"^\[([^\]]+)\] ", last_section(messages, "current_exchange"), re.MULTILINE)
    return {"facts": [{"text": REWRITE, "speaker": "Odile", "source_turn_ids": ids[:1], "categories": ["persona"],
                       "provenance": "stated"}]}


def _entity(value: str) -> Any:
    def labels(messages: list[BaseMessage]) -> dict[str, Any]:
        out = scope_all(messages, scope="EXTERNAL", enrich=True)
        return {"labels": [{**lab, "entity": value} for lab in out["labels"]]}
    return labels


def test_a_rewritten_fact_inherits_the_personal_data_of_its_utterance(fake: FakeChatModel,
                                                                      memory_factory: Any) -> None:
    fake.set_script("FactDrafts", _rewrite)
    fake.set_script("ScopeLabels", _entity("7714"))  # the model calls the code a public entity
    source = StaticKnowledge({"7714": ["7714 is a number"]})
    mem = memory_factory(fake, external_knowledge=True)
    mem.resources.knowledge = source
    res = mem.add([{"speaker": "Odile", "text": LOCKER}, {"speaker": "assistant", "text": "Noted."}],
                  user_id="odile")
    (stored,) = mem.get_all(user_id="odile")
    assert stored.text == REWRITE and stored.scope == Scope.USER_PII
    assert source.queries == []
    (fact,) = res.facts
    assert fact.personal == ["password or key"] and fact.entity is None
    assert fact.not_enriched is not None and "password or key" in fact.not_enriched


@pytest.mark.parametrize("secret", ["Tr0ub4dor&3", "4417-2290", "odile.brandt@example.org", "nine three one two"])
def test_an_entity_naming_a_secret_is_never_looked_up(fake: FakeChatModel, memory_factory: Any, secret: str) -> None:
    """The utterance holds no detectable keyword: only the shape rules stop the lookup."""
    text = f"Odile wrote {secret} on the back of the Lisbon tram map."
    fake.set_script("ScopeLabels", _entity(secret))
    source = StaticKnowledge({secret.lower(): ["something"]})
    mem = memory_factory(fake, external_knowledge=True)
    mem.resources.knowledge = source
    res = mem.add([{"speaker": "Odile", "text": text}, {"speaker": "assistant", "text": "Ok."}], user_id="odile")
    assert source.queries == []
    assert all(f.not_enriched for f in res.facts), [f.not_enriched for f in res.facts]


def test_a_public_entity_is_still_looked_up(fake: FakeChatModel, memory_factory: Any) -> None:
    fake.set_script("ScopeLabels", _entity("Lisbon"))
    source = StaticKnowledge({"lisbon": ["Lisbon is the capital of Portugal."]})
    mem = memory_factory(fake, external_knowledge=True)
    mem.resources.knowledge = source
    res = mem.add([{"speaker": "Odile", "text": "I took the tram across Lisbon."},
                   {"speaker": "assistant", "text": "Nice."}], user_id="odile")
    assert source.queries == ["Lisbon"] and res.facts[0].not_enriched is None


def _msg(text: str, turn: str = "t1") -> Message:
    return Message(turn_id=turn, speaker="Odile", text=text)


def test_screen_marks_why_and_keeps_the_fact() -> None:
    fact = Fact(text="Odile said: I drove the Fiat 500 to Porto", namespace="odile", speaker="Odile",
                scope=Scope.EXTERNAL, enrich=True, entity="Fiat 500", source_turn_ids=["t1"])
    ok = screen(fact, [_msg("I drove the Fiat 500 to Porto")])
    assert ok.entity == "Fiat 500" and ok.enrich and ok.not_enriched is None
    invented = screen(fact.model_copy(update={"entity": "Porto"}), [_msg("I drove it there")])
    assert invented.entity is None and invented.not_enriched == (
        "the entity is not written in the utterance the fact came from")
    # A second utterance of the exchange with personal data does not touch a fact from the first...
    other = screen(fact, [_msg("I drove the Fiat 500 to Porto"), _msg("my PIN is 5521", "t2")])
    assert other.scope == Scope.EXTERNAL
    # ...but a fact of unknown origin inherits from the whole exchange.
    unknown = screen(fact.model_copy(update={"source_turn_ids": []}), [_msg("Fiat 500"), _msg("PIN is 5521", "t2")])
    assert unknown.scope == Scope.USER_PII and unknown.personal == ["PIN or code"]


@pytest.mark.parametrize(("entity", "why"), [
    ("Fiat 500", None), ("Windows 2000", None), ("Volvo XC40", None), ("AT&T", None), ("Rolex", None),
    ("2580", "a long number"), ("31-07-88", "digits with separators"), ("5550142277", "a phone-length number"),
    ("k9Lm2#x", "a credential-like token"), ("Tr0ub4dor&3", "a credential-like token"),
    ("odile at example dot org", "an e-mail shape"), ("four four seven", "spelled-out numbers"),
])
def test_personal_shapes(entity: str, why: str | None) -> None:
    assert personal_shape(entity) == why


def test_entity_refusal_reasons() -> None:
    common = {"fact_text": "Odile keeps a Rolex and her PIN 2580 in a drawer", "private_names": ["Odile"]}
    assert entity_refusal("Rolex", **common) is None
    assert entity_refusal("PIN 2580", **common) is not None
    assert entity_refusal("Rolex", sources=["the watch is in a drawer"], **common) is not None


def test_stricter_scope() -> None:
    assert stricter_scope(Scope.GENERIC, Scope.USER_PII) == Scope.USER_PII
    assert stricter_scope(Scope.INTERNAL, Scope.EXTERNAL) == Scope.INTERNAL


def test_an_update_by_a_personal_fact_makes_the_memory_personal(fake: FakeChatModel, memory_factory: Any) -> None:
    fake.set_script("FactDrafts", [
        {"facts": [{"text": "Odile rents a locker at the gym", "speaker": "Odile", "source_turn_ids": ["t0"]}]},
        {"facts": [{"text": REWRITE, "speaker": "Odile", "source_turn_ids": ["t2"]}]}])
    fake.set_script("LifecycleDecision", [{"reason": "more precise", "operation": "UPDATE", "target": 1,
                                           "text": REWRITE}])
    mem = memory_factory(fake, lifecycle_mode="per_fact", update_min_similarity=-1.0)
    mem.add([{"speaker": "Odile", "text": "I rent a locker at the climbing gym.", "turn_id": "t0"},
             {"speaker": "assistant", "text": "Ok.", "turn_id": "t1"}], user_id="odile")
    (old,) = mem.get_all(user_id="odile")
    assert old.scope == Scope.GENERIC
    mem.add([{"speaker": "Odile", "text": LOCKER, "turn_id": "t2"},
             {"speaker": "assistant", "text": "Noted.", "turn_id": "t3"}], user_id="odile")
    (new,) = mem.get_all(user_id="odile")
    assert new.id == old.id and new.text == REWRITE and new.scope == Scope.USER_PII


def test_spelled_values_come_back_as_digits() -> None:
    assert spelled_as_digits("four eight two one") == "4821"
    assert spelled_as_digits("double five oh nine") == "5509"
    assert spelled_as_digits("the four of us") is None


def test_a_value_seen_in_inputs_is_scrubbed_from_every_string_of_the_run() -> None:
    redactor = TraceRedactor("pii")
    inputs = redactor({"messages": [{"text": LOCKER}], "note": "my wifi password is 'Tr0ub4dor&3'"})
    assert "7714" not in str(inputs) and "Tr0ub4dor" not in str(inputs)
    # The model's reply and metadata carry the values out of their sentences.
    outputs = redactor({"tool_calls": [{"args": '{"entity": "7714", "scope": "EXTERNAL"}'}],
                        "facts": [{"text": REWRITE, "scope": "GENERIC"}], "raw": "Entity: Tr0ub4dor&3"})
    assert "7714" not in str(outputs) and "Tr0ub4dor" not in str(outputs)
    assert PERSONAL_VALUE in outputs["raw"]
    meta = redactor({"entity": "77 14", "thread_id": "01a22e3f-c286-7150-9661-7714fa81c7c0"})
    assert meta == {"entity": PERSONAL_VALUE, "thread_id": "01a22e3f-c286-7150-9661-7714fa81c7c0"}
    spelled = TraceRedactor("pii")
    spelled({"text": "My PIN is four eight two one."})
    assert spelled({"reply": "Noted: 4821."}) == {"reply": f"Noted: {PERSONAL_VALUE}."}


def test_pii_traces_carry_no_secret_a_model_rewrote_or_named(collector: Any, memory_factory: Any,  # noqa: F811
                                                             fake: FakeChatModel) -> None:
    """Through a real LangSmith client to a loopback collector: the reply naming the code is scrubbed too."""
    fake.set_script("FactDrafts", _rewrite)
    fake.set_script("ScopeLabels", _entity("7714"))
    fake.set_script("AnswerDraft", [{"reasoning": "memory 1", "answer": "It opens with 7714."}])
    mem = memory_factory(fake, trace_redaction="pii", external_knowledge=True)
    mem.resources.knowledge = StaticKnowledge({})
    mem.add([{"speaker": "Odile", "text": LOCKER}, {"speaker": "assistant", "text": "Noted."}], user_id="odile")
    mem.ask("How does Odile open her locker?", user_id="odile")
    mem.tracing.flush()
    sent = collector.bodies()
    assert "climbing" in sent or "[redacted" in sent  # something was sent
    assert count(sent, "7714") == 0
    assert "scope" in sent  # the scope reply itself was traced, its entity scrubbed
