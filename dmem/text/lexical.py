"""Lexical and hybrid relevance: tokens, content-word stems, absolute BM25, embedding + BM25 scores.

Scores are absolute (0..1, comparable across calls) so thresholds mean the same thing for a
two-line context and a thirty-line one: BM25 is divided by the score a document matching every
query term once would get, with query terms unseen in the corpus weighted as the rarest term.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import Stemmer
from langchain_core.embeddings import Embeddings
from rank_bm25 import BM25Okapi

from dmem.grounding.deixis import NUMBER_WORDS
from dmem.text.verbs import PAST_STEMS
from dmem.text.words import wordset

HYBRID_EMBED_WEIGHT = 0.5  # share of embedding cosine in the hybrid score (the rest is BM25)
IDF_FLOOR = 0.25  # idf given to terms in most documents (BM25Okapi makes them <= 0 on tiny corpora)

STOPWORDS = wordset(
    "a about above after again against all am an and any are aren't as at be because been before "
    "being below between both but by can can't cannot could couldn't did didn't do does doesn't doing "
    "don't down during each few for from further had hadn't has hasn't have haven't having he he'd "
    "he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into "
    "is isn't it it's its itself let's me more most mustn't my myself no nor not of off on once only "
    "or other ought our ours ourselves out over own same shan't she she'd she'll she's should "
    "shouldn't so some such than that that's the their theirs them themselves then there there's "
    "these they they'd they'll they're they've this those through to too under until up very was "
    "wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while "
    "who who's whom why why's will with won't would wouldn't you you'd you'll you're you've your "
    "yours yourself yourselves also just really did does do get got gonna wanna yeah yes oh s t"
)
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*", re.UNICODE)
_STEMMERS = threading.local()
"""One Porter stemmer per thread: a stemmer object keeps its cursor in itself, so threads must not share one."""


def straighten(text: str) -> str:
    """``text`` with each curly apostrophe (\u2019) written straight, so "I\u2019m" reads as "I'm" to the rules."""
    return text.replace("\u2019", "'")


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens (apostrophes kept inside words, curly ones straightened)."""
    return _WORD.findall(straighten(text.lower()))


STEM_CACHE_WORDS = 20_000
"""Alphabetic words whose stems are kept, least recently used dropped first: about 200 bytes a word
(the word, its stem and the cache's link), 4 MB at the bound. Numbers and words with digits are not
kept: they have no stem, and ids, codes and amounts are the tokens a chat keeps inventing."""


def stem(word: str) -> str:
    """Porter stem of one lower-case word ("'s" dropped, 'seven' -> '7')."""
    word = word.removesuffix("'s")
    if word in NUMBER_WORDS and word not in ("a", "an"):
        return str(NUMBER_WORDS[word])
    word = PAST_STEMS.get(word, word)
    return _porter(word) if word.isalpha() else word


@lru_cache(maxsize=STEM_CACHE_WORDS)
def _porter(word: str) -> str:
    return _stemmer().stemWord(word)


def stem_cache_size() -> int:
    """Words whose stems are kept now (at most ``STEM_CACHE_WORDS``)."""
    return _porter.cache_info().currsize


def _stemmer() -> Stemmer.Stemmer:
    """The Porter stemmer of the calling thread (the original algorithm, Snowball's C build from PyStemmer).

    PyStemmer loads one algorithm, where importing the ``snowballstemmer`` package builds every
    language's tables (~10,000 objects each full garbage collection walks), and nltk costs seconds.
    Its own cache is off (size 0): it keeps a list per word in each thread, and ``stem`` caches already.
    """
    found = getattr(_STEMMERS, "porter", None)
    if found is None:
        found = _STEMMERS.porter = Stemmer.Stemmer("porter", 0)
    return found


def first_word(text: str) -> str:
    """The first whitespace-separated word of ``text`` as written, or '' when it has none."""
    words = text.split(maxsplit=1)
    return words[0] if words else ""


def content_words(text: str) -> list[str]:
    """Tokens that are not stopwords, in order."""
    return [t for t in tokenize(text) if t not in STOPWORDS]


def content_stems(text: str) -> list[str]:
    """Stems of the content words, in order (the unit of every lexical comparison here)."""
    return [stem(t) for t in content_words(text)]


def lexical_scores(query: str, docs: Sequence[str]) -> list[float]:
    """BM25 of query against each doc, divided by an ideal match's score: 0..1, absolute."""
    q = list(dict.fromkeys(content_stems(query)))
    corpus = [content_stems(d) for d in docs]
    if not q or not any(corpus):
        return [0.0] * len(docs)
    bm25 = BM25Okapi([doc or ["\x00"] for doc in corpus])
    bm25.idf = {w: max(v, IDF_FLOOR) for w, v in bm25.idf.items()}
    rarest = max(bm25.idf.values())
    ideal = sum(bm25.idf.get(t, rarest) for t in q)
    scores = bm25.get_scores(q)
    return [float(min(1.0, max(0.0, s / ideal))) for s in scores]


def cosines(embeddings: Embeddings, query: str, docs: Sequence[str]) -> list[float]:
    """Cosine of the query embedding with each doc's embedding (one batched call)."""
    if not docs:
        return []
    native = getattr(embeddings, "embed_array", None)  # dmem's embeddings: a float32 matrix, no list of floats
    texts = [query, *docs]
    vectors = np.asarray(native(texts) if native is not None else embeddings.embed_documents(texts), dtype=float)
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    unit = vectors / norms[:, None]
    return [float(x) for x in unit[1:] @ unit[0]]


def signals(embeddings: Embeddings, query: str, docs: Sequence[str]) -> list[tuple[float, float]]:
    """(embedding cosine, absolute BM25) of each doc against the query."""
    if not docs:
        return []
    return list(zip(cosines(embeddings, query, docs), lexical_scores(query, docs), strict=True))


def hybrid_with_cosines(embeddings: Embeddings, query: str, docs: Sequence[str]) -> list[tuple[float, float]]:
    """(hybrid, cosine) per doc: hybrid is the weighted sum of non-negative cosine and absolute BM25."""
    w = HYBRID_EMBED_WEIGHT
    return [(w * max(c, 0.0) + (1 - w) * lex, c) for c, lex in signals(embeddings, query, docs)]


def hybrid_scores(embeddings: Embeddings, query: str, docs: Sequence[str]) -> list[float]:
    """Hybrid relevance of each doc to the query (see ``hybrid_with_cosines``)."""
    return [h for h, _ in hybrid_with_cosines(embeddings, query, docs)]


def overlap(part: str, whole: str) -> float:
    """Share of part's content stems found in whole (1.0 when part has none)."""
    stems = set(content_stems(part))
    return len(stems & set(content_stems(whole))) / len(stems) if stems else 1.0


def jaccard(a: str, b: str) -> float:
    """Jaccard similarity of two texts' content-stem sets."""
    sa, sb = set(content_stems(a)), set(content_stems(b))
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0
