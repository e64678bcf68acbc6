"""Chain-aware admission: what an utterance continues, and the fact a fragment answer states.

An utterance judged alone loses what a later question chains through: "Yes, the green one"
after "Did you keep the bike your uncle gave you?", a new detail about a plan already stored,
a question that presupposes a fact. These helpers give admission and splitting that context:

- ``continued``: the stored memory a clause extends (it shares at least ``CONTINUE_MIN_SHARED``
  informative word stems with it, speakers' names not counted);
- ``answer_statement``: a reply to a question about the speaker, said as one fact naming the
  speaker ("What's your favourite film?" + "The one with the lighthouse" -> "Theo's favourite
  film is the one with the lighthouse"), or None when the question has no simple shape.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from dmem.decisions.offline import rules
from dmem.text.answers import is_kind_asked
from dmem.text.asked import LEAD_INS, ends_asking, opens_yes_no, topic_stems
from dmem.text.lexical import content_words
from dmem.text.nouns import looks_plural

# Informative stems a clause shares with one stored memory to continue its topic; chosen on the tuning half.
CONTINUE_MIN_SHARED = 5
# A reply clause of at most this many words that names nothing of the question it answers and opens with a
# yes or a no or points back ('it', 'there') is a fragment: its fact is stated with the question.
FRAGMENT_MAX_WORDS = 8
# Most words of a bare value answering a how-long, how-much, when or where question ("3 weeks", "40 a month").
W_VALUE_MAX_WORDS = 4
_SUBJECT = re.compile(r"\b(?:he|she|they|we|it's|its|i'm|im)\b", re.I)
_POINTS_BACK = re.compile(r"\b(?:it|that|this|there|them|those|these|one|ones)\b", re.I)

_BE = r"(?:'s|\s+is|\s+are|'re|\s+was|\s+were)"
_YOUR_THING = re.compile(rf"^{LEAD_INS}(?:what|who|which\s+one){_BE}\s+(?:your|ur)\s+"
                         r"(?P<np>[\w'-]+(?:\s+[\w'-]+){0,3}?)(?:\s+(?:these\s+days|now|again))?\s*\?*$", re.I)
_WHERE = re.compile(rf"^{LEAD_INS}where\s+(?:do|did)\s+you\s+(?P<verb>live|work|study|grow\s+up|stay|go)"
                    r"(?P<rest>(?:\s+[\w'-]+){0,3}?)\s*\?*$", re.I)
# "when is your dentist appointment?" -> "tuesday": when the listener's own thing is (B46d).
_WHEN = re.compile(rf"^{LEAD_INS}when{_BE}\s+(?:your|ur)\s+(?P<np>[\w'-]+(?:\s+[\w'-]+){{0,3}}?)\s*\?*$", re.I)
_DAY = re.compile(r"^(?:the\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\d{1,2}(?:st|nd|rd|th)\b)", re.I)
_PAST = {"grow up": "grew up", "go": "went", "live": "lived", "work": "worked", "study": "studied", "stay": "stayed"}
_PRESENT = {"grow up": "grows up", "go": "goes", "live": "lives", "work": "works", "study": "studies",
            "stay": "stays"}
_LOWER_OPENERS = frozenset({"a", "an", "the", "my", "our", "some", "this", "that"})  # "The blue one" -> "the blue one"
_PREPOSITION = re.compile(r"^(?:in|at|on|to|from|near|with|for|by|around|outside)\b", re.I)


def _stems(text: str, names: Iterable[str]) -> set[str]:
    skip = {w for n in names for w in content_words(n)}
    return {w for w in content_words(text) if w not in rules.VAGUE_WORDS and w not in rules.INTERJECTIONS
            and not rules.PHATIC.fullmatch(w) and w not in skip}


def continued(text: str, memories: Sequence[str], names: Iterable[str] = ()) -> str | None:
    """The stored memory sharing the most informative stems with ``text`` (at least CONTINUE_MIN_SHARED)."""
    names = list(names)
    mine = _stems(text, names)
    if len(mine) < CONTINUE_MIN_SHARED:
        return None
    best, shared = None, CONTINUE_MIN_SHARED - 1
    for memory in memories:
        n = len(mine & _stems(memory, names))
        if n > shared:
            best, shared = memory, n
    return best


def _answer_body(answer: str) -> str:
    """The reply without leading fillers, a leading 'it's' / 'that would be', or the final stop."""
    text = rules.LEADING_FILLER.sub("", " ".join(answer.split())).strip(" ,;:-").rstrip(".!")
    text = re.sub(r"^(?:it(?:'s|\s+is|\s+was)|that(?:'s|\s+is|\s+would\s+be)|probably|definitely)\s+", "", text,
                  flags=re.I)
    words = text.split(maxsplit=2)
    opener = words[0].lower() in _LOWER_OPENERS or bool(_PREPOSITION.match(words[0])) if words else False
    lowered = opener and len(words) > 1 and words[1][:1].islower()
    return text[:1].lower() + text[1:] if lowered else text


def answer_statement(question: str, answer: str, speaker: str) -> str | None:
    """The reply stated as a fact about ``speaker``, for the question shapes we know; else None."""
    body = _answer_body(answer)
    if not body or ends_asking(body):
        return None
    q = question.strip()
    if m := _YOUR_THING.match(q):
        np = m["np"].lower()
        verb = "are" if looks_plural(np) else "is"
        return f"{speaker}'s {np} {verb} {body}"
    if m := _WHEN.match(q):
        np = m["np"].lower()
        verb = "are" if looks_plural(np) else "is"
        return f"{speaker}'s {np} {verb} {'on ' if _DAY.match(body) else ''}{body}"
    if m := _WHERE.match(q):
        verb = m["verb"].lower()
        tense = _PAST if re.match(rf"^{LEAD_INS}where\s+did\b", q, re.I) else _PRESENT
        rest = m["rest"] or ""
        link = "" if _PREPOSITION.match(body) else (" to" if verb == "go" else " in")
        return f"{speaker} {tense[verb]}{rest}{link} {body}"
    return None


def fragment(clause: str, question: str, alone: bool = False) -> bool:
    """A reply clause that says little without the question it answers ("Yes, twice", "I loved it").

    So is a reply that is only a bare value (``alone``: the line's one clause) of the kind a how-long, how-much, when
    or where question asks ("3 weeks", "40 a month"): with no subject of its own it says nothing of what it measures.
    """
    if len(clause.split()) > FRAGMENT_MAX_WORDS or topic_stems(clause) & topic_stems(question):
        return False
    return opens_yes_no(clause) or bool(_POINTS_BACK.search(clause)) \
        or (alone and len(clause.split()) <= W_VALUE_MAX_WORDS and is_kind_asked(question, clause)
            and not rules.FIRST_PERSON.search(clause) and not _SUBJECT.search(clause))
