"""A line that opens the chat again after a silence: the speaker came back to tell it, so it is their news.

Friends in a two-person chat go quiet for hours or days and come back with what happened: "signed btw 🔑",
"Home! Thanks for the best weekend", "Bad news, trains are off tomorrow. Strike". Judged alone, such a line is
too short to tell or names no "I". But where it stands is evidence from the conversation, as the listener's
take-up is (``takeup``): after a silence (``dmem.silence``) the line answers nobody and takes nothing up; the
speaker chose to say it. So the speaker's first line after a silence (or the next one, when the first was only
a greeting: "morning!!" then "signed btw") is re-judged as their news and forms one fact of theirs, written as a
line told as their world ('Kasimir: signed btw'), the line its only source.
Kept out, with the take-up's limits: a line that formed something, a question (a bare "any news?" is no news), and
a rejection that is no lack of content (a greeting or thanks alone, a reaction, a passing state, advice, a
general statement, the listener: the rules' own claims); a line with no detail word besides greetings and filler.
A chat's first line opens no silence anyone saw, and a line with no time has none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from dmem.decisions.offline import followup, takeup
from dmem.decisions.offline.followup import said
from dmem.silence import silence_before
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import STOPWORDS, content_words
from dmem.text.words import wordset

# The speaker's lines after the silence that may open it: the first, or the second when the first said nothing
# but a greeting or filler ("morning!!", "omg"). Not tuned: one greeting before the news is chat's habit.
OPENING_RUN = 2
# A line opening with an acknowledgement answers what was said before the silence ("ok i'm outside" keeps an
# arrangement): it opens nothing.
_ACKNOWLEDGES = re.compile(r"^\W*(?:ok+|okay|kk?|yes|yeah|yep|ya|sure|right|true|agreed|fine|noted)\b", re.I)
# Words that announce news and say none ("Good news and bad news", "guess what", "update!"): the news follows.
ANNOUNCES = wordset("news update updates guess")
_STRETCHED = re.compile(r"(\w)\1+$")
# A stage direction alone ("[shares an image]", "(voice note)") stands for something the line does not say.
_STAGE = re.compile(r"^\s*[\[(].*[\])]\W*$")
UNANSWERING = frozenset({"a reaction", "an evaluation", "a general statement or a reaction", "the world at large"})
"""Markers' claims a line after a silence cannot bear: no line before it to react to, evaluate or talk about in
general. In a line that is news already, a clause they claim is the news's framing or detail ("Bad news, trains
are off tomorrow. Strike"; "saltmarsh was so good. no floods"; "window broke. storm") and is kept with it."""


@dataclass(frozen=True)
class Opening:
    """The speaker's line that opens the chat after a silence, as their news."""

    news: Message
    """The line (formed nothing alone)."""
    silence: timedelta
    """The silence before the speaker's opening lines."""
    told: takeup.Unformed
    """The line judged as news, widened when the lift pooled more: the clauses the fact says and their language."""


def details(message: Message) -> list[str]:
    """The line's words that say something: no greeting, no stretched function word ("heyyy", "sooo"), no filler."""
    return followup.detail_words([w for w in content_words(said(message)) if not is_empty(w)])


def is_empty(word: str) -> bool:
    """A greeting, a news announcement or a function word, its last letter stretched or not ("morninggg", "sooo")."""
    return any(w in takeup.GREETING or w in ANNOUNCES or w in STOPWORDS for w in (word, _STRETCHED.sub(r"\1", word)))


def opening_silence(message: Message, prior: Sequence[Message]) -> timedelta | None:
    """The silence ``message`` opens the chat after (it ends it, or the speaker's greeting just before did), or None."""
    for back in range(min(OPENING_RUN, len(prior) + 1)):
        at = len(prior) - back
        first = prior[at] if back else message
        if back and (first.speaker != message.speaker or details(first)):
            return None  # the line before said something (or was the listener's): it opened the chat
        if silence := silence_before(first, prior[:at]):
            return silence
    return None


def opening(message: Message, prior: Sequence[Message], told: takeup.Told,
            widened: takeup.Told | None = None) -> Opening | None:
    """``message`` as the news that opens the chat after a silence, or None (``told`` judges it without this).

    ``widened`` judges it as ``told`` does with the claims of ``UNANSWERING`` lifted: when the line is news, its
    pool keeps the clauses only they claimed ("Bad news, trains are off tomorrow" besides "Strike"). A lift only
    adds clauses to a pool (``followup.goes_on``), so the widened pool holds the told one.
    """
    silence = opening_silence(message, prior)
    line = said(message)
    if silence is None or asks(line) or _ACKNOWLEDGES.search(line) or _STAGE.match(line) or not details(message):
        return None
    told_news = takeup.content_poor_news(told(message, prior), is_empty)
    if not told_news:
        return None
    wider = takeup.content_poor_news(widened(message, prior), is_empty) if widened else None
    return Opening(message, silence, wider or told_news)
