"""A short line of two or three sentences read by the piece that carries its fact, not by its first piece.

Real chat lines often open with a word that says nothing alone ("yes.", "ha.", "Fair.", "Oh God.", the speaker's
own name) and go on with the fact ("yes. the toolbox stays. only the van goes"), or give a value and then a verdict
on it ("340. If 30 people put in 12 each that's 360", "carnations. nice"). Judged whole, such a line is rejected by
its head: a reply, a title alone, too little detail. Read piece by piece, the line is admitted when the piece that
carries the fact is, in the line's place (the same turn, the same turns before it):

- the rest after a head of a few words too poor alone (a word, a value, a verdict; not a greeting nor another's
  world, nor "it looks good." of the listener's thing) or only a yes or no ("yes."), and not told of he, she or
  they (unless the head is a bare yes or no and the listener's last sentence names one person and tells of no
  other: "I think Saxon did it." / "yes. he lay on the rug" is read "Saxon lay on the rug"), nor of an "it"
  or "that" the head gives nothing to stand for ("Good. It'll take them longer": a verdict names no thing) unless
  the rest says a value, a name or the speaker's own fact: the head is context (a head
  naming the speaker themself introduces them: "kazik. from lodz" is read "I am from lodz");
- the head, when it is a terse value read with its thread (``thread_value``) and the rest forms nothing alone.

One memory per line as before: the line's fact is the carrier piece's, written as that piece alone would be.
A carrier taken as a reaction to or a take-up of another's news is no fact of the line's own and does not count.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from dmem.decisions.offline.person import GENDER, NOT_NAMES, capitalised
from dmem.state.schemas import Message
from dmem.text.spelled_numbers import spelled
from dmem.text.words import FIRST_PERSON, SUBJECT_PRONOUNS, alternation, third_person, whole_words

PIECE_READ = "admitted: a short line read by its piece ("
# Most words of a line read piece by piece, and of its head: longer lines say what they mean in their clauses.
MAX_WORDS = 12
HEAD_WORDS = 3
# A carrier admitted so is no fact of the line's own: the line answers or reacts to another's.
_NOT_ITS_OWN = ("admitted: yes or no to", "admitted: reacts to", "admitted: takes up")
_HEAD_REPLY = "admitted: yes or no to"
# A head that is context for the rest: a word or value too poor alone, a verdict, a reply word. Not a greeting
# ("hi. news everywhere today") nor a line about another's world ("Poor man.", "Tell them today."), which the rest
# goes on with rather than tells of the speaker.
_HEAD_POOR = ("rejected: too little detail", "rejected: vague content", "rejected: a title or a name alone",
              "rejected: a reply to what the listener said", "rejected: generic emotional reaction")
_THREAD_VALUE = "admitted: a terse value read with its thread ("
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
# A rest that reads as a description of the speaker after their own name: "from lodz", "a nurse", "in my 40s".
_INTRODUCED = re.compile(r"^(?:from|in|at|on|a|an)\b", re.I)
# A rest told of he, she or they: read without its head, the pronoun is read as the turn before's thing ("how was
# lunch" / "good. he had the fish"): who it is stays for the line's own rules to read.
# "they" too, unlike the he/she readers: a rest told of people is as much another's as one told of a person.
_THIRD_PERSON = re.compile(rf"^(?:(?:and|so|but)\s+)?(?:{alternation(third_person('mfp', SUBJECT_PRONOUNS))})\b", re.I)
# A bare yes or no agrees with or denies the listener's line and names no thing of its own: a he, she or they after
# it is the one person that line named ("I think Rollo did it." / "yes. he lay on the blue rug all morning"), who
# the speaker goes on about; a verdict head ("good. he had the fish") reads the turn before's thing as "he".
_BARE_YES_NO = re.compile(r"^(?:yes|yeah|yep|yup|no|nope)[.!]*$", re.I)
# A head saying how a thing is ("it looks good.") judges the listener's photo or thing: the line reacts, the rest
# does not go on from a word of its own.
_THING_HEAD = re.compile(r"^(?:it|that|this)\b", re.I)
# A rest whose subject is "it", or "that"/"this" as a pronoun (a verb follows, not a noun: "that part works" names
# its thing): read alone, it stands for the turn before's thing, a vague "<speaker>: It'll take them longer".
_THING_SUBJECT = re.compile(r"^(?:(?:and|so|but)\s+)?(?:it\b|(?:that|this)(?:['\u2019](?:s|ll|d)\b|\s+(?:is|was|will|"
                            r"would|could|should|can|might|must|has|had|does|did|sounds|looks|seems|means|makes|"
                            r"takes|goes|went)\b))", re.I)
# Head verdicts that name no thing an "it" could stand for: a bare verdict or reply ("Good.", "Oh God.", "yes.").
_HEAD_NAMES_NOTHING = ("rejected: vague content", "rejected: a reply to what the listener said",
                       "rejected: generic emotional reaction", _HEAD_REPLY)
# A line telling of another by any third-person word ("they" too: the he may be one of them), or of someone's
# relation or thing by a first or second person's ("my uncle", "your dog"): the yes or no may be about them.
_OTHER = whole_words(third_person("mfp"))
_OWNED = re.compile(r"\b(?:my|your|our)\s+\w", re.I)
# Capitals that name no one, but for a kin word: "Mum" in "I think Rollo and Mum did it" is someone he or she may be.
_NO_ONE = NOT_NAMES - frozenset(GENDER)

Judge = Callable[[Message], tuple[bool, str]]


@dataclass(frozen=True)
class Piece:
    """The piece of a short line that carries its fact, as a message of its own (the line's turn id) and its verdict."""

    message: Message
    reason: str


def pieces(text: str) -> list[str]:
    """The sentences of a line, cut after '.', '!' or '?': 'kazik. from lodz' -> ['kazik.', 'from lodz']."""
    return [p for p in _SENTENCE.split(text.strip()) if p.strip()]


def shaped(said: str) -> bool:
    """Whether a line has the shape this reads: 2-3 sentences, at most ``MAX_WORDS``, a head of ``HEAD_WORDS``."""
    return _shaped(said) is not None


def _shaped(said: str) -> list[str] | None:
    """The line's pieces when it has that shape, else None."""
    parts = pieces(said)
    if not 2 <= len(parts) <= 3 or _words(said) > MAX_WORDS or _words(parts[0]) > HEAD_WORDS:
        return None
    return parts


def _words(text: str) -> int:
    return len(re.findall(r"[\w']+", text))


def _own(reason: str) -> bool:
    return not reason.startswith(_NOT_ITS_OWN)


def carrier(message: Message, said: str, judge: Judge, before: Message | None = None) -> Piece | None:
    """The piece that carries the fact of a short line of 2-3 sentences rejected whole, or None.

    ``said``: the line's text (``utterance_text``); ``judge``: a piece's verdict in the line's place; ``before``:
    the line just before it, whose one named person a he/she/they rest after a bare yes or no is read as.
    """
    parts = _shaped(said)
    if parts is None:
        return None
    head, rest = parts[0], " ".join(parts[1:])
    head_admitted, head_reason = judge(message.model_copy(update={"text": head}))
    told_of = bool(_THIRD_PERSON.match(rest))  # "good. he had the fish": "he" is the turn before's thing
    if told_of and _BARE_YES_NO.match(head) and (person := _named_before(before, message.speaker)):
        rest, told_of = _THIRD_PERSON.sub(lambda m: m.group(0)[:-len(m.group(0).split()[-1])] + person, rest, 1), False
    if not told_of and not _THING_HEAD.match(head) and not _unfounded(rest, head_reason) and (
            head_reason.startswith(_HEAD_POOR) or (head_admitted and head_reason.startswith(_HEAD_REPLY))):
        if _named_self(head, message.speaker) and _INTRODUCED.match(rest):
            rest = f"I am {rest}"
        piece = message.model_copy(update={"text": rest})
        admitted, reason = judge(piece)
        if admitted and _own(reason):
            return Piece(piece, reason)
    if head_admitted and head_reason.startswith(_THREAD_VALUE) and not judge(
            message.model_copy(update={"text": rest}))[0]:
        return Piece(message.model_copy(update={"text": head}), head_reason)
    return None


def _unfounded(rest: str, head_reason: str) -> bool:
    """Whether the rest's subject is an "it"/"that" the head names nothing for, with no value, name or own fact.

    "Good. It'll take them longer" is; "Fine. It's in Truro", "ok. it cost 40", "yes. it's my turn" are not.
    """
    if not _THING_SUBJECT.match(rest) or not head_reason.startswith(_HEAD_NAMES_NOTHING):
        return False
    return not (re.search(r"\d", rest) or any(spelled(rest)) or FIRST_PERSON.search(rest)
                or capitalised(rest, starts=False, no_one=()))  # a name of anything: "It's at Senna's place"


def _named_before(before: Message | None, speaker: str) -> str | None:
    """The one person the listener's line just before names ("I think Saxon did it." -> "Saxon"), or None.

    The name is read in that line's last sentence, the one the yes or no answers. None when it also tells of
    another by a pronoun or of someone's relation or thing ("I'll ask Grainne what he likes", "her uncle", "your
    dog"): he or she may be them.
    """
    if before is None or before.speaker == speaker or not before.text.strip():
        return None
    last = pieces(before.text)[-1]
    if _OWNED.search(last) or _OTHER.search(last):
        return None
    names = {m["n"] for m in capitalised(last, {w.lower() for w in before.speaker.split()[:1]}, starts=False,
                                           no_one=_NO_ONE)}
    return names.pop() if len(names) == 1 else None


def _named_self(head: str, speaker: str) -> bool:
    """Whether a head is the speaker's own first name alone ('kazik.')."""
    name = speaker.split()[0].lower() if speaker.split() else ""
    return bool(name) and re.sub(r"[^\w]", "", head).lower() == name


def valued(piece: Piece) -> bool:
    """Whether the carrier is a terse value read with its thread (the line's head), written as that rule writes it."""
    return piece.reason.startswith(_THREAD_VALUE)


def reason_of(piece: Piece) -> str:
    """The line's admission reason: the carrier piece quoted, then its own verdict."""
    quoted = piece.message.text if len(piece.message.text) <= 60 else piece.message.text[:57] + "..."
    return f"{PIECE_READ}'{quoted}'): {piece.reason.removeprefix('admitted: ')}"
