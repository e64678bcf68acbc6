"""What a question is about: its topic words, their concept classes, the people it names.

Person names dominate small sentence embeddings: with all-MiniLM-L6-v2 every line about Maya
scores 0.45-0.6 against any question about Maya. Names the question shares with many lines are
therefore stripped before embedding, and a line counts as semantically on topic when its focused
cosine stands out from the other lines' (a margin over their median), not when it passes an
absolute threshold that only fits one embedding model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from statistics import median

from langchain_core.embeddings import Embeddings

from dmem.decisions.offline.rules import CONCEPTS, OTHER_SENSES, ROLE, TOPIC_FAMILIES
from dmem.text.lexical import content_stems, cosines, lexical_scores, stem, tokenize
from dmem.text.names import _NAME, question_names, shared_names, strip_names
from dmem.text.words import wordset

STANDOUT_MARGIN = 0.12  # focused cosine above the median line that makes a line semantically on topic
STANDOUT_MIN_LINES = 3  # lines a median needs before a standout means anything
FOCUS_EMBED_WEIGHT = 0.5  # share of the focused cosine in a line's relevance (the rest is BM25)
PREFIX_MIN = 5  # stems at least this long match a longer stem they open ('friend' ~ 'friendship')

QUESTION_FILLER = wordset("kind type sort thing year date time day month mani much long ago")


def topical_names(question: str, texts: Sequence[str], subjects: Sequence[str]) -> list[str]:
    """Question names that say what it asks about ('Frida Kahlo' in "What does Maya think of Frida Kahlo?"), not whom.

    A topical name is neither a line's subject or speaker nor (with enough lines to tell) shared by many lines.
    """
    shared = shared_names(question, texts) if len(texts) >= STANDOUT_MIN_LINES else []
    return [n for n in question_names(question) if n not in shared and n not in subjects]


_INTERJECTION = r"(?:hey|hi|hello|wow|oh|thanks|thank you|yeah|yes|yep|aww*|omg|congrats|haha|well|ok|okay|sure|cool)"


def strip_vocatives(text: str, names: Sequence[str]) -> str:
    """'Wow, Theo! ...' -> 'Wow! ...': a listener addressed by name is not what the line is about.

    Any name right after a sentence-opening interjection goes ('Hey Priya!'); the given names also
    when they open ('Theo, ...') or close (', Theo!') a sentence.
    """
    text = re.sub(rf"(^|[.!?]\s+)({_INTERJECTION}[,!]?\s+)(?-i:[A-Z][a-z]+)\s*[,!]\s*", r"\1\2", text, flags=re.I)
    for name in names:
        n = re.escape(name)
        text = re.sub(rf"(^|[.!?]\s+)({_INTERJECTION}[,!]?\s+)?{n}\s*[,!]\s*", r"\1\2", text, flags=re.I)
        text = re.sub(rf",\s*{n}(?=\s*[.!?]|\s*$)", "", text)
    return text


def focused_signals(embeddings: Embeddings, question: str, texts: Sequence[str], *,
                    families: bool = False, also: Sequence[str] = ()) -> list[tuple[float, float]]:
    """(cosine, absolute BM25) of each text against the question, shared names stripped from both.

    ``families``: a text naming a word of a topic word's family or class counts, for BM25, as naming
    the topic word itself ("diploma" for 'studying', "moved" for 'live'). ``also``: per text, words it
    counts as naming for BM25 (the question's period, for a line dated in it).
    """
    if not texts:
        return []
    names = shared_names(question, texts)
    q, docs = strip_names(question, names), [strip_names(t, names) for t in texts]
    lexical = [f"{d} {' '.join(kin_words(q, d))}" for d in docs] if families else docs
    if also:
        lexical = [f"{d} {extra}" for d, extra in zip(lexical, also, strict=True)]
    return list(zip(cosines(embeddings, q, docs), lexical_scores(q, lexical), strict=True))


def kin_words(question: str, text: str) -> list[str]:
    """Topic words of the question the text lacks but names a word of the same family or class for."""
    found = class_stems(text)
    topic = topic_stems(question)
    return [w for w in dict.fromkeys(tokenize(question)) if (s := stem(w)) in topic and s not in found
            and len(related(s)) > 1 and related(s) & found]


def relevance(cos: float, lex: float) -> float:
    """Weighted sum of the non-negative focused cosine and absolute BM25."""
    return FOCUS_EMBED_WEIGHT * max(cos, 0.0) + (1 - FOCUS_EMBED_WEIGHT) * lex


def standouts(cos: Sequence[float]) -> list[bool]:
    """Lines whose cosine beats the median line by STANDOUT_MARGIN (none with too few lines)."""
    if len(cos) < STANDOUT_MIN_LINES:
        return [False] * len(cos)
    middle = median(cos)
    return [c - middle >= STANDOUT_MARGIN for c in cos]


@lru_cache(maxsize=2)
def _concept_index(instances_only: bool = False) -> dict[str, frozenset[str]]:
    """Stem -> the stems of every concept class (and, unless ``instances_only``, topic family) it belongs to."""
    index: dict[str, set[str]] = {}
    groups = [*CONCEPTS.values(), *(() if instances_only else TOPIC_FAMILIES.values())]
    for members in groups:
        stems = {stem(w) for w in members.split()}
        for s in stems:
            index.setdefault(s, set()).update(stems)
    return {s: frozenset(group) for s, group in index.items()}


def related(word_stem: str, *, instances_only: bool = False) -> frozenset[str]:
    """The stem and every stem sharing a concept class or topic family with it ('car' -> vespa, jeep, ...).

    ``instances_only``: concept classes only, whose members can be answers ('What vehicle' -> 'Vespa').
    """
    return _concept_index(instances_only).get(word_stem, frozenset()) | {word_stem}


def in_class_sense(text: str) -> str:
    """The text with phrases where a class member has another sense masked ('running late', 'flat tire')."""
    return OTHER_SENSES.sub(" ", text)


def class_stems(text: str) -> set[str]:
    """Stems of the text in their class sense, and 'work' when it states a role ("is a dentist")."""
    return set(content_stems(in_class_sense(text))) | ({"work"} if ROLE.search(text) else set())


def topic_stems(question: str) -> set[str]:
    """What the question is about: its content stems minus the people it names and filler words."""
    names = {stem(t) for m in _NAME.finditer(question.strip()) for t in tokenize(m.group(0))}
    stems = set(content_stems(question))
    return (stems - names - QUESTION_FILLER) or stems


def topic_terms(question: str) -> set[str]:
    """Topic stems widened by their concept classes: 'work' also matches 'job' and 'employer'."""
    return {r for s in topic_stems(question) for r in related(s)}


def shares(terms: set[str], stems: Iterable[str]) -> bool:
    """True if the stems hold a term, or a long stem that opens or is opened by one ('friend', 'friendship')."""
    found = set(stems)
    if terms & found:
        return True
    return any(len(a) >= PREFIX_MIN and len(b) >= PREFIX_MIN and (a.startswith(b) or b.startswith(a))
               for a in terms for b in found)


def covered(word_stem: str, evidence: set[str]) -> bool:
    """A question word is covered by evidence holding it or a word of its concept class."""
    return shares(set(related(word_stem)), evidence)
