"""Free answer spans: the run of words a line adds next to the words it shares with the question.

The answer to "What is Theo teaching the new choir members?" in "Theo is teaching breathing drills
and sight-reading to the new choir members" follows the question's own words ("Theo is teaching"),
so runs are ranked by the question words right before them, then right after them, then by their
content words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dmem.decisions.offline.rules import PHATIC
from dmem.text.lexical import STOPWORDS, stem, straighten, tokenize
from dmem.text.words import wordset

CONTEXT_TOKENS = 3  # tokens either side of a run that are checked for question words
_TOKEN = re.compile(r"[\w'\u2019-]+|[^\w\s]")
# Words that never open or close an answer ("*recently* went", "*so* happy", "go *ice skating*").
EDGE_FILLER = wordset(
    "is are was were has have had did does do be been being the that it go going went gone get got getting "
    "recently really totally definitely super pretty actually basically just now always even still sure "
    "also too very lot lots kinda sorta yeah yes oh wow hey hi thanks new shared photo picture pic pics check look"
)


@dataclass(frozen=True)
class Run:
    """Consecutive words the question does not contain, with the question words around them."""

    words: list[str]
    before: int
    """Distinct question content words among the CONTEXT_TOKENS tokens before the run."""
    after: int
    """...and among those after it."""
    index: int


def _known(token: str, known: set[str]) -> bool:
    return stem(straighten(token.lower())) in known


def runs(text: str, known: set[str], dates: re.Pattern[str] | None = None) -> list[Run]:
    """Runs of words outside ``known`` (dates masked), each with its question-word neighbours."""
    tokens = _TOKEN.findall(dates.sub(" | ", text) if dates else text)
    out: list[Run] = []
    start = None
    for i, token in enumerate([*tokens, "|"]):
        possessive = start is not None and token.lower().endswith(("'s", "\u2019s"))  # "Theo's cello" stays whole
        if i < len(tokens) and token[0].isalnum() and (possessive or not _known(token, known)):
            start = i if start is None else start
            continue
        if start is not None:
            out.append(Run(tokens[start:i], _near(tokens[max(0, start - CONTEXT_TOKENS) : start], known),
                           _near(tokens[i : i + CONTEXT_TOKENS], known), len(out)))
        start = None
    return out


def _near(window: list[str], known: set[str]) -> int:
    return len({stem(t.lower()) for t in window if t[0].isalnum() and t.lower() not in STOPWORDS
                and _known(t, known)})


def _trim(words: list[str]) -> list[str]:
    edge = STOPWORDS | EDGE_FILLER
    while words and (words[0].lower() in edge or PHATIC.fullmatch(words[0])):
        words = words[1:]
    while words and words[-1].lower() in edge:
        words = words[:-1]
    return words


def _rank(run: Run, words: list[str], content: list[str]) -> tuple[float, ...]:
    return (int(run.before + run.after > 0), min(len(content), 4), run.before, run.after, -run.index)


def new_words(question: str, text: str, dates: re.Pattern[str] | None = None) -> str:
    """The best run of new words in the line, trimmed of stopwords and fillers at its edges; '' if it has none.

    A line without new words only restates the question ("Theo went to the choir rehearsal" for "When
    did Theo go to choir rehearsal?"): it has nothing to answer with.
    """
    known = {stem(t) for t in tokenize(question)} | {"other", "others"}
    best: tuple[float, ...] | None = None
    chosen = ""
    for run in runs(text, known, dates):
        words = _trim(run.words)
        content = [w for w in words if w.lower() not in STOPWORDS]
        rank = _rank(run, words, content)
        if content and (best is None or rank > best):
            best, chosen = rank, " ".join(words)
    return chosen.strip(" .,;-")


def free_span(question: str, text: str, dates: re.Pattern[str] | None = None) -> str:
    """The best run of new words in the line, else (a restatement) the whole line."""
    return new_words(question, text, dates) or text.strip()
