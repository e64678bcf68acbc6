"""A bare "deal", "done" or "agreed" accepting the other's proposal just before it, kept with the proposal.

"Let's split it. I phone the garages, you phone the dealers" / "deal", "You can pay for the first pizza" / "deal",
"ok. then i walk the dog mornings" / "Deal", "the piano stays. we make room" / "Ok. It stays". Judged alone the reply
says nothing; with the turn it accepts it is the plan the two agreed on ('Quill agreed to Maren's proposal: Quill can
pay for the first pizza', ``frames.accepted``), both turns its sources (``Asked.stance`` 'accepted').

A sealing word ("deal", "done", "agreed", "you're on") accepts the other's line if it is a statement about what one of
them does (a person in it, ``PROPOSAL_MIN_TOPIC`` topic words); a mere "ok", "sure" or "fine" only a line that
proposes (``_PROPOSES``: "let's", "you can", "how about", "then i", "if you want"), or when the reply echoes the
line's own words ("Ok. It stays"). Kept out: a reply to a question (it is answered, not agreed), a line that reacts,
evaluates or greets ("that's fair, I'm older" / "deal"), a line with no person in it, and any reply with words of
its own that the line does not say ("ok but not the close": judged on what it says).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline import reusable, rules
from dmem.decisions.offline.replies import Asked, without_speaker
from dmem.state.schemas import Message
from dmem.text.asked import asks, topic_stems
from dmem.text.lexical import content_stems

# Words that seal a proposal by themselves: "deal", "done", "agreed", "it's a deal", "you're on", "ok deal".
_SEALS = re.compile(r"^\W*(?:(?:ok(?:ay)?|fine|alright|right)\W+)?(?:(?:it'?s\s+a\s+)?deal|done|agreed|"
                    r"you'?re\s+on)\W*$", re.I)
# Words that agree but also only take note ("ok", "sure"): they accept a line only when it proposes.
_OKAY = re.compile(r"^\W*(?:ok(?:ay)?|sure|fine|alright|sounds\s+good)\W*$", re.I)
# An agreeing opening followed by words echoed from the line ("Ok. It stays" after "the piano stays. we make room").
_ECHOING = re.compile(r"^\W*(?:ok(?:ay)?|sure|fine|alright|deal|done|agreed)\b\W+(?P<echo>\w.*)$", re.I)
# Most words of the echo after the agreeing word: a longer reply says something of its own.
ECHO_MAX_WORDS = 3
# A line proposing what one of the two does: "let's", "how about", "you can", "we could", "i'll ... if you want",
# "then i walk the dog mornings".
_PROPOSES = re.compile(r"(?:^|[.!;]\s*)(?:(?:ok(?:ay)?|so|then|fine|right|alright)\W+)*(?:let'?s|how\s+about|"
                       r"what\s+about|you\s+(?:can|could)|we\s+(?:can|could|should)|i'?ll|i\s+(?:can|could))\b"
                       r"|\bif\s+(?:you|u)\s+(?:want|like)\b|\bthen\s+(?:i|we|you|u)\b", re.I)
# A line giving a view of what was said ("that's fair, I'm older", "sounds lovely"): agreed to, no plan.
_VIEW = re.compile(r"^\W*(?:that'?s|thats|that\s+is|sounds|seems)\b", re.I)
# A person in the line: the plan is about one of the two (or both).
_PERSON = re.compile(r"\b(?:i|i'?ll|i'?m|me|my|we|we'?ll|us|our|you|you'?ll|u|your|let'?s)\b", re.I)
# Topic words the line needs for a sealing word to accept it as a plan ("I phone the garages, you phone the dealers").
PROPOSAL_MIN_TOPIC = 2


def accepted(message: Message, prior: Sequence[Message]) -> Asked | None:
    """The other's line just before that a bare agreeing reply accepts (``Asked.stance`` 'accepted'), or None."""
    if not prior or prior[-1].speaker == message.speaker:
        return None
    reply = without_speaker(message.text or "", message.speaker).strip()
    line = without_speaker(prior[-1].text or "", prior[-1].speaker).strip()
    names = [message.speaker, prior[-1].speaker]
    proposes = bool(_PROPOSES.search(line))
    if asks(line) or _VIEW.match(line) or not _PERSON.search(line) or rules.PHATIC.search(line) \
            or rules.EMOTION.search(line) or reusable.evaluates(line) and not proposes:
        return None  # "that's fair, I'm older" / "deal": agreement to a view, no plan ("let's look at it" is one)
    sealed = bool(_SEALS.match(reply)) and len(topic_stems(line, names)) >= PROPOSAL_MIN_TOPIC
    if not (sealed or proposes and _OKAY.match(reply) or _echoes(reply, line)):
        return None
    return Asked(asker=prior[-1].speaker, question=line.rstrip(" .!"), turn_id=prior[-1].turn_id, stance="accepted")


def _echoes(reply: str, line: str) -> bool:
    """Whether the reply is an agreeing word and a few of the line's own words ("Ok. It stays")."""
    m = _ECHOING.match(reply)
    if m is None or len(m["echo"].split()) > ECHO_MAX_WORDS or asks(reply):
        return False
    echoed = set(content_stems(m["echo"]))
    return bool(echoed) and echoed <= set(content_stems(line))
