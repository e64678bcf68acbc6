"""A terse line read with its thread: a value whose topic is the other's question or the speaker's own plan.

Judged alone, "9 is good", "Jaws. no discussion", "6'4" or "sent" says too little ("too little detail", "vague",
"a title or a name alone"): what it is a value of is in the lines before. The other speaker asked for it with an
asking word and no mark, often with more after it ("random but whats ur fave band", "how tall are you, so i spot
you"), which ``replies`` does not read as a question; or the speaker said a plan and then reports it done
("ordering the cake now" ... "sent"), or the other asked for something done ("you owe me £30") and the reply does
it ("sending now"). Read with that turn, the line forms ONE memory stating both, the two turns its sources:
'Ines answered Bram's question "whats ur fave band?": the Lumps', 'Ada added to "ordering the cake now": sent',
'Bram replied to Ada's "you owe me £30": sending now'.

Kept to the last resort (``admission`` asks only when every other rule left the line rejected for too little
content): the line is short, asks nothing, and carries a value (a number, an amount, a day or date, a word of
detail for a question asking for a thing, a done/sent/booked-type word for a plan or a request); the topic's turn
is the nearest turn before it of the right speaker, with only the other's turns between.

A bare answer given lines after its question (stop 73, h73f): a writer who answers in bursts ("Stuck how? A strike
again?" / "no" / "my hours" / "tachograph") says the answer's detail in the second to fourth piece, which the
answer rule (the line right after the question) does not read and which says too little alone. When the speaker's
own lines between the question and the line are all such pieces (at most ``RUN_PIECES`` of them, each at most
``RUN_PIECE_WORDS`` words, none asking), the line is read as the answer's last piece: the other's marked question
is its topic (how 'asked in pieces'), and the memory states the question with the whole run
('Kit answered Lu's question "A strike again?": no; my hours; tachograph', one reply a piece, so the
lifecycle joins it to the answer the first piece stored, h74e), the question, the pieces and the line
its sources.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dmem.decisions.offline import echoed_value, followup
from dmem.silence import silence_between
from dmem.state.schemas import Message
from dmem.text.asked import LEAD_INS, asks
from dmem.text.words import SECOND_PERSON

# Most words of a terse line read with its thread: a longer one says what it is about. Chosen on batches 25-27.
TERSE_MAX_WORDS = 6
# Most turns back the topic's turn may be (the other's run between counts): chat answers within a line or two.
TOPIC_BACK = 3
# Most of the speaker's own short pieces between the other's marked question and a terse line read as the answer's
# last piece, and the most words of each (a burst of one to four words). Chosen on batches 32, 33 and the drafts.
RUN_PIECES = 3
RUN_PIECE_WORDS = 4
# Most sentences of the other's turn after its question: a question early in a long turn of news is not the open one.
_AFTER_QUESTION = 1
# A laugh ends a run rather than going on with its answer: "ha", "heh", "hahah".
_LAUGH = re.compile(r"^\W*(?:a?h[ae]+h*|ha(?:ha)+h*|he(?:he)+)\W*$", re.I)
IN_PIECES = "asked in pieces"
"""``Topic.how`` of a line read as the last piece of the speaker's run answering the other's marked question."""
# The speaker's own line between the question and the value that only holds the turn (one with no detail word
# at all holds it too: "hmm", "ok"); any other own line says something the value may go on with.
_HOLD = re.compile(r"^\W*(?:let\s+me\s+(?:check|see|look|think)|one\s+sec|hang\s+on|hold\s+on|checking)\W*$", re.I)
# An asking word opening a sentence (after lead-ins, and chat's "random but"/"ok question"), asking for a thing.
_ASKING = re.compile(rf"^\W*{LEAD_INS}(?:(?:random|quick|ok|serious)\s+(?:but|q|question|one)\W+)?"
                     r"(?:what(?:'s|s|\s+is|\s+are|\s+was)?|wat|which|when(?:'s|s)?|where(?:'s|s)?|who(?:'s|s)?|"
                     r"how\s+(?:much|many|tall|old|long|far|big))\b(?!\s+(?:i|i'm|im|i'd|we)\b)", re.I)
# "fav food", "favourite film": a thing asked for by naming its kind alone, chat's quiz ("fav food. go").
_FAVOURITE = re.compile(r"^\W*(?:ur\s+|your\s+)?(?:fav|fave|favourite|favorite)\s+[a-z]+(?:\s+[a-z]+)?\W*"
                        r"(?:go|then)?\W*$", re.I)
# What makes an asking word's sentence a question when it has no mark: an auxiliary or a copula ("how tall are
# you", "whats ur fave band"), the listener's "your", or a "works" ("what day works"); "when you brake" is a clause.
_ASKED_OF = re.compile(r"\b(?:are|r|is|was|were|do|does|did|will|would|can|could|should|have|has|ur|your)\b|"
                       r"^\W*\w+(?:\s+\w+)*?\s*(?:what|who|where|when)'?s\b|\bworks?\b|\bsuits?\b", re.I)
# "what day works", "what time suits": a time asked for with no "you".
_WHEN_WORKS = re.compile(r"\b(?:works?|suits?|good\s+for)\b", re.I)
# A value: a number or an amount, a day or a date.
_VALUE = re.compile(r"\d|[£$€]|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:tomorrow|tonight|next\s+week)\b|"
                    r"\b(?:jan|feb|march|april|may|june|july|aug|sept?|oct|nov|dec)[a-z]*\b", re.I)
# A report that the thing is done: "sent", "sending now", "booked", "in the diary".
_DONE = re.compile(r"^\W*(?:(?:ok|okay|right|all|and|just)\W+)?(?:sent|sending(?:\s+(?:it|now|it\s+now))?|done|"
                   r"booked|paid|ordered|posted|transferred|in\s+the\s+diary)(?=\W*$|\s*[.!,])", re.I)
# The speaker's own plan: "ordering the cake now", "i'll send it", "gonna book".
_PLAN = re.compile(r"\b(?:i'?ll|i\s+will|i'?m\s+(?:going\s+to|gonna|about\s+to)|gonna|[a-z]{3,}ing\s+(?:it\s+)?now)\b",
                   re.I)
# The other's request: "you owe me", "send me", "can you ... ?", "pls".
_REQUEST = re.compile(r"\b(?:you|u)\s+owe\b|\b(?:send|pay|book|order|transfer)\s+(?:me|it|the)\b|\bpls\b|\bplease\b",
                      re.I)
# "yes please", "ok pls": a yes to the speaker's own offer, no request of the other's to do.
_BARE_PLEASE = re.compile(r"^\W*(?:yes|yeah|yep|ok|okay|oh)?\W*(?:please|pls)\W*$", re.I)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


@dataclass(frozen=True)
class Topic:
    """The turn that gives a terse line its topic, and how."""

    turn: Message
    """The other's question or request, or the speaker's own plan."""
    sentence: str
    """Its sentence the line is a value of, as said."""
    how: str
    """'asked' (the other's question), 'requested' (the other's request done), 'planned' (the speaker's plan),
    'echoed' (the other's line stating the value the line opens with, ``echoed_value``) or 'asked in pieces' (the
    other's marked question, the line the last of the speaker's run of pieces answering it)."""
    pieces: tuple[Message, ...] = ()
    """The speaker's own pieces between the question and the line ('asked in pieces'), in order."""


def topic_of(message: Message, prior: Sequence[Message], words: Callable[[str], list[str]]) -> Topic | None:
    """The thread's turn that gives a terse value line its topic (``Topic``), or None.

    ``words``: a text's answer words (``clauses.answer_words``): a question asking for a thing takes a reply with
    a word of detail; a plan or a request takes a done-type word, a number or a date. Last, the line may be the
    last piece of the speaker's run answering the other's marked question (``answered_in_pieces``).
    """
    return _near_topic(message, prior, words) or answered_in_pieces(message, prior, words)


def _near_topic(message: Message, prior: Sequence[Message], words: Callable[[str], list[str]]) -> Topic | None:
    """``topic_of`` within ``TOPIC_BACK`` turns: the other's unmarked question or request, the speaker's plan."""
    said = followup.said(message)
    if not said or len(said.split()) > TERSE_MAX_WORDS or asks(said):
        return None
    if echo := echoed_value.echoed(message, prior):
        return Topic(*echo, "echoed")
    detail = bool(followup.detail_words(words(said)))
    valued, done = bool(_VALUE.search(said)), bool(_DONE.match(said))
    for turn in reversed(prior[-TOPIC_BACK:]):
        if silence_between(turn, message):
            return None  # a line after a silence opens a new talk: the thread before is over
        text = followup.said(turn)
        if turn.speaker == message.speaker:  # the speaker's own line: a plan the line reports done, or a pause
            if (plan := _sentence(text, _PLAN.search)) and done:
                return Topic(turn, plan, "planned")
            if not _HOLD.match(text) and followup.detail_words(words(text)):
                return None  # the speaker said something of their own: the line goes on with that
            continue
        if (asked := _question(text)) and (detail or valued) and not done:
            return Topic(turn, asked, "asked")
        if (request := _sentence(text, _REQUEST.search)) and done and not _BARE_PLEASE.match(request):
            return Topic(turn, request, "requested")
        if not done:  # the other's latest line asks nothing: the value is about that line
            return None
    return None


def answered_in_pieces(message: Message, prior: Sequence[Message],
                       words: Callable[[str], list[str]]) -> Topic | None:
    """The other's marked question a terse line answers as the last of the speaker's run of short pieces, or None.

    Between the question and the line: only the speaker's own pieces (one to ``RUN_PIECES``, each at most
    ``RUN_PIECE_WORDS`` words, none asking) and no silence; the line itself has a word of detail or a value.
    """
    said = followup.said(message)
    if not said or len(said.split()) > RUN_PIECE_WORDS or asks(said) or followup.reacts(said) \
            or _LAUGH.match(said) or not (followup.detail_words(words(said)) or _VALUE.search(said)):
        return None
    pieces: list[Message] = []
    later = message
    for turn in reversed(prior[-(RUN_PIECES + 1):]):
        if silence_between(turn, later):
            return None
        text = followup.said(turn)
        if turn.speaker == message.speaker:
            if not text or len(text.split()) > RUN_PIECE_WORDS or asks(text):
                return None  # a longer own line or an own question: the line goes on with that
            pieces.insert(0, turn)
            later = turn
            continue
        question = _marked_question(text)
        return Topic(turn, question, IN_PIECES, tuple(pieces)) if question and pieces else None
    return None


def _marked_question(text: str) -> str | None:
    """The other's turn's last sentence ending with '?', with a question just before it ("Stuck how? A strike?")."""
    parts = [p.strip() for p in _SENTENCE.findall(text) if p.strip()]
    for _ in range(_AFTER_QUESTION):  # "are you free Saturday? I need your arms."
        if parts and not parts[-1].endswith("?"):
            parts.pop()
    if not parts or not parts[-1].endswith("?"):
        return None
    asked = [parts.pop()]
    if parts and parts[-1].endswith("?") and len(parts[-1].split()) <= RUN_PIECE_WORDS:
        asked.insert(0, parts[-1])
    return " ".join(asked)


def _question(text: str) -> str | None:
    """The other's unmarked question asking the listener for a thing, as a sentence ending with '?', or None."""
    for part in (p.strip() for p in _SENTENCE.findall(text)):
        if part.endswith("!"):
            continue  # an exclamation asks nothing
        head = re.split(r",\s*(?:so|cos|cause|because|and)\b", part)[0].strip(" .?")
        if _FAVOURITE.match(head) or (_ASKING.match(head) and _ASKED_OF.search(head)
                                      and (SECOND_PERSON.search(head) or _WHEN_WORKS.search(head))):
            return f"{head}?"
    return None


def _sentence(text: str, found: Callable[[str], object]) -> str | None:
    """The turn's last sentence ``found`` reads (a plan, a request), stripped of its end mark, or None."""
    hits = [p.strip(" .!") for p in _SENTENCE.findall(text) if found(p)]
    return hits[-1] if hits else None
