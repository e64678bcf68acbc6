"""A fact of the listener's that the speaker tells them: their age, what they did, had, do or said.

Chat tells the listener their own facts back: "you're 31", "you made flashcards", "you had 9 croquetas",
"You always say that, and you always do well.", "and u do the booking stuff with gulliver". Such a clause says
no "I", so it read as no personal fact; it is a fact of the listener's, said by the speaker, and is written with the
listener's name ("Ivo made flashcards"), kept in the speaker's namespace as every fact they say is.
Only a statement: a past verb, a present one of a closed list of doings, or one after "always"/"usually"/"never"/
"often". Not a question, a wish, advice or a guess ("you should", "you must be tired": no such verb follows "you"),
a generic "you" ("you never know", "when you pack you always forget something"), nor a reaction ("you did it!",
which ``clause_admission`` leaves out as saying nothing besides the name). Nor praise, a figure of speech or a tease
that reads as a deed ("you did all of it", "you looked strong", "you have no idea", "you run better than anyone").
The leads before "you" are ``markers.REACTION_LEADS``, advice and guesses ``markers.ADVICE`` and ``asked.HEDGE``; the
verb lists are this room's own: ``verbs.IRREGULAR_PASTS`` and ``markers``' told pasts read any past ("you thought",
"you knew" are no deeds), ``threads``' own verbs any finite verb.
"""

from __future__ import annotations

import re

from dmem.decisions.offline.circle import Circle
from dmem.decisions.offline.markers import ADVICE, REACTION_LEADS
from dmem.decisions.offline.person import Person
from dmem.text.asked import HEDGE
from dmem.text.lexical import content_words

# Chat's words before "you" (``markers.REACTION_LEADS``); not "then" or "now", which draw a consequence or turn to a
# request ("then you have time", "now u teach me welsh").
_LEAD = rf"^\W*(?:{REACTION_LEADS}\W+)*"
# The listener's age, told them by the speaker ("you're 31", "ur 40 now"). Only the bare age: "you're 40 years too
# late" is no age.
_YOUR_AGE = re.compile(rf"{_LEAD}(?:you're|youre|you\s+are|ur|your)\s+"
                       r"(?:(?:now|only|already|just)\s+)?(?P<age>\d{1,2}|\w+teen|twenty|thirty|forty|fifty|sixty|"
                       r"seventy|eighty|ninety)(?:\s+now)?\W*$", re.I)
_YOU = r"(?:you|u)"
_ADVERB = r"(?:(?:already|just|actually|really|also|literally|still|even)\s+)"
_HABIT = r"(?:always|usually|never|often)"
# Past verbs of doing, having and saying (regular ones by their -ed), and present ones a listener does as a habit or
# a share of a task ("u do the booking"): a closed list, so "you know", "you look great", "you need a break" stay out.
_PAST = (r"(?:did|had|said|made|went|got|found|told|bought|ate|drank|won|lost|came|took|gave|brought|wrote|ran|"
         r"drove|sent|left|kept|paid|sold|broke|met|saw|forgot|(?!(?:need|feed|bleed|speed|breed|seed)\b)[a-z]{2,}ed)")
_DOING = r"(?:do|work|live|have|own|play|teach|drive|cook|run|speak|study|train|sing|swim|walk|bake|make|pay|book)"
# Verbs after a habit word that say no doing of the listener's: knowing, remembering, seeing, needing, wishing
# ("you always forget it's Tuesday" teases; it tells no habit).
_NOT_HABIT = (r"(?!(?:know|knew|think|mean|see|guess|need|want|wish|hope|look|sound|seem|feel|forget|remember|can|"
              r"could|will|would|should|must|might)\b)")
_DEED = re.compile(rf"{_LEAD}{_YOU}\s+{_ADVERB}*(?:{_PAST}|{_DOING}|{_HABIT}\s+{_ADVERB}*{_NOT_HABIT}[a-z]+)\b", re.I)
# A clause that is no statement of the listener's: a question, a condition or time clause around "you" (a generic
# "you"), a guess, a wish, advice (``ADVICE``, ``HEDGE``) or what the listener can or will do, praise ("you really
# showed your strength", "you did good", "you got this", "you made it!", "you did it yourself", "you looked strong",
# "you run better"), a figure of speech or a tease ("you have no idea", "a saying for everything", "you have been
# warned") and what the listener made someone feel ("u made him laugh", "you make it sound easy"). "you told me!" is
# about the chat, no deed. Chosen on released batches 1-12 and 22-24 (h65c).
_NOT_TOLD = re.compile(r"\?|\b(?:if|when|whenever|once|unless|until|as\s+if|bet|guess|hope|wish|"
                       r"can|can't|cannot|will|won't|(?:have|has|had|got)\s+to|gotta|"
                       r"really|such|so|very|great|amazing|awesome|perfectly|brilliant|incredible|talent|proud|kudos|"
                       r"potential|got\s+(?:this|it|through)|"
                       r"(?:made|nailed|smashed|aced|rocked|killed|crushed)\s+(?:it|that|this)(?=\W*$)|"
                       r"(?:did|do|done)\s+(?:good|great|well|amazing)|(?:did|done)\s+(?:it|that|this|all)|better|worse|"
                       r"(?:looked|sounded|seemed)(?!\s+(?:after|for|into|at|up|over|through)\b)|"
                       r"no\s+(?:idea|clue)|been\s+warned|everything|"
                       r"(?:did|do|does)\s+(?:not\s+)?(?:tell|say|mention)|"
                       r"told\s+(?:me|us)(?:\s+(?:that|so|already|before|earlier|yesterday))?(?=\W*$)|"
                       r"(?:didn't|don't|doesn't|weren't|aren't|haven't|won't)\s+(?:you|u)(?=\W*$)|"
                       r"(?:make|makes|made)\s+(?:\w+\s+){0,3}?(?:laugh|cry|smile|sound|feel|look|happy|day))\b", re.I)
# A bare auxiliary or "said" says nothing of its own ("you did!", "you did not", "u do, in ur own way", "u said").
_BARE = re.compile(rf"{_LEAD}{_YOU}\s+(?:(?:did|do|does|had|have)(?:\s+not|n't)?|said(?:\s+(?:it|so))?)\s*(?:[,.!]|$)",
                   re.I)
# A "you" the speaker says of the listener's habit: what they always do well is no praise of one deed.
_HABIT_WELL = re.compile(r"\b(?:always|usually)\s+(?:do|does)\s+well\b", re.I)
# The listener's lines just before, whose content words an echo repeats (over ECHO_SHARE of its own): their own news
# told back ("I found my true self" / "you found your true self") is theirs already, formed from their line. A habit
# told them ("you never bring potions" after "forgot potions again") is no echo.
_ECHO_LINES = 2
ECHO_SHARE = 0.5
# Each "you" in the clause, with the verb after a subject one (past an adverb), for the third person.
_SUBJECT_VERB = re.compile(rf"(?:^|(?<=[,;.]\s)|(?<=\band\s)|(?<=\bbut\s)|(?<=\bso\s))\b{_YOU}\s+"
                           rf"(?P<adv>{_ADVERB}*(?P<habit>{_HABIT}\s+)?{_ADVERB}*)(?P<verb>[a-z']+)", re.I)
_CONTRACTED = {"you're": " is", "youre": " is", "you've": " has", "you'll": " will", "you'd": "'d"}
_THIRD = {"are": "is", "were": "was", "have": "has", "do": "does", "go": "goes", "don't": "doesn't",
          "dont": "doesn't", "haven't": "hasn't", "aren't": "isn't", "weren't": "wasn't"}


def listener_age(text: str, circle: Circle) -> tuple[str, Person] | None:
    """The listener's age told them (``_YOUR_AGE``) as a fact of theirs: ("Ivo is 31", the listener)."""
    if (age := _YOUR_AGE.match(text)) is None or not circle.listener:
        return None
    return f"{circle.listener} is {age['age']}", _listener(circle)


def listener_deed(text: str, circle: Circle) -> tuple[str, Person] | None:
    """What the listener did, had, does or said, told them (``_DEED``), with their name ("Ivo made flashcards")."""
    rest = _HABIT_WELL.sub("", text)
    if not circle.listener or not _DEED.match(text) or _NOT_TOLD.search(rest) or ADVICE.search(rest) \
            or HEDGE.search(rest) or _BARE.match(text) or (not re.search(_HABIT, text, re.I) and _echo(text, circle)):
        return None
    lead = re.match(_LEAD, text, re.I)
    start = lead.end() if lead else 0
    told = _written(text[start:], circle.listener)
    return text[:start] + told[:1].upper() + told[1:], _listener(circle)


def _echo(text: str, circle: Circle) -> bool:
    """Whether the clause mostly repeats what the listener's last lines said (its content words besides the verb)."""
    theirs = [m.text or "" for m in circle.prior if m.speaker != circle.message.speaker][-_ECHO_LINES:]
    said = set(content_words(" ".join(theirs)))
    words = [w for w in content_words(text) if not re.fullmatch(rf"{_PAST}|{_DOING}", w)]
    return bool(words) and sum(w in said for w in words) > ECHO_SHARE * len(words)


def _listener(circle: Circle) -> Person:
    """The listener as a person the speaker names (the speaker tells it)."""
    name = circle.listener or ""
    return Person(name.lower(), name, circle.message.speaker, "n")


def _written(text: str, name: str) -> str:
    """``text`` with every "you" the listener's name, a subject's verb in the third person ("you say" -> "Ivo says")."""
    def subject(m: re.Match[str]) -> str:
        verb = m["verb"]
        present = m["habit"] or re.fullmatch(_DOING, verb, re.I) or verb.lower() in _THIRD
        return f"{name} {m['adv']}{_third(verb) if present else verb}"

    text = re.sub(r"\b(?:you're|youre|you've|you'll|you'd)\b", lambda m: f"{name}{_CONTRACTED[m[0].lower()]}",
                  text, flags=re.I)
    text = _SUBJECT_VERB.sub(subject, text)
    text = re.sub(r"\b(?:your|ur)\b", f"{name}'s", text, flags=re.I)
    return re.sub(rf"\b(?:{_YOU}|yourself)\b", name, text, flags=re.I)


def _third(verb: str) -> str:
    """A present verb in the third person ("say" -> "says"); a past or irregular one as it is."""
    low = verb.lower()
    if low in _THIRD:
        return _THIRD[low]
    if re.fullmatch(_PAST, low) or low.endswith(("s", "'t")) or not low.isalpha():
        return verb
    if low.endswith(("ch", "sh", "x", "o")):
        return verb + "es"
    if low.endswith("y") and low[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"
