"""A short reply that confirms or denies the other speaker's yes/no question about the speaker's own doing.

"did you get the job at the boatyard?" answered "got it!!", "i got it", "yep" or "nope, didn't get it": the
fact is the question's content said of the speaker, negated on a denial ("Osric got the job at the
boatyard", "Osric did not get the job at the boatyard"), with the question's turn and the reply's as sources.
The reply and the question are judged as one unit: the reply alone says nothing, the question alone only asks.

- ``verb_echo``: the reply takes up the question's own verb with its subject dropped or said ("got it",
  "I got it", "didn't get it", "passed!!"), so it confirms or denies it even without a "yes" or "no";
- ``confirmed_statement``: the question, with the speaker already named in it (``rewrite_person``), said as a
  statement of the reply's polarity, only when the reply adds nothing of its own (a longer reply stays framed
  with its question);
- ``outcome``: "how did the exam go?" answered "passed!!" / "nailed it": the outcome verb said of the asked
  event ("Osric passed the exam"), where the frame quoted the question (B47d);
- ``clarified``: the other's bare noun phrase asked back ("THE APPRENTICESHIP???") names the "it" of the
  speaker's short news, and the reply confirms it: "got it!!", or a yes after the speaker's own "i got it"
  ("Osric got the apprenticeship", the three turns one memory); no "it" to name, or a denial: nothing (B47d).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline import reusable, rules
from dmem.decisions.offline.pronouns import agree
from dmem.decisions.offline.replies import Asked
from dmem.state.schemas import Message
from dmem.text.answers import yes_no_echo
from dmem.text.asked import LEAD_INS, asks, opens_yes_no, topic_stems
from dmem.text.lexical import STOPWORDS, content_words, straighten
from dmem.text.verbs import irregular_past, participle, past

_EVER = r"(?:(?:ever|already|finally|just|actually|still)\s+)?"
# "did you get ...", "have u booked ...": the listener's own doing, asked yes or no (the verb it asks of them).
_ASKS_DOING = re.compile(rf"^\W*{LEAD_INS}(?P<aux>did|have|has)\s+(?:you|u|ya)\s+{_EVER}(?P<verb>[a-z]+)\b", re.I)
_REPLY_VERB = re.compile(r"^\W*(?:(?:yes|yeah|yep|yup|ya|yea|omg|oh|no|nope|nah|sadly|finally|just|totally|"
                         r"actually)\W+)*(?:(?:i|we)\s+)?(?:(?:just|finally|actually|totally)\s+)?"
                         r"(?P<neg>(?:didn'?t|did\s+not|haven'?t|have\s+not|never)\s+)?(?P<verb>[a-z]+)\b", re.I)
_DENIAL = re.compile(r"^\W*(?:(?:oh|well|sadly|um+)\W+)?(?:no|nope|nah|not|never|(?:i\s+|we\s+)?(?:didn'?t|did\s+not|"
                     r"haven'?t|hasn'?t|have\s+not|wasn'?t|weren'?t|isn'?t|aren'?t|don'?t|doesn'?t|won'?t|can'?t))\b",
                     re.I)
_BARE = frozenset({"it", "them", "that", "this", "one", "yet", "did", "didn't", "didnt", "have", "haven't", "not",
                   "today", "finally"})
# "does Osric have any pets?": a yes says there are some, not which; the question stays framed with its reply.
_OPEN = re.compile(r"\b(?:any|anything|anyone|anybody|anywhere|some|something|or)\b", re.I)
# "do you think it's silly ...?": a yes or no is the speaker's view, said in the reply; the question stays framed.
_OPINION = re.compile(r"^(?:\w+\s+)?(?:think|reckon|suppose|guess|believe|feel)\b", re.I)
# Capitalised words that open a question but name no one ("Is That ...", "Did Everyone ...").
_NOT_SUBJECTS = frozenset({"everyone", "anyone", "someone", "everybody", "anybody", "somebody", "nobody", "everything",
                           "anything", "something", "nothing", "there", "here", "this", "that", "it", "he", "she",
                           "they", "we", "you", "i"})
# A yes said with a hedge and nothing else ("…maybe", "probably", "i think so"): a yes kept as hedged.
_HEDGED_YES = re.compile(r"^\W*(?:maybe|probably|possibly|perhaps|i\s+think\s+so|kind\s+of|sort\s+of|might\s+have)\W*$",
                         re.I)
_NOT = re.compile(r"\b(?:not|never|\w+n'?t)\b", re.I)
_ADVERB = re.compile(r"^(?:(?:ever|already|finally|just|actually|still|often|usually|always|sometimes|really)\s+)?",
                     re.I)
# "how did the driving test go?": the asked event; "THE APPRENTICESHIP???": a bare noun phrase asked back.
_HOW_WENT = re.compile(rf"^\W*{LEAD_INS}how\s+(?:did|'d)\s+(?P<np>(?:the|your|ur|[A-Z][\w-]*'s)\s+[\w'-]+"
                       r"(?:\s+[\w'-]+){0,2}?)\s+go\b(?:\s+(?:in\s+the\s+end|then|today))?\W*$", re.I)
_THING_ASKED = re.compile(r"^\W*(?P<np>(?:the|your|ur)\s+[\w'-]+(?:\s+[\w'-]+){0,2})\s*\?+\W*$", re.I)
_DID_IT = re.compile(r"^\W*(?:(?:yes|yeah|yep|yup|ya|yea|omg|oh|finally|just)\W+)*(?:(?:i|we)\s+)?"
                     r"(?:(?:just|finally|actually|totally)\s+)?(?P<verb>[a-z]+)(?P<it>\s+it)?\W*$", re.I)
# The verbs that tell how an exam, interview or match went, said of it ("passed", "nailed it").
_OUTCOME = frozenset({"passed", "failed", "nailed", "aced", "smashed", "crushed", "bombed", "flunked", "won", "lost",
                      "finished", "survived"})
# The asker's turns between the speaker's line and the question asked back ("AHHH"), and that line's length.
ASKED_BACK_RUN = 2
ASKED_BACK_MAX_WORDS = 5
# "did.", "i did", "already did", "did it": a reply saying the other's instruction just before was done.
_DID_TOLD = re.compile(r"^\W*(?:i\s+)?(?:already\s+)?did(?:\s+(?:it|that))?(?:\s+already)?\s*(?:[.!,]|$)", re.I)
# Most words of an instruction a bare "did" can say was done ("call the landlord!"; a longer line says more).
TOLD_MAX_WORDS = 6
# Chat's pronouns and negations, no verb of an instruction: "u didnt have to", "ur late", "dont".
_CHAT_WORD = re.compile(r"^(?:[a-z]{1,2}|ur|ya|you|im|ive|ill|id|[a-z]+n'?t)$")
_TOLD = re.compile(r"^\W*(?:please\s+|pls\s+|just\s+)?(?P<verb>[a-z]+)\b(?P<rest>[^?]*?)[\s.!]*$")
# Topic words a yes/no question needs for a bare "yes" or "oh ya she is" that answers it to state a fact (the
# question says it all: "didnt u sell the van in may" -> "yep"); "is that ok" -> "ya" states none. One is enough
# when the question checks a day, date, time or number ("so the 27th?" -> "yep"; invented batch 18, stop 61).
W_CONFIRMED_MIN_TOPIC = 2
_STATED = {"did": ("", "did not"), "have": ("has", "has not"), "has": ("has", "has not"), "are": ("is", "is not"),
           "is": ("is", "is not"), "were": ("was", "was not"), "was": ("was", "was not"), "do": ("", "does not"),
           "does": ("", "does not"), "will": ("will", "will not"), "can": ("can", "cannot")}


def forms(verb: str) -> set[str]:
    """The forms of a verb a reply may echo it with: base, past and past participle."""
    low = verb.lower()
    return {low, past(low), participle(low)}


def verb_echo(question: str, reply: str) -> bool:
    """Whether a short ``reply`` takes up the verb of a yes/no ``question`` about the listener's own doing.

    "did you get the job?" -> "got it!!", "I got it", "nope, didn't get it" (not "got a cold", which says
    something else: the echo carries no content word of its own besides the verb).
    """
    asked, said = _ASKS_DOING.match(straighten(question)), _REPLY_VERB.match(straighten(reply))
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


def confirmed_statement(question: str, reply: str, speaker: str, before: str | None = None) -> str | None:
    """The yes/no ``question`` (naming ``speaker``) said as the fact the bare ``reply`` confirms or denies; else None.

    'did Osric get the job at the boatyard?' + 'got it!!' -> 'Osric got the job at the boatyard'; + 'nope' ->
    'Osric did not get the job at the boatyard'. A question about the speaker's person or a third person named is
    stated of them ('is Wenna still at the harbour office?' + 'yes' -> 'Wenna is still at the harbour office'): the
    reply vouches for it. None for another shape or a reply that says more.
    """
    # "Osric passed", "Osric didn't": the reply without its subject
    said, q = re.sub(rf"^\W*{re.escape(speaker)}\b\s*", "", straighten(reply)), straighten(question).strip()
    if stated := outcome(q, said, speaker):
        return stated
    if found := clarified(q, said, before):
        return f"{speaker} {found}"
    aux_names = "|".join(_STATED)
    m = re.match(rf"^\W*{LEAD_INS}(?P<aux>{aux_names})\s+(?P<who>{_subject(speaker)})\s+(?P<rest>[^?]+?)\s*\?*$", q,
                 re.I)
    you = q.replace(speaker, "you")
    if m is None or _OPEN.search(m["rest"]) or _OPINION.match(m["rest"]) \
            or (_own_words(said, you, speaker) and not hedged_yes(said)) \
            or not _named_subject(m["who"], speaker):
        return None
    speaker = m["who"]  # the one the question asks about: the speaker, their person, or a third person named
    # "Corwen did": the reply's he/she, already given the name the question asks about, is its subject too
    said = re.sub(rf"^\W*{re.escape(speaker)}\b\s*", "", said) or said
    denied = bool(_DENIAL.match(said) or _NOT.search(said))
    if not (denied or opens_yes_no(said) or hedged_yes(said) or yes_no_echo(you, said) or verb_echo(you, said)):
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


def hedged_yes(reply: str) -> bool:
    """Whether a reply is a yes said with a hedge alone ('…maybe', 'probably'): it confirms, kept as hedged."""
    return bool(_HEDGED_YES.match(straighten(reply)))


def _subject(speaker: str) -> str:
    """Who a yes/no question may ask about for its reply to state: the speaker, 'Osric's sister', or 'Wenna'."""
    return rf"{re.escape(speaker)}(?:'s\s+[\w-]+)?|(?-i:[A-Z][\w-]+)(?:'s\s+[\w-]+)?"


def _named_subject(who: str, speaker: str) -> bool:
    """Whether the asked subject names someone: the speaker, or a capitalised name, no function word ('Is That')."""
    head = who.split("'")[0]
    return head == speaker or (head.lower() not in STOPWORDS and head.lower() not in _NOT_SUBJECTS)


def _done(verb: str) -> bool:
    """Whether a word is a past form a short reply says its news with ('got', 'passed'; not 'need', 'shed')."""
    low = verb.lower()
    return irregular_past(low) or (low.endswith("ed") and len(low) > 4 and not low.endswith("eed"))


def outcome(question: str, reply: str, speaker: str) -> str | None:
    """'how did the exam go?' + 'passed!!' -> 'Osric passed the exam'; None for another shape or more words."""
    asked, said = _HOW_WENT.match(straighten(question).strip()), _DID_IT.match(straighten(reply))
    verb = said["verb"].lower() if said else ""
    if asked is None or verb not in _OUTCOME or _own_words(reply, question, speaker) - set(content_words(verb)):
        return None
    np = re.sub(rf"^(?:your|ur|{re.escape(speaker)}'s)\b", "the", asked["np"], flags=re.I)
    return f"{speaker} {verb} {np}"


def thing_asked(question: str) -> str | None:
    """The noun phrase a bare question asks back ('THE APPRENTICESHIP???' -> 'the apprenticeship'), else None."""
    m = _THING_ASKED.match(straighten(question))
    return re.sub(r"^(?:your|ur)\b", "the", m["np"].lower()) if m else None


def clarified(question: str, reply: str, before: str | None = None) -> str | None:
    """The speaker's news whose "it" the other's bare noun-phrase ``question`` names, as the reply confirms it.

    'THE JOB???' + 'got it!!' -> 'got the job'; 'i got it' (``before``, the speaker's line before the question)
    + 'THE JOB???' + 'yeah' -> 'got the job'. None for a denial, more words, or no "it" to name.
    """
    np = thing_asked(question)
    reply = straighten(reply)
    said = _DID_IT.match(reply)
    verb = said["verb"].lower() if said else ""
    if np is None or _DENIAL.match(reply) or _own_words(reply, question) - set(content_words(verb)):
        return None
    if said and said["it"] and _done(verb):
        return f"{verb} {np}"
    told = _DID_IT.match(straighten(before)) if before and opens_yes_no(reply) else None
    if told and told["it"] and _done(told["verb"]):
        return f"{told['verb'].lower()} {np}"
    return None


def line_asked_back(asked: Asked | None, prior: Sequence[Message], speaker: str) -> Message | None:
    """The speaker's short line that the other's bare noun-phrase question ``asked`` asks back about, if any.

    "GOT AN INTERVIEW" / "AHHH" / "the council one??": the line just before the asker's run of turns, when it
    is the speaker's and at most ``ASKED_BACK_MAX_WORDS`` words (longer news formed its own memory).
    """
    if asked is None or not asked.turn_id or thing_asked(asked.question) is None:
        return None
    at = next((i for i, m in enumerate(prior) if m.turn_id == asked.turn_id), None)
    run = 0
    while at and prior[at - 1].speaker == asked.asker and run < ASKED_BACK_RUN:
        at, run = at - 1, run + 1
    before = prior[at - 1] if at else None
    if before is None or before.speaker != speaker or len((before.text or "").split()) > ASKED_BACK_MAX_WORDS:
        return None
    return before


def told_done(message: Message, prior: Sequence[Message]) -> Asked | None:
    """The other's instruction just before, read as the question the reply's bare "did" answers; else None.

    "call the landlord!" -> "did. he says 'on thursday'": the instruction asks what "did you call the landlord?"
    asks, so the reply states it done ("Severin called the landlord"), both turns its sources. The instruction is
    the other's line, short (``TOLD_MAX_WORDS``), asking nothing and opening with a verb: not a pronoun or
    function word, an interjection, or a verb already said ("sounds good", "loved it"); of a longer line, its first
    sentence.
    """
    if not prior or prior[-1].speaker == message.speaker or not _DID_TOLD.match(straighten(message.text or "")):
        return None
    said = straighten(prior[-1].text or "").strip().lower()
    line = re.split(r"(?<=[.!])\s+", said, maxsplit=1)[0]  # "email your tutors. they'll understand": the first
    m = _TOLD.match(line)
    if m is None or len(line.split()) > TOLD_MAX_WORDS or asks(line):
        return None
    verb = m["verb"]
    if verb in STOPWORDS or verb in rules.INTERJECTIONS or _done(verb) or _inflected(verb) or _CHAT_WORD.match(verb):
        return None
    return Asked(asker=prior[-1].speaker, question=f"did you {verb}{m['rest']}?", turn_id=prior[-1].turn_id)


def _inflected(word: str) -> bool:
    """A verb said of someone or going on ("sounds", "loving"), not a base form ("ring", "press")."""
    return word.endswith("s") and not word.endswith("ss") or word.endswith("ing") and len(word) > 5


def checks_enough(asked: Asked) -> bool:
    """Whether a yes/no question says what a bare yes confirms: enough topic words, or a day or number it checks.

    ``W_CONFIRMED_MIN_TOPIC`` topic words, or one with a day, date, time or number ("so the 27th?", "next monday?
    the 5th?": the yes states the day).
    """
    topic = topic_stems(asked.question, [asked.asker])
    return len(topic) >= W_CONFIRMED_MIN_TOPIC or bool(topic) and reusable.detail(asked.question) is not None
