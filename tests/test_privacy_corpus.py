"""The privacy corpus through the detector and through the whole ingestion graph, with both engines.

Every personal sentence must be scoped USER_PII and nothing of it may reach the (spy) external
knowledge source; the look-alike sentences must not be flagged, and only public entity names may
be asked about. The model engine runs a fake model that labels every fact EXTERNAL with a hostile
entity (the fact itself, the user's name, the personal value): the graph must overrule it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from dmem.api import Memory
from dmem.privacy.detect import detect, personal_kinds
from dmem.state.schemas import Scope
from dmem.testing import FakeChatModel
from tests.conftest import default_script, last_section
from tests.privacy_corpus import NOT_PERSONAL, PERSONAL

CATEGORIES = {"e-mail address", "phone number", "street address", "PIN or code", "password or key",
              "account or ID number", "health", "sexual orientation or gender identity", "religion", "finances",
              "ethnicity", "political views", "biometric or genetic data", "date of birth"}
VALUES = {sentence: value for sentence, _, value in PERSONAL}
PUBLIC = {sentence: entity for sentence, entity in NOT_PERSONAL}


class SpyKnowledge:
    """An external knowledge source that answers anything and records every query it is sent."""

    name = "spy"

    def __init__(self) -> None:
        self.queries: list[str] = []

    def lookup(self, query: str) -> list[str]:
        self.queries.append(query)
        return [f"{query}: a well-known public thing", "Unrelated: something else entirely"]


def hostile_labels(messages: list[BaseMessage]) -> dict[str, Any]:
    """Every fact EXTERNAL with enrichment, its entity the worst choice available."""
    labels = []
    for line in last_section(messages, "facts").splitlines():
        m = re.match(r"^(\d+)\. (?:\[[^\]]+\] )?(.*)$", line)
        if not m:
            continue
        index, text = int(m.group(1)), m.group(2)
        said = text.split(": ", 1)[-1]
        entity = PUBLIC.get(said) or VALUES.get(said) or ("Pixel" if "Pixel" in text else None)
        entity = entity or ("Maya" if index % 2 else text)  # the user's name, or the whole fact
        labels.append({"index": index, "reason": "a public entity", "scope": "EXTERNAL", "entity": entity,
                       "enrich": True})
    return {"labels": labels}


def test_the_corpus_covers_every_category() -> None:
    assert len(PERSONAL) >= 40
    assert {kind for _, kind, _ in PERSONAL} >= CATEGORIES


@pytest.mark.parametrize(("sentence", "kind", "value"), PERSONAL, ids=[p[0][:40] for p in PERSONAL])
def test_detector_finds_each_personal_sentence(sentence: str, kind: str, value: str) -> None:
    assert kind in personal_kinds(sentence)


@pytest.mark.parametrize(("sentence", "entity"), NOT_PERSONAL, ids=[n[0][:40] for n in NOT_PERSONAL])
def test_detector_leaves_look_alikes_alone(sentence: str, entity: str | None) -> None:
    assert detect(sentence) == []


def run_corpus(mem: Memory, spy: SpyKnowledge) -> None:
    """Feed every sentence as its own exchange; check scopes and what the spy was asked, per sentence."""
    for i, (sentence, _kind, value) in enumerate(PERSONAL):
        asked = len(spy.queries)
        res = mem.add([{"speaker": "Maya", "text": sentence, "turn_id": f"p{i}"},
                       {"speaker": "assistant", "text": "Noted.", "turn_id": f"p{i}r"}], user_id="maya")
        mine = [f for f in res.facts if f.speaker == "Maya"]
        assert mine, f"no fact formed from {sentence!r}"
        holding = [f for f in mine if detect(f.text)]
        assert holding and all(f.scope == Scope.USER_PII for f in holding), (sentence, mine)
        assert spy.queries[asked:] == [], (sentence, spy.queries[asked:])
        assert not any(f.enrichment for f in holding)
        assert value.lower() in " ".join(f.text.lower() for f in holding)
    for i, (sentence, entity) in enumerate(NOT_PERSONAL):
        asked = len(spy.queries)
        res = mem.add([{"speaker": "Maya", "text": sentence, "turn_id": f"n{i}"},
                       {"speaker": "assistant", "text": "Nice.", "turn_id": f"n{i}r"}], user_id="maya")
        assert res.facts and not any(f.scope == Scope.USER_PII for f in res.facts if f.speaker == "Maya"), sentence
        assert spy.queries[asked:] == ([entity] if entity else []), (sentence, spy.queries[asked:])


def test_offline_engine_scopes_the_corpus_and_asks_only_public_names(memory_factory: Any) -> None:
    spy = SpyKnowledge()
    mem = memory_factory(None, external_knowledge=True)
    mem.resources.knowledge = spy
    run_corpus(mem, spy)
    assert spy.queries == ["Tesla Model 3", "Madrid"]
    enriched = [m for m in mem.get_all(user_id="maya") if m.enrichment_source]
    assert {m.enrichment_source for m in enriched} >= {"external:spy about 'Tesla Model 3'"}


def test_model_engine_is_overruled_by_the_graph(memory_factory: Any) -> None:
    spy = SpyKnowledge()
    script = default_script()
    script["ScopeLabels"] = hostile_labels
    fake = FakeChatModel(script=script)
    mem = memory_factory(fake, external_knowledge=True)
    mem.resources.knowledge = spy
    run_corpus(mem, spy)
    assert spy.queries == ["Tesla Model 3", "Madrid"]
    prompts = [c.prompt for c in fake.calls_for("Enrichment")]
    assert len(prompts) == 2 and "Unrelated" not in "".join(prompts)  # only lines about the entity
    tesla = [m for m in mem.get_all(user_id="maya") if "Tesla" in m.text]
    assert tesla[0].enrichment == {"type": "thing"}
    assert tesla[0].enrichment_source == "external:spy about 'Tesla Model 3'"
