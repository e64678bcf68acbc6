"""Chat's telegraphic register: the 'my' a chat line drops before what the speaker has, and their own dated event.

Chat drops determiners the way it drops subjects: "Dog has been sick all week", "Sister just had her
baby", "New job starts monday", and 'the' stands for 'my' ("the kids start school on wednesday"). Written
English cannot open a sentence with a bare singular count noun, and the nouns chat leaves bare are the
ones a person has: relatives and the people they live with, pets, their home and belongings, their work
or school and its events, their body and those who care for it (``PERSONAL_NOUNS``). So ``restore_owner``
puts the 'my' back when a clause opens with such a noun as the subject of a verb. A bare plural says
something of the speaker's own only about an occasion ("Kids loved the aquarium", "Twins start swimming
next month"); in the present with no time anchor it is generic ("Kids love candy") and stays as said.
A noun the other speaker just named is theirs, not the speaker's ("The puppy is adorable" after "We
adopted a puppy!"), unless they named it as the speaker's ("How is your puppy?").

``own_event`` finds an evaluation of an occasion anchored in time, "The concert last night was incredible":
a concert, trip or match the speaker speaks of that way is one they were at (a debate or an election is
not an occasion one attends: ``OCCASIONS``); the splitter keeps it as the speaker's opinion.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline import rules
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import STOPWORDS, content_words
from dmem.text.nouns import looks_plural
from dmem.text.verbs import IRREGULAR_PASTS
from dmem.text.words import wordset

_KIN = wordset(" ".join(rules.RELATIONS) + " mum granny nan fiance fiancee hubby boys girls twins grandkids "
               "roommates flatmate flatmates neighbours neighbors in-laws family fam")
_PETS = wordset(" ".join(rules.PETS) + " " + rules.CONCEPTS["pet"] + " puppies kittens")
_HOME = "house apartment flat garden yard kitchen bathroom roof basement landlord lease car bike laptop phone fridge"
BODY = wordset("knee knees back ankle wrist shoulder hip neck eyes hair skin teeth stomach leg legs foot feet arm arms "
               "hand hands")
"""The body's parts whose 'my' chat drops ("legs are dead tho"); everyone has them, so 'your' asks of no news."""
_SELF = "name favorite favourite fave doctor dentist physio therapist"
_WORK = ("job boss manager shift team internship contract thesis exam class lesson interview presentation "
         "flight visa passport appointment surgery course semester")
PERSONAL_NOUNS = _KIN | _PETS | BODY | wordset(f"{_HOME} {_SELF} {_WORK}")
"""Nouns of what a person has, whose 'my' chat drops: kin, friends and household (``rules.RELATIONS``), pets
(``rules.PETS``), home and belongings, their name, favourites, body and carers, work or school and its occasions."""
_PLURALS = frozenset(n for n in _KIN | _PETS if looks_plural(n)) | {"family", "fam"}
"""Plural and group nouns: said of the speaker's own only about an occasion ("Family is everything" is generic)."""
_COMPOUND_HEADS = wordset(_WORK)  # "Spanish class", "piano exam": any one word may modify them
_MODIFIERS = r"(?:new|old|best|little|baby|big|older|younger|oldest|youngest|eldest|ex|future)"
_NOUN = "|".join(sorted(PERSONAL_NOUNS, key=len, reverse=True))
_ADVERBS = r"(?:(?:just|still|finally|already|really|also|never|always|again|even|now|totally|officially)\s+)*"
_PAST = "|".join(sorted(IRREGULAR_PASTS | {"broke", "stole", "froze", "hurt", "cost", "bit", "shrank"}))
_AUX = r"(?:is|are|was|were|has|have|had|will|won't|can|can't|could|couldn't|should|isn't|wasn't|hasn't|didn't)"
_ED = r"[a-z]+[^e\W]ed"  # "loved", "died"; not "need", "feed"
# Past, progressive, perfect or future: an occasion. "are glued to screens" (a present passive) is a state.
_EPISODIC = (rf"(?:(?:{_PAST}|{_ED})\b|(?:is|are|'re)\s+{_ADVERBS}[a-z]+ing\b|(?:was|were|has|have|had|'ve)\s+"
             rf"{_ADVERBS}(?:[a-z]+ing|been|{_ED}|{_PAST})\b|(?:will|'ll)\s)")
_FINITE = rf"(?:{_AUX}|{_PAST}|{_ED}|[a-z]+[^s\W]s)\b"
# "The kids look so happy", "the kitchen looks amazing": a verdict on what the other speaker showed or told.
_SHOWN = re.compile(r"(?:look|looks|looked|sound|sounds|sounded|seem|seems|seemed)\b", re.I)
_NOT_A_VERB = re.compile(r"(?:and|or|but|of|in|on|at|to|for|with|from|the|a|an|my|your|who|that|which|too|so)\b", re.I)
_PRONOUN = r"(?:i|we|you|he|she|they|it|the|a|an|my|our|your|his|her|their|this|that)"
_HEAD = rf"^(?P<det>the\s+)?(?P<mod>(?:{_MODIFIERS}\s+){{0,2}}|[\w'-]+\s+(?=(?:{'|'.join(_COMPOUND_HEADS)})\b))"
_NAMED = r"(?:\s+(?-i:[A-Z][a-z]+))?"  # "Aunt Rosa"
_COMPOUND = rf"(?:(?:\s+(?!{_AUX}\b|{_PRONOUN}\b)[a-z]+){{1,2}}(?=\s+{_ADVERBS}{_FINITE}))?"  # "Exam results came"
_PHRASE = rf"(?P<pp>\s+(?:to|in|at|from|for|with|of)\s+(?!{_PRONOUN}\b)[\w'-]+)?"  # "Flight to Osaka"
_OPENING = re.compile(rf"{_HEAD}(?P<noun>{_NOUN})(?P<poss>'s)?\b(?P<tail>{_NAMED}{_COMPOUND}{_PHRASE})"
                      rf"\s+{_ADVERBS}(?P<verb>[\w']+)", re.I)
"""A clause opening with a personal noun subject (with 'the', age words or a one-word compound) and its verb."""
_TIME_ANCHOR = re.compile(r"\b(?:yesterday|today|tonight|tomorrow|this\s+(?:morning|afternoon|evening|week|weekend|"
                          r"month|year)|last\s+\w+|next\s+\w+|on\s+\w+days?|every\s+\w+|in\s+\w+\s+(?:days|weeks|months)"
                          r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b", re.I)
OCCASIONS = ("concert wedding hike dinner lunch brunch match game trip party gig show recital interview marathon race "
             "date class lesson session appointment exam test flight drive ride visit holiday vacation festival "
             "play performance ceremony reunion camp tour")
"""Occasions a person attends or takes part in; their evaluation with a time anchor is the speaker's own."""
_OCCASION = "|".join(OCCASIONS.split())
# A time the occasion is past by ("the concert last night"); ``_TIME_ANCHOR`` also takes future and habitual times.
_ANCHOR = r"(?:last\s+\w+|yesterday|this\s+(?:morning|afternoon|evening|week|weekend)|tonight|today|on\s+\w+day)"
_OWN_EVENT = re.compile(
    rf"^(?:the\s+(?:[\w'-]+\s+){{0,2}}?(?P<a>{_OCCASION})(?:\s+(?:at|in|to|with|on)\s+[\w'-]+(?:\s+[\w'-]+)?)??"
    rf"\s+{_ANCHOR}|(?:yesterday|last\s+\w+|tonight|this\s+\w+|\w+day)'s\s+(?P<b>{_OCCASION}))\s+(?:was|were)\b", re.I)
_YOURS = re.compile(r"\b(?:your|ur)\s+(?:[\w'-]+\s+)?[\w'-]+", re.I)  # "how is your puppy?": the speaker's
# Turns looked back over for the other speaker naming the noun (then it is theirs, unless they said 'your').
OTHERS_TURNS = 2


def others_words(prior: Sequence[Message], speaker: str) -> set[str]:
    """Content words of the other speakers' turns among the last ``OTHERS_TURNS`` turns, but for 'your ...'."""
    recent = [m for m in prior[-OTHERS_TURNS:] if m.speaker != speaker] if OTHERS_TURNS else []
    said = " ".join(_YOURS.sub(" ", f"{m.text or ''} {m.image_caption or ''}") for m in recent)
    return {w.rstrip("s") for w in content_words(said)}


def _owned(m: re.Match[str], clause: str) -> bool:
    """Whether the opening names the speaker's own: a verb follows, a bare plural speaks of an occasion."""
    if m["det"] and m["pp"]:  # "the kids in the park": the phrase after the noun, not 'my', says whose
        return False
    if m["mod"] and any(w.lower() in STOPWORDS | {"every"} for w in m["mod"].split()):
        return False
    verb = clause[m.start("verb"):]
    if _SHOWN.match(verb):
        return False
    if m["poss"] or m["noun"].lower() not in _PLURALS:  # a singular subject: its verb is finite
        return re.match(_FINITE, verb, re.I) is not None
    if _NOT_A_VERB.match(verb):
        return False
    return bool(m["det"]) or bool(re.match(_EPISODIC, verb, re.I)) or bool(_TIME_ANCHOR.search(clause))


def restore_owner(clause: str, prior: Sequence[Message] = (), speaker: str = "") -> str:
    """The clause with the 'my' chat dropped before a personal noun subject put back; else unchanged."""
    if asks(clause) or rules.FIRST_PERSON.match(clause):
        return clause
    head, body = rules.after_filler(clause)
    m = _OPENING.match(body)
    if m is None or not _owned(m, body) or m["noun"].lower().rstrip("s") in others_words(prior, speaker):
        return clause
    rest = body[m.end("det"):] if m["det"] else body
    first = rest.split(maxsplit=1)[0]
    said = rest if any(c.isupper() for c in first[1:]) else rest[:1].lower() + rest[1:]  # "PhD exam" stays
    return f"{head}{'My' if body[:1].isupper() else 'my'} {said}"


def own_event(clause: str, prior: Sequence[Message] = (), speaker: str = "") -> str | None:
    """The dated occasion a clause evaluates as the speaker's own ('the concert last night'); else None."""
    clause = rules.LEADING_FILLER.sub("", clause)  # leading only: the clause still ends as it did
    m = _OWN_EVENT.match(clause)
    if m is None or asks(clause) or (m["a"] or m["b"]).lower() in others_words(prior, speaker):
        return None
    return clause[: m.end() - len(m.group(0).split()[-1])].strip()
