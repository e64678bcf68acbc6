"""Answer-quality metrics the memory papers report, each returning a float in [0, 1].

Which number is which:

- :func:`f1_mem0` is the token-*set* F1 of mem0 / A-Mem, the one in the D-Mem paper's tables.
- :func:`f1_locomo` is the official LoCoMo scorer (Porter-stemmed multiset F1, with the
  multi-hop comma rule for category 1 and the ``;`` cut of the gold answer for category 3).
- :func:`bleu1` is NLTK's sentence BLEU with weights (1, 0, 0, 0) and smoothing method1.

Tokenisation for BLEU-1 differs from ``nltk.word_tokenize`` in one way: ``word_tokenize`` first
splits sentences with the Punkt model (a data download we cannot rely on), then runs
``NLTKWordTokenizer`` on each sentence. We split sentences with a regular expression instead
(after ``.``, ``!`` or ``?`` followed by whitespace) and run the same ``NLTKWordTokenizer``.
The tokens are identical for one-sentence texts, which covers nearly all short answers; they can
differ when a text contains abbreviations such as ``dr.`` or ``st.`` (Punkt keeps ``dr.`` whole,
we split off its period) or other sentence-boundary cases Punkt resolves with its trained model.

Gold answers may be ints in the datasets (e.g. ``2022``): every metric accepts ``str | int | float``
for gold and casts with ``str()``.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from nltk.stem import PorterStemmer
from nltk.tokenize import NLTKWordTokenizer
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

Gold = str | int | float

_STEMMER = PorterStemmer()
_WORD_TOKENIZER = NLTKWordTokenizer()
_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _f1(common: int, n_pred: int, n_gold: int) -> float:
    """Harmonic mean of precision common/n_pred and recall common/n_gold (0 when nothing overlaps)."""
    if common == 0 or n_pred == 0 or n_gold == 0:
        return 0.0
    precision, recall = common / n_pred, common / n_gold
    return 2 * precision * recall / (precision + recall)


# --- mem0 / A-Mem F1 ---------------------------------------------------------------------------


def _mem0_tokens(text: str) -> set[str]:
    """Lowercase, replace ``. , ! ?`` by spaces, split on whitespace, and keep the token set."""
    text = text.lower()
    for mark in ".,!?":
        text = text.replace(mark, " ")
    return set(text.split())


def f1_mem0(prediction: str, gold: Gold) -> float:
    """Token-set F1 as in mem0 / A-Mem (the D-Mem paper's F1); 0 when either side is empty."""
    pred_tokens, gold_tokens = _mem0_tokens(str(prediction)), _mem0_tokens(str(gold))
    return _f1(len(pred_tokens & gold_tokens), len(pred_tokens), len(gold_tokens))


# --- official LoCoMo F1 ------------------------------------------------------------------------


def normalize_locomo(text: str) -> str:
    """Normalise as the official LoCoMo ``normalize_answer``: lowercase, drop ``,``, punctuation, articles.

    Articles are a/an/the and also "and", as in the official code; whitespace is collapsed last.
    """
    text = text.replace(",", "").lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


@lru_cache(maxsize=65536)
def _stem(token: str) -> str:
    """Porter stem of one token (cached: answers repeat the same words a lot)."""
    return _STEMMER.stem(token)


def _locomo_tokens(text: str) -> list[str]:
    """Normalised, Porter-stemmed tokens of ``text``."""
    return [_stem(token) for token in normalize_locomo(text).split()]


def _locomo_f1_plain(prediction: str, gold: str) -> float:
    """Score as the official ``f1_score``: multiset overlap F1 of stemmed, normalised tokens."""
    pred_tokens, gold_tokens = _locomo_tokens(prediction), _locomo_tokens(gold)
    common = sum((Counter(pred_tokens) & Counter(gold_tokens)).values())
    return _f1(common, len(pred_tokens), len(gold_tokens))


def _locomo_f1_multihop(prediction: str, gold: str) -> float:
    """Score as the official multi-hop ``f1``: mean over gold parts of the best prediction part.

    Both texts are split on ``,``.
    """
    pred_parts = [part.strip() for part in prediction.split(",")]
    gold_parts = [part.strip() for part in gold.split(",")]
    best = [max(_locomo_f1_plain(pred, part) for pred in pred_parts) for part in gold_parts]
    return sum(best) / len(best)


def f1_locomo(prediction: str, gold: Gold, category: int) -> float:
    """F1 of the official LoCoMo scorer for a question of the given category.

    Category 1 (multi-hop) uses the comma rule; category 3 (open-domain) cuts the gold answer at
    its first ``;``; every other category uses the plain stemmed F1. (The official script scores
    category 5 with :func:`locomo_adversarial` instead of F1.)
    """
    prediction, gold_text = str(prediction), str(gold)
    if category == 3:
        gold_text = gold_text.split(";")[0].strip()
    if category == 1:
        return _locomo_f1_multihop(prediction, gold_text)
    return _locomo_f1_plain(prediction, gold_text)


def locomo_adversarial(prediction: str) -> float:
    """Score as the official category-5 check: 1 when the answer declines to answer, else 0.

    Declining means the text contains "no information available" or "not mentioned".
    """
    text = str(prediction).lower()
    return 1.0 if "no information available" in text or "not mentioned" in text else 0.0


def exact_match(prediction: str, gold: Gold) -> float:
    """1 when both texts are equal after the LoCoMo normalisation (no stemming), else 0."""
    pred, ref = normalize_locomo(str(prediction)), normalize_locomo(str(gold))
    return 1.0 if pred and pred == ref else 0.0


# --- BLEU-1 ------------------------------------------------------------------------------------


def word_tokens(text: str) -> list[str]:
    """NLTK word tokens of ``text``, with a regex sentence split standing in for Punkt."""
    return [
        token
        for sentence in _SENTENCE_END.split(text.strip())
        if sentence
        for token in _WORD_TOKENIZER.tokenize(sentence)
    ]


def bleu1(prediction: str, gold: Gold) -> float:
    """Sentence BLEU-1 (weights (1,0,0,0), smoothing method1) of the lowercased texts; 0 if one is empty."""
    pred_tokens = word_tokens(str(prediction).lower())
    gold_tokens = word_tokens(str(gold).lower())
    if not pred_tokens or not gold_tokens:
        return 0.0
    score = sentence_bleu(
        [gold_tokens],
        pred_tokens,
        weights=(1, 0, 0, 0),
        smoothing_function=SmoothingFunction().method1,
    )
    return float(score)


# --- evidence recall ---------------------------------------------------------------------------


def evidence_recall(evidence: Iterable[str], found: Iterable[str], missing: Iterable[str] = ()) -> float | None:
    """Share of the gold evidence turn ids present in ``found``; None when there is no evidence.

    ``missing`` are gold ids that name no turn of the conversation: given, they count in the total
    (nothing can find them), so the figure is the recall "counting missing ids"; by default they are left out.
    """
    gold = set(evidence)
    absent = set(missing) - gold
    if not gold and not absent:
        return None
    return len(gold & set(found)) / (len(gold) + len(absent))


def evidence_precision(evidence: Iterable[str], found: Iterable[str]) -> float | None:
    """Share of the distinct turn ids in ``found`` that are gold evidence; None when either is empty."""
    gold, cited = set(evidence), set(found)
    if not gold or not cited:
        return None
    return len(gold & cited) / len(cited)
