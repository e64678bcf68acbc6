"""A he/she line going on about the person the line just before told of: a source of what that line formed.

"Bram rebuilt the shed roof over the weekend" / "He wants it finished before the frost": the second line names no
one and says no "I", so admission rejects it as no personal fact about the speaker; yet it goes on with the person
the line before told of, and a question about that person's story asks for both turns. Whom the he/she means is not
always sure (``recalled`` writes it out only when one person can fit), so the line forms no memory of its own: its
turn becomes a source of the memory the line before formed (provenance, no new memory), as a reaction's does
(``reacted``, whose restating the splitting shares).

Only when:

1. the line opens (after chat's lead-in: "and", "ha", "ok so") with a he/she as a subject, or a short exclamation
   does and a he/she opens the next sentence ("A second boat! She is hooked now"); it asks nothing, says no first
   person (the speaker's own news is judged as theirs) and says ``MIN_WORDS`` answer words besides the pronoun;
2. the line just before (either speaker's) told of a person the pronoun fits: a he/she word of that gender, a kin
   word or a capitalised name that is no speaker's, and it formed something alone (it is judged without the thread
   rules: a chain of he/she lines does not lean on itself);
3. the line is no reaction (``reacted`` owns those) and the line before asks nothing.

Admission asks it last, after every rule that forms a memory of the line's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from dmem.decisions.offline import reacted, rules
from dmem.decisions.offline.followup import said
from dmem.decisions.offline.person import GENDER, LEAD, capitalised
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import content_words
from dmem.text.words import HE_SHE, alternation, gender_of, third_person, whole_words, wordset

REMARKABLE = ("rejected: no personal fact", "rejected: mostly not the speaker's world", "rejected: vague content",
              "rejected: too little detail")
"""The rejections the rule overrides: a line saying nothing of the speaker or too little alone; not a question,
a transient state, a greeting or a reaction, which say no more of the person with the line before."""
REASON = "admitted: goes on about the person of "
"""How the line's admission reason opens; the reason then names the line before and says it forms no memory."""
# Answer words the line needs besides its he/she: "he wants £85" says something, "he did" does not.
MIN_WORDS = 2
# Words of a short exclamation a he/she sentence may follow ("A second boat!").
EXCLAIM_MAX_WORDS = 4
_SUBJECT = re.compile(rf"(?P<p>{alternation(HE_SHE)})(?:'s|'ll|'d)?\b(?=\s+\w)", re.I)
_HE_SHE = wordset(HE_SHE)
_SENTENCE = re.compile(r"(?<=[.!])\s+")
_PRONOUNS = {g: whole_words(third_person(g)) for g in ("m", "f")}  # "he's" matches by "he"
_KIN = {g: re.compile(rf"\b(?:{'|'.join(sorted((k for k, v in GENDER.items() if v == g), key=len, reverse=True))})\b",
                      re.I) for g in ("m", "f")}


def pronoun_of(text: str) -> str | None:
    """The he/she the line opens with as a subject ("and he can't start till the 22nd"), else None (rule 1)."""
    sentences = [s for s in _SENTENCE.split(text.strip()) if s]
    if not sentences:
        return None
    first = _opening(sentences[0])
    if first is None and len(sentences) > 1 and sentences[0].endswith("!") \
            and len(sentences[0].split()) <= EXCLAIM_MAX_WORDS:
        first = _opening(sentences[1])  # "A second orange shirt! He is committed now."
    return first


def _opening(sentence: str) -> str | None:
    lead = LEAD.match(sentence)
    m = _SUBJECT.match(sentence, lead.end() if lead else 0)
    return m["p"].lower() if m else None


def _says_enough(text: str) -> bool:
    """Rule 1's guards: no question, no first person, ``MIN_WORDS`` answer words besides the pronoun."""
    if "?" in text or rules.FIRST_PERSON.search(text):
        return False
    words = [w for w in content_words(text) if w not in _HE_SHE and w not in rules.INTERJECTIONS]
    return len(words) >= MIN_WORDS


def tells_of(line: str, pronoun: str, speakers: set[str]) -> bool:
    """Whether ``line`` tells of a person ``pronoun`` fits: a he/she word or kin word of its gender, or a name."""
    gender = gender_of(pronoun)
    if _PRONOUNS[gender].search(line) or _KIN[gender].search(line):
        return True
    return bool(capitalised(line, speakers))


def remarked_on(message: Message, prior: Sequence[Message], formed: Callable[[Message, Sequence[Message]], bool]
                ) -> Message | None:
    """The line just before whose person ``message`` goes on about, when it formed something; else None.

    ``formed`` judges a line in its place (its turns before it): whether admission admitted it on its own.
    """
    text = said(message)
    pronoun = pronoun_of(text)
    if pronoun is None or not prior or not _says_enough(text) or reacted.reacts(text):
        return None
    before = prior[-1]
    line = said(before)
    speakers = {w.lower() for m in prior[-8:] for w in m.speaker.split()} | {w.lower() for w in message.speaker.split()}
    if asks(line) or not tells_of(line, pronoun, speakers):
        return None
    return before if formed(before, prior[:-1]) else None
