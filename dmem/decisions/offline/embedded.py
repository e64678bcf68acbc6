"""A question's embedded clause, judged like a statement (issue #26, stop 47).

A question tells what it takes as known. "When did you visit Lisbon?" takes it that the listener visited Lisbon,
"which street in Tallinn do you live on?" that they live in Tallinn, "didn't you sit the exam twice?" that they
sat it, "did you hear cousin Wilma is flying in from Perth?" tells the asker's news. So a question no shape of
``presuppose`` claimed is not rejected out of hand: its embedded clause, the question without its operator, is
judged like a statement (the admission rules, not new shapes), and attributed by its pronoun: "you" is the
listener's, "I"/"my" the asker's, a third person the asker's news.
Only three frames say their clause as known: a wh-question (what it asks about is taken as known), a negative
question ("didn't you", "isn't your") and a question of hearing or knowing ("did you hear (that) ..."). A plain
yes/no question ("do you swim in Lisbon much?", "have you been to Tallinn?") asks whether, and takes nothing
as known; so do offers ("want to come?", "do you need help moving?"). The clause needs a specific detail
(a name, number or date, with ``EMBEDDED_MIN_WORDS`` answer words), so "what are you knitting at the
moment?" and "what are you cooking tonight?" stay questions, and so do an open one
("have you applied to any college?") and one asking for a taste ("what are your favourite things to do
there?"); a wh-question needs a person (a question about the world, "how big is Tallinn?", takes nothing
of anyone as known).
And what the asker says of themselves before the question it leads into ("My name is Hanna, what's
yours?", "I spent the day re-tiling the bathroom, how about you?") is told, not asked: it is judged as said
(its last comma piece when the whole is not admitted), with the asker as its subject.
And what the asker tells inside the question is told too (stop 56): a first-person statement before a tag
("I told you I'm quitting, right?", "I'm off next week, did I say?") or after "you know" ("you know I've been
learning Greek?"); the clause an evaluative frame takes as known ("isn't it weird that I've never seen the sea?":
a judgement presupposes what it judges); the asker's own plan with their own thing, asked as advice ("should I
bring my banjo saturday?"), kept hedged ("I might bring my banjo saturday"); and a first-person statement said
with a question's rise ("I've been learning Greek since March?"). Each is judged as said, like the above.
A short echo question naming a thing or a time, answered by the asker's own statement that points back to it
("Pasta again? I had it for lunch.", "Friday? I'm at the dentist then."), tells that statement with the echo
put in for its pointer ("I had pasta for lunch"), when the statement alone is too vague to keep.
A teaser, the asker's question about their own doing that the asker answers in the next clause ("Guess where
I'm going in May? Lisbon!", "what do you think I adopted? a greyhound", stop 57), asks nothing: it tells the
clause with its answer ("I'm going in May: Lisbon"); an answer with no content word ("Guess what? Nothing.",
"guess who? me!") tells nothing, and a question with no guessing frame ("where did I put my keys? ugh") is asked.
"guess who passed the driving test" with no answer after it is the asker's news as a riddle: kept as the asker's,
hedged ("I passed the driving test"), unless a third person's pronoun names someone else ("who broke their wrist").
``statement`` writes what the question takes as known with the person named ("Ines did visit Lisbon"); the
fact keeps the question as its source turn and says it was presupposed (inferred, not said).
"""

from __future__ import annotations

__all__ = ["EMBEDDED_MIN_WORDS", "TEASER_MAX_WORDS", "Embedded", "answered", "embedded", "guessed", "statement"]

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from dmem.decisions.offline import news, reusable, rules
from dmem.decisions.offline.pronouns import rewrite_person
from dmem.text.asked import AUXILIARIES, LEAD_INS, LEAD_WORDS, NEGATED, OFFER_WORDS
from dmem.text.lexical import content_words, straighten
from dmem.text.words import ASKER_SAID, LISTENER_SAID

EMBEDDED_MIN_WORDS = 2
"""Answer words an embedded clause needs besides its name, number or date (tuning half + invented batches 1-2)."""

_WH = r"(?P<wh>(?:what|when|where|which|who|whose|why|how\s+(?:long|many|much|often|far|old|come))(?:\s+[\w'-]+){0,3}?)"
_AUX = rf"(?P<aux>{AUXILIARIES}|r)"
_SUBJECT = r"(?P<subject>you|u|i|we|(?:your|ur|my|our)\s+[\w'-]+(?:\s+[\w'-]+(?=\s+\w))?)"
_WH_ASKS = re.compile(rf"(?:^|[,;:.!]\s*){LEAD_INS}{_WH}\s+{_AUX}\s+{_SUBJECT}\b(?P<rest>[^?.!;]*)", re.I)
_NEGATIVE = re.compile(rf"(?:^|[,;:.!]\s*){LEAD_INS}(?P<aux>{NEGATED})\s+{_SUBJECT}\b(?P<rest>[^?.!;]*)", re.I)
_HEARD = re.compile(rf"(?:^|[,;:.!]\s*){LEAD_INS}(?:did|have|do)\s+(?:you|u)\s+(?:hear|heard|know|see|saw|notice|"
                    r"noticed|realise|realize)\s+(?:that\s+)?(?P<rest>(?!(?:it|that|this|them|him|her|anything|about)\b)"
                    r"[^?.!;]{3,})", re.I)
# "My name is Hanna, what's yours?", "I was baking all day how about you?": the asker's own statement said
# before the question it leads into is told, not asked. The question may put a modal and the asker between its
# word and "you" ("My name is Hanna, how can I reach you?", stop 59: a shape of the tuning half); the statement
# never ends on the question's own word (it was "my name is Hanna, how").
_TOLD_FIRST = re.compile(r"^(?P<said>[^?]*?\w[^?]*?)(?<!\bhow)(?<!\bwhat)(?<!\bwhere)(?<!\bwhen)(?<!\bwho)"
                         r"(?<!\bwhich)(?:,\s*|\s+)(?=(?:(?:and|so)\s+)?(?:(?:how|what)\s+about\s+"
                         rf"(?:you|u|yours)\b|(?:what|where|when|how|who|which|{AUXILIARIES}|may|might|shall)"
                         r"(?:'s)?\s+(?:[\w'-]+\s+){0,3}(?:you|u|your|ur|yours)\b))", re.I)
# The asker's statement inside a question (stop 56). A tag asks the listener to confirm what was just said:
# "I told you I'm quitting, right?", "I'm off all next week, did I say?" (closed class: confirming tags).
_TAGGED = re.compile(r"^(?P<said>[^?]*?\w[^?]*?)[,\s]+(?:right|yes|yeah|no|ok|okay|eh|innit|remember|"
                     r"(?:didn't|didnt|haven't|havent|wasn't|wasnt|aren't|arent|don't|dont)\s+i|"
                     r"did\s+i\s+(?:say|tell\s+you|mention)(?:\s+that)?|(?:am\s+i|is\s+that)\s+(?:right|correct))"
                     r"\s*\?+\W*$", re.I)
# "you know I've been learning Greek since March?": a statement said as a question, not asked.
_YOU_KNOW = re.compile(rf"^{LEAD_INS}(?:you\s+know|u\s+know|y'?know|remember)\s+(?:that\s+)?"
                       r"(?P<said>[^?]+)\?", re.I)
# An evaluative judgement presupposes what it judges: "isn't it weird that I've never seen the sea?", "is it
# normal that my new boots squeak?" (closed class of judging adjectives; a factive frame, not a hypothesis).
_JUDGED = re.compile(rf"^{LEAD_INS}(?:is|isn'?t|was|wasn'?t)\s+it\s+(?:\w+\s+)?(?:weird|funny|odd|strange|"
                     r"crazy|mad|normal|bad|sad|silly|wrong|okay|ok|fine|rude|unfair|annoying)\s+(?:that\s+)?"
                     r"(?P<said>[^?]+)\?", re.I)
# The asker asking advice on their own plan with their own thing: "should I bring my banjo saturday?" tells
# the banjo and the plan; kept hedged ("I might ..."). Requests ("can I bring my son?") are ``speech_acts``'.
_OWN_PLAN = re.compile(rf"^{LEAD_INS}(?:should|shall)\s+(?:i|we)\s+(?P<rest>(?:[\w'-]+\s+){{1,3}}?"
                       r"(?:my|our)\s+[^?]+)\?", re.I)
_MIGHT = "I might "
# A first-person statement said with a question's rise ("I've been learning Greek since March?", what is left
# of "you know I've been ..." once the clause splitter drops "you know") tells, it does not ask.
_RISING = re.compile(r"^(?P<said>[^?]+)\?+\W*$")
# Not a statement with a rise when it still asks: a question after a comma or colon ("my name is Kai, how may I
# help you?", "I was thinking: why don't you come?") or an indirect one ("I'm curious to know if ...").
_STILL_ASKS = re.compile(rf"[,:;]\s*(?:(?:but|so|and)\s+)?(?:what|when|where|which|who|whose|why|how|{AUXILIARIES}|"
                         r"may|shall|might|must|won'?t|don'?t|didn'?t|isn'?t|aren'?t)\b"
                         r"|\b(?:wonder|wondering|curious|know)\b[^?]*\b(?:if|whether|what|when|where|which|who|why|"
                         r"how)\b", re.I)
# An echo question: a few words naming a thing or a time, no question word, auxiliary or subject pronoun first.
ECHO_MAX_WORDS = 4
"""Words of an echo question ('Pasta again?', 'The red one?'); invented batch 4 of question_facts.json."""
_ECHO_OPENS = re.compile(rf"^(?:{AUXILIARIES}|what|when|where|which|who|whose|why|how|you|u|i|we|it|"
                         r"they|he|she|any|anything|more|really|seriously|sure|right|ok|okay|yes|no|so)\b", re.I)
_ECHO_TAIL = re.compile(r"\s+(?:again|too|then|now|instead|as\s+well)$", re.I)
# A teaser: the asker's own doing asked as a guess ("guess where I'm going", "what do you think I adopted"), the
# clause uninverted after a guessing frame (closed class: guess, can you guess, you'll never guess, do/would you
# think/reckon/guess), so "where did I put my keys?" (asked of oneself) is no teaser.
_GUESS = r"(?:guess|(?:can|could)\s+(?:you|u)\s+guess|(?:you|u)'?ll\s+never\s+guess)"
_TEASE_WH = r"(?:what|where|when|who|whom|which\s+[\w'-]+|how\s+(?:many|much|long|far|old)(?:\s+[\w'-]+)?)"
_TEASER = re.compile(rf"^{LEAD_INS}(?:{_GUESS}\s+(?P<wh>{_TEASE_WH})|(?P<wh2>{_TEASE_WH})\s+(?:do|would|d)\s+"
                     r"(?:you|u|ya)\s+(?:think|reckon|guess))\s+(?P<said>(?:i|i'm|im|i've|ive|i'll|i'd|we|we're|we've|my\s+[\w'-]+)\b"
                     r"[^?]*)\?+\W*$", re.I)
# "guess who passed probation", "guess who's moving to Leeds?": the asker's own news told as a riddle; its
# answer, the asker, is left to the listener. A third person's pronoun in it ("guess who broke their wrist")
# names someone else, and "guess who cares" or "guess who's back" tells nothing the rules admit.
_GUESS_WHO = re.compile(rf"^{LEAD_INS}(?:i\s+)?{_GUESS}\s+who"
                        r"(?P<verb>'s|\s+(?!(?:i|you|u|we|knows|cares|else|did|does|do)\b)[\w'-]+)"
                        r"(?P<rest>[^?]*)\?*\W*$", re.I)
_THIRD = re.compile(r"\b(?:he|she|they|his|her|hers|their|theirs|him|them|himself|herself|themselves)\b", re.I)
_WHO_VERB = {"'s": "I'm", "is": "I am", "has": "I have", "was": "I was", "s": "I'm"}
_ARTICLES = frozenset({"a", "an", "the", "my", "our", "some"})
TEASER_MAX_WORDS = 8
"""Words of a teaser's answer ('Lisbon!', 'A treehouse for the twins.'); longer is a statement of its own."""
# What the asker's statement points back with: the first of these is put in for the echo's words.
_POINTER = re.compile(r"\b(?:it|them|that|then)\b", re.I)
# The asker as the subject of what they say first ("I was baking", "my name is"), not "remind me again".
_SAYS_I = re.compile(rf"^\W*(?:(?:{LEAD_WORDS}|yeah|yes|honestly)\W+)*"
                     r"(?:i|i'm|im|i've|ive|i'd|my|we|we're|we've|our)\b", re.I)
# What a question offers or asks for is no fact of anyone's: "do you need help", "don't you want to come", or an
# opinion it asks ("do you think ...").
_OFFER = re.compile(rf"\b(?:{OFFER_WORDS}|think|reckon|feel|mean)\b", re.I)
# An open question asks whether there is any: "have you applied to any college", "when do you ever cook".
# So does one asking for a taste: "what are your favourite things to do in Tallinn".
_OPEN = re.compile(r"\b(?:any|anything|anywhere|anyone|ever|favou?rites?|fave)\b", re.I)
_POSITIVE = {"didnt": "did", "didn't": "did", "isnt": "is", "isn't": "is", "arent": "are", "aren't": "are",
             "wasnt": "was", "wasn't": "was", "werent": "were", "weren't": "were", "havent": "have",
             "haven't": "have", "hasnt": "has", "hasn't": "has", "dont": "do", "don't": "do", "doesnt": "does",
             "doesn't": "does", "r": "are"}
_COPULA = frozenset({"is", "are", "was", "were"})
# What follows a copula when the clause tells something: a doing, a done or a place ("are you going skiing").
_PREDICATE = re.compile(r"(?:[a-z]+ing|[a-z]+ed|from|in|at|on|with|to|into|back|still|moving|living|based)\b", re.I)
_FIRST = {"you": "I", "u": "I", "your": "my", "ur": "my", "yours": "mine"}


@dataclass(frozen=True)
class Embedded:
    """A question's embedded clause as a statement, still with I/you in it, and whose it is."""

    said: str
    """The clause as a statement in the asker's words: 'you did visit Lisbon', 'cousin Wilma is flying in'."""
    whose: str
    """'listener', 'asker', or 'news' (a third person: the asker's news)."""
    asked: str
    """What the wh-word asks of the clause ('which street'), or '' for the other frames."""
    told: bool = False
    """True when the asker says the clause before the question ('I sold the van, how about you?'): stated."""
    hedged: bool = False
    """True when the asker only asks advice on their own plan ('should I sell my van?' -> 'I might sell my van')."""
    teaser: bool = False
    """True for a teaser the asker answers or a 'guess who' riddle: told, not presupposed."""


def _frame(text: str) -> Embedded | None:
    if (m := _TOLD_FIRST.match(text)) and _SAYS_I.match(m["said"]):
        return Embedded(m["said"].strip(" ,"), "asker", "", told=True)
    if told := _told_inside(text):
        return Embedded(told, "asker", "", told=True, hedged=told.startswith(_MIGHT))
    if m := _HEARD.search(text):
        rest = m["rest"].strip(" ,")
        return Embedded(rest, _whose(rest, "news"), "")
    for pattern in (_NEGATIVE, _WH_ASKS):
        if (m := pattern.search(text)) is None:
            continue
        aux = _POSITIVE.get(m["aux"].lower(), m["aux"].lower())
        rest = m["rest"].strip(" ,")
        if not rest:
            return None
        if aux in _COPULA and not _PREDICATE.match(rest):
            return None  # "what are your plans", "what is your favourite film": asks for a value, tells none
        subject = m["subject"]
        whose = "listener" if LISTENER_SAID.match(subject) else "asker"
        asked = m.groupdict().get("wh") or ""
        return Embedded(f"{subject} {aux} {rest}", whose, asked)
    return None


def _told_inside(text: str) -> str | None:
    """The asker's first-person statement inside a question (tag, 'you know', a judgement, own plan), or None."""
    for pattern in (_TAGGED, _YOU_KNOW, _JUDGED, _RISING):
        if (m := pattern.match(text)) and _SAYS_I.match(m["said"]) and not _STILL_ASKS.search(m["said"]):
            return m["said"].strip(" ,")
    m = _OWN_PLAN.match(text)
    return f"{_MIGHT}{m['rest'].strip(' ,')}" if m else None


# The echo a reply opens with to set its answer's terms: "For a weekday in Gorran? Yes", "In this wind? No way".
# A preposition first, at most ANSWER_ECHO_MAX_WORDS words (not chosen by measuring: a phrase, not a
# clause); a plain echo ("The red one?") keeps ``ECHO_MAX_WORDS``.
ANSWER_ECHO_MAX_WORDS = 8
_TERMS = re.compile(r"^(?:for|in|on|at|with|without|after|before|by|from|next\s+to|since|during)\b", re.I)


_ASKS_SOMETHING = re.compile(r"\b(?:what|who|whom|whose|where|when|why|how|which|guess)\b", re.I)


def answer_echo(text: str, then: str | None) -> str | None:
    """A reply's echo question and the answer after it as one clause ('For a weekday in Gorran, yes'), or None.

    The echo asks nothing of the listener: it repeats the terms of their question before answering it, so the
    answer is read with them. None when the next clause is missing or itself a question.
    """
    echo = _ECHO_TAIL.sub("", straighten(text).strip().rstrip("?!. ").strip())
    answer = (then or "").strip()
    most = ANSWER_ECHO_MAX_WORDS if _TERMS.match(echo) else ECHO_MAX_WORDS
    if not text.rstrip().endswith("?") or not echo or not answer or answer.endswith("?") \
            or len(echo.split()) > most or _ECHO_OPENS.match(echo) or "," in echo or _ASKS_SOMETHING.search(echo):
        return None  # "Cute, right?" asks agreement, "Guess what?" teases: no echo
    return f"{echo}, {answer[:1].lower() + answer[1:] if answer[:1].isupper() and not answer.isupper() else answer}"


def _echo_told(text: str, then: str) -> str | None:
    """The asker's statement after an echo question, the echo put in for its pointer, or None."""
    echo = _ECHO_TAIL.sub("", text.strip().rstrip("?!. ").strip())
    if not text.rstrip().endswith("?") or not echo or len(echo.split()) > ECHO_MAX_WORDS \
            or _ECHO_OPENS.match(echo) or not _SAYS_I.match(then) or not _POINTER.search(then):
        return None
    if not any(c.isupper() for c in echo[1:]):
        echo = echo[:1].lower() + echo[1:]
    return _POINTER.sub(echo, then.strip().rstrip("?!. "), count=1)


def answered(text: str, then: str | None, words: Callable[[str], list[str]]) -> Embedded | None:
    """The asker's teaser with its answer in the next clause ('I'm going in May: Lisbon'), or None.

    ``words``: a clause's answer words; an answer without one ("nothing", "me!") tells nothing.
    """
    m = _TEASER.match(straighten(text))
    answer = straighten(then or "").strip().rstrip("!.?~ ").strip()
    if m is None or not answer or "?" in (then or "") or len(answer.split()) > TEASER_MAX_WORDS \
            or not words(answer):
        return None
    if answer.split()[0].lower() in _ARTICLES:  # 'A treehouse' -> 'a treehouse'; a name keeps its capital
        answer = answer[:1].lower() + answer[1:]
    said = m["said"].strip(" ,")
    return Embedded(f"{said}: {answer}", "asker", (m["wh"] or m["wh2"]).lower(), told=True, teaser=True)


def guessed(text: str, then: str | None) -> Embedded | None:
    """The asker's news told as 'guess who ...' with no answer after it, said of the asker and hedged, or None."""
    m = _GUESS_WHO.match(straighten(text))
    if m is None or _THIRD.search(m["rest"]) or (then and not re.fullmatch(r"\W*me\W*", then, re.I)):
        return None
    verb = m["verb"].strip()
    said = f"{_WHO_VERB.get(verb.lower(), 'I ' + verb)}{m['rest']}".strip(" ,!.")
    return Embedded(said, "asker", "", told=True, hedged=True, teaser=True)


def _whose(text: str, default: str) -> str:
    if LISTENER_SAID.search(text):
        return "listener"
    return "asker" if ASKER_SAID.search(text) else default


def _first_person(said: str, whose: str) -> str:
    """The clause as the person it is about would say it: 'you did visit Lisbon' -> 'I did visit Lisbon'."""
    if whose != "listener":
        return said
    return re.sub(r"\b(?:you|u|your|ur|yours)\b", lambda m: _FIRST[m.group(0).lower()], said, flags=re.I)


def embedded(text: str, words: Callable[[str], list[str]], known: frozenset[str], people: set[str],
             judged: Callable[[str], bool], then: str | None = None) -> Embedded | None:
    """The question's embedded clause when it is judged a fact like a statement, else None.

    ``words``: a clause's answer words; ``known``: names the chat wrote before; ``people``: the speakers' names
    (lowercased, no detail); ``judged``: whether the admission rules admit a statement (first person);
    ``then``: the asker's clause right after the question, when an echo question leads into it.
    """
    if (teased := answered(text, then, words) or guessed(text, then)) and judged(teased.said):
        return teased
    if then and (said := _echo_told(straighten(text), straighten(then))) and not judged(straighten(then)) \
            and judged(said):
        return Embedded(said, "asker", "", told=True)
    found = _frame(straighten(text))
    if found is not None and found.told:  # the asker's statement, judged as said; else its last piece
        last = found.said.rsplit(",", 1)[-1].strip()
        said = next((s for s in dict.fromkeys([found.said, last]) if _SAYS_I.match(s) and judged(s)), None)
        return replace(found, said=said) if said else None
    if found is None or _OFFER.search(found.said):
        return None
    asked = found.asked.split(maxsplit=1)[1:]  # 'which street in Tallinn' -> 'street in Tallinn'
    clause = " ".join([_first_person(found.said, found.whose), *asked])
    told = [w for w in words(clause) if w not in people]
    anchor = reusable.anchor(clause) or news.anchor(clause, known)
    detail = anchor is not None and anchor.lower() not in people
    if not detail or len(told) < EMBEDDED_MIN_WORDS or _OPEN.search(clause):
        return None
    return found if judged(clause) else None


def statement(found: Embedded, asker: str, listener: str | None) -> str:
    """What the question takes as known, the person named: 'Ines did visit Lisbon (which street)'."""
    said = " ".join(found.said.split())
    if found.whose == "news" and not rules.FIRST_PERSON.search(said):
        said = f"{asker}'s news: {said}"
    text = rewrite_person(said, asker, listener) if listener else said
    for who in filter(None, (asker, listener)):
        text = re.sub(rf"\b{re.escape(who)} are\b", f"{who} is", text)
        text = re.sub(rf"\b{re.escape(who)} have\b", f"{who} has", text)
        text = re.sub(rf"\b{re.escape(who)} do\s+(?=\w)", f"{who} does ", text)
    asked = found.asked.split(maxsplit=1)
    if len(asked) > 1 and content_words(asked[1]):
        text = f"{text} ({found.asked.lower()})"
    return text[:1].upper() + text[1:]
