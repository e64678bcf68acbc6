"""Chat-register clauses made explicit before they are judged.

Dropped subjects, casual spellings, and replies that answer a question about the speaker:

- Chat drops the first-person subject: "Been busy with the garden", "Had an audition yesterday",
  "Still working on the boat", "Love that trail", "Haven't slept well since the move". The subject is
  restored ("I've been busy ...", "I had ...", "I'm still working ...", "I love ...", "I haven't ...") so
  the same rules judge the clause as if it were said in full. Not for questions, imperatives or clauses
  whose first word is a noun subject ("Painting is my therapy", "Wedding went great"; a dropped 'my' before
  what the speaker has is ``telegraphic``'s).
- After a question about one person of the listener's ("how's your sister?"), a reply's dropped subject is
  that person, not the speaker: "doing great now" reads "my sister is doing great now" (``their_subject``); so
  is a third person the question names as its subject ("is auntie Wenna out of hospital yet?" -> "came home on
  tuesday" reads "auntie Wenna came home on tuesday"; "did the landlord fix the window?" -> "came thursday",
  ``asked_third``).
- Casual spellings of the first person ("im", "ive") read as "I'm", "I've" (English only).
- A reply right after another speaker's question to them ("What's your favourite film?" ->
  "The one with the lighthouse") is about the speaker even without a first-person word:
  the question resolves what the reply refers to. Only the reply is a source of facts; the
  question only says what it answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dmem.decisions.offline import rules
from dmem.decisions.offline.pronouns import agree
from dmem.decisions.offline.register import NOT_PROGRESSIVE
from dmem.state.schemas import Message
from dmem.text import crossed
from dmem.text.asked import asks, ends_asking, question_sentences, real_questions
from dmem.text.lexical import STOPWORDS
from dmem.text.verbs import IRREGULAR_PASTS
from dmem.text.words import SECOND_PERSON

_ADVERBS = r"(?:(?:just|still|also|really|finally|recently|actually|never|always|currently|mostly|even|only)\s+)*"
_NOT_A_SUBJECT = (r"(?!\s+(?:is|are|was|were|has|have|had|went|got|can|could|will|would|does|did|makes?|helps?|"
                  r"keeps?|looks?|sounds?|seems?|feels?|takes?|means?|gets?)\b)")
_STATES = ("excited|stoked|thrilled|pumped|glad|happy|nervous|proud|ready|busy|stressed|worried|scared|tired|"
           "interested|curious|grateful|thankful|hoping|trying|planning|working|looking|heading|going|getting|"
           "learning|studying|training|reading|watching|playing|saving|preparing|researching|thinking")
_STANCE = "love|like|need|want|miss|hope|wish|enjoy|think|guess|prefer|hate|plan|feel|wonder"
# Past forms that are also the base form open imperatives ("Let me know", "Put it on low heat"): left out.
_PAST = "|".join(sorted(IRREGULAR_PASTS - {"was", "were", "said", "let", "put", "set", "shut", "quit", "read",
                                                "hit", "cut", "hung", "lit"}))
# "Haven't slept well since the move", "Can't eat gluten anymore": a negated auxiliary with its subject dropped;
# not a third person's ("Doesn't matter"), an imperative ("Don't forget"), a question ("Didn't you ...") or a
# reaction to what was just said ("Can't wait to hear", "Didn't see that coming", "Couldn't agree more"), or a
# saying ("Can't beat a sunny morning"), or what did not happen ("Couldn't have said it better").
_NEGATED = (r"(?:(?:haven'?t|hadn'?t|can'?t|didn'?t|won'?t|wasn'?t)\b"
            r"|(?:couldn'?t|wouldn'?t|shouldn'?t)\b(?!\s+have\b))"
            r"(?!\s+(?:you|u|he|she|they|it|we|i|there)\b)"
            r"(?!\s+(?:\w+\s+)?(?:wait|believe|agree|complain|imagine|blame|tell|say|guess|guessed|thank|help|stop|beat|go\s+wrong)\b)"
            r"(?!\s+(?:see|know|knew|expect|mind)(?:\s+(?:that|it|this)\b|\s*$))")
_RESTORE = [  # (pattern on the clause start, the subject it drops)
    (re.compile(rf"^{_ADVERBS}{_NEGATED}", re.I), "I"),
    (re.compile(rf"^{_ADVERBS}been\b", re.I), "I've"),
    # "Can't wait for the regatta next week": looking forward to a dated occasion, not a reaction ("can't wait to hear")
    (re.compile(r"^(?:can'?t|cannot)\s+wait\s+(?:for|to|till|until)\b.*?\b(?:tomorrow|tonight|next|this\s+(?:week|"
                r"weekend|month|year|\w+day)|on\s+\w+day)\b", re.I), "I"),
    (re.compile(rf"^{_ADVERBS}(?:{_STATES})\b{_NOT_A_SUBJECT}(?!.*\b(?:is|was)\b)", re.I), "I'm"),
    # not "Did I mention ...!", a question whose mark chat dropped
    (re.compile(rf"^{_ADVERBS}(?!did\s+(?:i|you|he|she|we|they)\b)(?:{_STANCE}|{_PAST}|[a-z]{{3,}}[^e\W]ed)\b"
                rf"{_NOT_A_SUBJECT}", re.I), "I"),
]
# "how's your sister?", "is ur dad still in Porto?": a question about one person (or pet) of the listener's, the
# listener not its subject. A reply that drops its subject speaks of that person: "doing great now" -> "my sister is
# doing great now", "moved back to Lyon" -> "my sister moved back to Lyon", not the speaker.
_B40_ONE_OF_THEIRS = [p for p in rules.RELATIONS + rules.PETS if p not in rules.PLURAL and not p.endswith("s")]
_B40_THEIR_ONE = re.compile(r"\b(?:your|ur)\s+(?:(?:little|big|older|younger|new|old|baby)\s+)?(?P<who>"
                            + "|".join(_B40_ONE_OF_THEIRS) + r")\b", re.I)
# The people (or bodies) a question may ask about as "the ...": they do things a reply then says without a subject.
_THIRD_ROLES = ("landlord", "landlady", "plumber", "builder", "electrician", "boss", "neighbour", "neighbor", "vet",
                "doctor", "dentist", "council", "teacher", "coach", "manager", "surgeon", "midwife")
_KIN_TITLES = r"(?:auntie|aunty|aunt|uncle|nan|nana|gran|granny|grandma|grandpa|cousin)"
_THIRD = re.compile(rf"^\W*(?:(?:so|and|oh|hey|anyway|also|btw)\W+)*(?:(?:what|when|where|how|why)\s+)?"
                    rf"(?:is|was|has|had|did|does|will|would)\s+(?P<who>(?:{_KIN_TITLES}\s+)?"
                    rf"(?P<name>(?-i:[A-Z][a-z][\w-]*))|the\s+(?:{'|'.join(_THIRD_ROLES)}))\b(?!')", re.I)
_B40_LISTENER = re.compile(r"\b(?:you|u|ya)\b", re.I)
# A reply that names the person asked about as an object is the speaker's: "haven't seen her in weeks", "walked it"
# (a pet) keep their restored "I"; "she started uni" or "his new school" say no more than that the person is spoken of.
_B40_POINTS_BACK = re.compile(r"\b(?:him|her|them)\b", re.I)
_B40_POINTS_BACK_PET = re.compile(r"\b(?:him|her|them|it)\b", re.I)
_B40_PROGRESSIVE = re.compile(rf"^{_ADVERBS}(?P<verb>[a-z]{{2,}}ing)\b{_NOT_A_SUBJECT}", re.I)
_B40_RESTORED = re.compile(rf"^(?P<subject>I'm|I've|I)\s+(?P<adv>{_ADVERBS})(?P<verb>\S+)(?P<rest>.*)$", re.S)
_B40_AGREED_SUBJECT = {"I'm": "is", "I've": "has"}
_CASUAL = [(re.compile(r"\bim\b", re.I), "I'm"), (re.compile(r"\bive\b", re.I), "I've")]
# Turns of the other speaker searched for the question a reply answers (3 on the tuning half: +6 % facts, no
# evidence turn gained, so 1).
ASKING_TURNS = 1
# The speaker's own messages searched back for the one a short message continues; chosen on the tuning half.
FOLLOW_RUN = 2
# A bare request to say it again ("What?", "huh??", "sorry?"): the asker's next line restates the question before it.
_CLARIFY = re.compile(r"^\W*(?:what|huh|sorry|pardon|eh|hm+|wdym)\W*\?+\W*$", re.I)


def without_speaker(text: str, speaker: str) -> str:
    """The text without a leading '<speaker>:' label (transcripts often repeat the speaker in the text)."""
    return re.sub(rf"^\s*{re.escape(speaker)}\s*:\s*", "", text)


def restore_subject(clause: str) -> str:
    """The clause with its dropped first-person subject put back; unchanged when none was dropped."""
    if asks(clause):  # "got any tips ...": a question, no "I got"
        return clause
    head, body = rules.after_filler(clause)
    for pattern, subject in _RESTORE:
        if pattern.match(body):  # "GOT AN INTERVIEW": the shouted verb lowered whole, not "I gOT"
            first = body.split(maxsplit=1)[0]
            start = first.lower() if first.isupper() else first[:1].lower() + first[1:]
            return f"{head}{subject} {start}{body[len(first):]}"
    return clause


def listener_of(message: Message, window: Sequence[Message]) -> str | None:
    """The latest other speaker in the window: who 'you' means."""
    others = [m.speaker for m in window if m.speaker != message.speaker and m.seq <= message.seq]
    if not others:
        others = [m.speaker for m in window if m.speaker != message.speaker]
    return others[-1] if others else None


def asked_person(question: str) -> str | None:
    """The one person (or pet) of the listener's a question asks about ('how's your sister?' -> 'sister'), or None.

    None when the listener is the question's subject too ('did you and your sister ...', 'how are you').
    """
    if _B40_LISTENER.search(question):
        return None
    return m["who"].lower() if (m := _B40_THEIR_ONE.search(question)) else None


def asked_third(question: str) -> str | None:
    """The third person a question names as its subject ('is auntie Wenna out of hospital yet?' -> 'auntie Wenna').

    A capitalised name (a kin title may lead it) or 'the' before one of ``_THIRD_ROLES``, right after the question's
    auxiliary; None for the listener, the asker or a word that names no one ('is It still ...').
    """
    m = _THIRD.match(question)
    if m is None or m["name"] and m["name"].lower() in STOPWORDS:
        return None
    return " ".join(m["who"].split())


def their_subject(said: str, restored: str, person: str, who: str | None = None) -> str:
    """A reply's dropped subject given to the person the question asked about, not the speaker.

    ``said`` is the reply's first clause as written and ``restored`` the same with the "I" chat dropped put back
    (``restore_subject``): 'doing great now' -> "my sister is doing great now", 'moved back to Lyon' -> "my sister
    moved back to Lyon". ``who``: the person as the reply names them when not "my <person>" (``asked_third``).
    Unchanged when the clause has a subject of its own or points back at the person ("haven't
    seen her in weeks": the speaker's).
    """
    head, body = rules.after_filler(said)
    back = _B40_POINTS_BACK_PET if person in rules.PETS else _B40_POINTS_BACK
    if not body or back.search(re.split(r"[,;]", body)[0]) or asks(said):  # the words the dropped subject governs
        return restored
    body = body[:1].lower() + body[1:]
    who = who or f"my {person}"
    if restored == said:
        m = _B40_PROGRESSIVE.match(body)
        return f"{head}{who} is {body}" if m and m["verb"].lower() not in NOT_PROGRESSIVE else restored
    m = _B40_RESTORED.match(restored[len(head):])
    if m is None or f"{m['adv']}{m['verb']}{m['rest']}" != body:
        return restored
    if m["subject"] == "I":
        return f"{head}{who} {m['adv']}{agree(m['verb'])}{m['rest']}"
    return f"{head}{who} {_B40_AGREED_SUBJECT[m['subject']]} {body}"


def casual_first_person(text: str) -> str:
    """'im going' -> "I'm going", 'ive got' -> "I've got" (English text only)."""
    for pattern, replacement in _CASUAL:
        text = pattern.sub(replacement, text)
    return text


@dataclass(frozen=True)
class Asked:
    """The question a reply answers: who asked it and its question sentence, as said."""

    asker: str
    question: str
    turn_id: str = ""
    """The turn that asked it (a fact stating question and reply names both turns as its sources)."""
    thing: str | None = None
    """For a short question asked without "you" (``terse_asked``): the listener's thing it names ('lessons'), or ''
    when it names none the fact can own; None for a question read by its sentences."""
    stance: str = ""
    """'' for a question answered; 'picked' or 'agreed' when ``question`` is a sentence of the other's turn that a bare
    reply names ("bakery one") or agrees to ("👍 29th"), not a question (``picked``); 'confirmed' when it is the
    other's follow-up on the speaker's own line that a bare yes confirms (``picked.followed_up``); 'accepted' when it is
    the other's proposal a bare "deal" accepts (``accepted``); 'continued' when it is the line, either speaker's and
    already in the third person, that a short "and ..." line adds an item to (``continued``); 'attending' when it is
    the other's event a bare "I'll be there" commits the speaker to (``accepted.attending``); 'named'
    when it is the piece of the other's long message that a labelled reply names ("the test: CONGRATS 🎉",
    ``labelled``)."""
    also: tuple[str, ...] = ()
    """More turns the fact is said from besides ``turn_id`` (a detail of a proposal given after it, the speaker's
    question an event's line answers), sources too."""


def question_answered(message: Message, prior: Sequence[Message]) -> Asked | None:
    """The other speaker's question about the speaker that this message replies to, if any.

    ``prior`` are the turns before it, in order. The turns just before must be the other speaker's
    (up to ``ASKING_TURNS`` in a row: chat splits one turn into several messages) and one of them ask
    something: the latest question addressing the listener ('you', 'your') is the one answered, else
    the latest question ("What's on it?" about a photo the speaker shared). When the speaker asked "What?" and the
    asker restated it with no question ("How did Ysolde do?" / "What?" / "Swimming. It's Friday"), the reply answers
    the question before the "What?" (``_clarified``).
    """
    run: list[Message] = []
    for turn in reversed(prior):
        if turn.speaker == message.speaker or len(run) == ASKING_TURNS:
            break
        run.append(turn)
    said = [(m.speaker, without_speaker(m.text or "", m.speaker)) for m in prior[-len(run) - 1:]] if run else []
    for k, asking in enumerate(run):  # a hedged answer written as a question ("probably sushi?") asks nothing
        at = len(said) - 1 - k  # ``asking`` in ``said``, the line before it (if any) just before
        # an asking word alone with no mark ("how long") is ``terse_asked``'s, which reads the reply closer
        if (questions := question_sentences(said[at][1], bare=False)) and not crossed.hedged_at(said, at):
            return _asked(asking, questions)
    return _clarified(prior, len(run))


def _clarified(prior: Sequence[Message], run: int) -> Asked | None:
    """The question before the speaker's bare "What?", when the ``run`` other turns after it restate it."""
    if not run or len(prior) < run + 2 or prior[-run - 1].speaker == prior[-1].speaker \
            or not _CLARIFY.match(prior[-run - 1].text or ""):
        return None
    asking = prior[-run - 2]
    if asking.speaker != prior[-1].speaker \
            or not (questions := question_sentences(without_speaker(asking.text or "", asking.speaker), bare=False)):
        return None
    return _asked(asking, questions)


def own_message_before(message: Message, prior: Sequence[Message]) -> Message | None:
    """The speaker's own message this one continues, when it said something about them; else None.

    Chat splits one turn into several messages ("We went to the night market last week." then
    "Mostly street food from the islands."): the later ones continue the first, which carries the
    first person or answers the other speaker's question. The run of the speaker's own messages just
    before is searched back (up to ``FOLLOW_RUN`` of them, the latest first); a question ends the search.
    """
    for run, i in enumerate(range(len(prior) - 1, -1, -1)):
        before = prior[i]
        if before.speaker != message.speaker or run == FOLLOW_RUN:
            return None
        text = casual_first_person(without_speaker(before.text or "", before.speaker)).strip()
        if ends_asking(text):
            return None
        said = " ".join(restore_subject(part) for part in rules.SENTENCE_END.split(text))
        if text and (rules.FIRST_PERSON.search(said) or question_answered(before, prior[:i]) is not None):
            return before
    return None


def question_replied(message: Message, prior: Sequence[Message]) -> Asked | None:
    """The other speaker's real question this message replies to, whatever the reply says; else None.

    The question is the other speaker's message just before, or one before a crossed message or two
    (both people type at once: ``dmem.text.crossed``); it asks a real question (no greeting, no tag)
    and the reply takes it up. Its turn becomes a source of the reply's facts.
    """
    said = [(m.speaker, without_speaker(m.text or "", m.speaker)) for m in crossed.readable(prior)]
    found = crossed.replied_question((message.speaker, without_speaker(message.text or "", message.speaker)), said)
    if found is None:
        return None
    turn = prior[len(prior) - len(said) + found]
    return _asked(turn, real_questions(said[found][1]))


def _asked(turn: Message, questions: Sequence[str]) -> Asked:
    """The question of ``turn`` a reply answers: its latest addressing the listener ('you'), else its latest."""
    about_them = [q for q in questions if SECOND_PERSON.search(q)]
    return Asked(asker=turn.speaker, question=(about_them or questions)[-1], turn_id=turn.turn_id)
