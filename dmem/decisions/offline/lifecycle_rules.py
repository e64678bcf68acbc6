"""Lifecycle rules of the offline engine: NOOP, DELETE, UPDATE or ADD by similarity and value comparison.

Rules in order: a fact going on with a memory formed from its first source turn ('fact; piece') joins its new
pieces to that memory (UPDATE, ``goes_on``); a repeat (equal text or cosine >= NOOP_SIMILARITY) is NOOP; an event
that ends what a memory of the same subject says ("sold", "quit", "left") is UPDATE, the memory becoming the
event (its history keeps the old text and its source turns stay, where a DELETE kept neither the state nor the
sale); a retraction telling no event ("no longer", "doesn't have") is DELETE, as in Mem0; the same subject and
wording with a changed value (number, date, name, or a negation flip) is UPDATE; a fact that adds
nothing to such a memory is NOOP and one that only adds detail is UPDATE; anything else is ADD.

A changed value replaces one: each text has a value the other lacks ("Porto" -> "Lisbon"); a fact
that only lacks the memory's date is another fact, not a correction. And the wording must be the
same once values are masked: an embedding cosine alone does not make two facts one, since facts
cast in the same frame ('Maya answered Theo's question "...": ...') are close whatever they say,
and an UPDATE would overwrite the older fact. Wording is compared without the frame (``wording``):
its fixed words and the two names are not shared words, two lines framed under different quotes
(questions, sentences, earlier lines) are different facts, and two framed under the same quote by the
same people are one fact's wording, so a changed value in the answer is its correction. Names are
capitalised words that are neither function words nor the first word of a sentence or quote ("Did",
"Thanks", "Anything" are not).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from dmem.decisions.offline import frames, rules
from dmem.decisions.offline.frames import JOIN
from dmem.grounding.deixis import NUMBER_WORDS, absolute_dates
from dmem.state.schemas import Category, Fact, MemoryRecord, Operation
from dmem.state.verdicts import LifecycleDecision
from dmem.text.lexical import STOPWORDS, content_stems, stem, tokenize

NOOP_SIMILARITY = 0.95  # cosine at which a new fact only repeats a stored memory
SAME_FACT_SIMILARITY = 0.8  # similarity at which a fact speaks about what a memory says
MIN_SHARED_STEMS = 2  # content words both texts need before word overlap can count as similarity

# An event that ends what a memory says ("sold", "quit"): the memory becomes the event (UPDATE, history keeps the
# old text), so the sale is remembered and the turns that told the state stay sources of a live memory.
ENDING = re.compile(rules.words("quit", "sold", "left", "stopped", "gave up", "got rid of", "broke up with",
                                "moved out of", "lost"), re.I)
# A retraction that tells no event ("no longer", "doesn't have"): Mem0's DELETE, nothing replaces the memory.
RETRACTION = re.compile(rules.words("no longer", "not anymore", "anymore", "any more", "no more", "doesn't have",
                                    "does not have"), re.I)
REMOVAL = re.compile(f"{ENDING.pattern}|{RETRACTION.pattern}", re.I)
NEGATION = re.compile(r"\b(?:not|never|no)\b|n't\b", re.I)
_VALUE = "\x00value"
_TOKEN = re.compile(r"[A-Za-z0-9][\w'-]*")
_OPENERS = ".!?:;\"\u201c("  # what the first word of a sentence or of a quote follows


def normalise(text: str) -> str:
    """Lower-case tokens joined by single spaces: equal for texts that differ only in form."""
    return " ".join(tokenize(text))


def subject(text: str) -> str:
    """First token without a possessive: 'Maya's son is 7' -> 'maya'."""
    tokens = tokenize(text)
    return tokens[0].removesuffix("'s") if tokens else ""


def values(text: str, speaker: str | None = None) -> set[str]:
    """Numbers, dates and names in a fact: what an update changes."""
    out = {d.isoformat() for _, d in absolute_dates(text)}
    skip = {speaker.lower()} if speaker else set()
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        low = token.lower().removesuffix("'s")
        if low in skip or low in ("a", "an"):
            continue
        if token[0].isdigit() or low in NUMBER_WORDS:
            out.add(str(NUMBER_WORDS.get(low, low)))
        elif token[0].isupper() and low not in STOPWORDS and not _opens(text, m.start()):
            out.add(low)
    return out


def _stem_sets(text: str, vals: set[str]) -> tuple[set[str], set[str]]:
    """Content stems without removal words: as written, and with its values (``values``) masked as one token."""
    plain = set(content_stems(REMOVAL.sub(" ", text)))
    masks = {stem(v) for v in vals}
    masked = {s for s in plain if s not in masks} | ({_VALUE} if masks else set())
    return plain, masked


def _opens(text: str, start: int) -> bool:
    """Whether the word at ``start`` opens the text, a sentence, a quote or a dash-set phrase."""
    before = text[:start].rstrip()
    return not before or before[-1] in _OPENERS or before.endswith((" -", " \u2013"))


class Reading(NamedTuple):
    """A fact's text read once for all its comparisons in one decision: its frame, what it says, and its words."""

    text: str
    """The fact as written."""
    framed: frames.Framed | None
    """Its frame, quote and saying (``frames.framed``); None for a line formation wrote without a frame."""
    wording: str
    """What it says without its frame (``wording``)."""
    values: set[str]
    """The numbers, dates and names of what it says (``values``)."""
    stems: tuple[set[str], set[str]]
    """The content stems of what it says without removal words: as written, and with its values masked."""


def read(text: str, speaker: str | None = None) -> Reading:
    """A fact's text with its frame parsed and its words read once, for every comparison it takes part in.

    ``speaker`` is the new fact's: the name read as no value on both sides of a comparison.
    """
    said = _wording(text, f := frames.framed(text))
    vals = values(said, speaker)
    return Reading(text, f, said, vals, _stem_sets(said, vals))


def wording(text: str) -> str:
    """What a fact says without its frame: a framed line's quote and saying, any other fact whole.

    The frame's fixed words and the two names are dropped: 'Maya answered Theo's question "How many?": 3' -> 'How
    many?: 3'.
    """
    return _wording(text, frames.framed(text))


def _wording(text: str, f: frames.Framed | None) -> str:
    """``wording`` of a text whose frame is read (``f``)."""
    if f is None:
        return text
    return f"{f.about}: {f.said}" if f.about is not None else f.said


def same_frame(a: Reading, b: Reading) -> bool | None:
    """Whether two lines framed under a quote (a question, a sentence, an earlier line) share that frame.

    The same quote by the same people is the same frame; None unless both lines are framed under a quote.
    """
    fa, fb = a.framed, b.framed
    if fa is None or fb is None or fa.about is None or fb.about is None:
        return None
    return normalise(fa.frame) == normalise(fb.frame)


def similarity(a: Reading, b: Reading, cos: float) -> float:
    """Max of embedding cosine and word overlap (as written, and with values masked) of what the facts say.

    Overlap counts only when the texts share a word beyond their subject: "Maya lives in
    Porto" and "Maya lives in Lisbon" overlap fully once the cities are masked. A frame's words
    are not shared wording: two replies under one quoted question are one fact's wording (the
    question is what they are about), two under different questions are different facts, however
    close their embeddings (0, so no rule but the repeat makes them one).
    """
    if (same := same_frame(a, b)) is not None:
        return 1.0 if same else 0.0
    ignore = {stem(subject(a.text)), stem(subject(b.text)), _VALUE}
    best = cos
    for sa, sb in zip(a.stems, b.stems, strict=True):
        shared = sa & sb
        if len(shared) >= MIN_SHARED_STEMS and shared - ignore:
            best = max(best, len(shared) / min(len(sa), len(sb)))
    return best


def same_wording(a: Reading, b: Reading) -> bool:
    """Whether two facts say the same thing but for their values: word overlap alone, values masked."""
    return similarity(a, b, 0.0) >= SAME_FACT_SIMILARITY


def _same_subject(fact: Fact, memory: MemoryRecord) -> bool:
    if fact.speaker and memory.speaker and fact.speaker.lower() == memory.speaker.lower():
        return True
    return subject(fact.text) == subject(memory.text)


def _changed(fact: Reading, memory: Reading) -> str | None:
    """What changed between a memory and a fact worded the same (a value replaced, a negation flipped), else None."""
    if not same_wording(fact, memory):
        return None
    new, old = fact.values, memory.values
    if new - old and old - new:
        return f"value changed: {', '.join(sorted(old - new))} -> {', '.join(sorted(new - old))}"
    if bool(NEGATION.search(fact.text)) != bool(NEGATION.search(memory.text)):
        return "negation flipped"
    return None


def _said_stems(text: Reading, other: Reading, speakers: set[str]) -> set[str]:
    """Content stems of what a fact says (``wording``), without the speakers' names when either fact is framed.

    A frame drops its names, so beside a framed fact an unframed line's speaker label ("Maya: ...") is not
    compared either.
    """
    stems = set(content_stems(text.wording))
    if text.framed is None and other.framed is None:
        return stems
    return stems - {stem(s.lower()) for s in speakers}


def _decision(op: Operation, reason: str, target: int | None = None, text: str | None = None) -> LifecycleDecision:
    return LifecycleDecision(reason=reason, operation=op, target=target, text=text)


def goes_on(fact: Fact, memory: MemoryRecord) -> str | None:
    """The memory with the pieces a fact joins to it added, when the fact goes on with it; else None.

    Formation writes a later line going on with a fact it formed as 'fact; piece' (``followup``, ``threads``),
    its first source the fact's turn: when the memory came from that turn and holds the fact's head (the text
    before the first '; '), the new pieces join the memory, whatever the cosine (a short piece barely moves it, so
    the repeat rule would drop its words) and whatever pieces the memory already holds ('sold the van; 900' then
    'sold the van; to a student').
    """
    pieces = fact.text.split(JOIN)
    if len(pieces) < 2 or not fact.source_turn_ids or fact.source_turn_ids[0] not in memory.source_turn_ids \
            or (fact.speaker and memory.speaker and fact.speaker.lower() != memory.speaker.lower()):
        return None
    held = set(content_stems(memory.text))
    if not set(content_stems(pieces[0])) <= held:
        return None
    new = [p for p in pieces[1:] if not set(content_stems(p)) <= held]
    return f"{memory.text.rstrip().rstrip('.')}{JOIN}{JOIN.join(new)}" if new else None


def _close(fact: Fact, new: Reading, background: list[MemoryRecord],
           cosines: list[float]) -> list[tuple[float, int, MemoryRecord, Reading]]:
    """The memories of the fact's subject at least SAME_FACT_SIMILARITY close, closest first, each read once.

    Each is (similarity, id, memory, its ``Reading``); ties keep the background's order.
    """
    close = []
    for i, (memory, cos) in enumerate(zip(background, cosines, strict=True)):
        if _same_subject(fact, memory):
            old = read(memory.text, fact.speaker)
            if (sim := similarity(new, old, cos)) >= SAME_FACT_SIMILARITY:
                close.append((sim, i, memory, old))
    return sorted(close, key=lambda t: -t[0])


def decide(fact: Fact, background: list[MemoryRecord], cosines: list[float]) -> LifecycleDecision:
    """One lifecycle decision for a new fact; background ids are 0..n-1 in list order."""
    for i, memory in enumerate(background):
        if (joined := goes_on(fact, memory)) is not None:
            return _decision(Operation.UPDATE, f"goes on: the fact adds pieces to memory {i}, formed from its "
                                               "first source turn", target=i, text=joined)
    for i, (memory, cos) in enumerate(zip(background, cosines, strict=True)):
        if normalise(memory.text) == normalise(fact.text) or cos >= NOOP_SIMILARITY:
            return _decision(Operation.NOOP, f"repeat: memory {i} already says this (cosine {cos:.2f})", target=i)
    new = read(fact.text, fact.speaker)
    close = _close(fact, new, background, cosines)
    removal = REMOVAL.search(fact.text)
    ending = ENDING.search(fact.text)
    for sim, i, memory, _ in close:
        if ending and not REMOVAL.search(memory.text):
            return _decision(Operation.UPDATE, f"ended: '{ending.group(0)}' ends memory {i}, the event replaces it "
                                               f"(similarity {sim:.2f})", target=i, text=fact.text)
        if removal and not REMOVAL.search(memory.text):
            return _decision(Operation.DELETE, f"removal: '{removal.group(0)}' negates memory {i} "
                                               f"(similarity {sim:.2f})", target=i)
    event_only = Category.EVENT in fact.categories and not {Category.PERSONA, Category.PREFERENCE} & set(
        fact.categories)
    for sim, i, memory, old in close:
        if change := _changed(new, old):
            if event_only:
                return _decision(Operation.ADD, f"new event: differs from memory {i} ({change})", text=fact.text)
            return _decision(Operation.UPDATE, f"update: memory {i} {change} (similarity {sim:.2f})",
                             target=i, text=fact.text)
        speakers = {s for s in (fact.speaker, memory.speaker) if s}
        added, held = _said_stems(new, old, speakers), _said_stems(old, new, speakers)
        if added <= held:
            return _decision(Operation.NOOP, f"redundant: memory {i} already holds every word of the fact",
                             target=i)
        if held <= added:
            return _decision(Operation.UPDATE, f"refinement: the fact adds detail to memory {i}",
                             target=i, text=fact.text)
    return _decision(Operation.ADD, "new information: no memory of the same subject says this", text=fact.text)
