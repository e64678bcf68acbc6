"""The other speaker's question just before a reply that formed facts: its turn joins the reply's first fact.

"how did grandad take it" then "He grumbled all the way home and then asked when Ottilie is back": the reply forms a
memory, but shares no word with the question, opens with no yes or no and speaks of no one the question names as the
listener, so the reply rules (``crossed``, ``asked.reply_answers``) do not read it as the answer, and the question,
which carries what the answer is about, sources nothing. A question right before a reply is nearly always the one
the reply answers, so its turn becomes a source of the reply's first fact: provenance only, no memory and no text
changed (the reply's facts are written as before). ``question_before`` says when:

1. the reply run is the speaker's own lines from the one straight after the question (at most ``REPLY_RUN``): the
   fact's earliest source in it opens the run ("here" / "since wednesday" form one fact; "here" follows the question);
2. the other speaker's line before the run asks a real question (``asked``: no greeting, tag or exclamation; not a
   hedged answer asked back) in its last sentence or followed by at most ``TAIL_MAX_WORDS`` ("How much do we need.
   For a desk"), with its mark or opening as one without it ("both. did he argue", "Were you hurt .":
   ``rules.opens_question``, admission's own reading);
3. the run's first line does not ask (a question back, "No? What happened", answers nothing) nor open by turning
   away ("btw", "anyway", "oh and", "also", "speaking of");
4. the fact quotes no other line it answers or adds to ('answered Ivo's question "cost?": ...'), and no fact of the
   reply names the question's turn already.
A question the reply ignores is then a source the gold may not name (a cost in precision only); no memory is added.
Echo questions about the line before ("only 7?") are ``reacted``'s (sources of that line's memory), answers in pieces
``thread_value``'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline import rules
from dmem.decisions.offline.replies import without_speaker
from dmem.state.schemas import Message
from dmem.state.verdicts import FactDraft
from dmem.text.asked import asks, ends_asking, hedged_answer, real_questions
from dmem.text.lexical import straighten

# A reply that opens by turning to something else: what follows is not the answer to the question before it.
_TURNS_AWAY = re.compile(r"^\W*(?:btw|by\s+the\s+way|anyway|anyways|oh\s+and|also|speaking\s+of|unrelated|"
                         r"random(?:ly)?|side\s+note|change\s+of\s+subject)\b", re.I)
# The speaker's own lines, from the one straight after the question, that may together form the answer's fact.
REPLY_RUN = 3
# What a fact quotes of the line it answers or adds to: 'answered Ivo's question "cost?": ...', 'added to "here"'.
_QUOTED = re.compile(r"(?:question|added\s+to|replied\s+to\s+\w+'s)\s+\"([^\"]+)\"")
# Words a question may be followed by in its line and still be the one the reply answers: "How much do we need. For
# a desk", "How was the leaving do?? Tell me everything." (chosen on batch 32).
TAIL_MAX_WORDS = 5
# Where a line's sentences end; chat also ends one with a spaced " ." ("Were you hurt .").
_SENTENCE_END = re.compile(r"[.!?\n]+")


def _said(message: Message) -> str:
    """The message's own words, without a leading 'Speaker:'."""
    return straighten(without_speaker(message.text or "", message.speaker)).strip()


def asks_last(text: str) -> bool:
    """Whether the line's last sentence asks a real question, with its mark or opening as one without it.

    "both. did he argue" and Everard-style "Did you have the flask ." ask (``rules.opens_question``, admission's own
    reading); "How are you" (a greeting) and "lol ok" do not.
    """
    if ends_asking(text) and real_questions(text):
        return True
    sentences = [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]
    for i in range(len(sentences) - 1, -1, -1):
        if len(" ".join(sentences[i + 1:]).split()) > TAIL_MAX_WORDS:
            return False
        if (asks(sentences[i]) or rules.opens_question(sentences[i])) and real_questions(f"{sentences[i]}?"):
            return True
    return False


def question_before(message: Message, prior: Sequence[Message], first: FactDraft) -> str | None:
    """The turn id of the other speaker's question that the reply run holding ``first``'s earliest source answers.

    The run is the speaker's own lines from the one straight after the question to ``message`` (at most
    ``REPLY_RUN`` of them): "here" / "since wednesday" forms one fact from both lines, the question before "here".
    """
    said = [*prior, message]
    at = {t.turn_id: i for i, t in enumerate(said)}
    run = len(said) - 1
    while run > 0 and said[run - 1].speaker == message.speaker and len(said) - run < REPLY_RUN:
        run -= 1
    start = min((at[t] for t in first.source_turn_ids if at.get(t, -1) >= run), default=len(said) - 1)
    if start == 0 or said[start - 1].speaker == message.speaker:
        return None
    asking, reply = _said(said[start - 1]), _said(said[start])
    if not asking or not reply or not asks_last(asking):
        return None
    if start > 1 and said[start - 2].speaker == message.speaker and hedged_answer(_said(said[start - 2]), asking):
        return None  # "favourite food?" / "probably sushi?" / reply: the sushi line answered, it asked nothing
    if asks(reply) or _TURNS_AWAY.match(reply) or not _quotes_own(first.text, said[start:]):
        return None
    return said[start - 1].turn_id


def _quotes_own(text: str, run: Sequence[Message]) -> bool:
    """Whether what the fact quotes, if anything, is a line of the reply run ('Marit added to "here": ...').

    A fact quoting another question it answers or another line it adds to ('answered Ivo's question "cost?"') is
    about that line, not the question just before the run.
    """
    quoted = _QUOTED.search(text)
    return quoted is None or any(_said(m).casefold().startswith(quoted[1].casefold()) for m in run)


def with_question(facts: list[FactDraft], message: Message, prior: Sequence[Message]) -> list[FactDraft]:
    """The reply's facts, the first one sourced on the question its reply run answers when none names that turn."""
    if not facts or (turn := question_before(message, prior, facts[0])) is None \
            or any(turn in f.source_turn_ids for f in facts):
        return facts
    first = facts[0].model_copy(update={"source_turn_ids": [turn, *facts[0].source_turn_ids]})
    return [first, *facts[1:]]
