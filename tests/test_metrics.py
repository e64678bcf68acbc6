"""Metrics pinned on hand-computed cases (the arithmetic is in the comments)."""

import math

import pytest

from dmem.eval.metrics import (
    bleu1,
    exact_match,
    f1_locomo,
    f1_mem0,
    locomo_adversarial,
    normalize_locomo,
    word_tokens,
)

# --- f1_mem0 -----------------------------------------------------------------------------------


def test_mem0_identical_after_lowercase_and_punctuation() -> None:
    # "Paris, France." -> {paris, france}; same set on both sides.
    assert f1_mem0("Paris, France.", "paris france") == 1.0


def test_mem0_disjoint_is_zero() -> None:
    assert f1_mem0("cat", "dog") == 0.0


@pytest.mark.parametrize(("pred", "gold"), [("", "paris"), ("paris", ""), ("", ""), ("...", "paris")])
def test_mem0_empty_side_is_zero(pred: str, gold: str) -> None:
    assert f1_mem0(pred, gold) == 0.0


def test_mem0_partial() -> None:
    # pred {she, went, to, paris}, gold {paris}: P = 1/4, R = 1, F1 = 2*(1/4)/(5/4) = 0.4
    assert f1_mem0("She went to Paris", "Paris") == pytest.approx(0.4)


def test_mem0_uses_token_sets() -> None:
    # "cat cat" -> {cat}: a set, so F1 = 1 (the multiset LoCoMo F1 gives 2/3 below).
    assert f1_mem0("cat cat", "cat") == 1.0


def test_mem0_only_replaces_four_marks() -> None:
    # ':' is not one of . , ! ? so "cat:" stays a different token.
    assert f1_mem0("cat:", "cat") == 0.0


def test_mem0_int_gold() -> None:
    # gold 2022 -> "2022"; pred {in, 2022}: P = 1/2, R = 1 -> F1 = 2/3
    assert f1_mem0("2022", 2022) == 1.0
    assert f1_mem0("In 2022", 2022) == pytest.approx(2 / 3)


# --- f1_locomo ---------------------------------------------------------------------------------


def test_locomo_identical_and_disjoint() -> None:
    assert f1_locomo("a sunset over the lake", "a sunset over the lake", 4) == 1.0
    assert f1_locomo("cat", "dog", 4) == 0.0


@pytest.mark.parametrize(("pred", "gold"), [("", "paris"), ("paris", ""), ("the", "the"), ("!", "!")])
def test_locomo_empty_side_is_zero(pred: str, gold: str) -> None:
    # "the" and "!" normalise to nothing.
    assert f1_locomo(pred, gold, 4) == 0.0


def test_locomo_stemming_and_article_removal() -> None:
    # Porter: running -> run, runs -> run.
    assert f1_locomo("running", "runs", 4) == 1.0
    # a/an/the/and are dropped: [dog] vs [dog]; [dog, cat] vs [dog, cat] after stemming.
    assert f1_locomo("The dog", "a dog", 4) == 1.0
    assert f1_locomo("dogs and cats", "dog cat", 2) == 1.0


def test_locomo_multiset_overlap() -> None:
    # pred [cat, cat], gold [cat]: common 1, P = 1/2, R = 1 -> 2/3
    assert f1_locomo("cat cat", "cat", 4) == pytest.approx(2 / 3)


def test_locomo_normalisation_order() -> None:
    # Punctuation goes before articles: "rock-and-roll" -> "rockandroll", the "and" survives.
    assert normalize_locomo("Rock-and-Roll") == "rockandroll"
    assert f1_locomo("rockandroll", "Rock-and-Roll", 4) == 1.0
    # Commas are dropped, not turned into spaces: "1,000" -> "1000".
    assert normalize_locomo("1,000 dollars, and the cat") == "1000 dollars cat"


def test_locomo_int_gold() -> None:
    # pred [in, 2022], gold [2022]: P = 1/2, R = 1 -> 2/3
    assert f1_locomo("2022", 2022, 2) == 1.0
    assert f1_locomo("In 2022", 2022, 2) == pytest.approx(2 / 3)


def test_locomo_multihop_comma_rule() -> None:
    # Each gold part finds its exact match among the prediction parts.
    assert f1_locomo("rome, paris", "Paris, Rome", 1) == 1.0
    # gold parts Paris -> 1, Rome -> 0: mean 0.5
    assert f1_locomo("Paris", "Paris, Rome", 1) == pytest.approx(0.5)
    # One prediction part [pari, rome] against gold parts: Paris 2/3, Rome 2/3, Berlin 0 -> 4/9
    assert f1_locomo("Paris and Rome", "Paris, Rome, Berlin", 1) == pytest.approx(4 / 9)
    # Same texts, plain rule: [pari, rome] vs [pari, rome, berlin]: P = 1, R = 2/3 -> 0.8
    assert f1_locomo("Paris and Rome", "Paris, Rome, Berlin", 4) == pytest.approx(0.8)


def test_locomo_category3_cuts_gold_at_semicolon() -> None:
    gold = "Likely yes; she likes hiking"
    assert f1_locomo("likely yes", gold, 3) == 1.0
    # Uncut: pred [like, ye] vs gold [like, ye, she, like, hike]: common 2, P = 1, R = 2/5 -> 4/7
    assert f1_locomo("likely yes", gold, 4) == pytest.approx(4 / 7)


def test_locomo_adversarial_check() -> None:
    assert locomo_adversarial("That is not mentioned in the conversation.") == 1.0
    assert locomo_adversarial("No information available") == 1.0
    assert locomo_adversarial("Yes") == 0.0


def test_exact_match_is_normalised() -> None:
    assert exact_match("The Paris!", "paris") == 1.0
    assert exact_match("Paris", "Rome") == 0.0
    assert exact_match("", "") == 0.0
    assert exact_match("2022", 2022) == 1.0


# --- bleu1 -------------------------------------------------------------------------------------


def test_bleu1_identical_and_disjoint() -> None:
    assert bleu1("The cat sat", "the cat sat") == pytest.approx(1.0)
    assert bleu1("dog", "the cat") == 0.0


def test_bleu1_brevity_penalty() -> None:
    # 3 of 3 unigrams match (P1 = 1), c = 3 < r = 6: BP = exp(1 - 6/3) = e^-1
    assert bleu1("the cat sat", "the cat sat on the mat") == pytest.approx(math.exp(-1))


def test_bleu1_clipped_counts() -> None:
    # "the" counted at most once (its count in gold): P1 = 1/3, c = 3 > r = 2 so BP = 1.
    assert bleu1("the the the", "the cat") == pytest.approx(1 / 3)


def test_bleu1_punctuation_is_a_token() -> None:
    # pred [paris, .], gold [paris]: P1 = 1/2, c = 2 > r = 1 so BP = 1.
    assert bleu1("Paris.", "Paris") == pytest.approx(0.5)


@pytest.mark.parametrize(("pred", "gold"), [("", "paris"), ("paris", ""), ("  ", " ")])
def test_bleu1_empty_side_is_zero(pred: str, gold: str) -> None:
    assert bleu1(pred, gold) == 0.0


def test_bleu1_int_gold() -> None:
    assert bleu1("2022", 2022) == pytest.approx(1.0)


def test_word_tokens_split_sentences_like_punkt() -> None:
    # The period ending an inner sentence is its own token, as with word_tokenize.
    assert word_tokens("i went home. it rained.") == ["i", "went", "home", ".", "it", "rained", "."]
    assert word_tokens("don't stop") == ["do", "n't", "stop"]
    assert bleu1("I went home. It rained.", "i went home . it rained .") == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("pred", "gold"),
    [("a b c", "c d"), ("x, y", "y, z"), ("the the", "the"), ("7 May 2023", "May 7, 2023")],
)
def test_every_metric_stays_in_unit_interval(pred: str, gold: str) -> None:
    scores = [f1_mem0(pred, gold), bleu1(pred, gold), exact_match(pred, gold)]
    scores += [f1_locomo(pred, gold, category) for category in (1, 2, 3, 4, 5)]
    assert all(0.0 <= score <= 1.0 for score in scores)
