"""A word of the other's line said back with a laugh or a "!!": the listener's echo of the news, no fact of its own.

"took the door off its hinges to get the armchair in" forms a memory of the speaker's; the listener's "door off!!",
"the clock!!", "barnabas lol" or "tape. clever" right after it picks out the part of that news that struck them, and
a question about that part cites the echo's turn too. The echo says nothing of the listener's own world, so, as a
reaction does (``reacted``), it forms no memory: its turn becomes a source of the memory the line formed.

An exclaimed echo (stop 75, h75d): a short line, marked as an exclamation ("!", a laugh, or a verdict word such as
"clever"), whose content words besides laughs, interjections and those verdict words are at most three, each a
word (stem) of the other's line, and at least one. It is asked where ``reacted`` asks its echo questions: after
every rule that forms a fact, the other's line just before (or before one murmur) having formed one. Kept out: a
value said back ("Forty times!": ``echoed_value`` writes it), a question (``reacted.echoes`` owns echo questions),
a first person ("my door!!": the listener's own), a negation ("not the clock"), a clause ("Wow, Nell is
from Oslo": a restatement or an opinion), a verb with its object ("keep it
up!": a wish), agreement ("true some days": a reply to an opinion), and a line with a word of its own ("the
ladder!!" after a line that names no ladder: it says more than the line did).
"""

from __future__ import annotations

import re

from dmem.decisions.offline import echoed_value, rules
from dmem.text.lexical import content_words, stem

# A laugh marks a line as a reaction as "!" does.
_LAUGH = re.compile(r"\b(?:lol+|lmao|haha\w*|hehe\w*|ha(?:ha)+)\b", re.I)
# A one-word verdict said with the echo ("tape. clever", "carnations. nice"): it marks the echo and echoes nothing.
_VERDICT_WORDS = frozenset({"clever", "genius", "brilliant", "smart", "nice", "classic", "lovely", "perfect",
                            "amazing", "cute", "fancy", "wild", "crazy", "incredible", "legend"})
# A negation turns the echo round ("not the clock"): the line then says something of its own.
_NEGATION = re.compile(r"\b(?:not|never|no\s+way|isn'?t|wasn'?t|aren'?t|didn'?t|doesn'?t|don'?t|won'?t|can'?t)\b",
                       re.I)
# A verb with its object ("keep it up!", "see you soon!", "lol open them"): a wish or a bidding, no echo of news.
_BIDDING = re.compile(r"\b[a-z]+\s+(?:it|them|him|her|us|you)\b", re.I)
# A clause of its own ("Wow, Bertil is from Tromso", "curry for breakfast is amazing"): a restatement or an
# opinion, judged by the rules that read clauses; an echo names a thing.
_CLAUSE = re.compile(r"\b(?:is|are|was|were|has|have|had)\b", re.I)
# Agreement with what the line claimed ("lol. true some days"): a reply to an opinion, no reaction to news.
_AGREEING = re.compile(r"\b(?:true|exactly|agreed|same|fair)\b", re.I)
# Most words of an echo, and most words it echoes: a longer line says more than which part struck the listener.
# Set before any count (stop 75, h75d), the size of ``reacted``'s echo questions (3) with room for "the"/"lol".
_MAX_WORDS = 6
_MAX_ECHOED = 3


def marked(text: str) -> bool:
    """Whether a short line is marked as an exclamation: a "!", a laugh, or a verdict word ("clever", "nice")."""
    words = {w.lower() for w in re.findall(r"[A-Za-z']+", text)}
    return "!" in text or bool(_LAUGH.search(text)) or bool(words & _VERDICT_WORDS)


def echoes_back(text: str, line: str) -> bool:
    """Whether ``text`` only says back, exclaimed, a word or value of the other's ``line`` ("door off!!").

    Every content word besides laughs, interjections and verdict words is the line's (stem); at least one is, and
    at most ``_MAX_ECHOED``. A value said back is left to the rules that write it (``echoed_value``, ``thread_value``).
    """
    if "?" in text or len(text.split()) > _MAX_WORDS or not marked(text):
        return False
    if rules.FIRST_PERSON.search(text) or _NEGATION.search(text) or _BIDDING.search(text) or _AGREEING.search(text) \
            or _CLAUSE.search(text):
        return False
    if echoed_value.values(text):
        return False  # a value said back ("Forty times!", "only three"): ``echoed_value``'s and ``thread_value``'s
    said = [w for w in content_words(text)
            if not _LAUGH.fullmatch(w) and w not in rules.INTERJECTIONS and w not in _VERDICT_WORDS]
    if not said or len(said) > _MAX_ECHOED:
        return False
    stems = {stem(w) for w in content_words(line)}
    return all(stem(w) in stems for w in said)
