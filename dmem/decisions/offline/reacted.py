"""The listener's reaction to the speaker's news that formed a memory: the reaction's turn joins its sources.

"got the keys today, move in saturday" forms a memory of the speaker's; the listener's "CONGRATS 🎉", "WHAT. That
is so good!" or "oh no poor her" right after it says how the listener took that news, and a question about that asks
for the reaction's turn. The reaction says nothing of the listener's own world, so it forms no memory: its turn
becomes a source of the memory the line formed (provenance, no new memory). Within one exchange it joins the
line's drafts; when the line was stored before, the line's fact is written again with the reaction's turn as a
source, and the lifecycle's repeat (NOOP) adds that turn to the stored memory, as ``followup.confirmed_by``'s line
is quoted rather than a bare yes.
A reaction is a reaction only news gets (``takeup.signal``: congratulations, sympathy, surprise, relief, delight),
short, without a first-person word of its own, and the first line of the listener's turn after the speaker's line;
not one reaching back ("congrats again") or praising the listener ("ur a legend").
Kept out: a line that asks or proposes a plan of both ("drinks fri?", "let's go") or agrees to the listener's check of
a day ("thursday?" / "thursday works" / "amazing"), a line replying to the
listener ("haha same", "thanks"), a joke's filler ("lol"), and a line judged as an opinion or the world's
(``reusable.evaluates``, ``reusable.about_the_world``): the reaction then answers no news of the speaker's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from dmem.decisions.offline import followup, reusable, rules, takeup, worldline
from dmem.decisions.offline.followup import said
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import content_words
from dmem.text.words import WH, alternation

REACTION = "a reaction to news"
"""``takeup.signal``'s verdict for a reaction only news gets."""
# A reaction that says more than how the news was taken: "congrats again" (news told before), "ur a legend" (praise
# of the listener).
_MORE = re.compile(r"\b(?:again|ur|you'?re|you\s+are|u\s+r)\b", re.I)
# Where a line's sentences end: a reaction may follow the news's word ("A CAT. Finally!", "acting lead: congrats??").
_SENTENCE = re.compile(r"[.!?:]+\s+")
# A bare "WHAT" shouted: a follow-up question to a line that formed nothing (``takeup``), surprise after news.
_SHOUTED_WHAT = re.compile(r"^\W*WHA+T+[\W]*$")
_WH = re.compile(rf"\b(?:{alternation(WH)})\b", re.I)
# Words that turn a reaction round ("Not amazing"): never a name called before it.
_NOT = frozenset({"not", "never", "no", "hardly", "isnt", "isn't", "wasnt", "wasn't"})
# A plan of both, proposed ("let's", "shall we", "we could"): a cheer agrees to it, it is no news of the speaker's.
_PLAN = re.compile(r"\b(?:let'?s|lets|shall\s+we|we\s+(?:could|should)|wanna|fancy)\b", re.I)


def reacts(text: str) -> bool:
    """Whether a short line reacts to news ("CONGRATS 🎉", "oh no poor her", "phew!!"), in a sentence of its own too.

    Chat puts the news's word or the speaker's name before it: "A CAT. Finally!", "acting lead: congrats??",
    "GRANDAD THAT'S AMAZING" (the first word a name called); a shouted "WHAT" is surprise. No first person: the
    listener's own news is no reaction.
    """
    if len(text.split()) > takeup.TAKEUP_MAX_WORDS or rules.FIRST_PERSON.search(text):
        return False
    if _SHOUTED_WHAT.match(text):
        return True  # surprise: after a line that formed, it asks nothing the line did not say
    first, _, rest = text.partition(" ")
    called = [rest] if first[:1].isupper() and first.lower() not in _NOT else []  # "GRANDAD", "Tam"; not "Not"
    pieces = [text, *called, *(p for p in _SENTENCE.split(text) if p.strip())]
    return any(takeup.signal(piece.strip(), ()) == REACTION for piece in pieces)


def reacted_to(message: Message, prior: Sequence[Message], formed: Callable[[Message, Sequence[Message]], bool]
               ) -> Message | None:
    """The other speaker's line just before that ``message`` reacts to as news, when it formed something; else None.

    ``formed`` judges a line in its place (its turns before it): whether admission admitted it.
    """
    text = said(message)
    if not prior or prior[-1].speaker == message.speaker or not reacts(text) or _MORE.search(text):
        return None
    news = prior[-1]
    line = said(news)
    if not followup.detail_words(content_words(line)) or reacts(line) or asks(line) or _PLAN.search(line) \
            or worldline.REPLY_OPENING.search(line) or takeup.REPLYING.search(line) or takeup.STANDS_FOR.match(line) \
            or reusable.evaluates(line) or reusable.about_the_world(line):
        return None
    if _agreed_plan(prior):
        return None
    return news if formed(news, prior[:-1]) else None


def _agreed_plan(prior: Sequence[Message]) -> bool:
    """Whether the line answers the listener's check of a day or time ("thursday?" / "thursday works"): a plan of both.

    The check asks no wh-word and names a day, date, time or number (``reusable.detail``); a cheer after the answer
    agrees to the plan, it reacts to no news of the speaker's.
    """
    if len(prior) < 2 or prior[-2].speaker == prior[-1].speaker:
        return False
    check = said(prior[-2])
    return asks(check) and not _WH.search(check) and reusable.detail(check) is not None
