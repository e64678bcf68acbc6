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
not one reaching back ("congrats again") or praising the listener ("ur a legend"). Since stop 73 a verdict said back
(``_VERDICT``: "right call", "of course he did", "I'm so sorry", "That's decent of them.") and an echo question of
the line's own words ("6800?", "brass thing?") answer it too, also after one murmur of the listener's ("hmm" / "told
you"); they form no memory, and a line that formed nothing is not made news by them (``takeup`` does not know them).
Kept out: a line that asks or proposes a plan of both ("drinks fri?", "let's go") or agrees to the listener's check of
a day ("thursday?" / "thursday works" / "amazing"), a line replying to the
listener ("haha same", "thanks"), a joke's filler ("lol"), and a line judged as an opinion or the world's
(``reusable.evaluates``, ``reusable.about_the_world``): the reaction then answers no news of the speaker's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from dmem.decisions.offline import echoed_value, exclaimed, followup, reusable, rules, takeup, worldline
from dmem.decisions.offline.followup import said
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import content_words, stem
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
# A verdict on the other's news said back (stop 73, h73e): approval of a choice ("sweet", "right call", "good
# choice"), a knowing "of course he did" or "told you", sympathy owned ("oh no. I'm so sorry", "sorry about the
# strawberries"), a judgment of what the others did ("That's decent of them.", "That's a bit rich.", "That's more
# than last year!"). None is in ``takeup.signal``: after a plan or a joke they say nothing, so a line that formed
# nothing is not made news by them; after news that formed a memory they say how it was taken.
_THAT_IS = r"(?:that'?s|thats|that\s+is|that\s+was)"
# A kin word calling the other after the verdict ("good decision grandad", stop 75, h75d).
_ADDRESS = r"(?:grandad|grandpa|granda|gran|grandma|granny|nan|nana|mum|mam|mom|dad|mate|love)"
_VERDICT = re.compile(
    rf"^\W*(?:(?:oh|ah|aw+)\W+)?(?:sweet|(?:good|right|smart|wise)\s+(?:choice|call|move|decision)|"
    rf"(?:of\s+)?course\s+(?:he|she|they|it)\s+(?:did|does|is|was|would|has|had)(?:n'?t)?|told\s+(?:you|ya|u)|"
    rf"(?:oh\s+no\W+)?(?:i'?m|im)\s+(?:so\s+|really\s+)?sorry(?:\s+about\s+(?:the|your|ur|his|her|their)\s+\w+)?|"
    rf"(?:so\s+)?sorry\s+about\s+(?:the|your|ur|his|her|their)?\s*\w+|"
    rf"{_THAT_IS}\s+(?:(?:a\s+bit|so|very|really|pretty|quite|more|less)\s+)?(?:decent|kind|generous|rich|cruel|"
    rf"mean|harsh|steep|cheap|fair|unfair|rubbish|outrageous|sweet|lovely|brilliant|impressive|typical|"
    rf"than\s+last\s+\w+)\b(?:\s+(?:of\s+(?:them|him|her|you)|than\s+last\s+\w+))?)"
    rf"(?:\W+{_ADDRESS})?\W*$", re.I)
# An echo question's words besides the echoed one: "only 7?", "the brass thing?", "again??" (a thing told before
# happening once more).
_ECHO_BESIDE = frozenset({"only", "just", "the", "a", "so", "really", "wait", "what", "oh", "again"})
_ECHO_MAX_WORDS = 3
# Most words of a line that may be a reply, an opinion or a word on the world as a whole; a longer line that formed a
# memory tells news besides ("That's the deal. Right. Furniture, news of. Cousin Menna rang ..."). Chosen on
# batches 32, 33 and the tuning drafts (stop 73, h73e).
_REPLY_MAX_WORDS = 12
# A murmur opening the listener's run that leaves the next line answering the news ("good" / "right call", "hmm" /
# "told you"): interjections, and these.
_MURMURS = frozenset({"good", "ha", "hah", "heh", "noted"})


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
    at = _news_at(message, prior)
    if at is None:
        return None
    news, prior = prior[at], prior[: at + 1]
    line = said(news)
    if not ((reacts(text) and not _MORE.search(text)) or _VERDICT.match(text) or echoes(text, line)
            or exclaimed.echoes_back(text, line)):
        return None
    if not followup.detail_words(content_words(line)) or reacts(line) or asks(line) or _PLAN.search(line) \
            or takeup.STANDS_FOR.match(line) or (len(line.split()) <= _REPLY_MAX_WORDS and _replies(line)):
        return None
    if _agreed_plan(prior):
        return None
    return news if formed(news, prior[:-1]) else None


def echoes(text: str, line: str) -> bool:
    """Whether a short question only echoes the other's line: "6800?" (six thousand eight hundred), "brass thing?".

    Its words are the line's (a value said either way, ``echoed_value``) but for a few of surprise ("only 7?",
    "again??"); a word of its own asks after something the line did not say.
    """
    words = re.findall(r"[a-z0-9£$€',.]+", text.lower().rstrip("?!. "))
    if not text.rstrip().endswith("?") or not words or len(words) > _ECHO_MAX_WORDS:
        return False
    stems = {stem(w) for w in content_words(line)}
    values = echoed_value.values(line)
    own = [w for w in words if w not in _ECHO_BESIDE and stem(w.strip(",.")) not in stems
           and not echoed_value.values(w) & values]
    echoed = [w for w in words if w not in _ECHO_BESIDE] or [w for w in words if w == "again" and w in line.lower()]
    return bool(echoed) and not own


def _news_at(message: Message, prior: Sequence[Message]) -> int | None:
    """Where in ``prior`` the other's line the message answers is: just before, or before one bare line of its own.

    "good" / "right call", "hmm" / "told you": the listener's first line says no more than a murmur (no detail word).
    """
    if not prior:
        return None
    if prior[-1].speaker != message.speaker:
        return len(prior) - 1
    murmur = content_words(said(prior[-1]))
    if len(prior) >= 2 and prior[-2].speaker != message.speaker and len(said(prior[-1]).split()) <= 2 \
            and all(w in rules.INTERJECTIONS or w in _MURMURS for w in murmur):
        return len(prior) - 2
    return None


def _replies(line: str) -> bool:
    """Whether a short line replies to the listener, gives an opinion or speaks of the world: it is no news."""
    return bool(worldline.REPLY_OPENING.search(line) or takeup.REPLYING.search(line) or reusable.evaluates(line)
                or reusable.about_the_world(line))


def _agreed_plan(prior: Sequence[Message]) -> bool:
    """Whether the line answers the listener's check of a day or time ("thursday?" / "thursday works"): a plan of both.

    The check asks no wh-word and names a day, date, time or number (``reusable.detail``); a cheer after the answer
    agrees to the plan, it reacts to no news of the speaker's.
    """
    if len(prior) < 2 or prior[-2].speaker == prior[-1].speaker:
        return False
    check = said(prior[-2])
    return asks(check) and not _WH.search(check) and reusable.detail(check) is not None
