"""The person a thread of he/she lines speaks of, followed back to the name that opened it.

"odile got the job!!" / "no way!! congrats to her" / "she called me crying": a he/she no one near surely fits is
followed back, up to ``circle.V_PRONOUN_FAR_TURNS`` lines, to the line that opened the thread (``thread_person``);
a he/she the listener's near lines already use blocks the reach back (``said_near``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline.circle import V_PRONOUN_FAR_TURNS, Circle
from dmem.decisions.offline.name_readers import line_names, named_here, thread_openers, verb_subject
from dmem.decisions.offline.person import LEAD, NOT_NAMES, Person, capitalised, fits
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.words import HE_SHE, alternation, gender_of, third_person, whole_words


def said_near(pronoun: str, texts: Sequence[str]) -> bool:
    """Whether the listener's near lines already speak of someone by the pronoun's gender ("he got stung").

    Whoever that is, the thread's person is not one named further back. The speaker's own near he/him ("I'm
    taking him to the vet") carries their thread on and blocks nothing: no one near fits it either.
    """
    said = _speaks_of(pronoun)
    return any(said.search(t) for t in texts)


def _speaks_of(pronoun: str) -> re.Pattern[str]:
    """Any form of a he or a she ("he", "him", "his", "himself"; "she", "her", "hers", "herself"), as ``pronoun`` is."""
    return whole_words(third_person(gender_of(pronoun)))


# A reply that echoes a line's verb with a he/she ("wasn't she?", "did he??") shows its subject is a person.
_TAG = re.compile(r"^\W*(?:(?:oh|yeah|aw+)\W+)?(?:was|wasn't|wasnt|is|isn't|isnt|did|didn't|didnt|has|hasn't|hasnt|"
                  rf"does|doesn't|doesnt)\s+(?P<p>{alternation(HE_SHE)})\b\W*$", re.I)


# A reply that goes on of someone by the pronoun as its subject ("She saved a penalty", "yes! he did the grill").
_GOES_ON = re.compile(rf"^{LEAD.pattern}(?P<p>{alternation(HE_SHE)})\b", re.I)


def goes_on(pronoun: str, reply: str) -> bool:
    """Whether ``reply`` opens with ``pronoun`` as its subject: it goes on of the one the line before opened with."""
    m = _GOES_ON.match(reply.strip())
    return m is not None and m["p"].lower() == pronoun.lower()


# A line that puts a name up as the topic, after "and"/"also" or before "update"/"news", alone or before a he/she
# sentence of its own: "And Foxglove", "Brannoc update. She found one!", "Ysolde news: she passed". The name is the
# he/she the lines after speak of. A capital alone ("Perfect", "Selkie?") or before a he/she ("Perfect. She ...") is
# no topic: it may be any word.
_TOPIC = re.compile(r"^\W*(?:(?P<lead>and|also)\W+)?(?P<w>(?-i:[A-Z][a-z]{2,}))(?P<tag>\s+(?:update|news))?\s*[.!:,]*"
                    rf"(?:\s+(?P<p>{alternation(HE_SHE)})\b.*)?$", re.I | re.S)
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
    the other gender, or of no one lead to the latest line that opens the thread (``_opener``). That name is the
    thread's person, of the pronoun's gender, and the speaker's: a bare name either of the two brought news of is
    someone both share (a coworker, a teammate), as the listener's "my sister" is not (a sure person of the
    listener's ends the thread). A name of unknown gender on the way, a second name in the opening line, someone
    surely named whom the pronoun fits (left to the latest-person reading), or, for the listener's news, another
    opening further back ("odile got the job" / "and marit got engaged!" / "she starts monday") ends it with no one.
    """
    lines = circle.prior[-V_PRONOUN_FAR_TURNS:]
    named: dict[str | None, list[Person]] = {}
    for p in (*circle.earlier, *circle.people):
        named.setdefault(p.turn_id, []).append(p)
    for at in range(len(lines) - 1, -1, -1):
        found = _opener(pronoun, circle, lines, at, named.get(lines[at].turn_id, []))
        if found is None:
            return None
        if not found:
            continue
        if _told(lines, at, circle.message) and (not _taken_up(pronoun, lines, at, circle.message) or any(
                _opener(pronoun, circle, lines, back, named.get(lines[back].turn_id, [])) for back in range(at))):
            return None  # the listener's news the speaker did not take up, or another thread further back
        word = found[0]
        return Person(word.lower(), word[:1].upper() + word[1:], circle.message.speaker,
                      gender_of(pronoun), lines[at].turn_id)
    return None


def _told(lines: Sequence[Message], at: int, message: Message) -> bool:
    """Whether ``lines[at]`` is the listener's own telling: not asked after, nor echoed by the speaker's tag."""
    reply = lines[at + 1] if at + 1 < len(lines) else message
    return lines[at].speaker != message.speaker and not asks(lines[at].text or "") \
        and not (reply.speaker == message.speaker and _TAG.match(reply.text or ""))


def _names_another(reply: str, speakers: set[str]) -> bool:
    """Whether a reply names someone: a name word, or a capital after a sentence's first word ("And Basil? Has he").

    Its he/she may then be that one's, not the line's before it. A sentence's first word ("Hooray! Did you ...") is
    any word.
    """
    return bool(line_names(reply, speakers)) or bool(
        capitalised(reply.strip(), {w.lower() for s in speakers for w in s.split()}, starts=False))


def _taken_up(pronoun: str, lines: Sequence[Message], at: int, message: Message) -> bool:
    """Whether the speaker's line right after ``lines[at]`` takes its news up: by the pronoun, or asking after it.

    "wren got the job!!" / "congrats to her!", "Brannoc update. She found one!" / "Really?"; the listener's "pau says
    im valiente" followed by talk of something else opens no thread of the speaker's lines later.
    """
    reply = lines[at + 1] if at + 1 < len(lines) else message
    said = reply.text or ""
    return reply.speaker == message.speaker and bool(_speaks_of(pronoun).search(said) or asks(said))


def _opener(pronoun: str, circle: Circle, lines: Sequence[Message], at: int,
            named: Sequence[Person]) -> list[str] | None:
    """The name ``lines[at]`` opens a he/she thread with ([] if none; None if the line ends the thread unread).

    A name as the subject of news only a person has ("got the job", "told me": ``thread_openers``), of a verb the
    other's reply echoes with the pronoun ("pim was amazing last night!" / "wasn't she?"), of the speaker's line the
    listener's reply speaks of by it ("marmalade is at the vet" / "what happened to her?"), of the listener's line the
    speaker's reply goes on of by it ("prudence did well in goal" / "She saved a penalty"), or a name put up as the
    topic ("And Foxglove", "Brannoc update. She found one!": ``topic``). A sure person the pronoun fits, two names or
    one of unknown gender end the thread.
    """
    m, speaker = lines[at], circle.message.speaker
    text = m.text or ""
    sure = [p for p in named if p.sure]
    if any(fits(pronoun, p) for p in sure):
        return None
    names = circle.line_names(len(circle.prior) - len(lines) + at)
    openers = thread_openers(text, names)
    reply = lines[at + 1] if at + 1 < len(lines) else circle.message
    if not openers and reply.speaker != m.speaker:
        tag = _TAG.match(reply.text or "")
        if (tag and tag["p"].lower() == pronoun.lower() or _speaks_of(pronoun).search(reply.text or "")
                and (m.speaker == speaker or goes_on(pronoun, reply.text or ""))) \
                and not _names_another(reply.text or "", circle.speakers):  # "And Basil? Has he ...": Basil's he
            openers = verb_subject(text, circle.speakers)  # "wasn't she?", "She saved a penalty"
    if not openers and (word := topic(text, pronoun, circle.speakers,
                                      reply.text or "" if reply.speaker != m.speaker else "")):
        openers = [word]  # "Brannoc update. She found one!": the topic is the thread's person
    others = named_here(text, names) - {w.lower() for w in openers} - {p.key for p in sure}
    return None if len(openers) > 1 or others else openers
