"""A question that does something and so tells a fact: asks to borrow, offers the speaker's thing, passes on news.

Terse chat asks for what it wants. "can i borrow ur drill" asks no fact of anyone, yet tells one: the speaker
asked to borrow the listener's drill, and a "sure" after it makes it a loan. "want my old tablet?" tells that the
speaker has an old tablet and offers it; "heard Oswin n Fenna got engaged??" passes on news of named people,
asked only for the listener to confirm. Each shape is closed: the thing must be the listener's ("your") for a
request and the speaker's ("my") for an offer, and the news must open with a name (or two words paired as people)
and a verb said of them, so "can I ask you something?", "want some?" or "did you hear what I said?" carry none.

- ``act``: the shape a question has, and the words that carry its fact;
- ``statement``: that fact said of the speaker ("Bram asked to borrow Ilse's drill", "Bram offered Ilse Bram's old
  tablet", "Bram heard that Oswin and Fenna got engaged");
- ``granted``: the listener's yes to a request, said as the loan ("Ilse lent Bram the drill").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from dmem.decisions.offline.pronouns import rewrite_person
from dmem.text.asked import LEAD_INS
from dmem.text.lexical import STOPWORDS, straighten
from dmem.text.verbs import irregular_past

_YOU = r"(?:you|u|ya|yu)"
_YOUR = r"(?:your|ur|yr|you'?re)"  # chat writes "ur running watch", read as "you're running"
# The thing asked for or offered: its owner's word, then up to four words before a purpose or time ("for", "on").
_TAIL = r"(?:for|on|to|till|until|tomorrow|tmrw|tonight|this|next|at|again|please|pls|plz|then|if|when|while)"
_THING = rf"(?P<thing>{{owner}}\s+[\w'-]+(?:\s+(?!{_TAIL}\b)[\w'-]+){{{{0,3}}}})(?P<rest>(?:\s+{_TAIL}\b.*)?)"
_BORROW = re.compile(
    rf"^\W*{LEAD_INS}(?:(?:can|could|may|cn|cud)\s+(?:i|we)\s+(?:please\s+|pls\s+|plz\s+|just\s+)?"
    rf"(?P<verb>borrow|use|take)"
    rf"|(?:(?:can|could|would)\s+{_YOU}\s+(?:please\s+|pls\s+)?)?lend\s+(?:me|us)"
    rf"|(?:(?:would|do)\s+{_YOU}\s+)?(?:mind|ok|okay|alright)\s+if\s+(?:i|we)\s+(?P<verb2>borrow|use|take))"
    rf"\s+{_THING.format(owner=_YOUR)}\W*$", re.I)
_OFFER = re.compile(
    rf"^\W*{LEAD_INS}(?:(?:do\s+)?{_YOU}\s+)?(?:want|wanna|need|fancy|would\s+{_YOU}\s+like|could\s+{_YOU}\s+use)"
    rf"\s+(?:to\s+(?:borrow|have|use|take)\s+)?{_THING.format(owner='my')}\W*$", re.I)
_NAME = r"[\w'-]+"
_HEARD = re.compile(
    rf"^\W*{LEAD_INS}(?:(?:did|have)\s+{_YOU}\s+(?:hear|heard|know|see|seen)|(?:i\s+)?heard|(?:{_YOU}\s+)?know)"
    rf"\s+(?:that\s+)?(?P<news>(?P<who>{_NAME}(?:\s+(?:and|n|&)\s+{_NAME})?)\s+(?P<verb>[\w'-]+)\b.*?)\W*$", re.I)
# A yes that grants a request ("sure", "of course", "go for it", "help yourself"); a "no" or "not" after it denies.
_GRANTS = re.compile(r"^\W*(?:(?:oh|ah|well|haha|lol|omg)\W+)?(?:yes|yeah|yea|yep|yup|ya|sure|of\s+course|ofc|course|"
                     r"definitely|absolutely|go\s+for\s+it|no\s+problem|np|help\s+yourself|(?:you|u)\s+can)\b"
                     r"(?!\W*(?:but\s+)?(?:not|no|can'?t|cannot)\b)", re.I)
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

    kind: Literal["borrow", "offer", "news"]
    said: str
    """The words the fact is made of: the thing with its owner and tail ('your drill for the shelves'), or the news."""
    verb: str = "borrow"
    """For a request: what the speaker asks to do with the thing ('borrow', 'use', 'take')."""


def _said(m: re.Match[str]) -> str:
    """The thing with its tail, its owner word written out ('ur running watch' -> 'your running watch')."""
    owner, _, rest = f"{m['thing']}{m['rest']}".strip(" ?!.").partition(" ")
    return f"{'my' if owner.lower() == 'my' else 'your'} {rest}"


def _named(word: str, names: frozenset[str]) -> bool:
    """Whether a word is a person's name: written capitalised (and no function word) or named so before."""
    low = word.lower().removesuffix("'s")
    return low in names or (word[:1].isupper() and low not in STOPWORDS and low not in _NOT_NAMES)


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
    if m := _OFFER.match(said):
        return Act("offer", _said(m))
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
        return f"{speaker} asked to {found.verb} {thing}"
    if found.kind == "offer":
        return f"{speaker} offered {other} {thing}"
    return f"{speaker} heard that {found.said}"


def granted(question: str, reply: str, owner: str, asker: str) -> str | None:
    """The owner's yes to the asker's request to borrow, said as the loan; None for no yes or another question.

    'can i borrow ur drill' + 'sure, its in the shed' -> 'Ilse lent Bram the drill'.
    """
    found = act(question)
    if found is None or found.kind != "borrow" or not _GRANTS.match(straighten(reply)):
        return None
    thing = re.sub(r"^your\b", "the", found.said)
    return f"{owner} lent {asker} {rewrite_person(thing, asker, owner)}"
