"""A partial System 1 answer standing when Full Deliberation finds nothing: the offline engine keeps one only when it
is the kind of answer the question asks and no date (``gate.partial_stands``); the model engine keeps none. Invented
people."""

from __future__ import annotations

from typing import Any

import pytest

from dmem.decisions.base import Decided
from dmem.decisions.offline import OfflineDecider
from dmem.decisions.offline.gate import of_kind_asked, partial_stands
from dmem.state.schemas import Usage
from dmem.state.verdicts import NO_INFO, AnswerDraft, CriterionVerdict, QualityGateVerdict
from tests.conftest import conversation


@pytest.mark.parametrize("question, answer, kind", [
    ("When did Ottilie's probation end?", "23 April 2027", True),
    ("Since when has Brannoc been vegan?", "7 March 2027", True),
    ("Which day did they pick for the quiz?", "26 February 2027", True),
    ("When is Ysolde's race?", "the last one", False),
    ("Who fed the cat while Ottilie was away?", "Brannoc", True),
    ("Who fed the cat while Ottilie was away?", "her sister", True),
    ("Who fed the cat while Ottilie was away?", "ate", False),
    ("Who fed the cat while Ottilie was away?", "Bread", True),  # a capitalised word may name someone
    ("How old did Brannoc's nephew turn?", "six", True),
    ("How much did Ysolde pay for the camera, and what came with it?", "forty", True),
    ("How many kittens did Mossy have?", "a lot of mess", True),  # "a lot" is a count
    ("How many kittens did Mossy have?", "mess", False),
    ("Where does Ysolde work?", "at the hospital", True),
    ("Where does Ysolde work?", "in Tarnbury", True),
    ("Where does Ysolde work?", "tarnbury", False),
    ("Where does Ysolde work?", "brought a cat", False),
    ("Was the kitten named when she was born?", "31 July 2027", False),  # a yes/no question, though it says when
    ("Did Brannoc go to the gig?", "nope", True),
    ("Did Brannoc go to the gig?", "he did", True),
    ("Did Brannoc go to the gig?", "ate", False),
    ("What did Ottilie do on her birthday?", "ok to cat-sit", False),  # no kind to check it by
    ("Why couldn't Brannoc come on Friday?", "saturday works", False),
    ("How did the move go?", "came home", False),
])
def test_an_answer_is_of_the_kind_asked(question: str, answer: str, kind: bool) -> None:
    assert of_kind_asked(question, answer) is kind


@pytest.mark.parametrize("question, answer, stands", [
    ("When did Ottilie's probation end?", "23 April 2027", False),  # a date: the whole answer or another event's
    ("When and where did Brannoc propose?", "at the harbour", True),  # the where-part, a place
    ("When and where did Brannoc propose?", "3 May 2027", False),
    ("Who fed the cat while Ottilie was away?", "Brannoc", True),
    ("How old did Brannoc's nephew turn?", "six", True),
    ("Did Brannoc go to the gig?", "nope", True),
    ("What did Ottilie do on her birthday?", "ok to cat-sit", False),
])
def test_a_partial_answer_stands_only_of_a_kind_and_no_date(question: str, answer: str, stands: bool) -> None:
    assert partial_stands(question, answer) is stands


def _verdict(relevance: bool) -> QualityGateVerdict:
    return QualityGateVerdict(relevance=CriterionVerdict(reason="r", passed=relevance),
                              faithfulness=CriterionVerdict(reason="f", passed=True),
                              completeness=CriterionVerdict(reason="support 0.4 < 0.5", passed=False))


def _usage(stage: str) -> Usage:
    return Usage(stage=stage, phase="query", engine="offline", calls=0, latency_s=0.0)


@pytest.mark.parametrize("question, first, relevance, stands", [
    ("Who looked after the dog while Maya was away?", "Theo", True, True),
    ("How many kittens did Mossy have?", "four", True, True),
    ("When did Maya's probation end?", "23 April 2027", True, False),  # a date is whole or another event's
    ("What did Maya do on her birthday?", "ok to cat-sit", True, False),  # not of a kind it can be checked by
    ("Did Maya pass her probation?", "ate", True, False),
    ("Who looked after the dog while Maya was away?", "Theo", False, False),  # the gate found it irrelevant
])
def test_offline_partial_answer_stands_only_when_of_the_kind_asked(
        monkeypatch: pytest.MonkeyPatch, memory_factory: Any, question: str, first: str, relevance: bool,
        stands: bool) -> None:
    answers = iter([first])

    def answer(self: OfflineDecider, q: str, context: list[str], **_: Any) -> Decided[AnswerDraft]:
        said = next(answers, NO_INFO)  # System 1 answers from its first line; deliberation then finds nothing
        return Decided(AnswerDraft(used=[] if said == NO_INFO else [1], answer=said), _usage("answer"))

    def gate(self: OfflineDecider, q: str, a: str, context: list[str]) -> Decided[QualityGateVerdict]:
        return Decided(_verdict(relevance), _usage("quality_gate"))

    monkeypatch.setattr(OfflineDecider, "answer", answer)
    monkeypatch.setattr(OfflineDecider, "quality_gate", gate)
    mem = memory_factory(None, deliberation_mode="full")
    assert mem.services.decider.name == "offline"
    mem.add(conversation(12), user_id="u1")
    ans = mem.ask(question, user_id="u1")
    assert ans.route == "deliberation" and ans.gate_passed is False
    assert ans.answer == (first if stands else NO_INFO)
    assert any("answer, of the kind the question asks, stands" in r for r in ans.gate_reasons) is stands
    if stands:  # the evidence is the line System 1 answered from
        assert ans.evidence_turn_ids and set(ans.evidence_turn_ids) <= set(ans.retrieved[0].memory.source_turn_ids)
