"""The copied Porter stemmer stems exactly like the installed nltk's (which the offline engine used)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem import PorterStemmer as NltkPorter

from dmem.decisions.offline.porter import PorterStemmer

NLTK, OURS = NltkPorter(), PorterStemmer()
ROOT = Path(__file__).resolve().parents[1]


def test_every_word_of_our_code_and_docs_stems_alike() -> None:
    files = [*ROOT.joinpath("dmem").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py"), ROOT / "README.md"]
    text = " ".join(p.read_text(encoding="utf-8") for p in files)
    words = set(re.findall(r"[a-z]+", text.lower()))
    assert len(words) > 1000
    assert [w for w in sorted(words) if OURS.stem(w) != NLTK.stem(w)] == []


@settings(max_examples=500)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=14))
def test_random_words_stem_alike(word: str) -> None:
    assert OURS.stem(word) == NLTK.stem(word)


def test_modes_and_case() -> None:
    for mode in (PorterStemmer.ORIGINAL_ALGORITHM, PorterStemmer.MARTIN_EXTENSIONS, PorterStemmer.NLTK_EXTENSIONS):
        for word in ("Generously", "dying", "skies", "relational", "hopping", "agreed"):
            assert PorterStemmer(mode).stem(word) == NltkPorter(mode).stem(word)
    assert json.dumps(OURS.stem("Running")) == '"run"'
