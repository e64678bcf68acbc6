"""A dated event told in two or three words: "doctor tomorrow", "leave tonight", "got in yesterday".

Chat bursts tell the speaker's own event as an occasion or a going with the day it falls on, and nothing else:
no subject, often no verb. Judged as a line (``worldline``) it has too few answer words ("got in yesterday" has
one), and a day word said relatively ("tomorrow") is no anchor, so the line says "too little detail". Yet it is
the speaker's news, as the model path admits "dentist tomorrow": one fact, whose time the formation grounds
(``grounding.deixis``: "tomorrow" said on 8 May is stored as 9 May).

The line is at most ``MAX_WORDS`` words: a day said relatively (``_DAY``) at its start or end, and the event,
one or two words, of which one is an occasion or a place one goes to for it (``_OCCASIONS``: the doctor, a shift,
the flight), a verb of going or arriving (``_GOINGS``: leave, fly, home, got in), or, with a past day
("yesterday", "last night"), a verb in the past ("moved yesterday"). Not an event: a goodbye or a wish ("see you
tomorrow", "good luck tonight", "talk tomorrow"), a state ("tired today"), an answer word alone ("ok tonight"),
the listener ("you tomorrow?"); the caller has left out questions and lines a marker claims.
"""

from __future__ import annotations

import re

from dmem.decisions.offline.telegraphic import OCCASIONS, PERSONAL_NOUNS
from dmem.text.verbs import IRREGULAR_PASTS
from dmem.text.words import wordset

# Most words of a dated event line (the day's words counted): a longer line says what it is about otherwise.
MAX_WORDS = 4
_PAST_DAY = r"yesterday|last\s+night|this\s+(?:morning|afternoon)"
_DAY = re.compile(rf"^(?:(?:today|tonight|tomorrow|tmrw|tmr|tomoz)(?:\s+(?:morning|afternoon|evening|night))?|"
                  rf"{_PAST_DAY}|this\s+evening)$", re.I)
_PAST = re.compile(rf"^(?:{_PAST_DAY})$", re.I)
# Occasions and the places and people one goes to for them, beside telegraphic's personal nouns and occasions.
_OCCASIONS = PERSONAL_NOUNS | wordset(f"{OCCASIONS} hospital clinic vet gp scan op operation checkup check-up "
                                      "physio work training practice rehearsal appointment meeting")
# Verbs of going, arriving and moving, in the forms chat drops a subject before.
_GOINGS = wordset("leave leaving left fly flying flew land landing landed arrive arriving arrived sail sailing sailed "
                  "dock docking docked move moving moved start starting started finish finishing finished back home "
                  "off away travel travelling traveling drive driving drove depart departing departed")
# "got in", "got back", "get home": a going said with get and its particle.
_GOT = re.compile(r"^(?:got|get|getting)\s+(?:in|back|home|there|here)$", re.I)
# Past verbs that need an object or say what was said or seen ("saw yesterday" tells nothing).
_TELLING = wordset("said told saw heard thought knew meant asked talked texted called messaged replied")
# Goodbyes, wishes and states: a line with one is no event however dated.
_NOT_EVENT = wordset("see talk speak chat catch luck fun enjoy bye night sleep tired busy free same ok okay sure yes "
                     "yeah no not maybe fine good great nice happy sorry till until")
_FILLERS = wordset("and so then just also finally")


def dated_event(text: str) -> str | None:
    """The event a short line tells with the day it falls on ("doctor tomorrow": 'doctor'), or None."""
    said = re.findall(r"[a-z][a-z'-]*", text.lower())
    said = said[1:] if said[:1] in (["i"], ["we"]) else said  # the subject chat dropped, put back by the cutter
    if not 2 <= len(said) <= MAX_WORDS:
        return None
    for cut in (1, 2):  # the day's words at the end or at the start, one word or two ("last night")
        for day, rest in ((" ".join(said[-cut:]), said[:-cut]), (" ".join(said[:cut]), said[cut:])):
            if _DAY.match(day) and (event := _event([w for w in rest if w not in _FILLERS], bool(_PAST.match(day)))):
                return event
    return None


def _event(rest: list[str], past: bool) -> str | None:
    """The event words before or after the day: one or two words, an occasion, a going, or a past verb."""
    if not 1 <= len(rest) <= 2 or _DAY.match(" ".join(rest)) or _NOT_EVENT & set(rest):
        return None
    said = " ".join(rest)
    if _GOT.match(said) or any(w in _OCCASIONS or w in _GOINGS for w in rest):
        return said
    if past and any(w not in _TELLING and (w in IRREGULAR_PASTS or re.fullmatch(r"[a-z]{2,}[^e\W]ed", w))
                    for w in rest):
        return said
    return None
