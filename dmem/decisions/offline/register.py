"""Chat's casual register read as plain English before a clause is judged.

Chat says personal facts the way it says filler: "love sushi lol", "usually run on sundays tbh 😅",
"gonna visit my aunt next week", "that ramen place was a solid 8/10". The same rules then judge them
as if written out:

- ``standard`` reads a message of yes-or-no signs alone as the word ("👍" -> "yes", "👎" -> "no": the signs
  answer a question as the word does, and only a question asked with a topic of its own makes the yes a fact),
  drops emoji and spells chat words out (``REGISTER_SPELLINGS``: "gonna" -> "going to",
  "rn" -> "right now", "bc" -> "because"; ``spoken_to``: "u", "ur", "r u" -> "you", "your", "are you");
- ``plain`` strips laughter ("lol", "haha", "lmao") and casual markers (``REGISTER_MARKERS``: "tbh",
  "ngl", "lowkey") from a clause's edges, unless nothing would be left: a bare "lol" stays filler;
- ``restore`` puts back the "I" or "I'm" chat drops before a taste ("so into jazz"), a trait
  ("allergic to cats"), a state ("exhausted, long day"), where they are back from ("back from Oslo", "just off a night
  shift"), a habit ("usually run on sundays"), "used to",
  a short past ("moved here in may") or a past dated by a time word ("read a great book last week"), and
  a plan dated in the future ("flying to Oslo on friday"). Only at the clause's start, only before the
  word lists below: a noun or a third person ("Wedding is next week", "Always the same") stays as said,
  and "going to be a long week" gets the "It's" it dropped, not an "I'm".

Then ``taste`` and ``rated`` admit what the usual criteria miss ("big fan of jazz", "10/10 would go
again"), and ``unreal`` rejects what only sounds personal: a hypothetical ("if I won the lottery I'd
buy a boat") and a short compliment to the listener ("you're so sweet", "love that for you").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline import rules, telegraphic
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import first_word
from dmem.text.words import LISTENER_SAID_CHAT, wordset

REGISTER_SPELLINGS: dict[str, str] = {
    "gonna": "going to", "wanna": "want to", "gotta": "have to", "kinda": "kind of", "sorta": "sort of",
    "dunno": "don't know", "lemme": "let me", "imma": "I'm going to", "ima": "I'm going to",
    "rn": "right now", "bc": "because", "cuz": "because", "coz": "because", "tho": "though",
    "def": "definitely", "defo": "definitely", "prob": "probably", "probs": "probably", "obv": "obviously",
    "tmrw": "tomorrow", "tmr": "tomorrow", "tomoz": "tomorrow",
    "tonite": "tonight", "wknd": "weekend", "bday": "birthday", "fav": "favourite", "fave": "favourite",
    "abt": "about", "w/": "with", "ppl": "people", "bf": "boyfriend", "gf": "girlfriend", "yrs": "years",
    "hrs": "hours", "mins": "minutes", "pls": "please", "plz": "please",
    "dont": "don't", "cant": "can't", "didnt": "didn't", "doesnt": "doesn't", "isnt": "isn't",
    "wasnt": "wasn't", "havent": "haven't", "thats": "that's", "whats": "what's", "youre": "you're",
    "idk": "I don't know", "b4": "before", "2day": "today", "2nite": "tonight",
}
"""Chat spellings and their standard English (whole words, any case); the second person is ``spoken_to``'s."""
REGISTER_MARKERS = ("tbh", "ngl", "fr", "frfr", "lowkey", "highkey", "imo", "imho",
                    "btw", "srsly", "omg", "omfg", "ikr", "smh", "though", "you know", "ya know", "y'know",
                    "haha", "hahaha", "hehe", "lol", "lolol", "lmao", "lmfao", "rofl", "xd", "xx", "xoxo", "jk")
"""Casual markers that say nothing of the speaker: ignored at a clause's edges (with laughter: 'hahaha')."""
REGISTER_MAX_WORDS = 6  # a compliment to the listener of at most this many words is no fact about the speaker

_EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D]+|(?<!\\w)[:;=]-?[()DPp](?!\\w)"
                    "|<3|\\^_?\\^")
# Closed class: the emoji that say yes or no by convention (thumbs, check and cross marks, "ok"); a reaction
# ("😂", "😬") says neither and is dropped as before. Skin tones and variation selectors are ignored.
_EMOJI_YES = frozenset("👍👌✅✔☑🙌💯🤝")
_EMOJI_NO = frozenset("👎❌✖🙅⛔")
_EMOJI_MARKS = re.compile(r"[\U0001F3FB-\U0001F3FF\uFE0F\u200D\u2640\u2642\s]+")
_SPELLINGS = "|".join(re.escape(k) for k in sorted(REGISTER_SPELLINGS, key=len, reverse=True))
_SPELLING = re.compile(rf"(?<![\w'-])(?:{_SPELLINGS})(?![\w'-]|\.\w)", re.I)  # not in "U-turn"
# 'ur' is "you're" before what says how someone is ("ur so kind", "ur leaving"), else "your" (also before a
# gerund that is a subject: "ur parking is fine"); "Ur" only opening a sentence.
_UR = re.compile(r"(?:(?<![\w'])(?-i:ur)|(?:^|(?<=[.!?]\s))Ur)(?![\w'])(?P<next>\s+(?:so|the|a|an|not|too|very|such|"
                 r"always|never|going|gonna|right|welcome|[a-z]+ing(?!\s+(?:is|was|are|were|has|had)\b))\b)?", re.I)
# Chat's "r" for "are", only before the subject of a question: "r u still there", "r we on for friday".
_B40_R = re.compile(r"(?<![\w'-])r(?=\s+(?:u|you|ya|we|they|ur|your)\b)", re.I)
_B40_U = re.compile(r"(?<![\w'-])u(?![\w'-]|\.\w)", re.I)  # not "U-turn", "U.S."
_LAUGH = r"(?:a?(?:ha){2,}h?|he(?:he)+|lo+l(?:ol)*|lmf?ao+|rofl|xd)"
_MARKER = "|".join(re.escape(m).replace(r"\ ", r"\s+") for m in REGISTER_MARKERS)
_EDGE = rf"(?:{_LAUGH}|{_MARKER})"
_LEADING = re.compile(rf"^(?:\W*\b{_EDGE}\b[\s,.!?~-]*)+", re.I)
_TRAILING = re.compile(rf"(?:[\s,~-]*\b{_EDGE}\b[\s.!?~]*)+$", re.I)

_TASTE_WORDS = (r"(?:so\s+|really\s+|totally\s+|kinda\s+|kind\s+of\s+|lowkey\s+|super\s+|such\s+)?"
                r"(?:into|obsessed\s+with|hooked\s+on|addicted\s+to|a\s+(?:big\s+|huge\s+)?fan\s+of|"
                r"(?:big|huge)\s+fan\s+of|not\s+a\s+fan\s+of|a\s+sucker\s+for|crazy\s+about|mad\s+about|"
                r"not\s+into)")
_TRAITS = (r"(?:allergic\s+to|lactose\s+intolerant|vegetarian|vegan|gluten\s+free|left[\s-]handed|"
           r"(?:a|such\s+a|a\s+total|total|a\s+real|kind\s+of\s+a)\s+(?:night\s+owl|morning\s+person|early\s+bird|homebody|introvert|extrovert|"
           r"neat\s+freak|coffee\s+addict|gym\s+rat|bookworm|picky\s+eater|foodie|cat\s+person|dog\s+person)|"
           r"not\s+(?:a|much\s+of\s+a)\s+\w+\s+person|(?:terrible|bad|great|good|hopeless|awful)\s+at\s+\w+|"
           r"afraid\s+of|scared\s+of|terrified\s+of)")
_HABIT_VERBS = wordset("run go walk cook eat drink read play swim bike cycle work sleep wake get visit call watch "
                       "listen practice practise train hike meditate bake make take spend drive ride study write paint "
                       "draw sing dance shop order skip have do climb surf ski skate knit sew garden journal jog lift "
                       "stream volunteer teach babysit text try buy stay")
# Not 'always' or 'never': "Always wear sunscreen" is advice, not a habit.
_HABIT = (r"(?:usually|normally|often|sometimes|rarely|generally|typically|mostly)\s+"
          rf"(?:{'|'.join(sorted(_HABIT_VERBS))})\b")
_SHORT_PAST = r"(?:moved|tried|hiked|biked|baked|dyed|joined|lived|named|signed|loved|hated|liked)\b"
BARE_PAST = wordset("read quit cut put set hit let shut")
"""Base forms that are their own past: a past only with a time word ("Read it", "put my name down" order)."""
_PAST_TIME = re.compile(r"\b(?:yesterday|last\s+\w+|\w+\s+ago|this\s+(?:morning|afternoon)|earlier\s+today|"
                        r"on\s+\w+day)\b", re.I)
_FUTURE_TIME = re.compile(r"\b(?:tomorrow|tonight|next\s+\w+|this\s+(?:weekend|week|month|\w+day)|on\s+\w+day|"
                          r"in\s+(?:a|\w+)\s+(?:days?|weeks?|months?))\b", re.I)
NOT_PROGRESSIVE = wordset("thing something nothing anything everything morning evening wedding spring king ring "
                          "string building ceiling pudding during sibling")
"""Words ending in -ing that are no verb's progressive ("nothing", "wedding")."""
# "Juggling choir and night classes seems rough next week", "Packing for the ferry on monday, I lost ...": the -ing
# phrase is a subject or a participle there, not a plan whose "I'm" was dropped.
_OWN_VERB = re.compile(r"\b(?:i|we|is|was|sounds|seems|looks|makes|feels|can|will|must|would)\b", re.I)
REGISTER_PLAN_MAX_WORDS = 12  # a plan whose "I'm" chat dropped is short: "flying to Oslo on friday"
_THIRD = re.compile(r"^\S+\s+(?:is|are|was|were|has|have|will|'s|went|got|starts?|begins?)\b", re.I)
_RESTORE = [  # (pattern on the clause start after a filler, the subject chat dropped)
    (re.compile(r"^(?:big|huge)\s+fan\s+of\b", re.I), "I'm a"),
    (re.compile(rf"^{_TASTE_WORDS}\s+\w", re.I), "I'm"),
    (re.compile(rf"^(?:so|really|super|definitely|totally|fully|still|very)?\s*{_TRAITS}", re.I), "I'm"),
    (re.compile(r"^(?:so+\s+|really\s+|super\s+)?(?:exhausted|tired|sleepy|knackered|drained|wiped|bored|stressed)\b",
                re.I), "I'm"),  # "exhausted, long day": a state (``rules.TRANSIENT``), not a past "I exhausted"
    (re.compile(r"^going\s+to\s+be\s+(?:a|an|so|such|the|fun|great|hard|tough|long|busy|fine)\b", re.I), "It's"),
    # Where the speaker is coming from: "back from Lisbon", "home from the hospital", "just off a night shift".
    (re.compile(r"^(?:just\s+|finally\s+)?(?:(?:back|home)\s+from|off\s+(?:a|an|the|my))\s+\w", re.I), "I'm"),
    (re.compile(rf"^{_HABIT}", re.I), "I"),
    (re.compile(r"^used\s+to\s+(?!it\b|that\b|this\b|the\b|them\b|him\b|her\b)\w+", re.I), "I"),
]

TASTE = re.compile(rf"\b(?:i'm|i\s+am|i've\s+been)\s+{_TASTE_WORDS}\s+(?!it\b|that\b|this\b|you\b)\w+"
                   r"|\bcan't\s+get\s+enough\s+of\s+\w+"
                   r"|\b(?:i\s+)?(?:live|lived)\s+for\s+(?!it\b|that\b|this\b)\w+", re.I)
"""A taste said casually: 'I'm so into jazz', 'big fan of hot sauce', 'can't get enough of mangoes'."""
RATED = re.compile(r"\b(?:10|[0-9](?:\.5)?)\s*/\s*10\b|\b[0-5](?:\.5)?\s*/\s*5\b|\b(?:zero|one|two|three|four|"
                   r"five|[0-5])\s+stars?\b|\bwould\s+(?:totally\s+|definitely\s+|100%\s+)?(?:go|do|eat|buy|"
                   r"watch|stay|order|book)\s+(?:it\s+|there\s+|that\s+)?again\b|\bwould(?:n't|\s+not)\s+"
                   r"recommend\b|\b(?:highly|strongly|totally|100%)\s+recommend\b", re.I)
"""A rating of something the speaker had: 'a solid 8/10', '10/10 would go again', 'would not recommend'."""
HYPOTHETICAL = re.compile(
    r"^\s*(?:imagine|what\s+if|if\s+only|in\s+another\s+life)\b"
    r"|\bif\s+(?:i|we)\s+(?:ever\s+)?(?:were|was|won|had|could|lived|didn't|did|got)\b[^.!?]*\b(?:i'd|we'd|would)\b"
    r"|\b(?:i'd|we'd|i\s+would)\b[^.!?]*\bif\s+(?:i|we)\s+(?:ever\s+)?(?:were|was|won|had|could)\b", re.I)
"""A clause about what is not so: 'if I won the lottery I'd buy a boat', 'imagine if we lived by the sea'."""
_COMPLIMENT = re.compile(r"\b(?:sweet|best|amazing|awesome|kind|cute|funny|hilarious|beautiful|gorgeous|smart|"
                         r"lovely|legend|proud|talented|genius|goals|killing\s+it|slay|sweetest|adorable|"
                         r"the\s+(?:best|greatest|sweetest)|(?:love|loving)\s+(?:that|this)\s+for|happy\s+for|"
                         r"got\s+this|deserve)\b", re.I)
_OWN = re.compile(r"\b(?:my|mine|we|our|us)\b", re.I)


def spoken_to(text: str) -> str:
    """``text`` with chat's second person written out: 'u', 'ur' and 'r' before a subject ('r u' -> 'are you')."""
    text = _UR.sub(lambda m: ("you're" if m["next"] else "your") + (m["next"] or ""), text)
    text = _B40_U.sub(lambda m: _cased(m.group(0), "you"), text)
    return _B40_R.sub(lambda m: _cased(m.group(0), "are"), text)


def standard(text: str) -> str:
    """``text`` without emoji and with chat spellings written out ('gonna' -> 'going to'); "👍" alone is "yes"."""
    if said := emoji_yes_no(text):
        return said
    text = spoken_to(_EMOJI.sub(" ", text))
    text = _SPELLING.sub(lambda m: _cased(m.group(0), REGISTER_SPELLINGS[m.group(0).lower()]), text)
    return re.sub(r"[ \t]+(?=[,.!?;:)\n]|$)", "", re.sub(r"[ \t]{2,}", " ", text)).strip()


def emoji_yes_no(text: str) -> str | None:
    """'yes' or 'no' for a message of yes signs ("👍", "👍👍") or no signs ("👎") alone; None for anything else."""
    signs = set(_EMOJI_MARKS.sub("", text))
    if signs and signs <= _EMOJI_YES:
        return "yes"
    if signs and signs <= _EMOJI_NO:
        return "no"
    return None


def _cased(said: str, written: str) -> str:
    return written[:1].upper() + written[1:] if said[:1].isupper() else written


def plain(clause: str) -> str:
    """The clause without laughter and casual markers at its edges; as said when nothing else is left."""
    inner = _LEADING.sub("", clause)
    if filler := rules.LEADING_FILLER.match(inner):  # "ok tbh ...": the filler stays, the marker after it goes
        inner = inner[: filler.end()] + _LEADING.sub("", inner[filler.end():])
    inner = _TRAILING.sub("", inner).strip(" ,;:-~")
    return inner if re.search(r"\w", inner) else clause


def progressive(word: str) -> bool:
    """Whether a lowercased word is a verb's -ing form ('eating', 'moving'), not a noun like 'morning' or 'thing'."""
    return word.endswith("ing") and word not in NOT_PROGRESSIVE


def restore(clause: str) -> str:
    """The clause with the 'I' or "I'm" chat dropped before a taste, trait, habit, past or plan put back."""
    if asks(clause) or rules.FIRST_PERSON.match(clause):
        return clause
    head, body = rules.after_filler(clause)
    subject = next((s for pattern, s in _RESTORE if pattern.match(body)), None)
    first = first_word(body).lower()
    if subject is None and not _THIRD.match(body):
        if re.match(_SHORT_PAST, body, re.I) or (first in BARE_PAST and _PAST_TIME.search(body)):
            subject = "I"
        elif progressive(first) and _FUTURE_TIME.search(body) \
                and len(body.split()) <= REGISTER_PLAN_MAX_WORDS and not _OWN_VERB.search(body):
            subject = "I'm"
    return f"{head}{subject} {body[:1].lower()}{body[1:]}" if subject else clause


def unreal(clause: str) -> str | None:
    """What makes a clause no fact about the speaker: a hypothetical, or a short compliment to the listener."""
    if m := HYPOTHETICAL.search(clause):
        return f"hypothetical ('{' '.join(m.group(0).split())}')"
    if len(clause.split()) <= REGISTER_MAX_WORDS and LISTENER_SAID_CHAT.search(clause) and not _OWN.search(clause) \
            and not asks(clause) and (m := _COMPLIMENT.search(clause)):
        return f"compliment to the listener ('{m.group(0)}')"
    return None


def rated(clause: str, prior: Sequence[Message] = (), speaker: str = "") -> str | None:
    """The rating words of a clause rating something the speaker had; None for the listener's own thing."""
    m = RATED.search(clause)
    if m is None or asks(clause) or LISTENER_SAID_CHAT.search(clause):
        return None
    named = {w.rstrip("s") for w in re.findall(r"[a-z']+", clause[: m.start()].lower())}
    theirs = telegraphic.others_words(prior, speaker) & named
    return None if theirs else " ".join(m.group(0).split())
