"""A question that does something and so tells a fact: asks for a thing or a role, offers, passes on news.

Terse chat asks for what it wants. "can i borrow ur drill" asks no fact of anyone, yet tells one: the speaker
asked to borrow the listener's drill, and a "sure" after it makes it a loan. "want my old tablet?" tells that the
speaker has an old tablet and offers it; "heard Oswin n Fenna got engaged??" passes on news of named people,
asked only for the listener to confirm. "want ur old sofa?" (no "you" wanting: no one offers the listener their own
thing) asks for the listener's sofa, "can u lend me 200" asks for a sum, and "be my best person?" asks the listener
to take a role of the speaker's. "want to come to the pottery fair on saturday?" or "shall we do the Skellow hike
sunday?" invites the listener to a plan, dated or placed (a day, a date, "tonight", or a named place): "wanna hang
out later?" or "shall we?" names no plan anyone would ask after. Each shape is closed: the thing must be the
listener's ("your") for a request (or a sum, which has no owner's word), the speaker's ("my", "our", or "the old"
or "the spare" thing they have over) for an offer and "my" for a role, and the news must open with a
name (or two words paired as people) and a verb said of them, so "can I ask you something?", "want some?" or "did
you hear what I said?" carry none.

- ``act``: the shape a question has, and the words that carry its fact;
- ``statement``: that fact said of the speaker ("Bram asked to borrow Ilse's drill", "Bram offered Ilse Bram's old
  tablet", "Bram heard that Oswin and Fenna got engaged", "Bram invited Ilse to come to the pottery fair on
  saturday");
- ``settled``: the ask a yes or a no settles, the other speaker's line just before or across one clarifying
  exchange ("be my best person?" / "me??" / "u" / "YES"); ``granted`` says the pair's fact ("Ilse lent Bram the
  drill", "Ilse accepted Bram's offer of Bram's old tablet", "Ilse agreed to be Bram's best person"), both turns
  its sources ("Ilse accepted Bram's invitation to ..."; a "no thanks" too). A bare yes to a question that asks
  for nothing stays filler: only an ask ``act`` reads settles.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from dmem.decisions.offline.pronouns import rewrite_person
from dmem.decisions.offline.register import emoji_yes_no
from dmem.decisions.offline.replies import Asked, without_speaker
from dmem.grounding.deixis import MONTHS, WEEKDAYS
from dmem.state.schemas import Message
from dmem.text.asked import LEAD_INS, asks, question_sentences
from dmem.text.lexical import STOPWORDS, straighten
from dmem.text.verbs import irregular_past

_YOU = r"(?:you|u|ya|yu)"
_YOUR = r"(?:your|ur|yr|you'?re)"  # chat writes "ur running watch", read as "you're running"
# A sum lent has no owner's word: a number, with its currency sign ("200", "£50", "20 quid").
_SUM = r"(?:[$£€]?\d[\d,.]*k?)"
# The thing asked for or offered: its owner's word, then up to four words before a purpose or time ("for", "on").
_TAIL = r"(?:for|from|on|to|till|until|tomorrow|tmrw|tonight|this|next|at|again|please|pls|plz|then|if|when|while)"
_THING = rf"(?P<thing>{{owner}}(?:\s+(?!{_TAIL}\b)[\w'-]+){{{{0,3}}}})(?P<rest>(?:\s+{_TAIL}\b.*)?)"
_OWNED = r"\s+[\w'-]+"  # the owner's word is followed by the thing's first word
_BORROW = re.compile(
    rf"^\W*{LEAD_INS}(?:(?:can|could|may|cn|cud)\s+(?:i|we)\s+(?:please\s+|pls\s+|plz\s+|just\s+)?"
    rf"(?P<verb>borrow|use|take|have)"
    rf"|(?:(?:can|could|would)\s+{_YOU}\s+(?:please\s+|pls\s+)?)?lend\s+(?:me|us)(?=\s+(?:{_YOUR}|{_SUM}))"
    rf"|(?:(?:would|do)\s+{_YOU}\s+)?(?:mind|ok|okay|alright)\s+if\s+(?:i|we)\s+(?P<verb2>borrow|use|take))"
    rf"\s+{_THING.format(owner=f'(?:{_YOUR}{_OWNED}|{_SUM})')}\W*$", re.I)
# "want ur old sofa?": wanting with no "you" before it, the listener's thing: the speaker asks for it.
_ASK_FOR = re.compile(rf"^\W*{LEAD_INS}(?:i\s+)?(?:want|wanna\s+have|need)\s+{_THING.format(owner=_YOUR + _OWNED)}\W*$",
                      re.I)
# "be my best person?", "will u be my plus one": the listener asked to take a role of the speaker's.
_ROLE = re.compile(rf"^\W*{LEAD_INS}(?:(?:will|would|can|could)\s+{_YOU}\s+)?be\s+(?P<thing>my\s+[\w'-]+"
                   r"(?:\s+[\w'-]+){0,2})(?P<rest>)\W*$", re.I)
# What the asker offers as theirs: "my old tablet", "our spare bed", or a thing they have spare: "the old armchair".
_MINE = r"(?:my|our|the\s+(?:old|spare|extra|leftover|other))"
_OFFER = re.compile(
    rf"^\W*{LEAD_INS}(?:(?:do\s+)?{_YOU}\s+)?(?:want|wanna|need|fancy|would\s+{_YOU}\s+like|could\s+{_YOU}\s+use)"
    rf"\s+(?:to\s+(?:borrow|have|use|take)\s+)?{_THING.format(owner=_MINE + _OWNED)}\W*$", re.I)
# "want to come to ...", "fancy dinner at ...", "are you up for ...", "shall we ...", "would you like to join ...":
# the listener invited to a plan (``_PLANNED`` says whether it names one).
_INVITE = re.compile(
    rf"^\W*{LEAD_INS}(?:(?:(?:do\s+)?{_YOU}\s+)?(?:want|wanna|fancy|keen)\s+(?:to\s+)?(?P<verb>come|join|go|do|grab|get|"
    rf"meet|see|try|have|watch|catch)\b|(?:are|r)\s+{_YOU}\s+(?:still\s+)?(?P<verb2>up\s+for|free\s+for|coming\s+to|"
    rf"joining)|(?:shall|should)\s+we|(?:would|will|can|could)\s+{_YOU}\s+(?:like\s+to\s+)?(?P<verb3>come|join)\b"
    rf"|fancy)\s+(?P<plan>[^?]+?)\W*$", re.I)
_WHEN = re.compile(rf"\b(?:tonight|tomorrow|tmrw|weekend|next\s+week|{'|'.join(WEEKDAYS)}|{'|'.join(MONTHS)}|"
                   r"\d{1,2}(?:st|nd|rd|th|am|pm)|at\s+\d{1,2}(?::\d\d)?)\b", re.I)
_NAMED_PLAN = re.compile(r"\b(?:the|a|an|my|our|your|ur)\s+\w", re.I)
# A capitalised word after the plan's first: a place or a named event (not a month or a weekday, which date it).
_PLACED = re.compile(rf"(?<=\w)[\s,']+(?!(?:{'|'.join(MONTHS)}|{'|'.join(d.title() for d in WEEKDAYS)})\b)[A-Z][a-z]")
_NAME = r"[\w'-]+"
_HEARD = re.compile(
    rf"^\W*{LEAD_INS}(?:(?:did|have)\s+{_YOU}\s+(?:hear|heard|know|see|seen)|(?:i\s+)?heard|(?:{_YOU}\s+)?know)"
    rf"\s+(?:that\s+)?(?P<news>(?P<who>{_NAME}(?:\s+(?:and|n|&)\s+{_NAME})?)\s+(?P<verb>[\w'-]+)\b.*?)\W*$", re.I)
# A yes that grants a request ("sure", "of course", "go for it", "help yourself"); a "no" or "not" after it denies.
_GRANTS = re.compile(r"^\W*(?:(?:oh|ah|well|haha|lol|omg|ok|okay|k)\W+)?(?:yes|yeah|yea|yep|yup|ya|sure|"
                     r"of\s+course|ofc|course|definitely|absolutely|go\s+for\s+it|no\s+problem|np|help\s+yourself|(?:you|u)\s+can)\b"
                     r"(?!\W*(?:but\s+)?(?:not|no|can'?t|cannot)\b)", re.I)
# A no that refuses an ask ("no", "nah", "sorry, can't"), with nothing after it turning it ("no problem", "can't
# wait": eager, a yes in effect, so neither a grant nor a refusal here).
_REFUSES = re.compile(r"^\W*(?:no+|nope|nah|sorry\W+(?:i\s+)?can'?t|(?:i\s+)?can'?t|no\s+way)\b"
                      r"(?!\W*(?:problem|worries|prob|bother|doubt|wait|believe)\b)", re.I)
# Chat's pronouns and people words, which no news about a named person opens with.
_NOT_NAMES = frozenset({"you", "u", "ya", "i", "he", "she", "they", "we", "it", "someone", "everyone", "anyone",
                        "somebody", "everybody", "anybody", "people", "what", "who", "how", "why", "where", "when"})
# What follows a name in passed-on news: a verb said of them ("got engaged", "is moving", "has left"; a past form
# counts too, ``_news_verb``).
_NEWS_VERBS = frozenset({"is", "are", "was", "were", "has", "have", "had", "will", "gonna", "got", "getting", "s",
                         "finally", "just", "actually"})


@dataclass(frozen=True)
class Act:
    """What a question does, and the words that carry its fact."""

    kind: Literal["borrow", "ask", "role", "offer", "news", "invite"]
    said: str
    """The words the fact is made of: the thing with its owner and tail ('your drill for the shelves', '200', 'my best
    person'), the news, or the plan ('come to the pottery fair on saturday')."""
    verb: str = "borrow"
    """For a request: what the speaker asks to do with the thing ('borrow', 'use', 'take')."""


def _said(m: re.Match[str]) -> str:
    """The thing with its tail, its owner word written out ('ur running watch' -> 'your running watch')."""
    said = re.split(r"[?!]", f"{m['thing']}{m['rest']}")[0]  # not the sentence after the ask
    owner, _, rest = said.strip(" ?!.").partition(" ")
    if re.fullmatch(_SUM, owner):  # a sum: no owner
        return f"{owner} {rest}".strip()
    if owner.lower() in ("my", "our", "the"):
        return f"{owner.lower()} {rest}"
    return f"your {rest}"


def _named(word: str, names: frozenset[str]) -> bool:
    """Whether a word is a person's name: written capitalised (and no function word) or named so before."""
    low = word.lower().removesuffix("'s")
    return low in names or (word[:1].isupper() and low not in STOPWORDS and low not in _NOT_NAMES)


def _planned(plan: str) -> bool:
    """Whether an invitation names a plan: dated (a day, a date, tonight) or placed (a capitalised name after it).

    A time alone ("are you still up for tonight?") names no plan, nor does a bare activity ("wanna grab coffee
    tmrw?", a casual suggestion): the plan is named by its thing ("the pottery fair", "a weekend away") or place.
    """
    placed = _PLACED.search(" " + plan)
    named = placed or _NAMED_PLAN.search(plan)  # "the pottery fair", "a weekend in May"; not "grab coffee tmrw"
    return bool(named and (_WHEN.search(plan) or placed))


def _news_verb(word: str) -> bool:
    low = word.lower()
    return low in _NEWS_VERBS or irregular_past(low) or (low.endswith("ed") and len(low) > 3)


def act(text: str, names: frozenset[str] = frozenset()) -> Act | None:
    """The act a question does ('can i borrow ur drill' -> borrow 'ur drill'), or None when it carries none.

    ``names``: words the chat before wrote as names (lowercased), for news whose names are written in lower case.
    """
    said = straighten(text).strip()
    if m := _BORROW.match(said):
        verb = (m["verb"] or m["verb2"] or "borrow").lower()
        return Act("borrow", _said(m), verb)
    if m := _ASK_FOR.match(said):
        return Act("ask", _said(m))
    if m := _ROLE.match(said):
        return Act("role", _said(m))
    if m := _OFFER.match(said):
        return Act("offer", _said(m))
    if (m := _INVITE.match(said)) and _planned(m["plan"]):
        verb = (m["verb"] or m["verb2"] or m["verb3"] or "").lower()
        verb = {"up for": "", "free for": "", "coming to": "come to", "joining": "join"}.get(verb, verb)
        return Act("invite", f"{verb} {m['plan']}".strip(), verb or "join")
    m = _HEARD.match(said)
    who = re.split(r"\s+(?:and|n|&)\s+", m["who"]) if m else []
    people = [w for w in who if w.lower() not in STOPWORDS and w.lower() not in _NOT_NAMES]
    # A name written as one (capitalised, or named before), or two words paired as people ("oswin n fenna"): chat
    # writes names in lower case, and the chat window may not have named them yet.
    if m and people == who and (all(_named(w, names) for w in who) or len(who) == 2) and _news_verb(m["verb"]):
        named = " and ".join(w[:1].upper() + w[1:] for w in who)  # 'oswin n fenna' -> 'Oswin and Fenna'
        return Act("news", f"{named}{m['news'][len(m['who']):]}".strip())
    return None


def statement(found: Act, speaker: str, listener: str | None) -> str:
    """The fact the act tells, said of the speaker: 'Bram asked to borrow Ilse's drill'."""
    other = listener or "someone"
    thing = rewrite_person(found.said, speaker, other)
    if found.kind == "borrow":
        owned = thing.startswith(f"{other}'s")
        return f"{speaker} asked to {found.verb} {thing}{'' if owned else f' from {other}'}"
    if found.kind == "ask":
        return f"{speaker} asked {other} for {thing}"
    if found.kind == "role":
        return f"{speaker} asked {other} to be {thing}"
    if found.kind == "offer":
        return f"{speaker} offered {other} {thing}"
    if found.kind == "invite":
        return f"{speaker} invited {other} to {thing}"
    return f"{speaker} heard that {found.said}"


def yes_or_no(reply: str) -> bool | None:
    """The reply's yes (True) or no (False) in any of its sentences ("I did. Yes, take it."), or None."""
    reply = emoji_yes_no(reply) or reply  # a thumbs-up alone is a yes
    sentences = [p for p in re.split(r"(?<=[.!?])\s+", straighten(reply)) if p.strip()]
    if any(_GRANTS.match(p) for p in sentences):
        return True
    return False if any(_REFUSES.match(p) for p in sentences) else None


def settled(message: Message, prior: Sequence[Message], names: frozenset[str] = frozenset()) -> Asked | None:
    """The other speaker's ask (``act``: a request, a role or an offer) that ``message``'s yes or no settles.

    The ask is the other's line just before, or the one before a clarifying exchange: the speaker's question back
    and the other's answer ("want my old desk?" / "the oak one?" / "ya" / "yes pls"). A request to borrow asks by
    its form, its mark dropped or not; an offer, a role or a thing wanted needs its mark. None for no yes or no,
    no ask, or news (confirmed, not settled).
    """
    if yes_or_no(without_speaker(message.text or "", message.speaker)) is None:
        return None
    if not prior or prior[-1].speaker == message.speaker:
        return None
    candidates, other = [prior[-1]], prior[-1].speaker
    if len(prior) >= 3 and [m.speaker for m in prior[-3:]] == [other, message.speaker, other] \
            and asks(without_speaker(prior[-2].text or "", message.speaker)):
        candidates.append(prior[-3])
    for turn in candidates:
        text = without_speaker(turn.text or "", turn.speaker)
        found = act(text, names) or next((a for q in question_sentences(text) if (a := act(q, names))), None)
        # a request's modal opening asks by its form ("can i borrow ur drill"); "want my old desk" may be a statement
        if found is not None and found.kind != "news" and (found.kind == "borrow" or asks(text)
                                                           or bool(question_sentences(text))):
            return Asked(asker=turn.speaker, question=text, turn_id=turn.turn_id)
    return None


def granted(question: str, reply: str, owner: str, asker: str) -> str | None:
    """The ``owner``'s yes or no to the asker's ask, said as what it settles; None for no ask, no yes or no.

    'can i borrow ur drill' + 'sure, its in the shed' -> 'Ilse lent Bram the drill'; 'want my old tablet?' +
    'yes pls' -> "Ilse accepted Bram's offer of Bram's old tablet"; 'be my best person?' + 'YES' -> "Ilse agreed to
    be Bram's best person"; a no says the ask was turned down.
    """
    found, yes = act(question), yes_or_no(reply)
    if found is None or found.kind == "news" or yes is None:
        return None
    thing = rewrite_person(found.said, asker, owner)
    if found.kind == "borrow":
        lent = rewrite_person(re.sub(r"^your\b", "the", found.said), asker, owner)
        return f"{owner} lent {asker} {lent}" if yes else f"{owner} did not lend {asker} {lent}"
    if found.kind == "ask":
        return f"{owner} {'agreed to give' if yes else 'would not give'} {asker} {thing}"
    if found.kind == "role":
        return f"{owner} {'agreed' if yes else 'declined'} to be {thing}"
    if found.kind == "invite":
        return f"{owner} {'accepted' if yes else 'turned down'} {asker}'s invitation to {thing}"
    return f"{owner} {'accepted' if yes else 'turned down'} {asker}'s offer of {thing}"
