"""Cut an utterance into the clauses admission judges, each carrying what the chat around it says of it.

English chat is made explicit first (``replies``, ``register``, ``telegraphic``): casual first person, dropped
subjects and owners; each clause then carries the question it answers or replies to, the speaker's own message it
continues, the stored memory whose topic it extends, the person of the speaker's life it is about (``person_clauses``)
and the speaker's own thing it tells of (``ownworld``). Also the words of a clause that say something
(``informative_words``, ``answer_words``), which both the cutting and the rules count.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from dmem.decisions.offline import (
    accepted,
    chains,
    circle,
    confirmed,
    continued,
    described,
    embedded,
    labelled,
    listener_people,
    news,
    outcomes,
    ownworld,
    person_clauses,
    picked,
    recalled,
    register,
    reusable,
    rules,
    speech_acts,
    subjectless,
    telegraphic,
    terse_asked,
)
from dmem.decisions.offline.chat_names import RoleAnswer, answered_role
from dmem.decisions.offline.person import NOT_NAMES
from dmem.decisions.offline.replies import (
    Asked,
    asked_person,
    asked_third,
    casual_first_person,
    listener_of,
    own_message_before,
    question_answered,
    question_replied,
    restore_subject,
    their_subject,
    without_speaker,
)
from dmem.state.schemas import Message
from dmem.text.asked import hedged_answer
from dmem.text.lexical import content_words, straighten

# Most words of a short message that may continue the speaker's own message just before (chat splits one turn
# into messages); chosen on the tuning half (``clause_admission.FOLLOW_MIN_WORDS`` is the least it must say).
FOLLOW_MAX_WORDS = 12


@dataclass(frozen=True)
class Clause:
    """One proposition-sized piece of an utterance."""

    text: str
    remember: bool = False
    """True when the clause follows an explicit 'remember (that)'."""
    condition: tuple[str, str] | None = None
    """(verb, object) of 'remember that when you <verb> <object>': the assistant behaviour it governs."""
    asked: Asked | None = None
    """The other speaker's question about the speaker that this clause's utterance replies to."""
    continues: str | None = None
    """The stored memory whose topic this clause extends (shared informative words), if any."""
    follows: Message | None = None
    """The speaker's own message just before, which this one continues (chat splits a turn), if any."""
    replies_to: Asked | None = None
    """The other speaker's real question just before that the utterance replies to: a source of its facts."""
    then: str | None = None
    """The utterance's next clause, which may vouch for what a question offers ('have you tried X? it's great')."""
    own_event: str | None = None
    """The speaker's own dated occasion the clause evaluates ('the concert last night'), if any."""
    rated: str | None = None
    """The words rating something the speaker had ('a solid 8/10', 'would go again'), if any."""
    chat_length: bool = False
    """True when the utterance is chat-length (``reusable.Z_MAX_MESSAGE_WORDS``): its plain statements may be kept."""
    about: str | None = None
    """The person of the speaker's life the clause is about, written out in its text ('my dad'), if any."""
    introduced: str | None = None
    """The earlier turn that named that person, when the clause refers to them by pronoun."""
    foreign: bool = False
    """The clause opens with a he/she meaning someone else's person or nobody named: no attribute of the speaker's."""
    asked_back: Message | None = None
    """The speaker's own line whose "it" the other's bare noun-phrase question names ("i got it" / "THE JOB???")."""
    outcome_of: Message | str | None = None
    """The speaker's earlier message, or stored memory, naming the event whose outcome the clause reports."""
    settles: Asked | None = None
    """The other speaker's ask (a request, a role, an offer) the utterance's yes or no settles (``speech_acts``)."""
    names: frozenset[str] = frozenset()
    """Words the chat before wrote as names (lowercased): one opening the clause is a name too (``news``)."""
    owns: str | None = None
    """Why the clause's subject is the speaker's own thing (said with 'my' before, or stored of them), if it is."""
    people: frozenset[str] = frozenset()
    """The chat's speakers' name words (lowercased): a vocative is no detail of a question (``embedded``)."""
    describe: Callable[[], str | None] | None = field(default=None, compare=False, repr=False)
    """Reads the clause with the person its message names and describes written out ("kirsty is from fife, she ..."
    -> "Kirsty is from fife, she ...", ``described``, else ``recalled``): the text kept if nothing else admits the
    line. Read only then (``clause_admission.described_people``): most lines never need it."""


@dataclass(frozen=True)
class ClauseVerdict:
    """A clause's admission and the rule that decided it."""

    admit: bool
    reason: str
    kind: str
    """Rule family: 'remember', an admit criterion, or a reject family ('transient', 'phatic', ...)."""
    hedge: str | None = None
    """The hedge words of an admitted clause ('probably'): its facts are kept as hedged."""
    ruled: ClauseVerdict | None = None
    """For an 'answer': the rules' own verdict on the clause, the rejection its question overrode."""


def utterance_text(message: Message) -> str:
    """The message text without a leading 'Speaker:' and with the image caption as a clause."""
    text = straighten(without_speaker(message.text or "", message.speaker))
    if message.image_caption:
        caption = re.sub(r"^(?:a|an)\s+(?:photo|picture|image|photograph)\s+of\s+", "", message.image_caption.strip(),
                         flags=re.I)
        text = f"{text.rstrip()} \n I shared a photo of {caption.rstrip('.')}."
    return text.strip()


def _split_joined(sentence: str) -> list[str]:
    """Split on 'and/but' + a first-person subject, when the left part has a first-person word too.

    A comma before "I always/usually/often/never" splits too ("doing research right now, I'm always fascinated by
    planes": a transient state and a habit), unless the left part is the habit's condition ("when I fly, I ...").
    """
    pieces: list[str] = []
    start = 0
    for m in rules.CLAUSE_JOIN.finditer(sentence):
        if (pair := rules.PAIR_SUBJECT.match(sentence[start:])) and m.end() < start + pair.end():
            continue  # "My dad and I built a shed": one subject, not two clauses
        if m["splice"] is not None and rules.SUBORDINATE.match(sentence[start : m.start()]):
            continue
        if rules.FIRST_PERSON.search(sentence[start : m.start()]):
            pieces.append(sentence[start : m.start()])
            start = m.end()
    pieces.append(sentence[start:])
    return pieces


def segment(text: str) -> list[Clause]:
    """Sentences, then 'remember (that)' boundaries, then clauses joined by and/but.

    "<fact>, so remember that when you <verb> <object>" stays one clause carrying its condition.
    """
    out: list[Clause] = []
    sentences = [part for s in rules.SENTENCE_END.split(text) for part in rules.QUESTION_TAIL.split(s)]
    for sentence in sentences:
        if m := rules.REMEMBER_WHEN.match(sentence.strip()):
            out.append(Clause(m["fact"].strip(" ,;:-"), remember=True, condition=(m["verb"], m["obj"])))
            continue
        parts = rules.REMEMBER.split(sentence)
        for i, part in enumerate(parts):
            for piece in _split_joined(part):
                piece = piece.strip(" ,;:-\u2014")
                if piece:
                    out.append(Clause(piece, remember=i > 0))
    return out


def clauses_of(message: Message, prior: Sequence[Message] = (),
               memories: Sequence[str] = ()) -> tuple[list[Clause], str]:
    """The utterance's clauses as they are judged, and its language.

    English chat is made explicit first (``replies``): casual first person, dropped subjects, and
    the question about the speaker that the utterance answers, when the turns before ask one.
    Each clause names the stored memory (of ``memories``) whose topic it extends, if any.
    """
    text = utterance_text(message)
    language = rules.detect_language(text)
    if language != "en":
        return segment(text), language
    asked = question_answered(message, prior)
    follows = own_message_before(message, prior) if len(text.split()) <= FOLLOW_MAX_WORDS else None
    text = register.standard(text) or text  # after the count: "wanna" is one word said, not two
    replies_to = question_replied(message, prior)
    asked_back = confirmed.line_asked_back(asked, prior, message.speaker)
    asked = asked or terse_asked.asked_terse(message, prior, answer_words)  # "how r lessons" -> "can float now"
    asked = asked or confirmed.told_done(message, prior)  # "call the landlord!" -> "did."
    if not (asked or replies_to):  # "bakery one" after a message describing three flats, "👍 29th" to a date proposed
        asked = labelled.labelled(message, prior) or picked.picked(message, prior)  # "the test: CONGRATS 🎉"
    asked = picked.followed_up(message, prior, asked) or asked  # "in his own van?" after the speaker's plan: "yep"
    if not (asked or replies_to):  # "You can pay for the first pizza" -> "deal": the plan agreed
        asked = accepted.accepted(message, prior) or accepted.attending(message, prior)
    elif asked and not asked.stance and (deal := accepted.accepted(message, prior)) and deal.turn_id == asked.turn_id:
        asked = deal  # "Then we split the rest 50/50?" / "fine by me": a proposal asked is agreed, not answered
    asked = asked or accepted.settled_on(message, prior)  # "ten then" to "Ten if Gwil comes", a question before too
    if not (asked or replies_to or follows):  # "and sunday" after "you cook mon wed fri": the list goes on
        asked = continued.continued(message, prior)
    if (answered := asked or replies_to) and answered.stance != "named" and hedged_answer(answered.question, text):
        text = text.rstrip(" ?")  # "probably sushi?" after "favourite food?": an answer, kept as hedged
    outcome = outcomes.awaited_event(text, prior, memories, message.speaker)
    names = {message.speaker, *(m.speaker for m in prior)}
    named = news.known_names(prior)
    settles = speech_acts.settled(message, prior, named)  # "be my best person?" / "me??" / "u" / "YES"
    plain = [replace(c, text=register.plain(c.text)) for c in segment(casual_first_person(text))]
    if asked or replies_to:  # "Is that a lot?" -> "For a Sunday in Gorran? Yes": the echo sets the answer's terms
        plain = _echoes_joined(plain)
    named_piece = bool(asked and asked.stance == "named")  # "acting lead: congrats??": the label is the other's
    said = [register.restore(c.text) if named_piece else restore_subject(register.restore(c.text)) for c in plain]
    if not named_piece and subjectless.reads_as_own(message, prior, said):  # "camping at the bay" is the speaker's
        said = [subjectless.restored(s) for s in said]
    person = asked_person(asked.question) if asked and plain else None
    third = asked_third(asked.question) if asked and plain and not person else None
    if person:  # "how's your sister?" -> "doing great now": the dropped subject is the sister
        person = person if (theirs := their_subject(plain[0].text, said[0], person)) != said[0] else None
        said[0] = theirs
    elif third:  # "did the landlord fix the window?" -> "came thursday": the landlord came
        third = third if (theirs := their_subject(plain[0].text, said[0], third, third)) != said[0] else None
        said[0] = theirs
    role = answered_role(asked.question, text, NOT_NAMES) if asked and plain and not (person or third) else None
    if role:  # "who's Ilse?" -> "my old boss from the bakery": Ilse is the speaker's old boss from the bakery
        plain, said = _role_stated(plain, said, role)
    clauses = [replace(c, text=telegraphic.restore_owner(said[i], prior, message.speaker),
                       asked=asked, follows=follows, replies_to=replies_to, asked_back=asked_back,
                       settles=settles,
                       own_event=telegraphic.own_event(c.text, prior, message.speaker),
                       rated=register.rated(c.text, prior, message.speaker), outcome_of=outcome,
                       chat_length=len(text.split()) <= reusable.Z_MAX_MESSAGE_WORDS,
                       names=named, people=frozenset(w.lower() for n in names for w in n.split()))
               for i, c in enumerate(plain)]
    if memories:
        clauses = [replace(c, continues=chains.continued(c.text, memories, names)) for c in clauses]
    clauses = _written_out(clauses, message, prior, memories)
    clauses = [replace(c, then=clauses[i + 1].text if i + 1 < len(clauses) else None) for i, c in enumerate(clauses)]
    clauses = _owned(clauses, message, prior, memories)
    if role and asked and clauses:  # "who's Ilse?" named her: its turn is a source of the role the reply gives
        clauses[0] = replace(clauses[0], about=f"{role.phrase} {role.name}", introduced=asked.turn_id or None)
    if (person or third) and asked:  # the question named the person: its turn is a source of what the reply says
        clauses[0] = replace(clauses[0], about=clauses[0].about or (f"my {person}" if person else third),
                             introduced=clauses[0].introduced or asked.turn_id or None)
    return clauses, language


def _role_stated(plain: list[Clause], said: list[str], role: RoleAnswer) -> tuple[list[Clause], list[str]]:
    """The reply's clauses with those that give the role (and the name echoed before it) made one statement."""
    head = role.given.split(",")[0].lower()
    at = next((i for i, c in enumerate(plain) if head in c.text.lower()), None)
    if at is None:
        return plain, said
    end = at + len(segment(role.given))
    stated = f"{role.name} is {role.said}"
    return [replace(plain[at], text=stated), *plain[end:]], [stated, *said[end:]]


def _echoes_joined(clauses: list[Clause]) -> list[Clause]:
    """A reply's echo question joined to the answer after it (``embedded.answer_echo``): one clause, not a question."""
    out: list[Clause] = []
    skip = False
    for i, c in enumerate(clauses):
        if skip:
            skip = False
            continue
        later = clauses[i + 1].text if i + 1 < len(clauses) else None
        if joined := embedded.answer_echo(c.text, later):
            out.append(replace(c, text=joined))
            skip = True
        else:
            out.append(c)
    return out


def _owned(clauses: list[Clause], message: Message, prior: Sequence[Message],
           memories: Sequence[str]) -> list[Clause]:
    """Each clause about the speaker's own thing (``ownworld``); the tellable clauses after one go on about it."""
    out: list[Clause] = []
    thing: str | None = None
    for i, c in enumerate(clauses):
        words = len(answer_words(c.text))
        owns = ownworld.own_world(c.text, words, message.speaker, " ".join(d.text for d in clauses[:i]), prior,
                                  memories)
        if owns is None and thing and ownworld.tellable(c.text, words):
            owns = f"{thing}, told on in the same message"
        thing = owns.split(",")[0] if owns else thing
        out.append(replace(c, owns=owns))
    return out


def _written_out(clauses: list[Clause], message: Message, prior: Sequence[Message],
                 memories: Sequence[str]) -> list[Clause]:
    """Each clause about a person of the speaker's life with that person written out (``person_clauses``)."""
    out, before = [], ""
    people = circle.Circle(message, prior, listener_of(message, prior), memories)
    for i, c in enumerate(clauses):
        found, foreign = person_clauses.read(c.text, people, before)
        if found is None:
            describe = functools.partial(_described, c.text, people, before, clauses[i + 1:])
            before = f"{before} {c.text}."
            out.append(replace(c, foreign=foreign, describe=describe))
            continue
        before = f"{before} {c.text}."
        introduced = found.introduced if found.introduced != message.turn_id else None
        out.append(replace(c, text=found.text, about=found.person.phrase, introduced=introduced))
    return out


def _described(text: str, people: circle.Circle, before: str, after: Sequence[Clause]) -> str | None:
    """``text`` with its person written out (``described``, ``recalled``, ``listener_people``), or None.

    ``before``: the message's clauses before it; ``after``: those after it.
    """
    told = described.read(text, people, before, " ".join(d.text + "." for d in after)) \
        or recalled.read(text, people, before) or listener_people.read(text, people)
    return told.text if told else None


def informative_words(text: str) -> list[str]:
    """Content words that are not vague fillers ('things', 'ok', 'taking care')."""
    return [w for w in content_words(text) if w not in rules.VAGUE_WORDS and not rules.PHATIC.fullmatch(w)]


def answer_words(text: str) -> list[str]:
    """Informative words that say something in a reply: no reactions, greetings, hedges or yes/no."""
    return [w for w in informative_words(text) if w not in rules.INTERJECTIONS
            and not (rules.EMOTION.fullmatch(w) or rules.PHATIC.fullmatch(w) or rules.HEDGE.fullmatch(w))]
