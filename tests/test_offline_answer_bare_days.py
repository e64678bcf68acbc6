"""Bare days, weekdays and months the offline answerer reads, and two-part questions with a verb of their own.

Invented people and events. A bare "the 18th" or "saturday" is placed by the tense of its clause (behind the
line's date for a past, else ahead); a month said alone ("in june") in the year nearest the line's date, and
only when no day is said. "Who is Ansel, and where did he go?" asks two questions.
"""

from __future__ import annotations

from datetime import date, datetime

import pytest

from dmem.decisions.offline import spans
from dmem.decisions.offline.answer_extraction import answer
from dmem.decisions.offline.gate import line_stems, quality_gate
from dmem.decisions.offline.spoken_days import bare_days, spoken_days, spoken_months, tells_past, told_days
from dmem.grounding.deixis import Grounded
from dmem.models.embeddings import make_embeddings
from dmem.state.verdicts import NO_INFO, AnswerDraft
from dmem.text.lexical import content_stems
from dmem.text.questions import resolved, two_questions

EMB = make_embeddings("hash")
SAID_ON = date(2031, 5, 14)  # a Wednesday


@pytest.mark.parametrize(("text", "day"), [
    ("coming back on the 18th", date(2031, 5, 18)),  # ahead: no past told
    ("he came in the end, the 24th", date(2031, 4, 24)),  # behind: a past
    ("Wren leaves on the 30th", date(2031, 5, 30)),
    ("the eleventh", date(2031, 6, 11)),  # ahead, so next month's
    ("it was the 14th", date(2031, 5, 14)),  # the line's own day, told in the past
    ("the 31st, after the exams", date(2031, 5, 31)),
    ("thursday is Ilse's birthday", date(2031, 5, 15)),
    ("Bram fixed it friday", date(2031, 5, 9)),
    ("wednesday works for me", date(2031, 5, 21)),  # a weekday is strictly ahead, as "next wednesday"
    ("since monday; he's home", date(2031, 5, 12)),
    ("he'll call me monday, he said", date(2031, 5, 19)),  # a future marker beats the past "said"
])
def test_a_bare_day_or_weekday_is_placed_by_the_tense_of_its_clause(text: str, day: date) -> None:
    assert [d for _, d in spoken_days(text, SAID_ON)] == [day]


def test_a_quoted_bare_weekday_is_placed_by_its_own_clause_not_the_frame() -> None:
    line = 'Ilse answered Bram\'s question "saturday?": the cinema, the late one'
    assert [d for _, d in spoken_days(line, SAID_ON)] == [date(2031, 5, 17)]  # 'answered' tells the frame's past


@pytest.mark.parametrize("text", [
    "on sundays I swim",  # a plural is a habit
    "every monday",
    "the twentieth, a monday",  # "a monday" names the kind of day: only the twentieth is read
    "she was the first",  # a rank
    "the second time",
    "the 4th floor",
    "last friday",  # ``deixis`` grounds it
])
def test_what_is_not_a_bare_day_is_not_read_as_one(text: str) -> None:
    assert len(bare_days(text, SAID_ON)) == (1 if text.startswith("the twentieth") else 0)


def test_a_weekday_with_its_day_of_the_month_is_read_once() -> None:
    assert [d for _, d in spoken_days("Thursday the 29th", SAID_ON)] == [date(2031, 5, 29)]


@pytest.mark.parametrize(("clause", "past"), [
    ("he came in the end", True), ("we booked it", True), ("since monday", True), ("it was great", True),
    ("she is coming back", False), ("I will go", False), ("I said I'll come", False), ("the cinema", False),
])
def test_the_tense_of_a_clause(clause: str, past: bool) -> None:
    assert tells_past(clause) is past


@pytest.mark.parametrize(("text", "month"), [
    ("one in june", date(2031, 6, 1)),
    ("we went in january", date(2031, 1, 1)),
    ("back by august", date(2031, 8, 1)),
    ("since december", date(2030, 12, 1)),  # nearer in the year before
])
def test_a_month_said_alone_is_placed_in_the_nearest_year(text: str, month: date) -> None:
    assert [m for _, m in spoken_months(text, SAID_ON)] == [month]


@pytest.mark.parametrize("text", ["in May 2031", "in june 2030", "the 3rd of June", "you may in fact", "junebug"])
def test_what_is_no_month_alone_is_not_read_as_one(text: str) -> None:
    assert spoken_months(text, SAID_ON) == []


def test_a_month_alone_only_when_the_text_says_no_day() -> None:
    assert spans.said_date("it was in june; july 3rd now", SAID_ON) == "3 July 2031"
    assert spans.said_date("the exam is in june", SAID_ON) == "June 2031"
    assert spans.said_dates("the exam is in june", SAID_ON) == (None, "June 2031")
    assert spans.date_span("the exam is in june", SAID_ON) == "June 2031"
    assert spoken_months("in june", None) == []


@pytest.mark.parametrize(("question", "text"), [
    ("When did Ilse move?", "she moved on the 3rd of May"),
    ("When did Ilse move?", "she moved last friday"),
    ("When did Ilse move?", "she moved in june"),
    ("When did Ilse move?", "the 30th, a saturday"),
    ("What year did Ilse move?", "she moved on 4 June 2029"),
    ("How long ago did Ilse move?", "she moved on 4 June 2029"),
])
def test_said_span_is_the_typed_span_of_a_text_that_says_a_date(question: str, text: str) -> None:
    assert spans.said_span(question, text, SAID_ON) == spans.typed_span(question, text, SAID_ON) is not None


def test_said_span_is_none_when_only_the_tag_dates_the_text() -> None:
    assert spans.said_span("When did Ilse move?", "Ilse moved", SAID_ON) is None
    assert spans.said_spans("When did Ilse move?", "Ilse moved in june", SAID_ON) == (None, "June 2031", "June 2031")
    assert spans.said_spans("When did Ilse move?", "Ilse moved", SAID_ON).typed == "14 May 2031"


def test_said_spans_give_the_typed_span_of_the_text_too() -> None:
    """The third span is ``typed_span``'s: the line's date when the text says none, the time since a year it says."""
    assert spans.said_spans("What year did Ilse move?", "Ilse moved", SAID_ON).typed == "2031"
    ago, text = "How long ago did Ilse join the choir?", "she has sung with the choir since 2019"
    assert spans.said_spans(ago, text, SAID_ON) == (None, None, "12 years ago")
    assert spans.typed_span(ago, text, SAID_ON) == "12 years ago"


def test_a_when_answer_from_the_line_date_grounds_each_sentence_once(monkeypatch: pytest.MonkeyPatch) -> None:
    grounded: list[str] = []
    ground_time = spans.ground_time

    def counted(text: str, anchor: datetime) -> Grounded:
        grounded.append(text)
        return ground_time(text, anchor)

    monkeypatch.setattr(spans, "ground_time", counted)
    context = ["[2031-05-10] Corwen glazed the last pots for the exhibition", "[2031-05-02] Corwen fired the kiln"]
    assert answer(EMB, "When did Corwen glaze the last pots?", context).answer == "10 May 2031"
    assert grounded and sorted(grounded) == sorted(set(grounded))


def test_a_bare_weekday_in_a_close_line_answers_a_when_question() -> None:
    context = ["[2031-05-14] Thursday is Corwen's pottery exhibition",
               "[2031-05-10] Corwen glazed the last pots"]
    assert answer(EMB, "When is Corwen's pottery exhibition?", context).answer == "15 May 2031"


def test_a_month_alone_gives_way_to_a_day_a_line_within_reach_says(monkeypatch: pytest.MonkeyPatch) -> None:
    context = ["[2031-05-02] Corwen's pottery exhibition was in april, Corwen said",
               "[2031-05-02] Corwen's pottery exhibition opened on the 12th of April"]
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_MARGIN", 0.0)  # the top line alone is close
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_TYPED_REACH", 1.0)
    assert answer(EMB, "When was Corwen's pottery exhibition?", context).answer == "12 April 2031"


def test_a_month_alone_answers_when_no_line_says_a_day() -> None:
    context = ["[2031-05-02] Corwen's pottery exhibition is in september",
               "[2031-05-02] Corwen glazed the last pots"]
    assert answer(EMB, "When is Corwen's pottery exhibition?", context).answer == "September 2031"


def test_the_gate_reads_bare_weekdays_and_months_as_the_answerer_does() -> None:
    assert set(content_stems("15 May 2031")) <= line_stems("[2031-05-14] thursday is the exhibition")
    assert set(content_stems("September 2031")) <= line_stems("[2031-05-02] the exhibition is in september")


@pytest.mark.parametrize(("question", "parts"), [
    ("Who is Ansel, and where did he go when the farm was sold?",
     ("Who is Ansel?", "Where did Ansel go when the farm was sold?")),
    ("When is the last shift of Ansel's dad, and when is his retirement party?",
     ("When is the last shift of Ansel's dad?", "When is Ansel's retirement party?")),
    ("Who is expecting twins, and when were they due?", ("Who is expecting twins?", "When were they due?")),
    ("What did Wren bake, and how many did she sell at the fair?",
     ("What did Wren bake?", "How many did Wren sell at the fair?")),
])
def test_a_second_question_with_its_own_verb_is_asked_of_the_first_one_person(question: str,
                                                                               parts: tuple[str, str]) -> None:
    assert two_questions(question) == parts


@pytest.mark.parametrize("question", [
    "Who is Bram and where does he live now that he moved?",  # no comma: one question
    "What did Wren bake, and what did she charge?",  # a 'what' part: its words would join as an answer
    "When was Wren going to move in, and when did she?",  # no words of its own after the verb
    "Where does Wren live, and how far is it from Tollby?",  # 'how far' asks no kind of span
])
def test_a_second_part_without_its_own_typed_question_is_not_split(question: str) -> None:
    assert two_questions(question) is None


@pytest.mark.parametrize(("part", "names", "out"), [
    ("where did she put her coat", ["Ilse"], "where did Ilse put Ilse's coat"),
    ("where did she take her to", ["Ilse"], "where did Ilse take her to"),
    ("where did she go", ["Ilse", "Bram"], "where did she go"),  # two people: left as asked
    ("where did she go", [], "where did she go"),
])
def test_a_second_part_pronoun_is_the_one_person_named(part: str, names: list[str], out: str) -> None:
    assert resolved(part, names) == out


def test_a_two_part_question_whose_typed_part_finds_nothing_is_answered_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    scripted = {"What did Bram lose?": (AnswerDraft(reasoning="first", used=[2], answer="cried for a week"), False),
                "Where was it found?": (AnswerDraft(reasoning="none", answer=NO_INFO), False),
                "What did Bram lose, and where was it found?": (AnswerDraft(reasoning="whole", used=[1],
                                                                            answer="under the fridge"), True)}
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.extracted", lambda emb, q, ctx: scripted[q])
    got = answer(EMB, "What did Bram lose, and where was it found?", ["[2031-05-14] Bram cried for a week"] * 2)
    assert got.answer == "under the fridge"  # not the 'what' part's words alone


def test_a_two_part_question_joins_a_typed_part_with_the_other_words(monkeypatch: pytest.MonkeyPatch) -> None:
    scripted = {"What did Bram lose?": (AnswerDraft(reasoning="first", used=[2], answer="his ring"), False),
                "Where was it found?": (AnswerDraft(reasoning="place", used=[1], answer="the station"), True)}
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.extracted", lambda emb, q, ctx: scripted[q])
    got = answer(EMB, "What did Bram lose, and where was it found?", ["[2031-05-14] Bram cried for a week"] * 2)
    assert got.answer == "his ring, the station"


# h61g: a day said with its month beats a bare day; a two-part answer is judged by the part it answers.

@pytest.mark.parametrize(("text", "day"), [
    ("in March, the 17th, no wait, the 10th, the 10th of March", "10 March 2032"),  # the corrected day
    ("saturday? no, Sunday the 18th", "18 May 2031"),  # a weekday with its day beats the bare "saturday"
    ("the 20th. Actually 2 June 2031 now", "2 June 2031"),  # a full date beats a bare day said before it
    ("the 3rd of June, and back on the 9th", "3 June 2031"),  # first said, with its month: as before
    ("back on the 18th", "18 May 2031"),  # a bare day alone is still read
])
def test_a_day_with_its_month_is_read_before_a_bare_day(text: str, day: str) -> None:
    assert spans.said_date(text, SAID_ON if "March" not in text else date(2032, 2, 1)) == day


def test_told_days_marks_the_bare_ones_and_spoken_days_keeps_their_order() -> None:
    text = "the 17th, no, the 10th of June"
    assert told_days(text, SAID_ON) == [(False, 14, date(2031, 6, 10)), (True, 0, date(2031, 5, 17))]
    assert spoken_days(text, SAID_ON) == [(0, date(2031, 5, 17)), (14, date(2031, 6, 10))]


BILL = ["[2031-05-12] Odile said she paid the water bill on monday",
        "[2031-05-12] Kasimir owes Odile 42.80 for his share of the water bill"]


def test_the_gate_judges_a_number_for_the_how_much_part_of_a_who_question() -> None:
    question = "Who paid the water bill, and how much does Kasimir owe?"
    number = quality_gate(EMB, question, "42.80", BILL)
    assert number.relevance.passed, number.relevance.reason  # judged as "How much does Kasimir owe?"
    both = quality_gate(EMB, question, "Odile, 42.80", BILL)
    assert both.relevance.passed and both.completeness.passed
    # A one-part who-question still wants a person, and an answer fitting no part still fails.
    assert not quality_gate(EMB, "Who paid the water bill?", "42.80", BILL).relevance.passed
    assert not quality_gate(EMB, question, "the pool", BILL).relevance.passed
