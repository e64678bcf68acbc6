"""The speaker's own news said without an "I": specific content in a chat statement is theirs by default.

In a two-person chat people tell their own news without naming themselves: "also gig on friday! the
tallow room", "Saturday 28 March", "back room is booked, 7pm, they can fit 30 max", "6:30ish, by the hide".
A clause no other rule admitted because it named no first-person fact (a reaction beside it, in a clause
of its own, is judged apart) is the speaker's news when

- it carries specific content (``anchor``): a number, clock time, date, weekday, month or proper name,
  also a name opening a sentence when the chat has named it before ("Hester managed the whole promenade");
  a fragment (no finite verb) needs a number, time or date: a name alone there is a title or a reaction
  ("The Lighthouse Keeper by Ilse Varga", "haha classic Velloway");
  a day word ("today") alone is not specific: world news
  has it too ("the festival lineup dropped today");
- it says enough: ``NEWS_MIN_WORDS`` answer words at least, the anchor's among them;
- it is no statement about the world at large, the listener, an order or a reaction
  (``reusable.about_the_world``), and no evaluation or impression ("the wedding on saturday looked
  beautiful"); the caller has already rejected questions, transient states, hypotheticals and clauses
  about a third person who is not the speaker's.

Unlike ``reusable`` it needs no finite verb (chat news is often a fragment) and a modal does not veto it
("they can fit 30 max"). The
utterance must be chat-length; a news clause forms a fact only when no other clause of its message does,
kept as said under the speaker's name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline import reusable
from dmem.state.schemas import Message
from dmem.text.lexical import STOPWORDS

# Answer words a news clause needs, its anchor counted ("june 7", "also gig on friday"). The tuning half
# does not tell 2 from 3 (the same evidence turns formed, leaving any conversation out; memories per turn within
# 0.1 %): 2 is the principle (an anchor and a word saying what of it); on invented batches 1-2 it forms more.
NEWS_MIN_WORDS = 2
_SHORT_WEEKDAYS = re.compile(r"\b(?:tues|thurs|weds)\b", re.I)  # as chat writes them: "bouldering. tues n thurs"
_OPENING_NAME = re.compile(r"(?:^|(?<=[.!?]\s))\W*(?P<first>[A-Z][a-z]+)\b")
_NAMED = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+\b")


def known_names(prior: Sequence[Message]) -> frozenset[str]:
    """Words the chat before has written capitalised inside a sentence (its people and places), lowercased."""
    found = {m.group(0).lower() for turn in prior for m in _NAMED.finditer((turn.text or "").strip())}
    return frozenset(found - STOPWORDS)


def _opening_name(text: str, known: frozenset[str]) -> str | None:
    """A name opening a sentence that the chat named before ('Hester managed the whole promenade')."""
    return next((m["first"] for m in _OPENING_NAME.finditer(text) if m["first"].lower() in known), None)


def anchor(text: str, known: frozenset[str] = frozenset()) -> str | None:
    """A clause's specific content: ``reusable.anchor``'s, a weekday as chat shortens it, or a known opening name.

    A fragment (no finite verb) needs more than a name: a name alone is a title or a reaction there ("The
    Lighthouse Keeper by Ilse Varga", "haha classic Velloway"), a number or date is a detail told.
    """
    if not reusable.states(text):
        return reusable.detail(text) or (m.group(0) if (m := _SHORT_WEEKDAYS.search(text)) else None)
    if found := reusable.anchor(text):
        return found
    if m := _SHORT_WEEKDAYS.search(text):
        return m.group(0)
    return _opening_name(text, known)


def own_news(text: str, answer_word_count: int, known: frozenset[str] = frozenset()) -> str | None:
    """The anchor when a clause without 'I' is the speaker's own news, else None (see the module)."""
    if not NEWS_MIN_WORDS <= answer_word_count <= reusable.Z_MAX_ANSWER_WORDS or reusable.about_the_world(text) \
            or reusable.evaluates(text):
        return None
    return anchor(text, known)
