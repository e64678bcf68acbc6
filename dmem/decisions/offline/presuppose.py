"""What a question presupposes: the fact a question carries about the asker or the listener, as a statement.

People ask about what they already know of each other, and the question says it: "How's your new puppy
settling in?" (the listener has a new puppy), "Are you still at the bakery?" (the listener has been at the
bakery), "When do you start at the new firm?" (the listener will start there), "Want to come to my recital on
friday?" (the asker has a recital), "Did you finish the game I lent you?" (the asker lent the listener a game).
Five shapes carry a fact (``presupposed`` names the words): a thing, person or occasion someone has ("your
new puppy", "my sister's party": ``OWNED``), a clause about what someone did to it ("the game I lent you"),
"still" before what someone does or where they are, a question asking when a planned move happens, and
"how's the new job". Four more came at stop 44: a question the next clause of the message vouches for ("have
you tried the ramen bar on Dock Street? it's incredible": the asker has been), a plan asked after ("did you end
up buying the van?", "did you get to see the lanterns after all?": the listener meant to), a tail to confirm
("where are you working now, still the bakery?": the listener has been there), and the asker's own news said
inside the question ("can you believe I finally passed my driving test?"). A question asking for a taste or
for news ("What's your favourite film?", "Any plans?", "How was your day?", "Have you tried the ramen bar?" with
nothing after it) has none of them, and "still" before a passing state ("Are you still there?") is no fact.
"What got you into rowing?" takes the listener's pursuit as known too, but the reply they give says it and names
the question (stop 44: stating it as well added 0.5 % memories per turn and no evidence turn): left to the reply.

``statement`` writes the fact as a statement naming the right person ("Ines lent Olek the puzzle game",
"Olek has a new puppy"); it gives None when the question says more than the statement would keep ("Is your
mom feeling better after the fall?"), and the splitter then keeps the question as asked.
"""

from __future__ import annotations

__all__ = ["OWNED", "QFACT_LEFTOVER_WORDS", "QFACT_MIN_WORDS", "presupposed", "statement"]

import re

from dmem.decisions.offline import register, rules
from dmem.decisions.offline.pronouns import rewrite_person
from dmem.decisions.offline.telegraphic import BODY, PERSONAL_NOUNS
from dmem.text.lexical import STOPWORDS, content_words, straighten
from dmem.text.nouns import indefinite
from dmem.text.verbs import IRREGULAR_PASTS, participle
from dmem.text.words import wordset

QFACT_MIN_WORDS = 2
"""Informative words a question with a presupposing phrase needs ('your new puppy settling': 3)."""
QFACT_LEFTOVER_WORDS = 1
"""Informative words of the question a statement may leave out before the question is kept as asked instead."""

_OCCASIONS = wordset("wedding trip recital concert birthday party show gig race marathon audition move vacation "
                     "holiday match tournament graduation engagement exhibition performance operation treatment "
                     "recovery renovation project business shop restaurant bakery novel band studio garden defense "
                     "defence test results")
_NOT_OWNED = wordset("name favorite favourite fave family fam parents folks friends phone laptop")
OWNED = (PERSONAL_NOUNS | _OCCASIONS) - _NOT_OWNED
"""Nouns of what a person has or holds, whose 'your'/'my' in a question tells that they have it."""
_BODY = BODY  # the listener's body is news only about an injury
_NOUN = "|".join(sorted(OWNED, key=len, reverse=True))
_MOD = r"(?:new|old|little|baby|big|older|younger|oldest|youngest|eldest|ex|best|first)"
_HEADS = wordset("exam test interview class course lesson appointment surgery operation presentation defense "
                  "defence party recital concert show results trip match race audition")
_COMPOUND = rf"[\w'-]+\s+(?=(?:{'|'.join(sorted(_HEADS))})\b)"  # 'your driving exam', 'my thesis defense'
_OWN = re.compile(rf"\b(?P<who>my|your|ur)\s+(?P<mod>(?:{_MOD}\s+){{0,2}}(?:{_COMPOUND})?)(?P<noun>{_NOUN})\b"
                  rf"(?:'s\s+(?P<noun2>(?:[\w-]+\s+(?={_NOUN}))?[\w-]+))?"
                  r"(?P<tail>\s+(?:to|in|at|on|with|from)\s+(?:the\s+)?(?-i:[A-Z]\w+|[a-z]+day|[\w'-]+))?", re.I)
# "my new tattoo", "your new bike": anything new someone has is a fact about them ("your New Year plans" is not).
_NEW_OWN = re.compile(r"\b(?P<who>my|your|ur)\s+(?P<mod>(?-i:new)\s+)(?P<noun>(?!(?:one|thing|stuff|place)\b)[a-z]+)"
                      r"(?P<noun2>)(?P<tail>)", re.I)
_PAST = "|".join(sorted(IRREGULAR_PASTS | {"brought", "cooked"}, key=len, reverse=True))
_PRONOUN_OBJECT = r"(?:you|u|me|us|him|her|them)"
_ASKER, _LISTENER = "\x00asker\x00", "\x00listener\x00"  # object pronouns, named after rewrite_person
_PARTICLE = r"(?:up|out|off|in|on|at|for|with|to|from|about|over|into|around|back)"
# "anything else that keeps you inspired": 'that' opens a relative clause there, it names nothing.
_NOT_DETERMINED = wordset("else anything something everything nothing one all any stuff thing things way")
# A preposition is stranded ("the bar I work at") only where the clause ends, so "the garden you planted in
# spring" keeps 'in spring' out of the statement.
_CLAUSE_END = r"(?=\s*(?:[?.!,;]|$|(?:yesterday|today|earlier|before|ago|last\s+\w+|this\s+\w+)\b))"
_VAGUE_HEAD = wordset("way thing things stuff one ones time times day point part kind sort bit lot what pic pics "
                       "photo photos picture pictures")
# "the puzzle game I lent you", "the noodle bar I work at", "the house you're renovating".
_RELATIVE = re.compile(
    r"\b(?:the|that|this|those|these)\s+(?P<np>(?:[\w'-]+\s+){0,2}?[\w'-]+)\s+(?:that\s+|which\s+)?"
    r"(?P<subj>i|you|u)(?P<aux>(?:'m|'re|'ve|\s+(?:am|are|were|was|have|has|had|just|recently|finally))*)\s+"
    rf"(?P<verb>{_PAST}|[a-z]+[^e\W]ed|[a-z]+ing|work|live|teach|study|coach|run|own|play|volunteer)\b"
    rf"(?P<rest>(?:\s+{_PRONOUN_OBJECT}\b)*(?:\s+{_PARTICLE}(?:\s+{_PRONOUN_OBJECT})?{_CLAUSE_END})?)"
    r"(?P<when>\s+(?:yesterday|today|earlier|last\s+\w+|this\s+\w+|\w+\s+\w+\s+ago)(?=\s*(?:[?.!,;]|$)))?", re.I)
# "are you still at the bakery?", "do you still play the cello?", "is your brother still in the navy?", "is Wenna
# still at the harbour office?" (a third person named, capitalised: 'is It still ...' names no one, ``_still``).
_STILL = re.compile(r"\b(?P<aux>are|is|do|does)\s+(?P<who>you|u|(?:your|ur)\s+[\w-]+|(?-i:[A-Z][a-z][\w-]*))\s+still\s+"
                    r"(?P<pred>[^?.!,]+)", re.I)
# "where r u working now, still the coffee place?": a tail to confirm what the listener has been doing.
_STILL_TAIL = re.compile(r"(?:^|[,;]\s*)still\s+(?P<prep>(?:at|with|in|on)\s+)?"
                         r"(?P<pred>(?:the|your|ur)\s+[^?.!,]*\w)\s*(?:\?|$)", re.I)
_STILL_IDLE = wordset("there here up awake around online alive busy mad angry upset sick ok okay free coming going "
                      "mine figuring deciding thinking considering waiting wondering planning debating")
_NOW = re.compile(r"\b(?:now|tonight|today|tomorrow|later|right)\b", re.I)
# "when do you start at the new firm?", "when are you moving to Porto?", "when did you start climbing?"
_WHEN = re.compile(
    r"\b(?:when|what\s+time|what\s+day|how\s+soon)\s+(?P<aux>do|will|are|did)\s+(?P<who>you|u)\s+"
    r"(?:going\s+to\s+)?(?P<verb>start|begin|leave|move|fly|graduate|finish|return|head|go\s+back|come\s+back|"
    r"starting|leaving|moving|flying|graduating|finishing|returning|heading|going\s+back|coming\s+back)\b"
    r"(?P<rest>[^?.!,]*)", re.I)
# "how's the new job treating you?", "how do you like the new apartment?"
_NEW = re.compile(r"\bhow(?:'s|s|\s+is|\s+are|\s+was|\s+do\s+you\s+like|\s+are\s+you\s+liking|\s+are\s+you\s+finding|"
                  r"\s+did\s+you\s+like)\s+(?:the|your|ur)\s+new\s+(?P<noun>(?!(?:one|thing|stuff)\b)[\w'-]+)", re.I)
# "have you tried the ramen bar on Dock Street? it's incredible": the asker vouches, in the next clause, for
# what the question offers, so the asker has done it; without the vouching it is only a question.
_TRIED = re.compile(r"\b(?:have|did)\s+(?:you|u)\s+(?:ever\s+)?(?P<verb>tried|try|been\s+to|seen|see|watched|watch|"
                    r"read|visited|visit|played|play|heard|listened\s+to|eaten\s+at|gone\s+to|go\s+to)\s+"
                    r"(?P<obj>[^?.!,;]*\w)", re.I)
_DONE = {"try": "tried", "see": "seen", "watch": "watched", "visit": "visited", "play": "played", "go to": "been to",
         "gone to": "been to"}
_GOOD = (r"(?:incredible|amazing|awesome|great|fantastic|wonderful|delicious|beautiful|brilliant|unreal|stunning|fun|"
         r"the\s+best|so\s+good|so\s+much\s+fun|a\s+must|worth\s+it|life[- ]changing)")
_VOUCHES = re.compile(
    rf"^\s*(?:(?:oh\s+|honestly\s+|seriously\s+)?(?:it|that|this|they|the\s+\w+)(?:'s|'re|\s+is|\s+are|\s+was|\s+were)\s+"
    rf"(?:(?:such|so|an|a|truly|really|absolutely|just|very)\s+)*{_GOOD}|i\s+(?:(?:really|absolutely|just)\s+)?"
    r"(?:loved|love|liked|enjoyed|went|did|tried|saw|watched|visited|recommend)\b|(?:highly\s+|i\s+)?recommend|"
    r"you\s+(?:have|need|should|must|gotta)\s+(?:to\s+)?(?:try|go|see|watch|read|visit|check))", re.I)
# "can you believe I finally passed my driving test?", "did I tell you we adopted a kitten?": the asker's own news
# said inside the question; the statement is that news.
_NEWS_INSIDE = re.compile(r"^\s*(?:(?:so|oh|omg|hey|and)\W+)*(?:can|could)\s+(?:you|u)\s+believe\s+(?:that\s+)?"
                          r"(?P<said>(?:i|we|my|our)\b[^?]*\w)"
                          r"|^\s*(?:(?:so|oh|omg|hey|and)\W+)*(?:did|have)\s+i\s+(?:tell|told|mention|mentioned)\s+"
                          r"(?:(?:you|u)\s+|to\s+(?:you|u)\s+)?(?:that\s+)?(?P<said2>(?:i|we|my|our)\b[^?]*\w)", re.I)
# "did you end up buying the van?", "did you get to see the show after all?": the listener meant to do it.
_MEANT = re.compile(r"(?:^|[,;]\s*)(?:(?:so|and|but|oh|hey|wait)\s+)?did\s+(?:you|u)\s+(?:ever\s+)?"
                    r"(?:(?P<gerund>end\s+up)\s+(?P<ing>(?!(?:winning|losing|being|having|getting|doing)\b)\w+ing)|"
                    r"(?:finally|actually|ever)?\s*(?:get\s+to|manage\s+to|go\s+ahead\s+and|finally)\s+(?P<verb>\w+)|"
                    r"(?P<plain>\w+)(?=[^?.!,;]*\b(?:after\s+all|in\s+the\s+end)\b))"
                    r"(?P<obj>[^?.!,;]*?)\s*(?:after\s+all|in\s+the\s+end|eventually)?"
                    r"\s*(?=[?.!,;]|$|\s+(?:you|u|i)\s)", re.I)
_PAST_ASK = re.compile(r"\b(?:did|was|were|went|how'd|been)\b", re.I)
# A question about the listener's body carries a fact only about an injury or illness ("did your knee heal?").
_HURT = re.compile(r"\b(?:heal\w*|hurt\w*|injur\w*|surgery|operation|broke|broken|sprain\w*|recover\w*|pain|better)\b",
                   re.I)
_ASKING = wordset("going doing settling treating coming along like liking enjoy enjoying excited nervous ready want "
                  "wanna come now yet still old hows how's whats what's finding find get chance name")


def _words(text: str) -> list[str]:
    return [w for w in content_words(text) if w not in rules.VAGUE_WORDS and w not in rules.INTERJECTIONS]


def _relative(text: str) -> re.Match[str] | None:
    for m in _RELATIVE.finditer(text):
        head = m["np"].lower().split()
        before = text[: m.start()].split()[-1:]
        relativizer = m.group(0)[:4].lower() == "that" and before and before[0].lower() in _NOT_DETERMINED
        if not relativizer and not set(head) & _VAGUE_HEAD and _words(m["np"]):
            return m
    return None


def _still(text: str) -> re.Match[str] | None:
    """'still' before what someone does or where they are; not before a passing state ('still up', 'still there')."""
    m = _STILL.search(text)
    if m is None or _NOW.search(m["pred"]) or m["pred"].split()[0].lower() in _STILL_IDLE \
            or (m["who"][:1].isupper() and m["who"].lower() in STOPWORDS):
        return None
    named = [w for w in _words(m["pred"]) if w not in _STILL_IDLE and not w.endswith("ing")]
    return m if named else None


def _own(text: str) -> re.Match[str] | None:
    """'your new puppy', 'my sister's party', 'my new tattoo'; the listener's body only about an injury."""
    for m in [*_OWN.finditer(text), *_NEW_OWN.finditer(text)]:
        if m["noun"].lower() not in _BODY or _HURT.search(text):
            return m
    return None


def _tried(text: str, then: str | None) -> re.Match[str] | None:
    """'have you tried X' when the clause after it vouches for X ("it's incredible", "I loved it")."""
    m = _TRIED.search(text)
    return m if m is not None and then and _VOUCHES.match(straighten(then)) else None


_IDLE_OBJECT = wordset("today tonight now there here lately recently it that this same one plan case")


def _named(words: str | None) -> bool:
    """Whether the object of a new shape names something ('the cello', 'Chile'; not 'today', 'there')."""
    return any(w.lower() not in _IDLE_OBJECT for w in _words(words or ""))


def _naming(pattern: re.Pattern[str], group: str, text: str) -> re.Match[str] | None:
    """The pattern's match in the text when its ``group`` names something (``_named``), else None."""
    m = pattern.search(text)
    return m if m is not None and _named(m[group]) else None


def _still_tail(text: str) -> re.Match[str] | None:
    return _naming(_STILL_TAIL, "pred", text)


def _meant(text: str) -> re.Match[str] | None:
    return _naming(_MEANT, "obj", text)


def presupposed(text: str, then: str | None = None) -> str | None:
    """The words by which a question carries a fact ('your new puppy', 'the game I lent you'), or None.

    ``then``: the clause of the same utterance after the question ('have you tried X? it's incredible').
    """
    shapes: list[re.Match[str] | None] = [_NEWS_INSIDE.search(text), _tried(text, then), _meant(text),
                                          _still_tail(text)]  # objects name things
    if len(_words(text)) >= QFACT_MIN_WORDS:
        shapes = [_relative(text), _still(text), _WHEN.search(text), _NEW.search(text), _own(text), *shapes]
    for m in shapes:
        if m is not None:
            return " ".join(m.group(0).split()).strip(" ,;")
    return None


def _from_relative(m: re.Match[str]) -> str:
    """'the puzzle game I lent you' -> 'I lent you the puzzle game'; 'the bar I work at' -> 'I work at the bar'."""
    rest = [{"you": _LISTENER, "u": _LISTENER, "me": _ASKER}.get(w.lower(), w) for w in m["rest"].split()]
    np = f"the {m['np']}"
    if len(rest) > 1 and rest[0] not in (_ASKER, _LISTENER) and rest[1] in (_ASKER, _LISTENER):
        tail = f"{np} {' '.join(rest)}"  # 'the poem I wrote for you' -> 'I wrote the poem for you'
    else:
        tail = f"{' '.join(rest)} {np}".strip()
    return f"{m['subj']}{m['aux']} {m['verb']} {tail}{m['when'] or ''}"


def _from_still(m: re.Match[str]) -> str:
    """'are you still at the bakery' -> 'you have been at the bakery'; 'do you still play X' -> 'you have played X'."""
    who, pred = m["who"], m["pred"].strip()
    have = "have" if who.lower() in ("you", "u") else "has"
    if m["aux"].lower() in ("are", "is"):
        return f"{who} {have} been {pred}"
    verb, _, rest = pred.partition(" ")
    return f"{who} {have} {participle(verb)} {rest}".strip()


def _from_when(m: re.Match[str]) -> str:
    verb, rest, aux = " ".join(m["verb"].split()), m["rest"].rstrip(), m["aux"].lower()
    if aux == "are":
        return f"{m['who']} are {verb}{rest}"
    if aux == "did":
        first, _, more = verb.partition(" ")
        return f"{m['who']} {participle(first)}{' ' + more if more else ''}{rest}"
    return f"{m['who']} will {verb}{rest}"


def _from_own(m: re.Match[str], text: str) -> str | None:
    """'your new puppy' -> 'you have a new puppy'; 'my sister's party' -> "my sister has a party".

    Only an occasion takes the question's tense ('how was your trip' -> 'had a trip'): someone one has stays had.
    """
    if m["noun"].lower() in _BODY:
        return None
    occasion = m["noun"].lower() in _OCCASIONS | _HEADS
    tail = (m["tail"] or "") if occasion else ""
    if m["noun2"] and not {w.lower() for w in m["noun2"].split()} & _NOT_OWNED:
        have = "had" if _PAST_ASK.search(text) else "has"
        return f"{m['who']} {m['mod']}{m['noun']} {have} {indefinite(m['noun2'])}{tail}"
    subject = "I" if m["who"].lower() == "my" else "you"
    have = "had" if occasion and _PAST_ASK.search(text) else "have"
    return f"{subject} {have} {indefinite(m['mod'] + m['noun'])}{tail}"


def _from_tried(m: re.Match[str], then: str) -> str:
    """'have you tried X' + "it's incredible" -> "I have tried X: it's incredible"."""
    verb = " ".join(m["verb"].lower().split())
    return f"I have {_DONE.get(verb, verb)} {m['obj'].strip()}: {then.strip().rstrip('.!')}"


def _from_meant(m: re.Match[str]) -> str:
    """'did you end up buying the van' -> 'you considered buying the van'; 'did you get to see X' -> 'planned to'."""
    obj = m["obj"].rstrip()
    if m["ing"]:
        return f"you considered {m['ing']}{obj}"
    return f"you planned to {m['verb'] or m['plain']}{obj}"


def _drafted(text: str, then: str | None = None) -> tuple[str, str] | None:
    """The statement with I/you still in it, and the part of the question whose words it must keep.

    For 'the game I lent you' that part is what follows the clause: the question around it is what was asked.
    """
    if m := _NEWS_INSIDE.search(text):
        return m["said"] or m["said2"], text[m.start("said" if m["said"] else "said2"):]
    if m := _relative(text):
        return (_from_relative(m), text[m.end():]) if m["subj"].lower() in ("i", "you", "u") else None
    if m := _still(text):
        return _from_still(m), text
    if m := _WHEN.search(text):
        return _from_when(m), text
    if m := _NEW.search(text):
        return f"you have {indefinite('new ' + m['noun'])}", text
    if (m := _own(text)) and (said := _from_own(m, text)):
        return said, text
    if then and (m := _tried(text, then)):
        return _from_tried(m, then), m["obj"]
    if m := _meant(text):
        return _from_meant(m), m["obj"]
    if m := _still_tail(text):
        return f"you have been {m['prep'] or 'at '}{m['pred']}", f"{text[: m.start()]} {m['pred']}"
    return None


def statement(question: str, asker: str, listener: str | None, then: str | None = None) -> str | None:
    """The fact a question carries as a statement naming the asker or the listener, or None.

    None also when the question says more than the statement keeps (``QFACT_LEFTOVER_WORDS``).
    ``then``: the clause of the same utterance after the question (see ``presupposed``).
    """
    drafted = _drafted(straighten(question), then)
    if drafted is None or listener is None:
        return None
    said = register.standard(drafted[0])  # 'ur' and 'u' written out, as admission reads them
    kept = {w.lower().removesuffix("'s") for w in content_words(said)}
    left = [w for w in _words(drafted[1]) if w.lower().removesuffix("'s") not in kept | _ASKING]
    if len(left) > QFACT_LEFTOVER_WORDS:
        return None
    text = rewrite_person(said, asker, listener).replace(_ASKER, asker).replace(_LISTENER, listener)
    text = re.sub(rf"\b{re.escape(listener)} have\b", f"{listener} has", text)
    text = re.sub(rf"\b{re.escape(listener)} are\b", f"{listener} is", text)
    text = re.sub(rf"\b{re.escape(asker)} have\b", f"{asker} has", text)
    text = " ".join(text.split()).rstrip(" ?.!")
    return text[:1].upper() + text[1:]

