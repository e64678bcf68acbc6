"""Criterion 3 of admission, cross-session reusability: the speaker's world told without an "I".

People tell plans, prices, other people's doings and their own things plainly ("the plumber comes
thursday at 8am", "quote was 2400 for the whole roof", "Lenka got the flat on Rue Vasse"). Such a
declarative clause is worth keeping when it carries a specific anchor (a number, a weekday or month, a
clock time, a name) and enough answer words; the caller has already rejected questions, transient states,
reactions and vague content. A clause about the listener ("you/your") or phrased as an order is not the
speaker's world; a generic truth or news item with an anchor ("petrol hit 1.60 a litre") is the cost.
"""

from __future__ import annotations

import re

from dmem.grounding.deixis import MONTHS, WEEKDAYS
from dmem.text.lexical import STOPWORDS
from dmem.text.words import SECOND_PERSON_CHAT

# Answer words a reusable clause needs besides its anchor ("rent is 950 a month": 'rent', '950', 'month').
# Chosen on invented chats batch 1 and LoCoMo tuning conversations; RealTalk tuning is reported.
Z_MIN_ANSWER_WORDS = 3
_Z_NUMBER_WORDS = "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred"
_Z_ANCHOR = re.compile(
    r"[$£€]\s?\d|\b\d+(?:[.,:]\d+)?(?:am|pm|k|km|kg|th|st|nd|rd|s|ish)?\b"
    rf"|\b(?:{_Z_NUMBER_WORDS})\s+(?!of\b|or\b|and\b)[a-z]+"
    rf"|\b(?:{'|'.join(WEEKDAYS)})\b|\b(?:{'|'.join(m for m in MONTHS if m != 'May')})\b"
    r"|\b(?:noon|midnight)\b|(?-i:\bMay\b)", re.I)
_Z_NOT_NAMES = {m.lower() for m in MONTHS} | set(WEEKDAYS) | {"i", "ok", "okay", "omg", "lol", "haha", "yes", "no"}
_Z_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+(?:'s)?\b")
# A name the clause addresses is the listener, not an anchor: "Hey Odile, ...", "..., Ivo!"
_Z_VOCATIVE = re.compile(r"^\W*(?:\w+\W+)?[A-Z][a-z]+\s*[,!-]|[,-]\s*[A-Z][a-z]+\W*$")
# An order or request opens with a bare verb: "bring the 2 chairs on Saturday" is not the speaker's world.
_Z_IMPERATIVE = re.compile(
    r"^\s*(?:please\s+|pls\s+|just\s+|and\s+|so\s+)?(?:let|let's|come|go|check|try|look|call|text|tell|bring|send|grab|"
    r"meet|don't|dont|do|remember|see|take|make|give|watch|read|listen|keep|pick|book|get|put|ask|wait|"
    r"imagine|guess|think)\b", re.I)
# An agreement opens a reaction to the listener ("Absolutely, the decorations add a lot"); a negated auxiliary
# opens a question even without its mark ("isn't the race next week"); weather is a passing state.
_Z_REACTION = re.compile(
    r"^\W*(?:absolutely|indeed|exactly|agreed|true|totally|definitely|isn't|aren't|wasn't|weren't|doesn't|don't|"
    r"didn't|won't|can't|couldn't|shouldn't|wouldn't|hasn't|haven't)\b"
    r"|\b(?:sunny|rainy|raining|snowing|weather|windy|cloudy)\b", re.I)
# A statement has a finite verb: an auxiliary or contraction, a common irregular past, or a lowercase word ending
# in -ed, -ing or -s. A title or a list item ("The Lighthouse Keeper by Ilse Varga") states nothing.
_Z_VERB = re.compile(
    r"'(?:s|re|ve|ll|d|m)\b|\b(?:is|are|was|were|be|been|am|has|have|had|do|does|did|will|got|took|went|came|made|"
    r"left|sold|bought|paid|gave|won|lost|ran|met|told|said|found|broke|fell|drove|flew|wrote|began|brought|caught|"
    r"felt|kept|sent|spent|built|held|knew|saw|heard|put|set|cut|hit|quit|ate|drank|swam|sang|rode|stole|wore|"
    r"chose|froze|spoke|woke|sat|stood|slept|lent|meant|led|fed|fought|taught|hung|grew|threw|drew|forgot)\b"
    r"|(?-i:\b[a-z]+(?:ed|ing|[^s]s)\b)", re.I)
# What someone else says or thinks is a fact about them, whatever its words ("Sam says it's good").
_Z_REPORTED = re.compile(r"\b(?:says?|said|thinks?|thought|reckons?)\b.*$", re.I)
# A generic truth speaks of everyone or always ("most people sleep 7 hours a night", "prices go up every year").
_Z_GENERIC = re.compile(
    r"^\s*(?:most|all|many|some|no|few)\s+\w+|\b(?:everyone|everybody|nobody|people|everywhere|always|generally|"
    r"usually|in\s+general|every\s+(?:year|time|day|week|month|summer|winter))\b", re.I)
# An evaluation, impression or reaction is an opinion, not a fact to reuse ("that interview was a mess", "Mint tea
# sounds delightful"); a modal says what can or must be, not what is ("a hat can do wonders", "it must be fun").
_Z_EVALUATION = re.compile(
    r"\b(?:best|worst|mess|overhyped|overrated|underrated|brutal|chaos|joke|disaster|robbery|amazing|awesome|awful|"
    r"terrible|great|good|bad|crazy|insane\w*|wild|boring|ridiculous|stupid|beautiful|gorgeous|ugly|perfect|nice|lovely|"
    r"fun|funny|hilarious|sad|scary|weird|better|worse|delightful|stunning|fantastic|appealing|captivating|intriguing|"
    r"exciting|fascinating|divine|luxurious|vibrant|breathtaking|popular|prestigious|famous|iconic|delicious|"
    r"wonderful|incredible|favou?rite|worth|cool|cute|sweet|adorable|interesting|impressive|rich|unique|special|"
    r"sounds?|seems?|looks?|most)\b", re.I)
_Z_MODAL = re.compile(r"\b(?:must|can|could|would|should|might)\b", re.I)
# Most words of a message whose plain statements are kept: a chat line tells its news; a longer message is a
# description, a list or a reaction, and its statements without "I" are rarely about the speaker's world. Chosen on
# invented chats batch 1 and LoCoMo tuning conversations (RealTalk tuning reported).
Z_MAX_MESSAGE_WORDS = 30
# Most answer words a reusable clause may have: longer ones are descriptions and lists, not a told event.
Z_MAX_ANSWER_WORDS = 14


def _name(text: str) -> str | None:
    """A capitalised word that is not a function word, does not open a sentence and addresses no one."""
    for m in _Z_NAME.finditer(unaddressed(text)):
        word = m.group(0).removesuffix("'s").lower()
        if word not in STOPWORDS and word not in _Z_NOT_NAMES:
            return m.group(0)
    return None


def unaddressed(text: str) -> str:
    """The clause without the name it addresses ("Hey Odile, the boat is ready" -> "the boat is ready")."""
    return _Z_VOCATIVE.sub(" ", text).strip()


def modal(text: str) -> bool:
    """Whether a clause says what can, must or might be rather than what is ("a hat can do wonders")."""
    return bool(_Z_MODAL.search(text))


def detail(text: str) -> str | None:
    """The number, price, date, weekday, month or time a clause gives, or None."""
    return " ".join(m.group(0).split()) if (m := _Z_ANCHOR.search(text)) else None


def anchor(text: str) -> str | None:
    """The specific anchor of a clause (number, price, date, weekday, month, time, name), or None."""
    return detail(text) or _name(text)


def states(text: str) -> bool:
    """Whether a clause has a finite verb: a title or a list item ("The Lighthouse Keeper by Ilse Varga") has none."""
    return bool(_Z_VERB.search(text))


def orders(text: str) -> bool:
    """Whether a clause is phrased as an order or request ("bring the 2 chairs on Saturday")."""
    return bool(_Z_IMPERATIVE.search(text))


def generic(text: str) -> bool:
    """Whether a clause speaks of everyone or always ("most people sleep 7 hours a night")."""
    return bool(_Z_GENERIC.search(text))


def reacts(text: str) -> bool:
    """Whether a clause opens with an agreement or a negated auxiliary, or speaks of the weather."""
    return bool(_Z_REACTION.search(text))


def about_the_world(text: str) -> bool:
    """Whether a clause speaks of the listener, gives an order, states a generic truth or reacts."""
    return any(p.search(text) for p in (SECOND_PERSON_CHAT, _Z_IMPERATIVE, _Z_GENERIC, _Z_REACTION))


def reusable(text: str, answer_word_count: int) -> str | None:
    """The anchor when a declarative clause without 'I' states reusable content, else None."""
    if not Z_MIN_ANSWER_WORDS <= answer_word_count <= Z_MAX_ANSWER_WORDS:
        return None
    if not states(text) or about_the_world(text):
        return None
    return None if evaluates(text) or modal(_Z_REPORTED.sub("", text)) else anchor(text)


def evaluates(text: str) -> bool:
    """Whether a clause evaluates or gives an impression ("was a mess", "looks 10/10"), beside what others said."""
    return bool(_Z_EVALUATION.search(_Z_REPORTED.sub("", text)))
