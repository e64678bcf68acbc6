"""The speaker's own news told without "I": a clause opening with a progressive verb, or a past verb before "my".

Mid-session, chat drops the subject of the speaker's own news: "camping at the bay instead, end of may", "moving
it to the bank holiday", "fixed my bike finally". ``replies`` and ``register`` put an "I" back before a closed
set of verbs (states, stances, listed pasts) and an "I'm" before a plan dated in the future; a progressive verb
with no time word, or a short past those lists miss, stayed subjectless and was judged as no personal fact (or
written as "Fixed Dana's bike").
A reader gives such a clause the only subject it can have, the speaker's: its first word is a verb (an -ing form
or a past form before the speaker's own "my") and nothing else in it is a subject (no verb of its own follows,
so "camping is fun" and "moving went fine" keep their gerund subject; a progressive says two content words, as
"sending it now" does not). The subject is put back ("I'm camping ...", "I fixed my bike ...") and the rules judge
the clause as if said in full: one saying too little, a passing state or a reaction still forms nothing.
Kept out: a question, a clause naming the listener ("thinking of u"), a long one (a subject may hide in it), and
a reply to a question about someone else ("how's Tove?" -> "doing better" is Tove's: ``reads_as_own``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline import register, reusable, rules
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import content_words, first_word
from dmem.text.verbs import IRREGULAR_PASTS
from dmem.text.words import SECOND_PERSON, wordset

# Most words of a subjectless clause read as the speaker's: a longer one may hold a subject of its own. The plan
# rule's limit (``register.REGISTER_PLAN_MAX_WORDS``), not tuned.
SUBJECTLESS_MAX_WORDS = register.REGISTER_PLAN_MAX_WORDS
# Adverbs chat puts before a dropped subject's verb ("also", "finally", "just"): the verb is the word after them.
_ADVERBS = wordset("also just still finally literally currently now then actually officially")
# "-ed" forms read as a past: "fixed", "booked", "painted", "tried".
_REGULAR_PAST = re.compile(r"^[a-z]+[^e\W]ed$|^[a-z]+ied$", re.I)
# Verbs whose base form ends in "-ing" ("bring my charger" orders), and "-ing" words that are prepositions
# ("including Wendell", "speaking of which"): no progressive.
_NOT_VERB_ING = wordset("bring sing sting swing sling cling fling wring including regarding according considering "
                        "speaking concerning following")
# A verb of its own after the "-ing" makes it a gerund subject: "moving went ok", "finishing early felt strange".
# "Packing for two isn't fun", "watching the kids race cheers me up": a contraction, or a present verb and its object.
_FINITE = re.compile(r"\b(?:is|are|was|were|has|have|had|does|did|do|will|would|can|could|must|should|sounds|seems|"
                     r"looks|makes|feels|works|helps|takes|i|we|he|she|they)\b|[a-z]+[^e\W]ed\b|n't\b|'(?:s|re|ll)\b"
                     r"|\b[a-z]+[^s\W]s\s+(?:me|my|us|our|him|her|them|everyone|people)\b", re.I)
# Content words a progressive needs after its verb: "camping at the bay" says where; "sending it now" says nothing
# the speaker will be asked about. Not tuned: a place or a thing with its detail is two words.
PROGRESSIVE_MIN_WORDS = 2
_MY = re.compile(r"^\W*(?:my|our)\b", re.I)


def dropped_subject(clause: str) -> str | None:
    """The subject chat dropped before the clause's first verb ("I'm" before an -ing, "I" before a past), or None."""
    if asks(clause) or rules.FIRST_PERSON.match(clause) or SECOND_PERSON.search(clause) \
            or len(clause.split()) > SUBJECTLESS_MAX_WORDS:
        return None
    _, body = rules.after_filler(clause)
    words = body.split()
    while words and words[0].lower().strip(",") in _ADVERBS:
        words = words[1:]
    if not words:
        return None
    verb, rest = first_word(words[0]).lower(), " ".join(words[1:])
    if register.progressive(verb) and verb not in _NOT_VERB_ING and not _FINITE.search(rest) \
            and not any(w in IRREGULAR_PASTS for w in rest.lower().split()) \
            and len(content_words(rest)) >= PROGRESSIVE_MIN_WORDS:
        return "I'm"  # "camping at the bay": not "camping is fun" (a gerund subject with a verb of its own)
    if _past(verb) and _MY.match(rest):
        return "I"  # "fixed my bike": the speaker's "my" after a past verb
    return None


def _past(word: str) -> bool:
    """Whether a lowercased word reads as a past form (listed irregular, or a regular "-ed")."""
    if word in register.BARE_PAST:  # a base form that is its own past opens an order: "put my name down"
        return False
    return word in IRREGULAR_PASTS or bool(_REGULAR_PAST.match(word))


def restored(clause: str) -> str:
    """The clause with the speaker's dropped subject put back after any filler; as said when none was dropped."""
    subject = dropped_subject(clause)
    if subject is None:
        return clause
    head, body = rules.after_filler(clause)
    first = body.split(maxsplit=1)[0]
    start = first.lower() if first.isupper() else first[:1].lower() + first[1:]  # "DOING" -> "doing", not "dOING"
    return f"{head}{subject} {start}{body[len(first):]}"


def reads_as_own(message: Message, prior: Sequence[Message], said: Sequence[str] = ()) -> bool:
    """Whether a subjectless line is the speaker's own: nothing asked just before, or the listener asked.

    The other speaker's question about the listener ("what are you up to?") leaves the line the speaker's; one about
    someone else ("how's Tove?" -> "doing better") makes it that person's.

    ``said``: the line's clauses. A line of several, none with an "I", is told whole as the speaker's world
    (``worldline``: "doing porto instead. 2nd to 6th april"); a subject put back in one clause would admit it
    alone and drop the rest, so only a one-clause line, or one that speaks in the first person already, is read.
    A line longer than chat's (``reusable.Z_MAX_MESSAGE_WORDS``) is written out: its subjects are said, and an
    "-ing" opening a sentence there is a gerund subject ("Seeing them grow brings me such joy").
    """
    if len(said) > 1 and not any(rules.FIRST_PERSON.search(s) for s in said):
        return False
    if len(" ".join(said).split()) > reusable.Z_MAX_MESSAGE_WORDS:
        return False
    before = prior[-1] if prior else None
    if before is None or before.speaker == message.speaker or not asks(before.text):
        return True
    return bool(SECOND_PERSON.search(register.spoken_to(before.text)))
