"""A memory ranked by the thread it was said in: the question's best turns among those just before its own.

In a terse chat a memory is often a fragment whose topic lives a few lines up: 'Noor answered
Ilka's question "where": the barnhollow centre' was said three turns after "your driving test?!",
so neither the memory nor its source turns share a word with "Where did Noor take her driving
test?". Here the namespace's transcript turns are ranked by the question (BM25, as ``turns`` does
for Focused Deliberation's seeds), and each memory takes the best rank of the turns just before
each of its source turns (``BEFORE`` turns and ``WORDS`` words at most, same conversation and day;
the source turns themselves are the memory's own BM25 document already). The word bound keeps the
thread to a few lines in a chat of long turns, where a line's topic is its own.
Turns are read from the transcript index the namespace already keeps (``EvidenceIndexes.transcript``):
no extra vector, and a question costs one BM25 ranking of the transcript and a look at each memory's
window.
"""

from __future__ import annotations

from collections.abc import Sequence

from dmem.evidence.bm25 import terms
from dmem.evidence.indexes import MemoryIndex, TurnIndex
from dmem.state.schemas import Message
from dmem.text.names import question_names, strip_names

BEFORE = 6
"""Turns before a source turn that belong to its thread (from the distances in batch 14's missed pairs, where
a word of the question sat in the 6 turns before in 19 of 26; RESULTS, h55c)."""
WORDS = 30
"""Most words the turns before a source turn may hold in all (0: no bound; 30 against none and 20 on RealTalk's tuning
Chat_1 and batch 14, checked on batch 12: RESULTS, h55c)."""
POOL = 100
"""Transcript turns the question ranks (BM25) before memories take their thread's best."""


def speakerless_query(question: str, turns: TurnIndex) -> str:
    """The question without the names of the transcript's speakers: what ``thread_ranking`` ranks turns by.

    A raw turn rarely names who says it, and the turns that name the other speaker are mostly addressed to
    them ('Thanks, Ilka!'), so the speakers' names rank no topic. The third persons and places the chat is
    about stay: the turns a few lines up name them ('how is Pim's new bakery doing?') where the fragment
    answering them does not ('busy!'; batch 22 and the checks: RESULTS, h63f).
    """
    spoken = turns.speaker_words
    return strip_names(question, [n for n in question_names(question) if n.lower() in spoken]) or question


def thread_ranking(question: str, memories: MemoryIndex, turns: TurnIndex, pool: int = POOL,
                   before: int = BEFORE) -> list[int]:
    """Memories (positions in ``memories``) ranked by the best-ranked turn of their thread, best first.

    ``question`` comes without the speakers' names (``speakerless_query``): a raw turn rarely names who says it.
    Only fragments are ranked: a memory whose own document (its text and source turns) holds a content
    word of the question is left out (``saying``), as is one whose thread holds none of the question's
    ``pool`` best turns; ties keep the memories' order (the namespace's list order); at most ``pool``.
    """
    ranked = turns.docs.lexical(question, pool)
    if not ranked:
        return []
    rank = {p: r for r, p in enumerate(ranked)}
    said = saying(question, memories)
    best: dict[int, int] = {}
    for i, record in enumerate(memories.records):
        if i in said:
            continue
        found = [r for p in thread(turns, turns.positions.of(record), before) if (r := rank.get(p)) is not None]
        if found:
            best[i] = min(found)
    return sorted(best, key=lambda i: best[i])[:pool]


def saying(question: str, memories: MemoryIndex) -> set[int]:
    """Memories whose own document holds a content word of the question: BM25 ranks them by it.

    The question comes as ``thread_ranking`` takes it, the speakers' names already left out by the caller
    (``speakerless_query``): a word still in it counts, a third person's name too.
    Lifting such a memory by its thread as well lifts the topic's other instances, the lines said
    next to the question's words about another time or thing, over the memory the answer is in
    (LoCoMo's tuning half, where long turns say their topic: RESULTS, h56b).
    """
    bm25 = memories.docs.bm25
    return {int(i) for term in terms(question) for i in bm25.holding(term)}


def thread(turns: TurnIndex, sources: Sequence[int], before: int, words: int | None = None) -> set[int]:
    """The ``before`` turns ahead of each source turn, of its conversation and day, that are not source turns.

    The source turns themselves are left out: BM25 over the memory's document already reads them.
    """
    words = WORDS if words is None else words
    out: set[int] = set()
    for p in sources:
        start, said = p, 0
        while start > 0 and p - start < before and _same_thread(turns.messages[start - 1], turns.messages[p]):
            said += len(turns.messages[start - 1].text.split())
            if words and said > words:
                break
            start -= 1
        out.update(range(start, p))
    return out - set(sources)


def _same_thread(earlier: Message, turn: Message) -> bool:
    """Whether an earlier turn is of the turn's conversation and day (untimed turns: of its conversation)."""
    if earlier.conversation_id != turn.conversation_id:
        return False
    return earlier.timestamp is None or turn.timestamp is None or earlier.timestamp.date() == turn.timestamp.date()
