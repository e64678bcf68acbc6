"""Forms of an English verb: the simple past and the past participle of a base form.

One table of irregular verbs for every rule that writes a verb in another tense: a confirmed question
("did you get the job?" + "yep" -> "got the job"), a presupposed one ("have you ridden ..." -> "has ridden").
Regular verbs take -ed (-d after e, -ied after a consonant and y).
"""

from __future__ import annotations

__all__ = ["irregular_past", "participle", "past"]

# base: (simple past, past participle)
_IRREGULAR: dict[str, tuple[str, str]] = {
    "begin": ("began", "begun"), "break": ("broke", "broken"), "bring": ("brought", "brought"),
    "build": ("built", "built"), "buy": ("bought", "bought"), "catch": ("caught", "caught"),
    "choose": ("chose", "chosen"), "do": ("did", "done"), "draw": ("drew", "drawn"), "drive": ("drove", "driven"),
    "eat": ("ate", "eaten"), "feel": ("felt", "felt"), "find": ("found", "found"), "fly": ("flew", "flown"),
    "get": ("got", "gotten"), "give": ("gave", "given"), "go": ("went", "gone"), "have": ("had", "had"),
    "hear": ("heard", "heard"), "hold": ("held", "held"), "keep": ("kept", "kept"), "knit": ("knitted", "knitted"),
    "leave": ("left", "left"), "lose": ("lost", "lost"), "make": ("made", "made"), "meet": ("met", "met"),
    "pay": ("paid", "paid"), "ride": ("rode", "ridden"), "run": ("ran", "run"), "see": ("saw", "seen"),
    "sell": ("sold", "sold"), "send": ("sent", "sent"), "sew": ("sewed", "sewn"), "sing": ("sang", "sung"),
    "sit": ("sat", "sat"), "speak": ("spoke", "spoken"), "swim": ("swam", "swum"), "take": ("took", "taken"),
    "teach": ("taught", "taught"), "tell": ("told", "told"), "think": ("thought", "thought"),
    "win": ("won", "won"), "write": ("wrote", "written"), "spend": ("spent", "spent"), "lend": ("lent", "lent"),
    "quit": ("quit", "quit"), "fall": ("fell", "fallen"), "forget": ("forgot", "forgotten"),
    "wake": ("woke", "woken"), "sleep": ("slept", "slept"), "steal": ("stole", "stolen"),
}


def _regular(verb: str) -> str:
    low = verb.lower()
    if low.endswith("e"):
        return verb + "d"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def past(verb: str) -> str:
    """The simple past of a base-form verb, lower-cased ('get' -> 'got', 'pass' -> 'passed', 'try' -> 'tried')."""
    low = verb.lower()
    return _IRREGULAR[low][0] if low in _IRREGULAR else _regular(low)


def participle(verb: str) -> str:
    """The past participle of a base-form verb ('ride' -> 'ridden'); a regular one keeps its case."""
    low = verb.lower()
    return _IRREGULAR[low][1] if low in _IRREGULAR else _regular(verb)


def irregular_past(word: str) -> bool:
    """Whether a word is the simple past of an irregular verb of the table ('got', 'went'; not 'get')."""
    return word.lower() in _PASTS


_PASTS = frozenset(forms[0] for forms in _IRREGULAR.values())
