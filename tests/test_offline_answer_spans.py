"""The offline answerer's span: a bare yes answers with the question it confirms, a number question reads a
little further for its number, and a capitalized function word is no one's name; plus the benchmark that
tells the answerer's losses from retrieval's. Invented people and events only.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest

from dmem.decisions.offline import answer_extraction
from dmem.decisions.offline.answer_extraction import answer, confirmed_pieces, confirms
from dmem.decisions.offline.spans import number_span, person_span
from dmem.models.embeddings import HashEmbeddings
from tests.conftest import benchmark_module

EMB = HashEmbeddings()
WEDDING = '[2025-04-06] Ivo answered Noor\'s question "was it your cousin Belinda\'s wedding in Arbourne?": yep'
BOILER = ['[2025-03-02] Ivo answered Noor\'s question "is the plumber still dodging the boiler?": fixed it at last',
          "[2025-03-02] Ivo waited two weeks for the plumber",
          "[2025-03-02] Ivo bought a kettle"]


@pytest.mark.parametrize(("reply", "yes"), [
    ("yep", True), ("of course", True), ("Yes, exactly!", True), ("mostly", True),
    ("nope", False), ("yep, at the lake", False), ("two weeks", False), ("", False),
])
def test_a_bare_yes_is_told_from_a_reply_with_words_of_its_own(reply: str, yes: bool) -> None:
    assert confirms(reply) is yes


def test_a_bare_yes_reads_as_the_question_it_confirms() -> None:
    assert confirmed_pieces(WEDDING.split("] ", 1)[1]) == ["was it your cousin Belinda's wedding in Arbourne"]
    said = 'Ivo answered Noor\'s question "how was Arbourne?": windy; great chips'
    assert confirmed_pieces(said) == ["windy", "great chips"]


def test_a_confirmed_question_gives_the_span_not_the_yes() -> None:
    out = answer(EMB, "Whose wedding did Ivo go to?", [WEDDING, "[2025-04-06] Ivo bought a teal waistcoat"])
    assert out.answer == "Belinda"
    assert out.used == [1]


def test_a_number_question_reads_past_the_close_lines_for_its_number() -> None:
    out = answer(EMB, "How long did the plumber take to fix Ivo's boiler?", BOILER)
    assert out.answer == "two weeks"
    assert out.used == [2]


def test_the_number_search_stops_at_its_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    # The number line trails the best line by about 0.17: inside the default reach, outside a narrower one.
    monkeypatch.setattr(answer_extraction, "ANSWER_TYPED_REACH", 0.16)
    out = answer(EMB, "How long did the plumber take to fix Ivo's boiler?", BOILER)
    assert out.answer != "two weeks"
    assert out.used == [1]


def test_a_question_of_another_kind_does_not_reach() -> None:
    out = answer(EMB, "What did the plumber do about Ivo's boiler?", BOILER)
    assert "two weeks" not in out.answer


def test_a_capitalized_function_word_names_no_one() -> None:
    assert person_span("That's what Minka told Ivo. YOUR turn next", "Who is Noor's sister?") == "Minka"
    assert person_span("That's settled then", "Who is Noor's sister?") is None


@pytest.fixture(scope="module")
def answer_spans() -> Iterator[ModuleType]:
    """benchmarks/answer_spans.py imported with benchmarks/ on the path."""
    yield from benchmark_module("answer_spans")


@pytest.mark.parametrize(("line", "with_unit", "number"), [
    ("Grandpa Osric turned sixty-three on the harbour trip", False, "sixty-three"),
    ("the ferry to Wendlow takes forty minutes", True, "forty minutes"),
    ("seventy five lanterns went up over the lake", False, "seventy five"),
    ("Tamsin knitted thirteen scarves for the fair", False, "thirteen"),
    ("we queued 45 minutes for the tram", True, "45 minutes"),
    ("Bexley has two ferrets now", False, "two"),
])
def test_a_spelled_number_is_read_whole(line: str, with_unit: bool, number: str) -> None:
    assert number_span(line, with_unit=with_unit) == number


def test_a_word_after_a_hyphen_is_no_number_of_its_own() -> None:
    assert number_span("the cafe on the far-one corner", with_unit=False) is None
    assert number_span("then a forty-one minute speech", with_unit=False) == "forty-one"


def test_the_benchmark_tells_the_answerers_loss_from_retrievals(answer_spans: ModuleType) -> None:
    context = ["[2025-03-02] Ivo waited two weeks for the plumber", "[2025-03-02] Ivo bought a kettle"]
    assert answer_spans.classify("Two weeks", context, "two weeks") == "answered"
    assert answer_spans.classify("Two weeks", context, "a kettle") == "answerer"
    assert answer_spans.classify("A green umbrella", context, "a kettle") == "retrieval"
    assert answer_spans.classify("Yes", context, "a kettle") == "no words"


def test_the_benchmark_wants_the_gold_in_one_line_not_spread_over_many(answer_spans: ModuleType) -> None:
    spread = ["[2025-03-02] Ivo painted the fence green", "[2025-03-03] Noor lost an umbrella"]
    assert answer_spans.classify("A green striped umbrella", spread, "the fence") == "retrieval"
    # A date gold is found in a line's date tag.
    assert answer_spans.classify("2 March 2025", spread, "the fence") == "answerer"


def test_the_replay_asks_as_the_answerer_read_it(answer_spans: ModuleType) -> None:
    # A chat that calls Alexandra "Sasha": the answerer read the question with her label.
    record = {"question": "Where does Sasha climb?", "asked": "Where does Alexandra climb?"}
    assert answer_spans.asked(record) == "Where does Alexandra climb?"
    assert answer_spans.asked({"question": "Where does Ottilie play chess?"}) == "Where does Ottilie play chess?"
