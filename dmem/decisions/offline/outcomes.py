"""An outcome said without its subject, and the event of the speaker's it tells the end of.

Chat announces how an awaited event went without naming it: "WE PASSED" the day after "boat licence
exam tmrw", "aced it!!" a week after "my viva is on the 9th", "got it!!" after "interview at 10". Alone the
message names nothing; with the event the speaker stated before it is a fact ("Lale passed the boat licence
exam"). The event is searched in the speaker's own messages before (the reference window) and, further back,
in the speaker's stored memories; the message is kept with it, so it adds to that event rather than standing
as a bare word. The rules are about how chat reports an outcome, never about a particular conversation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.state.schemas import Message

# "WE PASSED", "aced it!!", "we did it", "got it omg", "didnt pass :(": an outcome verb with no object, the
# speaker its subject or dropped, at most a few words of reaction after it.
_W_OUTCOME = re.compile(
    r"^\W*(?:(?:so|and|well|omg|guess\s+what|update)\W+)*(?:(?:i|we)\s+)?(?:just\s+|finally\s+)?"
    r"(?:passed|failed|flunked|aced\s+it|nailed\s+it|smashed\s+it|did\s+it|made\s+it|got\s+(?:it|in|the\s+job)|"
    r"didn'?t\s+(?:pass|get\s+it|make\s+it)|got\s+the\s+offer)\b"
    r"(?:\W+(?:lo+l|omg|yay|finally|haha\w*|ugh|wow|yess*|woo+|!+))*\W*$", re.I)
# Events whose outcome someone waits for and then reports (an exam, an interview, an audition, a race).
_W_EVENT = re.compile(
    r"\b(?:test|tests|exam|exams|interview|audition|tryout|try-out|assessment|inspection|application|"
    r"presentation|pitch|race|marathon|thesis|defen[cs]e|viva|appraisal|hearing|licen[cs]e|certification|"
    r"finals|midterm|midterms|quiz|recital|competition|qualifier)\b", re.I)
# The speaker's own messages searched back for the event (the window and history of the exchange).
W_OUTCOME_LOOKBACK = 12


def is_outcome(text: str) -> bool:
    """Whether a message only reports how something went, naming nothing ("aced it!!", "got it omg")."""
    return bool(_W_OUTCOME.match(text.strip()))


def awaited_event(text: str, prior: Sequence[Message], memories: Sequence[str], speaker: str) -> Message | str | None:
    """The event an outcome message (``text``) tells the end of, or None when ``text`` reports no outcome.

    The speaker's latest own message before that names an awaited event; else the first stored memory that does.
    """
    if not is_outcome(text):
        return None
    return _said_before(prior, speaker) or _stored(memories, speaker)


def _said_before(prior: Sequence[Message], speaker: str) -> Message | None:
    for turn in list(reversed(prior))[:W_OUTCOME_LOOKBACK]:
        if turn.speaker == speaker and _W_EVENT.search(turn.text or ""):
            return turn
    return None


def _stored(memories: Sequence[str], speaker: str) -> str | None:
    said = re.compile(rf"\b{re.escape(speaker)}\b", re.I)
    return next((m for m in memories if said.search(m) and _W_EVENT.search(m)), None)
