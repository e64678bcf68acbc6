"""A short reply that confirms or denies the other speaker's yes/no question about the speaker's own doing.

"did you get the job at the boatyard?" answered "got it!!", "i got it", "yep" or "nope, didn't get it": the
fact is the question's content said of the speaker, negated on a denial ("Osric got the job at the
boatyard", "Osric did not get the job at the boatyard"), with the question's turn and the reply's as sources.
The reply and the question are judged as one unit: the reply alone says nothing, the question alone only asks.

- ``verb_echo``: the reply takes up the question's own verb with its subject dropped or said ("got it",
  "I got it", "didn't get it", "passed!!"), so it confirms or denies it even without a "yes" or "no";
- ``confirmed_statement``: the question, with the speaker already named in it (``rewrite_person``), said as a
  statement of the reply's polarity, only when the reply adds nothing of its own (a longer reply stays framed
  with its question).
"""

from __future__ import annotations

import re

from dmem.decisions.offline import rules
from dmem.decisions.offline.pronouns import agree
from dmem.text.answers import yes_no_echo
from dmem.text.asked import opens_yes_no
from dmem.text.lexical import content_words

_SOFT = r"(?:(?:so|and|but|wait|oh|also|btw|ok|okay|well)\b[,!.]?\s*)*"
_EVER = r"(?:(?:ever|already|finally|just|actually|still)\s+)?"
# "did you get ...", "have u booked ...": the listener's own doing, asked yes or no (the verb it asks of them).
_ASKS_DOING = re.compile(rf"^\W*{_SOFT}(?P<aux>did|have|has)\s+(?:you|u|ya)\s+{_EVER}(?P<verb>[a-z]+)\b", re.I)
_REPLY_VERB = re.compile(r"^\W*(?:(?:yes|yeah|yep|yup|ya|yea|omg|oh|no|nope|nah|sadly|finally|just|totally|"
                         r"actually)\W+)*(?:(?:i|we)\s+)?(?:(?:just|finally|actually|totally)\s+)?"
                         r"(?P<neg>(?:didn'?t|did\s+not|haven'?t|have\s+not|never)\s+)?(?P<verb>[a-z]+)\b", re.I)
_IRREGULAR = {"get": "got", "win": "won", "make": "made", "find": "found", "buy": "bought", "sell": "sold",
              "take": "took", "hear": "heard", "see": "saw", "go": "went", "do": "did", "have": "had", "give": "gave",
              "land": "landed", "meet": "met", "leave": "left", "send": "sent", "pay": "paid", "tell": "told",
              "fly": "flew", "ride": "rode", "write": "wrote", "drive": "drove", "build": "built", "catch": "caught",
              "break": "broke", "choose": "chose", "begin": "began", "sit": "sat", "hold": "held", "keep": "kept",
              "lose": "lost", "feel": "felt", "bring": "brought", "think": "thought", "run": "ran"}
_PARTICIPLE = {"got": "gotten", "gave": "given", "took": "taken", "saw": "seen", "went": "gone", "did": "done",
               "wrote": "written", "drove": "driven", "broke": "broken", "chose": "chosen", "began": "begun",
               "flew": "flown", "rode": "ridden"}
_DENIAL = re.compile(r"^\W*(?:(?:oh|well|sadly|um+)\W+)?(?:no|nope|nah|not|never|(?:i\s+|we\s+)?(?:didn'?t|did\s+not|"
                     r"haven'?t|hasn'?t|have\s+not|wasn'?t|weren'?t|isn'?t|aren'?t|don'?t|doesn'?t|won'?t|can'?t))\b",
                     re.I)
_BARE = frozenset({"it", "them", "that", "this", "one", "yet", "did", "didn't", "didnt", "have", "haven't", "not",
                   "today", "finally"})
# "does Osric have any pets?": a yes says there are some, not which; the question stays framed with its reply.
_OPEN = re.compile(r"\b(?:any|anything|anyone|anybody|anywhere|some|something|or)\b", re.I)
_NOT = re.compile(r"\b(?:not|never|\w+n'?t)\b", re.I)
_ADVERB = re.compile(r"^(?:(?:ever|already|finally|just|actually|still|often|usually|always|sometimes|really)\s+)?",
                     re.I)
_STATED = {"did": ("", "did not"), "have": ("has", "has not"), "has": ("has", "has not"), "are": ("is", "is not"),
           "is": ("is", "is not"), "were": ("was", "was not"), "was": ("was", "was not"), "do": ("", "does not"),
           "does": ("", "does not"), "will": ("will", "will not"), "can": ("can", "cannot")}


def past(verb: str) -> str:
    """The simple past of a base-form verb ('get' -> 'got', 'pass' -> 'passed', 'try' -> 'tried')."""
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low.endswith("e"):
        return low + "d"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return low[:-1] + "ied"
    return low + "ed"


def forms(verb: str) -> set[str]:
    """The forms of a verb a reply may echo it with: base, past and past participle."""
    low = verb.lower()
    done = past(low)
    return {low, done, _PARTICIPLE.get(done, done)}


def verb_echo(question: str, reply: str) -> bool:
    """Whether a short ``reply`` takes up the verb of a yes/no ``question`` about the listener's own doing.

    "did you get the job?" -> "got it!!", "I got it", "nope, didn't get it" (not "got a cold", which says
    something else: the echo carries no content word of its own besides the verb).
    """
    asked, said = _ASKS_DOING.match(question.replace("\u2019", "'")), _REPLY_VERB.match(reply.replace("\u2019", "'"))
    if asked is None or said is None or said["verb"].lower() not in forms(asked["verb"]):
        return False
    return not _own_words(reply, question)


def _own_words(reply: str, question: str, speaker: str = "") -> set[str]:
    """The content words the reply says beyond the question, its verb forms, yes/no and pointing back."""
    asked = _ASKS_DOING.match(question)
    known = set(content_words(question)) | set(content_words(speaker)) | rules.INTERJECTIONS | _BARE
    if asked:
        known |= {w for f in forms(asked["verb"]) for w in content_words(f)}
    return {w for w in content_words(reply) if w not in known and w not in rules.INTERJECTIONS}


def confirmed_statement(question: str, reply: str, speaker: str) -> str | None:
    """The yes/no ``question`` (naming ``speaker``) said as the fact the bare ``reply`` confirms or denies; else None.

    'did Osric get the job at the boatyard?' + 'got it!!' -> 'Osric got the job at the boatyard'; + 'nope' ->
    'Osric did not get the job at the boatyard'. None for another shape or a reply that says more.
    """
    q = question.replace("\u2019", "'").strip()
    said = re.sub(rf"^\W*{re.escape(speaker)}\b\s*", "", reply.replace("\u2019", "'"))  # "Osric didn't": the reply
    aux_names = "|".join(_STATED)
    m = re.match(rf"^\W*{_SOFT}(?P<aux>{aux_names})\s+{re.escape(speaker)}\s+(?P<rest>[^?]+?)\s*\?*$", q, re.I)
    you = q.replace(speaker, "you")
    if m is None or _OPEN.search(m["rest"]) or _own_words(said, you, speaker):
        return None
    denied = bool(_DENIAL.match(said) or _NOT.search(said))
    if not (denied or opens_yes_no(said) or yes_no_echo(you, said) or verb_echo(you, said)):
        return None  # "nice one", "let's do it": no yes or no to the question
    aux, rest = m["aux"].lower(), m["rest"].strip(" ,.!")
    yes, no = _STATED[aux]
    if denied:
        return f"{speaker} {no} {rest}"
    if aux in ("did", "do", "does"):
        adverb = _ADVERB.match(rest)
        kept = "" if adverb is None or adverb[0].strip().lower() == "ever" else adverb[0]
        verb, _, tail = rest[adverb.end() if adverb else 0:].partition(" ")
        said = past(verb) if aux == "did" else agree(verb)
        return f"{speaker} {kept}{said} {tail}".rstrip()
    return f"{speaker} {yes} {rest}"
