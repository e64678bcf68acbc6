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

Widened (h65a): a sealing word may come after a yes or "we did" ("We did. Agreed" to "we said no dark flats"); it
reaches the other's proposal past one short exchange (``EXCHANGE_MAX_WORDS``: "i'll take friday's close if you
want" / "really?" / "yeah i owe you" / "deal"), a detail the other gave after it with no person in it going with it
("... you do my tuesday" / "yes! thank you" / "tuesday 8th" / "done"); a line settling how the two split something
("half and half", "alternate", "take turns": ``_SPLITS``) proposes, needs no person, and an echo of its words with no
agreeing word ("and groceries half and half" / "Half and half") accepts it.

A bare commitment to the other's event ("I'll be there", "ill come", "count me in", "I'm in") after the other's line
naming when it is ("yep, concert on the 30th") is kept with it (``attending``): the fact is that the speaker will be
at that event ('Quill will be at Maren's event: concert on the 30th', ``frames.attending``), both turns its sources,
with the speaker's question that line answered ("when is it?" / "the 9th") before it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from dmem.decisions.offline import followup, reusable, rules
from dmem.decisions.offline.pronouns import rewrite_person
from dmem.decisions.offline.replies import Asked, without_speaker
from dmem.state.schemas import Message
from dmem.text.answers import is_kind_asked
from dmem.text.asked import asks, topic_stems
from dmem.text.lexical import content_stems

# Words that seal a proposal by themselves: "deal", "done", "agreed", "it's a deal", "you're on", "ok deal".
# A yes or "we did" may come first ("We did. Agreed", "yes. deal").
_SEALS = re.compile(r"^\W*(?:(?:ok(?:ay)?|fine|alright|right|yes|yeah|yep|true|we\s+did|we\s+do)\W+)?"
                    r"(?:(?:it'?s\s+a\s+)?deal|done|agreed|you'?re\s+on)\W*$", re.I)
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
# A line settling how the two split something: it proposes, and is about both of them without naming a person.
_SPLITS = re.compile(r"\b(?:half\s+and\s+half|halves|fifty[\s-]+fifty|50\s*/\s*50|alternate|take\s+turns|"
                     r"split\s+it)\b", re.I)
# A no in the reply: "no. alternate" turns the split down.
_DENIES = re.compile(r"\b(?:no|nope|nah|not|never|don'?t|can'?t|won'?t)\b", re.I)
# Most words of each line of the short exchange a sealing word reaches the proposal past ("really?" / "yeah i owe
# you"): a longer line is talk of its own, and the seal is the reply to it.
EXCHANGE_MAX_WORDS = 4
# A line giving a view of what was said ("that's fair, I'm older", "sounds lovely"): agreed to, no plan.
_VIEW = re.compile(r"^\W*(?:that'?s|thats|that\s+is|sounds|seems)\b", re.I)
# A person in the line: the plan is about one of the two (or both).
_PERSON = re.compile(r"\b(?:i|i'?ll|i'?m|me|my|we|we'?ll|us|our|you|you'?ll|u|your|let'?s)\b", re.I)
# A bare commitment to be at the other's event: "I'll be there", "ill come!!", "count me in", "I'm in".
_ATTENDS = re.compile(r"^\W*(?:(?:ok(?:ay)?|yes|yay|oh)\W+)?(?:(?:i'?ll|ill|i\s+will)\s+(?:be\s+there|come)|"
                      r"count\s+me\s+in|i'?m\s+in|im\s+in|wouldn'?t\s+miss\s+it)\W*$", re.I)
# A yes opening the other's line: "yep, concert on the 30th" names the concert.
_OPENING_YES = re.compile(r"^\W*(?:yes|yep|yeah|yup|ya|still\s+on)\W+", re.I)
# Topic words the line needs for a sealing word to accept it as a plan ("I phone the garages, you phone the dealers").
PROPOSAL_MIN_TOPIC = 2


def accepted(message: Message, prior: Sequence[Message]) -> Asked | None:
    """The other's proposal that a bare agreeing reply accepts (``Asked.stance`` 'accepted'), or None.

    The proposal is the other's line just before, or, for a sealing word, the other's line before a short exchange
    (the speaker's "really?" and the other's "yeah i owe you"); a detail the other gives in that exchange with no
    person in it ("tuesday 8th") is said with it, its turn in ``Asked.also``.
    """
    if not prior or prior[-1].speaker == message.speaker:
        return None
    reply = without_speaker(message.text or "", message.speaker).strip()
    if (asked := _accepts(reply, prior[-1], message.speaker)) is not None:
        return asked
    if len(prior) < 3 or not _SEALS.match(reply) or prior[-2].speaker != message.speaker \
            or prior[-3].speaker == message.speaker or any(
                len(_said(t).split()) > EXCHANGE_MAX_WORDS for t in prior[-2:]):
        return None
    if (asked := _accepts(reply, prior[-3], message.speaker)) is None:
        return None
    detail = _said(prior[-1]).rstrip(" .!")
    if _PERSON.search(detail) or asks(detail) or followup.reacts(detail) \
            or not topic_stems(detail, [message.speaker, prior[-1].speaker]):
        return asked  # "yeah i owe you", "haha": the other's word on it, not the plan's
    return replace(asked, question=f"{asked.question}; {detail}", also=(prior[-1].turn_id,))


def _accepts(reply: str, turn: Message, speaker: str) -> Asked | None:
    """The other's ``turn`` as the proposal ``reply`` accepts, or None when it proposes nothing the reply agrees to."""
    line = _said(turn)
    names = [speaker, turn.speaker]
    splits = bool(_SPLITS.search(line))
    proposes = splits or bool(_PROPOSES.search(line))
    if asks(line) or _VIEW.match(line) or not (_PERSON.search(line) or splits) or rules.PHATIC.search(line) \
            or rules.EMOTION.search(line) or reusable.evaluates(line) and not proposes:
        return None  # "that's fair, I'm older" / "deal": agreement to a view, no plan ("let's look at it" is one)
    sealed = bool(_SEALS.match(reply)) and len(topic_stems(line, names)) >= PROPOSAL_MIN_TOPIC
    if not (sealed or proposes and _OKAY.match(reply) or _echoes(reply, line, splits)):
        return None
    proposal = re.sub(r"^\W*and\s+", "", line.rstrip(" .!"), flags=re.I)  # "and groceries half and half"
    return Asked(asker=turn.speaker, question=proposal, turn_id=turn.turn_id, stance="accepted")


def attending(message: Message, prior: Sequence[Message]) -> Asked | None:
    """The other's event a bare "I'll be there" commits the speaker to (``Asked.stance`` 'attending'), or None.

    The other's line just before names when it is ("yep, concert on the 30th"); when it answers the speaker's
    question ("when is it?" / "may 14"), the question goes before it and its turn in ``Asked.also``.
    ``Asked.question`` is in the third person already (the two lines are said by the two speakers).
    """
    reply = without_speaker(message.text or "", message.speaker).strip()
    if not prior or prior[-1].speaker == message.speaker or not _ATTENDS.match(reply):
        return None
    line = _said(prior[-1]).rstrip(" .!")
    if asks(line) or not is_kind_asked("when", line) or rules.EMOTION.search(line) \
            or not topic_stems(line, [message.speaker, prior[-1].speaker]):
        return None
    event = rewrite_person(_OPENING_YES.sub("", line), prior[-1].speaker, message.speaker)
    also: tuple[str, ...] = ()
    if len(prior) > 1 and prior[-2].speaker == message.speaker and asks(question := _said(prior[-2])):
        question = rewrite_person(question, message.speaker, prior[-1].speaker)
        event, also = f"{question.rstrip(' ?')}? {event}", (prior[-2].turn_id,)  # "when is it? may 14"
    return Asked(asker=prior[-1].speaker, question=event, turn_id=prior[-1].turn_id, stance="attending", also=also)


def we_named(proposal: str, proposer: str, other: str) -> str:
    """A proposal's "we"/"us"/"our" naming the two ("we said no dark flats" -> "Maren and Quill said no dark flats")."""
    pair = f"{proposer} and {other}"
    proposal = re.sub(r"\bwe(?='ll|'d|'re|'ve)?\b|\bus\b", lambda m: pair if m[0].lower() == "we" else "them", proposal,
                      flags=re.I)
    return re.sub(r"\bour\b", "their", proposal, flags=re.I)


def _said(turn: Message) -> str:
    """A turn's text without its 'Speaker:' prefix."""
    return without_speaker(turn.text or "", turn.speaker).strip()


def _echoes(reply: str, line: str, splits: bool) -> bool:
    """Whether the reply agrees with a few of the line's own words ("Ok. It stays"), or echoes a split alone.

    For a line that splits something, the echo needs no agreeing word when it says the split ("Half and half").
    """
    m = _ECHOING.match(reply)
    echo = m["echo"] if m is not None else reply if splits and _SPLITS.search(reply) else None
    if echo is None or len(echo.split()) > ECHO_MAX_WORDS or asks(reply) or _DENIES.search(reply):
        return False
    echoed = set(content_stems(echo))
    return bool(echoed) and echoed <= set(content_stems(line))
