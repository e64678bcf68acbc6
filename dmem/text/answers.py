"""Whether a reply has the shape of the answer a question asks, whatever words it shares with it.

A reply several messages after a question answers it only when something ties the two: a yes/no echo
of a yes/no question ("Did you book the ferry?" -> "I did", "not yet", "nope"; a bare "yeah" is not one,
it agrees with anything), or the kind of answer the question asks for: a place for "where" ("at the
harbour", "in Tallinn"), a time or date for "when" ("last Friday", "at 6"), a length for "how long"
("three weeks"), a number for "how many" or "how much" ("about 40", "a dozen"), a name when asked one.
``dmem.text.crossed`` reads it, and the offline gate asks ``says_number`` of a how-many or
how-long answer; the rules are about the form of chat, never about a particular conversation.
"""

from __future__ import annotations

import re

from dmem.grounding.deixis import MONTHS, NUMBER_WORDS, WEEKDAYS
from dmem.text.lexical import straighten
from dmem.text.words import TENS, alternation

_OPENERS = r"(?:(?:hi|hey|oh|so|and|also|well|btw|wait)\b[,!.]?\s*)*"
_YES_NO_VERB = re.compile(rf"^\W*{_OPENERS}(do|does|did|have|has|had|are|is|was|were|will|would|can|could|ever|got|"
                          r"any)\b", re.I)
# The forms a yes/no answer echoes, by the verb its question opens with ("Did you ...?" -> "I did", "we didn't").
_ECHOED = {
    "do": "do|don't|dont|does|doesn't",
    "does": "do|don't|dont|does|doesn't",
    "did": "did|didn't|didnt",
    "have": "have|haven't|havent|'ve|has|hasn't|do|don't",
    "has": "has|hasn't|have|haven't",
    "had": "had|hadn't|did|didn't",
    "are": "am|'m|are|aren't|'re|is|isn't|'s",
    "is": "is|isn't|'s|was|wasn't|am|'m|are|'re",
    "was": "was|wasn't|were|weren't",
    "were": "was|wasn't|were|weren't",
    "will": "will|won't|'ll",
    "would": "would|wouldn't|'d",
    "can": "can|can't|cant|could|couldn't",
    "could": "can|can't|could|couldn't",
    "ever": "have|haven't|'ve|did|didn't",
    "got": "have|haven't|'ve|do|don't|got",
    "any": "have|haven't|'ve|do|don't|got",
}
_SUBJECT = r"(?:i|we|he|she|they|it|that|mine|ours)"
# Answers that need no verb of the question: a refusal of the whole of it.
_BARE_NO = re.compile(r"^\W*(?:nope|nah|not\s+yet|never|not\s+really|not\s+at\s+all|not\s+once)\b", re.I)
_KIND = re.compile(r"\b(?P<kind>where|when|how\s+long|how\s+many|how\s+much|how\s+old|name[ds]?|call(?:ed)?)\b",
                   re.I)
# A name given: a capitalised word that does not open the reply ("we called her Biscuit"), not "I" or "I'm".
_NAME = re.compile(r"(?<=\w)[\s,:\"']+(?!I\b|I')[A-Z][a-z]")
_PLACES = ("home|work|school|college|uni|campus|office|gym|park|beach|lake|river|coast|mountains?|city|town|"
           "downtown|abroad|church|mall|market|store|shop|restaurant|bar|cafe|library|hospital|airport|station|"
           "studio|club|hotel|village|countryside|north|south|east|west|island|harbou?r|center|centre")
_PLACE = re.compile(rf"\b(?:{_PLACES}|nearby|overseas)\b", re.I)
# A name after a preposition of place, case kept: "in Tallinn", "at Rosa's" (not "to I", not a weekday or month).
_PROPER = re.compile(rf"\b(?:[Ii]n|[Aa]t|[Tt]o|[Ff]rom|[Nn]ear|[Aa]round)\s+(?:the\s+)?"
                     rf"(?!I\b|(?:{'|'.join(MONTHS)}|{'|'.join(d.title() for d in WEEKDAYS)})\b)[A-Z]")
_UNITS = r"(?:sec(?:ond)?|min(?:ute)?|hour|hr|day|night|week|wk|month|year|yr|decade)s?"
# The spelled numbers one to twelve, as deixis grounds them, and the tens (``text.words.TENS``, twenty to ninety);
# the vague amounts are added where read.
_SPELLED = "|".join(word for word in NUMBER_WORDS if word.isalpha() and len(word) > 2)
_TENS = alternation(TENS)
_NUMBER = (rf"(?:\d+(?:[.,]\d+)?|a|an|{_SPELLED}|{_TENS}|"
           r"hundred|few|couple(?:\s+of)?|several|half\s+an?|a\s+dozen|dozen)")
_TIME = re.compile(
    rf"\b(?:yesterday|today|tonight|tomorrow|this\s+(?:morning|afternoon|evening|weekend|week|month|year)|"
    rf"(?:last|next|this|on|every)\s+(?:week|month|year|night|weekend|{'|'.join(WEEKDAYS)})|"
    rf"{'|'.join(WEEKDAYS)}|{'|'.join(MONTHS)}|ago|soon|later|earlier|recently|weekend|"
    rf"(?:in|since|until|by|around)\s+(?:the\s+)?(?:\d{{4}}|spring|summer|fall|autumn|winter|{_NUMBER}\s+{_UNITS})|"
    r"(?:end|start|beginning|middle)\s+of\s+(?:the|next|this)\s+(?:week|month|year|term)|"
    r"at\s+\d{1,2}(?::\d\d)?|\d{1,2}(?::\d\d)?\s*(?:am|pm)|\d{1,2}(?:st|nd|rd|th)|(?:19|20)\d\d)\b", re.I)
_LENGTH = re.compile(rf"\b(?:{_NUMBER}[\s-]+{_UNITS}|a\s+while|ages|forever|all\s+(?:day|night|week)|"
                     r"since\s+\w+|(?:an?\s+)?hour|overnight)\b", re.I)
_COUNT = re.compile(rf"\b(?:\d+|{_SPELLED}|{_TENS}|"
                    r"hundreds?|thousands?|dozens?|a\s+few|a\s+couple|several|none|zero|a\s+lot|lots|tons)\b"
                    r"|[$€£]\s?\d", re.I)
# An amount of a unit: "two weeks", "an hour", "a couple of days" ("a" and "an" are a number only before a unit).
_AMOUNT = re.compile(rf"\b{_NUMBER}[\s-]+{_UNITS}\b", re.I)


def yes_no_echo(question: str, reply: str) -> bool:
    """Whether ``reply`` answers the yes/no ``question`` with its own verb ("I have", "yes we did", "nope").

    A bare "yeah" or "yep" is not one: it agrees with whatever was said last.
    """
    verb = _YES_NO_VERB.match(question)
    if not verb:
        return False
    if _BARE_NO.match(reply):
        return True
    forms = _ECHOED[verb[1].lower()]
    echo = (rf"^\W*(?:(?:oh|ah|well|um+|hm+)\W+)?(?:(?:yes|yeah|yep|yup|yea|ya|no|nah|sure)\W+)?(?:{_SUBJECT}\s*)?"
            rf"(?:{forms})\b")
    said = straighten(reply)
    return bool(re.match(echo, said, re.I)) and not re.match(r"^\W*(?:yes|yeah|yep|yup|no)\W*$", said, re.I)


def answer_kind(question: str) -> str | None:
    """The kind of answer a question asks for: 'where', 'when', 'how long', 'how old', 'how many' or 'name'.

    'how much' asks for a number too; "what did you name it" and "what's it called" for a name; else None.
    """
    m = _KIND.search(question)
    if m is None:
        return None
    kind = " ".join(m["kind"].lower().split())
    return {"how much": "how many"}.get(kind, "name" if kind[0] in "nc" else kind)


# A who-question with what it asks after ("who's in charge", "who goes in goal?", "who takes the van"): the asking
# word opens it and a word of the question follows (not "who?" alone, "who knows", "who cares": no question; not
# "who is it", "who's there", "who's this": who is at the door or on the line, "me!" tells no lasting fact).
_WHO_ASKS = re.compile(rf"^\W*{_OPENERS}who(?:'s|s\b|\s+is\b|\s+(?!knows\b|cares\b)[a-z]+\b)"
                       r"(?!\s*(?:it|this|that|there)\W*$)\s*[a-z]", re.I)
# A person named by a pronoun alone, as the whole reply: "you", "u", "me!!", "us", "both of us", "you and me".
_PERSON_ALONE = re.compile(r"^\W*(?:you|u|me|us|both\s+of\s+us|(?:you|u)\s+and\s+me|me\s+and\s+(?:you|u)|"
                           r"(?:you|u|me|us)\s+both)\W*$", re.I)


def names_who(question: str, reply: str) -> bool:
    """Whether ``reply`` answers a who-question with a person said by a pronoun alone ("who's in charge" / "you").

    The pronoun carries no word a reply is judged on, yet it names the person asked for: the asker ("you") or the
    speaker ("me"), whom the fact writes by name.
    """
    said = straighten(reply)
    return bool(_WHO_ASKS.match(straighten(question)) and _PERSON_ALONE.match(said))


def says_number(text: str) -> bool:
    """Whether ``text`` says a number or an amount, as a how-many or how-long answer must.

    Digits ("3", "31.50", "5km"), a spelled number as a whole word ("twelve", "twenty", "hundreds"), a vague
    count ("a few", "a dozen", "a couple", "several", "none") or "a"/"an" before a unit ("an hour", "a week").
    A bare "a" or "an" is no number: "the water" and "a new kettle" say none.
    """
    return bool(re.search(r"\d", text) or _COUNT.search(text) or _AMOUNT.search(text))


def is_kind_asked(question: str, reply: str) -> bool:
    """Whether ``reply`` gives the kind of answer ``question`` asks for (a place, a time, a length, a number)."""
    kind = answer_kind(question)
    if kind == "where":
        return bool(_PROPER.search(reply) or _PLACE.search(reply))
    if kind == "when":
        return bool(_TIME.search(reply))
    if kind == "how long":
        return bool(_LENGTH.search(reply))
    if kind == "how old":
        return bool(_LENGTH.search(reply) or _COUNT.search(reply))
    if kind == "name":
        return bool(_NAME.search(reply))
    if kind == "how many":
        return bool(_COUNT.search(reply))
    return False
