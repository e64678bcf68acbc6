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

Widened (h67c): a question that draws the conclusion ("Then we split the rest 50/50?", "so both? ... from us two?",
``_CONCLUDES``) proposes when the asker or both are in it (``_JOINT``), and an agreement to it is the deal, not an
answer; "fine by me", "works for me", "very well" and a yes agree like "ok"; an echo of the line's words may open
the agreeing word ("Both. Deal."); a bare "<value> then" settles on the sentence of the other's line saying the
value (``settled_on``: "I counted 9. Ten if Gwil comes" / "ten then").
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
# Words that agree but also only take note ("ok", "sure", "fine by me", "yes"): they accept a line only when it
# proposes. A yes after an "ok" or an "oh" too ("ok yes").
_OKAY = re.compile(r"^\W*(?:(?:ok(?:ay)?|oh|well)\W+)?(?:ok(?:ay)?|sure|fine|alright|sounds\s+good|"
                   r"(?:fine|ok|okay|good)\s+(?:by|with)\s+me|works\s+for\s+me|suits\s+me|yes|yeah|yep|yup|"
                   r"very\s+well)\W*$", re.I)
# A proposal put as a question that draws the conclusion ("Then we split the rest 50/50?", "so both? the cake from
# everyone, the card from us two?"): it opens with "so" or "then", after an "ok" at most, and asks yes or no.
_CONCLUDES = re.compile(r"^\W*(?:(?:ok(?:ay)?|right|alright)\W+)*(?:so|then)\b(?!\s+(?:what|when|where|who|whose|why|"
                        r"how|which)\b)", re.I)
# The asker or both in a question: it proposes what they do ("then we split it?"), where "so you hand in your
# notice?" only checks the listener's own plan.
_JOINT = re.compile(r"\b(?:we|we'?ll|us|our|let'?s|i|i'?ll|me)\b", re.I)
# An echoed opening before the agreeing word ("Both. Deal." to "so both? ..."): a few of the line's own words.
_ECHO_OPENING = re.compile(r"^\W*(?P<echo>[^.!,;:?]+)[.!,;:]+\s*(?P<rest>\S.*)$")
# A value of the other's line the reply settles on ("ten then" to "I counted 9. Ten if Gwil comes", "Three then."
# to "3 and that's final"): a word or two, then "then".
_SETTLES_ON = re.compile(r"^\W*(?P<value>[\w'£$€%-]+(?:\s+[\w'£$€%-]+)?)\s+then\W*$", re.I)
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
# A word of a line, function words too ("both").
_WORD = re.compile(r"[^\W_]+")
# A line's sentences, each with its end mark.
_SENTENCES = re.compile(r"[^.!?]+[.!?]*")
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
    asked = asks(line)  # a question proposes only when it draws the conclusion ("then we split it 50/50?")
    proposes = splits or asked or bool(_PROPOSES.search(line))
    if asked and not (_CONCLUDES.match(line) and _JOINT.search(line)) or _VIEW.match(line) \
            or not (_PERSON.search(line) or splits) or rules.PHATIC.search(line) or rules.EMOTION.search(line) \
            or reusable.evaluates(line) and not proposes:
        return None  # "that's fair, I'm older" / "deal": agreement to a view, no plan ("let's look at it" is one)
    agreeing = _past_echo(reply, line)  # "Both. Deal.": the agreeing word after the line's own word
    sealed = bool(_SEALS.match(agreeing)) and len(topic_stems(line, names)) >= PROPOSAL_MIN_TOPIC
    if not (sealed or proposes and _OKAY.match(agreeing) or not asked and _echoes(reply, line, splits)):
        return None
    proposal = re.sub(r"^\W*and\s+", "", line.rstrip(" .!?"), flags=re.I)  # "and groceries half and half"
    return Asked(asker=turn.speaker, question=proposal, turn_id=turn.turn_id, stance="accepted")


def settled_on(message: Message, prior: Sequence[Message]) -> Asked | None:
    """The sentence of the other's line just before whose value a bare "<value> then" settles on, or None.

    "I counted 9. Ten if Gwil comes" / "ten then": the decision both reached is the sentence naming the value
    ('Quill agreed to Maren's proposal: Ten if Gwil comes', ``Asked.stance`` 'accepted'), both turns its sources.
    It may follow a question of the other's it settles ("how many chairs?" ... "ten then"). Kept out: a value the
    line does not say, a sentence that asks, evaluates or reacts, and a reply saying more ("overlap with Ebbe then").
    """
    if not prior or prior[-1].speaker == message.speaker:
        return None
    m = _SETTLES_ON.match(without_speaker(message.text or "", message.speaker).strip())
    value = set(content_stems(m["value"])) if m is not None else set()
    if m is None or not value or _DENIES.search(m["value"]) or rules.PHATIC.search(m["value"]):
        return None
    turn = prior[-1]
    for sentence in _SENTENCES.findall(_said(turn)):
        sentence = sentence.strip(" .!")
        if value <= set(content_stems(sentence)) and not (asks(sentence) or _VIEW.match(sentence)
                                                          or rules.EMOTION.search(sentence)
                                                          or reusable.evaluates(sentence)):
            return Asked(asker=turn.speaker, question=sentence, turn_id=turn.turn_id, stance="accepted")
    return None


def _past_echo(reply: str, line: str) -> str:
    """The reply after an opening that echoes a few of the line's own words ("Both. Deal." -> "Deal."), else all."""
    m = _ECHO_OPENING.match(reply)
    if m is None or len(m["echo"].split()) > ECHO_MAX_WORDS or _DENIES.search(m["echo"]):
        return reply
    echoed = set(content_stems(m["echo"])) or set(_WORD.findall(m["echo"].lower()))  # "both" is no content word
    said = set(content_stems(line)) | set(_WORD.findall(line.lower()))
    return m["rest"] if echoed and echoed <= said else reply


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
    proposal = re.sub(r"\bus\s+(?:two|both)\b", pair, proposal, flags=re.I)  # "from us two": from the two
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
