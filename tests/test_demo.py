"""``dmem demo`` end to end with the real bundled MiniLM embeddings: admissions, grounded dates, answers, routes."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmem.cli import main
from dmem.demo import DemoRun, run_demo
from dmem.graphs import served_resources
from dmem.models.embeddings import LOCAL_MINILM, make_embeddings
from dmem.state.schemas import Category, Scope

pytestmark = pytest.mark.slow  # loads the real MiniLM model and runs the demo

ANSWERS = {
    "Where does Maya work?": "Atlas Robotics",
    "When did Maya move to Lisbon?": "February 2024",
    "What vehicle does Maya own?": "Vespa",
    "When did Maya adopt Pixel?": "1 April 2024",
    "What is Maya's diet?": "vegetarian",
    "What car did Maya drive on the road trip?": "Jeep",
}
DELIBERATED = {"What car did Maya drive on the road trip?"}  # its only source was rejected at admission


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    run = run_demo(tmp_path_factory.mktemp("demo"), embeddings=make_embeddings(LOCAL_MINILM))
    served_resources.close()
    return run


def admission(run: DemoRun, start: str) -> tuple[bool, str]:
    found = [d for ex in run.ingest.exchanges for d in ex.admissions if d.utterance.startswith(start)]
    assert len(found) == 1, start
    return found[0].admitted, found[0].reason


def fact_with(run: DemoRun, part: str) -> str:
    found = [f for f in run.ingest.facts if part in f.text]
    assert len(found) == 1, (part, [f.text for f in run.ingest.facts])
    return found[0].text


def test_engine_is_offline(demo: DemoRun) -> None:
    assert demo.engine == "offline"


@pytest.mark.parametrize(
    ("utterance", "admitted", "reason_part"),
    [
        ("I drove a Jeep yesterday", False, "transient"),
        ("Lovely. I might start surfing", True, "kept as hedged"),
        ("Ugh, I'm so tired today", False, "transient"),
        ("I love it. I've had my Vespa", True, "stable ownership"),
        ("Also, my phone number changed", True, "admitted"),
        ("My sister Ana is visiting", True, "admitted"),
        ("Welcome to Lisbon!", False, "assistant turns"),
    ],
)
def test_admission_decisions(demo: DemoRun, utterance: str, admitted: bool, reason_part: str) -> None:
    ok, reason = admission(demo, utterance)
    assert ok is admitted, reason
    assert reason_part in reason


def test_rejected_utterances_leave_no_memory(demo: DemoRun) -> None:
    texts = " ".join(f.text for f in demo.ingest.facts)
    for word in ("Jeep", "tired"):
        assert word not in texts


def test_scopes(demo: DemoRun) -> None:
    by_text = {f.text: f for f in demo.ingest.facts}
    assert by_text[fact_with(demo, "phone number")].scope == Scope.USER_PII
    assert by_text[fact_with(demo, "sister")].scope == Scope.INTERNAL


def test_facts_read_as_standalone_sentences(demo: DemoRun) -> None:
    assert fact_with(demo, "Vespa").startswith("Maya has had a Vespa for three years")
    by_text = {f.text: f for f in demo.ingest.facts}
    diet = by_text["Maya is vegetarian"]
    assert Category.PREFERENCE in diet.categories
    rule = by_text[fact_with(demo, "vegetarian restaurants")]
    assert rule.categories == [Category.USER_RULE]
    assert "Maya's Vespa" not in " ".join(by_text)


@pytest.mark.parametrize(
    ("part", "grounded"),
    [
        ("moved to Lisbon", "in February 2024"),
        ("adopted a cat named Pixel", "on 1 April 2024"),
        ("sister Ana is visiting", "in the week of 8 April 2024"),
    ],
)
def test_relative_times_are_grounded(demo: DemoRun, part: str, grounded: str) -> None:
    text = fact_with(demo, part)
    assert grounded in text
    for relative in ("last month", "yesterday", "next week"):
        assert relative not in text


def test_questions_are_the_scripted_ones(demo: DemoRun) -> None:
    assert [a.question for a in demo.answers] == list(ANSWERS)


@pytest.mark.parametrize("question", list(ANSWERS))
def test_answers_and_routes(demo: DemoRun, question: str) -> None:
    got = next(a for a in demo.answers if a.question == question)
    assert got.answer == ANSWERS[question], got.gate_reasons
    if question in DELIBERATED:
        assert got.route == "deliberation"
        assert got.gate_passed is False
        assert any(f.turn_ids == ["S2:1"] for f in got.facts_used)  # the rejected rental utterance
    else:
        assert got.route == "system1", got.gate_reasons
        assert got.gate_passed is True


def test_cli_demo_prints_the_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["demo", "--store", str(tmp_path)])
    finally:
        served_resources.close()
    out = capsys.readouterr().out
    assert code == 0
    for answer in ANSWERS.values():
        assert answer in out
    assert "Full Deliberation" in out
