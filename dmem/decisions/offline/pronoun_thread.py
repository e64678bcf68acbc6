"""The person a thread of he/she lines speaks of, followed back to the name that opened it.

"odile got the job!!" / "no way!! congrats to her" / "she called me crying": a he/she no one near surely fits is
followed back, up to ``circle.V_PRONOUN_FAR_TURNS`` lines, to the line that opened the thread (``thread_person``);
a he/she the listener's near lines already use blocks the reach back (``said_near``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline.circle import V_PRONOUN_FAR_TURNS, Circle
from dmem.decisions.offline.name_readers import named_here, thread_openers, verb_subject
from dmem.decisions.offline.person import NOT_NAMES, Person, fits
from dmem.text.asked import asks


def said_near(pronoun: str, texts: Sequence[str]) -> bool:
    """Whether the listener's near lines already speak of someone by the pronoun's gender ("he got stung").

    Whoever that is, the thread's person is not one named further back. The speaker's own near he/him ("I'm
    taking him to the vet") carries their thread on and blocks nothing: no one near fits it either.
    """
    said = _speaks_of(pronoun)
    return any(said.search(t) for t in texts)


def _speaks_of(pronoun: str) -> re.Pattern[str]:
    """Any form of a he or a she ("he", "him", "his"; "she", "her", "hers"), as ``pronoun`` is."""
    return re.compile(r"\b(?:he|him|his)\b" if pronoun.lower() == "he" else r"\b(?:she|her|hers)\b", re.I)


# A reply that echoes a line's verb with a he/she ("wasn't she?", "did he??") shows its subject is a person.
_TAG = re.compile(r"^\W*(?:(?:oh|yeah|aw+)\W+)?(?:was|wasn't|wasnt|is|isn't|isnt|did|didn't|didnt|has|hasn't|hasnt|"
                  r"does|doesn't|doesnt)\s+(?P<p>he|she)\b\W*$", re.I)


# A line that puts a name up as the topic, after "and"/"also" or before "update"/"news", alone or before a he/she
# sentence of its own: "And Foxglove", "Brannoc update. She found one!", "Ysolde news: she passed". The name is the
# he/she the lines after speak of. A capital alone ("Perfect", "Selkie?") or before a he/she ("Perfect. She ...") is
# no topic: it may be any word.
_TOPIC = re.compile(r"^\W*(?:(?P<lead>and|also)\W+)?(?P<w>(?-i:[A-Z][a-z]{2,}))(?P<tag>\s+(?:update|news))?\s*[.!:,]*"
                    r"(?:\s+(?P<p>he|she)\b.*)?$", re.I | re.S)
# The listener's prompt for the news a bare "and Foxglove" puts up ("what now", "yes?"): without one the line may go
# on a list ("I told mum" / "and Nan" / "and Morwetta").
_PROMPT = re.compile(r"^\W*(?:what\s+now|go\s+on|uh\s*oh|oh\s+no|and|what\s+happened)\W*$", re.I)


def topic(text: str, pronoun: str, speakers: set[str], reply: str) -> str | None:
    """The name a line puts up as its topic (``_TOPIC``), when a he/she after it in the line is ``pronoun`` or none.

    A bare "and Foxglove" is one only when ``reply``, the listener's next line, asks for the news (``_PROMPT``).
    """
    m = _TOPIC.match(text)
    if not m or m["w"].lower() in NOT_NAMES or m["w"] in speakers or m["p"] and m["p"].lower() != pronoun.lower():
        return None
    return m["w"] if m["tag"] or m["lead"] and (asks(reply) or _PROMPT.match(reply)) else None


def thread_person(pronoun: str, circle: Circle) -> Person | None:
    """The person a thread of he/she lines speaks of, followed back to the name that opened it.

    "odile got the job!!" / "no way!! congrats to her" / "she called me crying" / "she starts on march 3rd": from
    the judged line back, lines that speak of someone by the pronoun (whoever of the two said them), of someone of
    the other gender, or of no one lead to the latest line that names someone as the subject of news only a person
    has ("got the job", "told me": ``thread_openers``), of a verb the other's reply echoes with the pronoun ("pim
    was amazing last night!" / "wasn't she?"), or of the speaker's line the listener's reply asks after by it
    ("marmalade is at the vet" / "what happened to her?"), or that puts a name up as its topic ("And Foxglove",
    "Brannoc update. She found one!": ``topic``). That name is the thread's person, of the pronoun's
    gender: the speaker's when the speaker brought the news, either echoed it, or the listener asked after them;
    the listener's own news is the listener's. A name of unknown gender on the way, a second name in the opening
    line, or someone surely named whom the pronoun fits (left to the latest-person reading) ends it with no one.
    """
    speaker, lines = circle.message.speaker, circle.prior[-V_PRONOUN_FAR_TURNS:]
    said = _speaks_of(pronoun)
    named: dict[str | None, list[Person]] = {}
    for p in (*circle.earlier, *circle.people):
        named.setdefault(p.turn_id, []).append(p)
    for at in range(len(lines) - 1, -1, -1):
        m = lines[at]
        text = m.text or ""
        sure = [p for p in named.get(m.turn_id, ()) if p.sure]
        if any(fits(pronoun, p) for p in sure):
            return None
        names = circle.line_names(len(circle.prior) - len(lines) + at)
        openers, theirs = thread_openers(text, names), m.speaker == speaker or asks(text)
        reply = lines[at + 1] if at + 1 < len(lines) else circle.message
        if not openers and reply.speaker != m.speaker:
            tag = _TAG.match(reply.text or "")
            if tag and tag["p"].lower() == pronoun.lower() or m.speaker == speaker and said.search(reply.text or ""):
                openers, theirs = verb_subject(text, circle.speakers), True  # "wasn't she?", "what happened to her?"
        if not openers and (word := topic(text, pronoun, circle.speakers,
                                          reply.text or "" if reply.speaker != m.speaker else "")):
            openers = [word]  # "Brannoc update. She found one!": the topic is the thread's person
        others = named_here(text, names) - {w.lower() for w in openers} - {p.key for p in sure}
        if len(openers) > 1 or others:
            return None  # two or more names, or one of unknown gender: not this reading's to pick
        if openers:
            word = openers[0]
            return Person(word.lower(), word[:1].upper() + word[1:], speaker if theirs else m.speaker,
                          "m" if pronoun.lower() == "he" else "f", m.turn_id)
    return None
