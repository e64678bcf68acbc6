"""Property-based tests (hypothesis) of the pure functions: deixis grounding, metrics, chunk planning."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from dmem.eval.metrics import bleu1, evidence_recall, exact_match, f1_locomo, f1_mem0
from dmem.grounding.deixis import MONTHS, WEEKDAYS, absolute_dates, format_day, ground_time
from dmem.nodes.deliberation import make_chunks
from dmem.state.schemas import Message

settings.register_profile("dmem", max_examples=60, deadline=None, derandomize=True)
settings.load_profile("dmem")

anchors = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2060, 12, 31))
days = st.dates(min_value=date(1900, 1, 1), max_value=date(2999, 12, 31))
# Words with no time meaning, to build sentences that grounding must leave alone.
plain_words = st.sampled_from(["Maya", "Theo", "baked", "bread", "with", "her", "cat", "the", "garden", "is",
                               "green", "and", "quiet", "kayak", "river", "choir", "sang", "a", "song", "Lisbon"])
sentences = st.lists(plain_words, min_size=1, max_size=12).map(" ".join)
relative = st.sampled_from(["yesterday", "today", "tomorrow", "last week", "next month", "this weekend",
                            "last Friday", "next Tuesday", "two days ago", "3 weeks ago", "in 2 months",
                            "a few days ago", "last night", "the day before yesterday", "this past weekend"])


# --- deixis ------------------------------------------------------------------------------------
@given(sentences, anchors)
def test_text_without_relative_times_is_left_alone(text: str, anchor: datetime) -> None:
    got = ground_time(text, anchor)
    assert got.text == text and got.spans == [] and got.event_time is None


@given(sentences, relative, sentences, anchors)
def test_grounding_is_idempotent(before: str, phrase: str, after: str, anchor: datetime) -> None:
    once = ground_time(f"{before} {phrase} {after}", anchor)
    assert once.spans and once.event_time is not None
    assert ground_time(once.text, anchor).text == once.text  # nothing relative is left to ground


@given(anchors, st.integers(min_value=1, max_value=12))
def test_days_ago_and_yesterday_count_back_from_the_anchor(anchor: datetime, n: int) -> None:
    said = anchor.date()
    assert ground_time("We met yesterday.", anchor).event_time.date() == said - timedelta(days=1)  # type: ignore[union-attr]
    got = ground_time(f"We met {n} days ago.", anchor)
    assert got.event_time.date() == said - timedelta(days=n)  # type: ignore[union-attr]
    assert format_day(said - timedelta(days=n)) in got.text


@given(anchors, st.sampled_from(WEEKDAYS), st.sampled_from(["last", "next"]))
def test_last_and_next_weekday_fall_within_a_week_on_that_day(anchor: datetime, weekday: str, which: str) -> None:
    got = ground_time(f"I swam {which} {weekday}.", anchor).event_time
    assert got is not None
    gap = (got.date() - anchor.date()).days
    assert (-7 <= gap <= -1) if which == "last" else (1 <= gap <= 7)
    assert WEEKDAYS[got.weekday()] == weekday


@given(days)
def test_a_formatted_day_reads_back_as_itself(day: date) -> None:
    assert absolute_dates(f"on {format_day(day)}") == [(3, day)]
    assert format_day(day).split()[1] in MONTHS


# --- metrics -----------------------------------------------------------------------------------
answers = st.text(alphabet=st.characters(whitelist_categories=("Ll", "Lu", "Nd", "Zs", "Po")), max_size=40)
worded = st.lists(st.sampled_from(["Lisbon", "Porto", "a", "red", "Vespa", "7", "May", "2024", "the", "cat",
                                   "choir", "bread", "and", "sourdough"]), min_size=1, max_size=8).map(" ".join)


@given(answers, answers)
def test_every_score_is_in_the_unit_interval_and_f1_mem0_is_symmetric(a: str, b: str) -> None:
    for score in (f1_mem0(a, b), f1_locomo(a, b, 4), f1_locomo(a, b, 1), f1_locomo(a, b, 3), bleu1(a, b),
                  exact_match(a, b)):
        assert 0.0 <= score <= 1.0 + 1e-9
    assert f1_mem0(a, b) == f1_mem0(b, a)


@given(worded)
def test_an_answer_equal_to_the_gold_scores_full_marks(text: str) -> None:
    assert f1_mem0(text, text) == 1.0
    assert bleu1(text, text) == 1.0
    if any(w not in ("a", "the", "and") for w in text.split()):  # LoCoMo drops articles before comparing
        assert f1_locomo(text, text, 4) == 1.0 and exact_match(text.upper(), text) == 1.0


@given(worded, st.randoms(use_true_random=False))
def test_f1_mem0_ignores_word_order_and_case(text: str, rng) -> None:  # type: ignore[no-untyped-def]
    words = text.split()
    rng.shuffle(words)
    assert f1_mem0(" ".join(words).upper(), text) == 1.0


@given(st.sets(st.text(min_size=1, max_size=5), max_size=6), st.sets(st.text(min_size=1, max_size=5), max_size=6))
def test_evidence_recall_is_the_share_of_gold_ids_found(gold: set[str], found: set[str]) -> None:
    got = evidence_recall(gold, found)
    if not gold:
        assert got is None
    else:
        assert got == len(gold & found) / len(gold)
        assert evidence_recall(gold, found | gold) == 1.0


# --- chunk planning ----------------------------------------------------------------------------
def transcript(n: int) -> list[Message]:
    start = datetime(2024, 3, 18, 9, 30)
    return [Message(turn_id=f"t{i}", speaker="Maya" if i % 2 else "Theo", text=f"line {i}",
                    timestamp=start + timedelta(minutes=i), seq=i) for i in range(n)]


@given(st.integers(min_value=0, max_value=120), st.integers(min_value=1, max_value=40),
       st.integers(min_value=0, max_value=15))
def test_chunks_cover_the_transcript_once_in_order(n: int, size: int, history: int) -> None:
    messages = transcript(n)
    chunks = make_chunks("When did Maya bake bread?", messages, size, history)
    assert [m for c in chunks for m in c["chunk"]] == messages  # every message read once, in order
    assert [c["index"] for c in chunks] == list(range(len(chunks)))
    for c in chunks:
        assert 0 < len(c["chunk"]) <= size and c["question"] == "When did Maya bake bread?"
        first = messages.index(c["chunk"][0])
        assert c["preceding"] == messages[max(0, first - history):first]  # the history right before it
