"""The speaker's own world told without an "I": a clause whose subject is something already theirs.

People explain their own world at length without naming themselves in every sentence: after "my kiln
has been clicking all week", "The test firing reached temperature in the normal time"; after a stored
"Odile keeps bees on the allotment", "The hives came through the winter with two queens". Judged alone
such a sentence is "no personal fact about the speaker"; judged with what it continues it is one.

``owned`` finds the thing a clause's subject names (its last content word before the first verb) when the
speaker has made it theirs before:
- with "my" or "our" in one of their own earlier turns of the window, or earlier in the same message;
- in a stored memory naming it as theirs ("Odile keeps bees", "Odile's hives", "a beagle named Biscuit");
- for a particular thing or occasion (a definite subject or a past verb, not a name of the world's like
  "The Lantern Road"), in any stored memory of the speaker (its text opens with their name).
The clause must say enough (``OWN_MIN_WORDS`` answer words) and be no statement about the listener, order,
generic truth, reaction or modal (``reusable``); an evaluation only of what was theirs by the first two paths.
"Traffic in big cities is awful" stays out. The tellable clauses after one about the speaker's thing in the
same message go on about it; the split keeps them as said, one fact per message (``_TOLD`` in admission).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from dmem.decisions.offline import reusable, rules
from dmem.state.schemas import Message
from dmem.text.lexical import STOPWORDS, content_words, stem

# Answer words a clause about the speaker's own thing needs, the thing's counted. Chosen on the tuning half.
OWN_MIN_WORDS = 3
# Words before the first verb read as the subject: a longer opening is an adverbial, not a noun phrase.
SUBJECT_MAX_WORDS = 5
# A finite verb closing the subject: an auxiliary or contraction, a common irregular form, a regular past.
# Not any word in -s or -ing, as ``reusable`` has it: "the swift boxes", "the test firing" are subjects.
_VERB = re.compile(
    r"'(?:s|re|ve|ll|d|m)\b|\b(?:is|are|was|were|has|have|had|will|won't|can|can't|could|would|should|must|might|"
    r"do|does|did|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|hasn't|haven't|got|gets|went|goes|came|comes|"
    r"took|takes|made|makes|needs|keeps|kept|gave|gives|broke|fell|grew|ran|runs|lives|lived|[a-z]+ed)\b", re.I)
_MINE = re.compile(r"\b(?:my|our)\s+(?P<np>(?:[\w'-]+\s+){0,2}[\w'-]+)", re.I)
# Verbs by which a stored memory makes a thing the speaker's: "Odile keeps bees", "Odile's bees".
_OWNING = (r"(?:has|had|have|owns|owned|got|gets|bought|adopted|built|made|makes|keeps|kept|started|joined|plays|"
           r"played|runs|ran|rescued|inherited|grows|grew|takes|took|teaches|studies|lives\s+(?:in|at|near))")
_DEFINITE = re.compile(r"^\W*(?:(?:so|and|but|also|oh|well|ok|okay)\W+)?(?:the|this|that|these|those)\s", re.I)
_PAST = re.compile(r"was|were|had|did|didn't|wasn't|weren't|got|went|came|took|made|kept|gave|broke|fell|grew|ran|"
                   r"[a-z]+ed", re.I)
_THEIRS = "as theirs"
# Subject words that name no thing of anyone's ("the thing", "the best part").
_EMPTY = frozenset({"thing", "things", "stuff", "part", "way", "lot", "bit", "kind", "sort", "one", "ones",
                    "time", "times", "day", "days", "people", "everyone", "someone", "nothing", "something", "like"})


def subject_words(clause: str) -> list[str] | None:
    """The words before the clause's first finite verb (a few at most), or None without one or past a few."""
    m = _VERB.search(reusable.unaddressed(clause))
    opening = reusable.unaddressed(clause)[: m.start()].split() if m else []
    return opening if m and len(opening) <= SUBJECT_MAX_WORDS else None


def subject_head(clause: str) -> str | None:
    """The stem of the subject's last content word (the words before the first finite verb, a few at most)."""
    clause = reusable.unaddressed(clause)  # "Tove, the ..." addresses the listener
    m = _VERB.search(clause)
    if m is None:
        return None
    opening = clause[: m.start()].split()
    if not opening or len(opening) > SUBJECT_MAX_WORDS:
        return None
    words = [w for w in content_words(" ".join(opening)) if w not in rules.VAGUE_WORDS]
    if not words or words[-1] in _EMPTY or content_words(opening[0])[:1] == [words[-1]] and words[-1].endswith("ing"):
        return None  # "Seeing how art helps ...": a gerund opening is an activity in general, not a thing
    return stem(words[-1])


def particular(clause: str) -> bool:
    """Whether the clause speaks of a particular thing or occasion: a definite subject or a past verb.

    "The hives came through the winter" and "Test firing reached temperature" are; "Dance floors help avoid
    injuries" (a bare plural in the present) says what such things are in general.
    """
    m = _VERB.search(clause)
    return bool(_DEFINITE.match(clause)) or bool(m and _PAST.fullmatch(m.group(0)))


def _heads(phrases: Iterable[str]) -> set[str]:
    """Stems of the content words of noun phrases (a phrase cut at its head is matched on any of its words)."""
    return {stem(w) for p in phrases for w in content_words(p) if w not in _EMPTY}


def owned(clause: str, speaker: str, before: str, prior: Sequence[Message], memories: Sequence[str]) -> str | None:
    """What of the speaker's own the clause's subject names, and where it became theirs; else None.

    ``before``: the speaker's message up to this clause; ``prior``: the turns before the message;
    ``memories``: stored memory texts.
    """
    head = subject_head(clause)
    names = {stem(w) for s in (speaker, *(m.speaker for m in prior)) for w in content_words(s)}
    if head is None or head in names or head in {stem(w) for w in STOPWORDS}:
        return None
    own_turns = [before, *(m.text or "" for m in prior if m.speaker == speaker)]
    if head in _heads(m["np"] for t in own_turns for m in _MINE.finditer(t)):
        return f"'{head}', said {_THEIRS} before"
    first = re.escape(speaker.split()[0]) if speaker.split() else None
    if first is None:
        return None
    theirs = re.compile(rf"\b{first}(?:'s\s+|\s+{_OWNING}\s+)(?P<np>(?:[\w'-]+\s+){{0,3}}[\w'-]+)", re.I)
    phrases = [m["np"] for memory in memories for m in theirs.finditer(memory)]
    if head in _heads(phrases) and (particular(clause) or _named_head(" ".join(phrases), head)):
        return f"'{head}', stored {_THEIRS}"  # a name stored as theirs ('a beagle named Biscuit') is particular
    if not particular(clause):
        return None
    told = [m for m in memories if re.match(rf"{first}\b", memory_opening(m), re.I)]
    if not _named_head(clause, head) and head in {stem(w) for t in told for w in content_words(t)}:
        return f"'{head}', a particular of what they told before"
    return None


def _named_head(clause: str, head: str) -> bool:
    """Whether the subject's head is written as a name ("The Silk Road"): a thing of the world, not of the speaker."""
    words = clause.split()[1 if clause[:1].isupper() else 0:]
    return any(w[:1].isupper() and stem(w.lower().strip(".,!?'")) == head for w in words)


def memory_opening(memory: str) -> str:
    """A stored memory's text from its first word ('Odile: the hives ...' -> 'Odile the hives ...')."""
    return memory.lstrip().replace(":", " ", 1)


def tellable(clause: str, answer_word_count: int, judged: bool = False) -> bool:
    """Whether a clause without 'I' could tell the speaker's world (it says enough, see ``own_world``).

    No statement about the listener, order, generic truth or reaction, nor of what may be ("plants can add
    character"); no evaluation unless ``judged`` (its subject is the speaker's own: "Biscuit is doing better").
    """
    return answer_word_count >= OWN_MIN_WORDS and not (
        reusable.about_the_world(clause) or (reusable.evaluates(clause) and not judged)
        or reusable.modal(clause))


def own_world(clause: str, answer_word_count: int, speaker: str, before: str, prior: Sequence[Message],
              memories: Sequence[str]) -> str | None:
    """Why a clause without 'I' is about the speaker's own thing, or None (see the module)."""
    if not tellable(clause, answer_word_count, judged=True):
        return None
    why = owned(clause, speaker, before, prior, memories)
    return why if why and (_THEIRS in why or tellable(clause, answer_word_count)) else None
