"""Which words of a chat line may name a person, and what a line's names say to the readers of people.

``names_in`` finds the capitalized words (and an all-lowercase line's lowercase names) that may name someone,
each with whether it surely does; ``line_names`` reads a line once for the questions ``circle`` and ``pronoun_thread``
ask of it (``said_names``, ``named_here``, ``thread_openers``, ``verb_subject``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline.chat_names import lower_names, person_news, writes_capitals
from dmem.decisions.offline.person import KIN, MAY_BE_SUBJECT, NOT_NAMES, NameAt, opens
from dmem.decisions.offline.roles import ROLES
from dmem.text.words import wordset

_WORD = re.compile(r"\b[A-Z][a-z]+\b")
# "Italian cooking class", "Spanish food": a nationality before a noun, not a person.
_ADJECTIVE = re.compile(r"[A-Z][a-z]+(?:ian|ese|ish|ch)\s+(?!(?:is|was|has|had|said|says|will|can|did)\b)"
                        r"[a-z]+\b(?<!s)(?<!ed)")
_PLACE_BEFORE = re.compile(r"\b(?:in|at|to|from|near|on|the|a|an|called|named)\s+$", re.I)
# The auxiliary or wh-word that opens a question about someone: "Is Pebbles still alive?", "How's Wren's violin?".
_ASKING = wordset("is was are were does did do has have had will would can could should how's what's where's")


def names_in(text: str, speakers: set[str], known: set[str]) -> list[NameAt]:
    """Capitalized words that may name a person, with whether they surely do.

    One word (a full name is often someone public), not a common word, place, nationality or speaker; at a
    sentence start only surely when the context names it elsewhere (``known``): "Element arrived" is any word.
    """
    out = []
    for m in _WORD.finditer(text):
        word = m.group(0)
        if word.lower() in NOT_NAMES or word in speakers:
            continue
        near = text[max(0, m.start() - 24): m.start()]  # the words just before it: 'in', 'the', another capital
        after = text[m.end(): m.end() + 40]
        # a capital before it makes a two-word name ("Dr Osmunda"), not a question's opening auxiliary ("Is Pebbles")
        prev = re.search(r"([A-Z][\w'-]*)\s+$", near)
        if _PLACE_BEFORE.search(near) or (prev and prev[1].lower() not in _ASKING) or re.match(r"\s+[A-Z]", after):
            continue
        if _vocative(text, m.start(), m.end()) or _ADJECTIVE.match(word + after):
            continue
        out.append((m.start(), word, not opens(text, m.start()) or word.lower() in known))
    return sorted([*out, *((start, word, True) for start, word in lower_names(text, NOT_NAMES | set(speakers)))])


def _vocative(text: str, start: int, end: int) -> bool:
    """'Tamsin!', 'How about you, Odile?', 'Jo, guess what': a name said to the listener, not of someone."""
    bounded = opens(text, start) or text[:start].rstrip().endswith(",")
    return bounded and bool(re.match(r"\s*(?:[,.!?]|$)", text[end:]))


def context_names(texts: Sequence[str]) -> set[str]:
    """Names said inside a sentence somewhere in ``texts`` (lowercased): a sentence-start word is one too."""
    return {w.lower() for t in texts for _, w, sure in names_in(t, set(), set()) if sure}


def line_names(text: str, speakers: set[str]) -> list[NameAt]:
    """The words of ``text`` that may name a person (``names_in`` with no context known as names).

    A caller that asks several questions of a line (``thread_openers``, ``named_here``, ``said_names``) reads it once.
    """
    return names_in(text, speakers, set())


def thread_openers(text: str, names: Sequence[NameAt]) -> list[str]:
    """Words of ``text`` that may name a person and stand as a clause's subject ("Odile got the job!!").

    A capital before news only a person has or a verb only people do (``chat_names.person_news``), or a lowercase
    name of an all-lowercase line, which stands there or in "me and tomek" already; ``pronoun_thread`` follows a he/she
    thread back to one. A capital before any other verb may be anything ("Harbourview is ..."), and one inside a
    clause may be someone public ("the actor Tellen got married"). ``names``: the line's ``line_names``.
    """
    return [w for start, w, _ in names
            if w.islower() or (opens(text, start) or text[:start].rstrip().endswith(","))
            and person_news(text[start + len(w):])]


def named_here(text: str, names: Sequence[NameAt]) -> set[str]:
    """Names ``text`` says (lowercased): inside a sentence, or opening one before a verb ("and Maudlyn is coming").

    A sentence-start capital before no verb ("Congrats to her") is any word. ``names``: the line's ``line_names``.
    """
    return {w.lower() for start, w, sure in names
            if sure or MAY_BE_SUBJECT.match(text[start + len(w):])}


# What follows the word opening a line for ``verb_subject``: an auxiliary, after an adverb chat puts there ("imre's
# back", "pim was amazing", "prudence just did well"), or a verb in -ed or -s ("Hartigan knows now", "Otto starts
# nursery"). After a lowercase word the verb needs a particle, preposition, time or number after it ("halloran walked
# in at 9", "halloran wants under 30"): else it is as often a plural noun ("good questions?") or a verb whose object
# is the one the he/she means ("inspector liked casimir" / "what did he do").
_ADVERB = r"(?:(?:just|still|also|really|finally|already|never|always)\s+)?"
_AUX = rf"(?:'s|\s+{_ADVERB}(?:was|is|did|has|does|had))\b"
_VERB = rf"\s+{_ADVERB}(?:[a-z]{{2,}}ed|[a-z]{{2,}}[^s\W]s)\b"
_PARTICLE = (r"\s+(?:in|out|up|down|off|over|back|around|round|away|home|at|on|to|for|under|about|with|from|now|"
             r"today|yesterday|again|\d)")
_OPENING = r"^\W*(?:(?i:and|so|also|oh|well|yeah|honestly)\b[,!.]?\s+)*"
_WORD_OPENING = re.compile(rf"{_OPENING}(?P<w>[A-Z][a-z]{{2,}})(?={_AUX}|{_VERB})|"
                           rf"{_OPENING}(?P<l>[a-z]{{3,}})(?={_AUX}|{_VERB}{_PARTICLE})")
_OWNS = re.compile(rf"'s\s+(?:{KIN}|{'|'.join(ROLES)})\b", re.I)  # "Oda's boyfriend": the one spoken of is the kin


def verb_subject(text: str, speakers: set[str]) -> list[str]:
    """The word opening a line before a verb ("Pim was amazing", "imre's back", "Hartigan knows now"), if a name.

    Lowercase only in an all-lowercase line; no role ("inspector ..."), -ing word ("sighing is ...") or owner of
    kin ("and Oda's boyfriend?"). The caller has a reply that speaks of it by a he/she ("wasn't she?", "what
    happened to her?", "She saved a penalty"), which shows the word is a person.
    """
    m = _WORD_OPENING.match(text)
    word = (m["w"] or m["l"]) if m else ""
    if not m or word.lower() in NOT_NAMES or word in speakers or word.lower() in ROLES or word.endswith("ing") \
            or _OWNS.match(text, m.end()) or (word.islower() and writes_capitals(text)):
        return []
    return [word]


def said_names(names: Sequence[NameAt]) -> set[str]:
    """Every word of a line's ``line_names`` (lowercased), a sentence-start one too."""
    return {w.lower() for _, w, _ in names}
