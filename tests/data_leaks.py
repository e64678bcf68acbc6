"""Benchmark names and lines that must not appear in the product or in its unit tests.

The development data (``../shared/data``: LoCoMo and RealTalk) gives three lists: its speakers,
its distinctive proper nouns (capitalized inside a sentence and never written in lower case there,
minus ``GENERAL`` world vocabulary such as months or big cities), and every run of ``NGRAM``
words of its turns and questions, with capitalized words read as one placeholder so that a copied
line with its people renamed still matches. ``python -m tests.data_leaks`` prints each hit in our files;
``tests/test_data_leaks.py`` fails on any.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# ../shared/data beside the checkout (a helper's worktree sits one folder deeper).
SHARED_DATA = next((p / "shared" / "data" for p in ROOT.parents[:2] if (p / "shared" / "data").is_dir()),
                   ROOT.parent / "shared" / "data")
# benchmarks/data/invented_chats_2 to _36: the held-out invented chats, written free of the dev data from the start.
# benchmarks/data/question_chats/{tune,check}: invented chats of facts told in questions, written the same way.
SCANNED = ("dmem", "tests", "examples", "notebooks",
           "benchmarks/data/invented_chats_2", "benchmarks/data/invented_chats_3", "benchmarks/data/invented_chats_4",
           "benchmarks/data/invented_chats_5", "benchmarks/data/invented_chats_6",
           "benchmarks/data/invented_chats_7", "benchmarks/data/invented_chats_8",
           "benchmarks/data/invented_chats_9", "benchmarks/data/invented_chats_10",
           "benchmarks/data/invented_chats_11", "benchmarks/data/invented_chats_12",
           "benchmarks/data/invented_chats_13", "benchmarks/data/invented_chats_14",
           "benchmarks/data/invented_chats_15", "benchmarks/data/invented_chats_16",
           "benchmarks/data/invented_chats_17", "benchmarks/data/invented_chats_18",
           "benchmarks/data/invented_chats_19", "benchmarks/data/invented_chats_20",
           "benchmarks/data/invented_chats_21", "benchmarks/data/invented_chats_22",
           "benchmarks/data/invented_chats_23", "benchmarks/data/invented_chats_24",
           "benchmarks/data/invented_chats_25", "benchmarks/data/invented_chats_26",
           "benchmarks/data/invented_chats_27", "benchmarks/data/invented_chats_28",
           "benchmarks/data/invented_chats_29", "benchmarks/data/invented_chats_30",
           "benchmarks/data/invented_chats_31", "benchmarks/data/invented_chats_32",
           "benchmarks/data/invented_chats_33", "benchmarks/data/invented_chats_34",
           "benchmarks/data/invented_chats_35", "benchmarks/data/invented_chats_36",
           "benchmarks/data/question_chats/tune", "benchmarks/data/question_chats/check")
SUFFIXES = (".py", ".json", ".ipynb", ".md", ".txt", ".mmd")
NGRAM = 7  # words in a row that count as a copied line
MAX_PLACEHOLDERS = 2  # ...of which at most this many are capitalized words (a list of names is no line)

# Proper nouns the data uses that are general vocabulary (calendar words, languages, countries,
# continents, world cities, US states, household brands): our lexicons and invented examples may
# name them. People, pets, titles and small places of the data never belong here.
_GENERAL_LINES = (
    "January February March April May June July August September October November December",
    "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec",
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mon Tue Tues Wed Thu Thur Thurs Fri Sat Sun",
    "English Spanish French German Italian Portuguese Greek Japanese Chinese Korean European American African",
    "Europe Asia Africa America Australia Antarctica",
    "Spain France Germany Italy Portugal Greece Japan China Korea India Brazil Argentina Mexico Canada England",
    "Ireland Scotland Sweden Norway Denmark Finland Netherlands Switzerland Austria Poland Turkey Egypt Kenya",
    "Peru Chile Colombia Thailand Vietnam",
    "Paris London Berlin Madrid Rome Tokyo Kyoto Osaka Beijing Shanghai Seoul Sydney Toronto Vancouver Chicago",
    "Boston Seattle Miami Dallas Austin Denver Atlanta Houston Phoenix Portland Lisbon Dublin Amsterdam Vienna",
    "Prague Barcelona Munich Zurich Stockholm Oslo Copenhagen Helsinki Athens Istanbul Dubai Mumbai Delhi",
    "Bangkok Singapore York",
    "Hawaii California Texas Florida",
    "YouTube TikTok Netflix Nike Walmart Instagram Facebook Google Amazon Spotify Starbucks Disney",
    "Union Square Valley",
    "Mondays Tuesdays Wednesdays Thursdays Fridays Saturdays Sundays",
    "Christian Christianity Catholic Muslim Islam Jewish Judaism Hindu Hinduism Buddhist Buddhism",
    "Street Avenue Road Lane Drive Court Grove",
)
GENERAL = frozenset(word for line in _GENERAL_LINES for word in line.split())

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n")
_TOKEN = re.compile(r"[a-z0-9']+|<n>")
_CAPITALIZED = re.compile(r"\b(?!I\b)[A-Z][A-Za-z'-]*")


@dataclass(frozen=True)
class Hit:
    """One forbidden name or copied phrase in one line of our files."""

    path: str
    line: int
    found: str


@dataclass(frozen=True)
class DevData:
    """What the development data says, as the checks need it."""

    speakers: frozenset[str]
    texts: tuple[str, ...]


def load(folder: Path = SHARED_DATA) -> DevData:
    """Speakers and texts (turns, captions, questions, answers) of every LoCoMo and RealTalk file."""
    speakers: set[str] = set()
    texts: list[str] = []
    for path in sorted(folder.glob("locomo/*.json")):
        for sample in json.loads(path.read_text(encoding="utf-8")):
            conv = sample["conversation"]
            speakers |= {conv["speaker_a"], conv["speaker_b"]}
            texts += [t.get("text", "") for t in _turns(conv)] + [t.get("blip_caption", "") for t in _turns(conv)]
            texts += _qa(sample.get("qa", []))
    for path in sorted(folder.glob("realtalk/*.json")):
        chat = json.loads(path.read_text(encoding="utf-8"))
        speakers |= {str(n) for n in chat.get("name", {}).values()}
        texts += [t.get("clean_text", "") for t in _turns(chat)] + _qa(chat.get("qa", []))
    return DevData(frozenset(s[:1].upper() + s[1:] for s in speakers), tuple(t for t in texts if t))


def _turns(conv: dict) -> Iterator[dict]:
    for key, value in conv.items():
        if key.startswith("session_") and isinstance(value, list):
            yield from (t for t in value if isinstance(t, dict))


def _qa(items: list[dict]) -> list[str]:
    return [str(q.get(k, "")) for q in items for k in ("question", "answer", "adversarial_answer")]


def proper_nouns(texts: Iterable[str]) -> set[str]:
    """Words capitalized inside a sentence and never written in lower case (names, places, titles)."""
    capital: set[str] = set()
    lower: set[str] = set()
    for text in texts:
        for sentence in _SENTENCE.split(text):
            for i, word in enumerate(_WORD.findall(sentence)):
                if word[0].islower():
                    lower.add(word.lower())
                elif i > 0 and not word.isupper():
                    capital.add(word.removesuffix("'s").removesuffix("'"))
    return {w for w in capital if w.lower() not in lower and len(w) > 2 and not w.startswith("I'")}


def forbidden_names(data: DevData) -> set[str]:
    """Speakers, and the data's proper nouns that are not general vocabulary."""
    return set(data.speakers) | (proper_nouns(data.texts) - GENERAL)


def words(text: str) -> list[str]:
    """Lower-case word tokens, each capitalized word (but 'I') as the placeholder '<n>'."""
    return _TOKEN.findall(_CAPITALIZED.sub(" <n> ", text).lower())


def phrases(text: str, n: int = NGRAM) -> Iterator[tuple[str, ...]]:
    """Every run of n words of the text with at most MAX_PLACEHOLDERS capitalized words."""
    tokens = words(text)
    for i in range(len(tokens) - n + 1):
        run = tuple(tokens[i : i + n])
        if run.count("<n>") <= MAX_PLACEHOLDERS:
            yield run


def ngrams(texts: Iterable[str], n: int = NGRAM) -> set[tuple[str, ...]]:
    """Every phrase of the texts."""
    return {run for text in texts for run in phrases(text, n)}


def our_files(root: Path = ROOT) -> Iterator[Path]:
    """The product, unit tests, examples and notebooks (this module and its test excluded: they read the data)."""
    skip = {Path(__file__).resolve(), (root / "tests" / "test_data_leaks.py").resolve()}
    for folder in SCANNED:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and path.resolve() not in skip and ".venv" not in path.parts:
                yield path


def scan(data: DevData, root: Path = ROOT) -> list[Hit]:
    """Every forbidden name (whole word, case-sensitive) and copied phrase in our files."""
    names = forbidden_names(data)
    name_re = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")\b")
    copied_lines = ngrams(data.texts)
    hits = []
    for path in our_files(root):
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            where = str(path.relative_to(root))
            hits += [Hit(where, number, m.group(0)) for m in name_re.finditer(line)]
            copied = {" ".join(run) for run in phrases(line) if run in copied_lines}
            hits += [Hit(where, number, f"'{run}'") for run in sorted(copied)]
    return hits


if __name__ == "__main__":
    if not SHARED_DATA.is_dir():
        sys.exit(f"no development data at {SHARED_DATA}")
    dev = load()
    print(f"{len(dev.speakers)} speakers: {', '.join(sorted(dev.speakers))}")
    print(f"{len(forbidden_names(dev))} forbidden names, {len(ngrams(dev.texts))} {NGRAM}-word phrases")
    found = scan(dev)
    for hit in found:
        print(f"{hit.path}:{hit.line}: {hit.found}")
    sys.exit(1 if found else 0)
