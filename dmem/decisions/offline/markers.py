"""Markers that claim a chat clause for something other than the speaker's own world (``worldline``).

A clause no rule admitted alone is the speaker's world by default unless a marker says otherwise: it is about
the listener ("you" as its subject, a thing said or stored as theirs), an order or advice, a general statement
(a generic present with a bare or indefinite subject and no time, everyone/always, what can or may be, a maxim),
a description of a named thing of the world, news, sport or prices in general, a reaction to what the listener
said or shared ("that sounds fun", "in the photo"), an evaluation, or a clause the rules rejected for another
reason than saying too little (a question, a transient state, a hypothetical, filler).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from dmem.decisions.offline import ownworld, reusable
from dmem.text.asked import LEAD_WORDS

# Clause verdict kinds whose clause may join the pool: they said too little or nothing of the speaker alone.
# Not "emotional": a reaction in the clause itself echoes the listener ("Wow, Bertil is from Tromso").
POOLABLE = frozenset({"impersonal", "vague"})
# Chat's opening words and reactions before a clause's subject ("oh", "wow", "yeah", "no"): they open a clause about
# the listener here (with "then" and "now") and a fact of the listener's told them (``listener_facts``).
REACTION_LEADS = rf"(?:{LEAD_WORDS}|wow|yes|yeah|no|aw+|ooh|ah|damn|dang|whoa)"
_LISTENER_SUBJECT = re.compile(rf"^\W*(?:(?:{REACTION_LEADS}|then|now)\W+)*"
                               r"(?:you|your|yours|u|ur|ya|youll|youd|youre|youve)\b", re.I)
# Advice, a duty or a guess ("you should", "it might"): a clause of it is no fact, here or in ``listener_facts``.
ADVICE = re.compile(r"\b(?:should|shouldn't|must|mustn't|ought|would|wouldn't|could|might|better\s+to|make\s+sure|"
                    r"(?:important|crucial|essential|vital|key)\s+(?:to|for))\b", re.I)
# What can or may be is a general statement unless it counts something ("they can seat 40 max").
_MAY = re.compile(r"\b(?:can|may|often|tends?\s+to)\b", re.I)
# An activity opening the clause is one in general: "Sharing meals brings people closer".
_GERUND = re.compile(r"^\W*(?:[A-Za-z]+ing)\b(?<!thing)(?<!morning)(?<!evening)(?<!ceiling)(?<!building)", re.I)
# A reaction to what the listener said: "that's great", "sounds fun", "looks amazing", "what a view".
_REACTS = re.compile(r"^\W*(?:the\s+)?poor\b|\bhope\b"
                     r"|^\W*(?:that|this|it|those|these|what)\b(?:'s|\s+is|\s+was|\s+are|\s+were)?\s*(?:\w+\s+){0,2}?"
                     r"(?:so|such|really|very|a|an|pretty|super|too)?\s*\b(?:great|good|nice|fun|lovely|cool|amazing|"
                     r"awesome|sweet|sad|hard|tough|rough|funny|wild|crazy|brilliant|perfect|beautiful|gorgeous|"
                     r"interesting|exciting|impressive|wonderful|fantastic|incredible|true|right|fair|smart|clever)\b"
                     r"|\b(?:sounds?|looks?|seems?|looked|sounded|seemed)\b"
                     r"|\b(?:will|'ll|gonna)\s+(?:love|like|enjoy|hate|adore)\b"  # "Dad will love the new flat"
                     r"|\b(?:so|such|super|too)\s+[a-z]+\W*$", re.I)  # "the kids were so loud"
# The world at large: news, sport, releases and prices in general; what the listener shows ("in the photo").
_WORLD = re.compile(r"\b(?:government|minister|ministers|president|election|elections|parliament|politicians?|"
                    r"inflation|interest\s+rates?|economy|stock\s+market|petrol|fuel\s+duty|prices|taxes|league|"
                    r"championship|world\s+cup|olympics|playoffs?|referee|ref|scored|headlines?|the\s+news|storm|"
                    r"lineup|line-up|sold\s+out|comes?\s+out|came\s+out|reopens?|premieres?|trailer|"
                    r"in\s+(?:the|that|this|your)\s+(?:photo|pic|picture|video|clip|post))\b", re.I)
_DETERMINED = frozenset({"the", "this", "that", "these", "those", "my", "our", "his", "her", "their", "its", "a",
                         "an", "he", "she", "it", "they", "we", "there", "here", "one", "both", "each", "mine",
                         "ours", "theirs", "hers", "so", "and", "but", "also", "oh", "well", "then", "now",
                         "theres", "there's", "heres", "here's", "it's", "thats", "that's", "whats", "lets",
                         "this's", "hes", "shes", "he's", "she's"})
_TIME = re.compile(r"\b(?:today|tonight|tomorrow|yesterday|now|tmrw|tmr|last\s+\w+|next\s+\w+|this\s+(?:week|"
                   r"weekend|morning|evening|year|month)|ago|since|until|till)\b", re.I)
_BARE_ORDER = re.compile(r"^\W*(?:stay|believe|enjoy|be|hang|drink|limit|set|add|season|heat|follow|focus|avoid|"
                         r"consider|start|stop|trust|treat|hold|mix|stir|bake|serve)\b", re.I)
# What matters, is key or is like something: a maxim or a simile, not a detail ("Life's all about memories").
_KEY = re.compile(r"\b(?:matters?|is\s+key|'s\s+key|all\s+about|(?:is|'s|was)\s+like|pays\s+off)\b", re.I)
_COUNTED = re.compile(r"^\W*(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty)\s", re.I)
_TOLD_PAST = re.compile(r"\b(?:was|were|had|did|got|went|came|took|made|found|left|lost|broke|fell)\b", re.I)
_NEVER = re.compile(r"^\W*(?:never|always|don't|dont|do\s+not)\s+[a-z]+\b(?<!ing)", re.I)  # "never trust a cat"
# "stopped", not "need" nor a state after a copula ("are glued to screens").
_REGULAR_PAST = re.compile(r"(?<!\bare\s)(?<!\bis\s)(?<!\bam\s)\b[a-z]{2,}[^e\W]ed\b", re.I)
_BARE_PLURAL = re.compile(r"[A-Za-z]{2,}[^su'\W]s")
# A present verb after a bare singular subject: "Exercise helps", "Money doesn't", "Rent is" (not "is doing").
_PRESENT = re.compile(r"(?:[a-z]+[^s'\W]s|is|isn't|doesn't|can't|can|never|always)", re.I)


def generic(text: str, known: frozenset[str] = frozenset()) -> bool:
    """A general statement: everyone/always, or a present-tense clause with a bare subject and no time.

    "Kids love candy", "Favourite things change with age", "Money can't buy happiness"; not "trains are off
    tomorrow" (a time), "Osric is gutted" (a name), "the run needs a new latch" (a definite subject).
    """
    if _COUNTED.match(text):
        return False  # "Six people, including Wendell": a count is a detail
    if reusable.generic(text) or (_GERUND.match(text) and len(text.split()) > 3) \
            or (_MAY.search(text) and not reusable.detail(text)) or _KEY.search(text):
        return True
    if _TOLD_PAST.search(text) or _TIME.search(text) or reusable.detail(text):
        return False
    opening = text.split()
    if len(opening) >= 3 and _BARE_PLURAL.fullmatch(opening[0]) and opening[0].lower() not in _DETERMINED \
            and opening[0].lower().strip(",.") not in known and not _REGULAR_PAST.search(text):
        return True  # "Kids love candy", "Landlords never fix anything", "Dogs need a lot of exercise"
    if ownworld.particular(text):
        return False
    if opening[0].lower() in ("a", "an") and not _TOLD_PAST.search(text) and not _REGULAR_PAST.search(text):
        return True  # "A safe home is key": an indefinite subject in the present speaks of any such thing
    first = opening[0].strip("\"'(,").lower()
    return len(opening) >= 3 and first not in _DETERMINED and first not in known and bool(_PRESENT.fullmatch(
        opening[1])) and not opening[2].lower().endswith("ing")


def described(text: str) -> bool:
    """A present-tense description of a thing of the world named inside its subject ("the gallery on Quai Vert has")."""
    subject = ownworld.subject_words(text) or []
    return any(w[:1].isupper() for w in subject[1:]) and not (_TOLD_PAST.search(text) or _REGULAR_PAST.search(text))


def claimed(text: str, kind: str, foreign: bool = False, known: frozenset[str] = frozenset(),
            listeners: Callable[[str], bool] = lambda _: False) -> str | None:
    """The marker that claims a clause for something other than the speaker's world, or None.

    ``foreign``: the clause opens with a he/she meaning someone who is not the speaker's (``person_clauses``);
    ``listeners``: whether the clause's subject is a thing of the listener's (said or stored as theirs).
    """
    if kind not in POOLABLE:
        return kind
    if foreign or listeners(text):
        return "someone else's"
    if described(text):
        return "a description of the world"
    checks = (("about the listener", _LISTENER_SUBJECT), ("an order or advice", None), ("a reaction", _REACTS),
              ("the world at large", _WORLD))
    for why, pattern in checks:
        if pattern is None:
            if reusable.orders(text) or ADVICE.search(text) or _NEVER.search(text) or _BARE_ORDER.match(text):
                return why
        elif pattern.search(text):
            return why
    if reusable.reacts(text) or generic(text, known):
        return "a general statement or a reaction"
    if reusable.evaluates(text):
        return "an evaluation"
    return None
