"""A bare reply that picks out a sentence of the other speaker's turn before it, or agrees to it.

The other often writes at length (three flats described, a plan, a time proposed), and the reply names one thing of
it and nothing else: "bakery one" after a message describing "the bakery flat in Cobbleton" among others, "the
lighthouse story" after advice listing three stories, "👍 29th" after "Sunday the 29th then, along the river", "3 👍"
after "I'm coming at three", "agree on all three" after "I've been thinking about the three places". Judged alone it
says too little; read with the sentence it names, it is the speaker's choice or agreement. The sentence is the one
of the other's last turns (``ASKING_TURNS``) sharing the most of the reply's words or its number, the latest on a
tie; the fact states both ('Quill replied to Maren's "the harbour flat has a balcony": harbour one', or 'Quill agreed
to Maren's "Friday the 9th then": 👍 9th' when the reply's other words only agree), both turns its sources.

A bare yes ("yep", "Yes.", "Exactly so.", "omg yes") to the other's follow-up on the speaker's own line confirms
that follow-up (``followed_up``): "he'll drive over on sunday" / "in his own van?" / "yep", "the physio says keep
swimming" / "so gentle lengths with the club" / "Exactly so.", "what should i bring" / "just your bike, the trail is
dry" / "omg yes". The fact is the follow-up agreed to ('Quill agreed to Maren's "in his own van": yep'), both turns
its sources; ``Asked.stance`` 'confirmed' (a yes, no words of its own for the rules to judge). The speaker's line
may be a bare number the other's short question names the kind of ("84" / "covers?" / "yep": 'Quill agreed to
Maren's "84 covers": yep'), or say a number the question checks ("11 a kilo now" / "from 9.50?", h64g). A yes to a
line that follows nothing of the speaker's ("Are you still there?", a greeting), reacts or gives an opinion ("wet
maps are the worst"), or a yes shouted as a cheer, is left out, and so is a yes to a yes/no question with topic
enough of its own (``confirmed.checks_enough``: it is stated). Two more bare replies name a sentence: a choice
cheered with 🎉 naming all of it ("HARBOUR FLAT 🎉" after "ok so we go with the harbour flat"), and the speaker's own
number for what the sentence said of them ("I had nine." after "you had 11 dumplings", ``_value_said``).

Kept out: a reply that shares nothing with the turn (an ack to a joke, "noted" to advice, "tiramisu" to "you do
dessert": what it answers is not in its words), a longer reply, one that asks, reacts ("same lol") or speaks of
someone (it is judged on what it says), and a reply to a question whose kind it is not of (a place for "when").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline import confirmed, reusable, rules
from dmem.decisions.offline.replies import Asked, without_speaker
from dmem.state.schemas import Message
from dmem.text.answers import answer_kind, is_kind_asked
from dmem.text.asked import asks, asks_yes_no, topic_stems
from dmem.text.lexical import content_stems, stem

# Most words of a bare reply, emoji left out: a longer one says enough to be judged on its own words.
REPLY_MAX_WORDS = 4
# The other speaker's turns searched back for the sentence the reply names (a plan is often two messages).
ASKING_TURNS = 2
# The speaker's own bare messages allowed between the other's turn and the reply ("agree on all three" then
# "bakery one": both reply to the same message).
OWN_BETWEEN = 2
# Words that only agree or take note: a reply of these and the thing it names agrees to the sentence naming it.
_AGREEING = frozenset(content_stems("agree agreed noted ok okay deal done perfect sure yes yep yeah fine confirmed"))
_THUMBS = re.compile("[\U0001F44D\U0001F44C\u2705\u2714]")
# 🎉, 🥳: a cheer for the choice the sentence settles, when the reply names all of it ("HARBOUR FLAT 🎉").
_CHEER = re.compile("[\U0001F389\U0001F973]")
# A yes and nothing else: "yep", "Yes.", "Exactly so.", "omg yes", "that's right".
_BARE_YES = re.compile(r"^\W*(?:(?:omg|oh|ah|ooh|lol|haha\w*|well)\W+)*(?:yes+|yep|yeah|yup|ya|yea|indeed|correct|"
                       r"exactly(?:\s+so|\s+right)?|quite\s+so|precisely|that'?s\s+right)\W*$", re.I)
# The other's line follows up on the speaker's: a conclusion drawn ("so short walks then"), the speaker's plan
# carried on ("and dad brings the cake") or what the speaker said taken up ("you told me", "you said").
_FOLLOWS_UP = re.compile(r"^\W*(?:so|and)\b|\byou\s+(?:told|said|mentioned)\b", re.I)
# Topic words a follow-up that asks nothing needs for a yes to confirm it ("so gentle lengths with the club"; not "so,
# never"); a yes/no question needs one ("in his own van?").
CLAIM_MIN_TOPIC = 2
# Words the speaker's own line needs for the other's line after it to follow up on something said.
OWN_LINE_MIN_WORDS = 2
# A line that is a number alone ("84", "3.5", "£20"): a value whose kind the other's short question names ("covers?").
_VALUE = re.compile(r"^\W?\d[\d.,]*%?$")
_NUMBER = re.compile(r"\d")
# Most words of a question checking a number ("from 9.50?"): a longer one says something of its own.
VALUE_CHECK_MAX_WORDS = 3
_ASKING_WORD = re.compile(r"\b(?:what|when|where|who|whose|which|why|how)\b", re.I)
# "I had nine.", "i got 18": the speaker's own value for what the other's sentence said of them with the same verb.
_I_VALUE = re.compile(r"^\W*i\s+(?P<verb>[a-z]+)\s+(?:only\s+|just\s+)?(?P<value>\d[\d.,%]*|[a-z]+)\W*$", re.I)
# A reply that reacts or speaks of someone is no bare pick: "same lol", "she'll kill me", "love that".
_NOT_BARE = re.compile(r"^\W*(?:lo+l|haha\w*|omg|wow|same|idk|dunno|nice|cool|love|hate|no|nope|nah|not)\b"
                       r"|\b(?:i|i'm|im|i'll|we|he|she|they|you|u)\b", re.I)
# "all three", "both": the reply takes a set whose count the other's message announced before naming its members.
_ALL_OF = re.compile(r"\b(?:all\s+(?:the\s+)?(?:\d+|two|three|four|five|six|seven|eight|nine|ten)|both)\b", re.I)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
# Sentences of a long message: an ack to it ("stretch. noted") agrees to the sentence it names.
LONG_MIN_SENTENCES = 3
# "pick two stories", "the three places": a message counting what it offers (the reply names one: "the bike story").
_COUNTED = re.compile(r"\b(?:two|three|four|five|six|[2-6])\s+(?:[a-z]+\s+)?(?P<kind>[a-z]+s)\b", re.I)
# "bakery one", "the yellow one. ok": one of several named by what sets it apart, "one" ending the phrase (not the
# count of "one meme joke", "maybe one day").
_ONE = re.compile(r"\b(?!(?:maybe|just|only|at|no|every|any|some|each|which|this|that)\b)[a-z]+\s+ones?\b(?!\s+[a-z])",
                  re.I)


def picked(message: Message, prior: Sequence[Message]) -> Asked | None:
    """The sentence of the other's last turns that a bare reply names (``Asked.stance`` 'picked' or 'agreed').

    None when the reply is not bare (``REPLY_MAX_WORDS``, no question, no reaction, no person) or no sentence
    shares a word or number of it; the sentence must not be a question of another kind than the reply.
    """
    reply = without_speaker(message.text or "", message.speaker)
    if counted_back := _value_said(reply, message, prior):
        return counted_back  # "you had 11 dumplings" -> "I had nine."
    words = [w for w in reply.split() if re.search(r"\w", w)]
    if not words or len(words) > REPLY_MAX_WORDS or asks(reply) or _NOT_BARE.search(reply):
        return None
    names = {message.speaker, *(m.speaker for m in prior)}
    stems = set(content_stems(reply))
    cheered = bool(_CHEER.search(reply))
    agreed = bool(_THUMBS.search(reply)) or bool(stems & _AGREEING) or cheered
    topics = topic_stems(reply, names)
    told = {s for s in stems - _AGREEING - {"1"} if s.isdigit() or s in topics}
    if not told or reusable.states(" ".join(w for w in words if stem(w.lower()) not in _AGREEING)):
        return None  # a reply with a verb of its own ("it's a great joke") says what it says
    counted = bool(_ALL_OF.search(reply))
    best: tuple[int, int, Message, str] | None = None
    for rank, turn in enumerate(_asking_turns(message, prior)):
        text = without_speaker(turn.text or "", turn.speaker)
        sentences = _SENTENCE.findall(text)
        offers = _ONE.search(reply) or counted or told & {stem(m["kind"].lower()) for m in _COUNTED.finditer(text)}
        for sentence in sentences:
            common = told & set(content_stems(sentence))
            valued = any(c.isdigit() for s in common for c in s)  # "3 👍" to "I'm coming at three"
            valued = valued or cheered and common == told  # "HARBOUR FLAT 🎉" to "we go with the harbour flat"
            shared = len(common)
            if not shared or not _names(sentence, reply, agreed, bool(offers), valued, len(sentences)):
                continue
            if best is None or shared > best[0] or (shared, rank) == best[:2] and not counted:
                best = (shared, rank, turn, sentence.strip())  # a tie: the latest sentence, the first for "all three"
    if best is None:
        return None
    return Asked(asker=best[2].speaker, question=best[3], turn_id=best[2].turn_id,
                 stance="agreed" if agreed else "picked")


def _names(sentence: str, reply: str, agreed: bool, offers: bool, valued: bool, sentences: int) -> bool:
    """Whether a sentence sharing a word of the reply is what it answers, picks or agrees to, not a word it echoes.

    A question it is of the kind of ("coffee or tea" -> "tea, always"); an option of a message offering several (the
    reply says "one" or the kind the message counted: "the bike story" after "pick three stories"); or, agreed to
    ("👍", "noted"), a day, time or number proposed or, cheered ("🎉"), every word the reply names (``valued``: the
    reply's number is the sentence's, "HARBOUR FLAT 🎉" to "we go with the harbour flat") or a sentence of a long
    message ("stretch. noted").
    """
    if asks(sentence):
        return answer_kind(sentence) is None or is_kind_asked(sentence, reply)
    if offers:
        return True
    return agreed and (valued or reusable.detail(sentence) is not None or sentences >= LONG_MIN_SENTENCES)


def _asking_turns(message: Message, prior: Sequence[Message]) -> list[Message]:
    """The other speaker's last turns (``ASKING_TURNS``), the latest first, past the speaker's own bare messages."""
    turns: list[Message] = []
    own = 0
    for turn in reversed(prior):
        if turn.speaker == message.speaker:
            text = without_speaker(turn.text or "", turn.speaker)
            if turns or own == OWN_BETWEEN or len(text.split()) > REPLY_MAX_WORDS or rules.FIRST_PERSON.search(text):
                break
            own += 1
            continue
        turns.append(turn)
        if len(turns) == ASKING_TURNS:
            break
    return turns


def followed_up(message: Message, prior: Sequence[Message], asked: Asked | None) -> Asked | None:
    """The other's follow-up on the speaker's own line that a bare yes confirms (``Asked.stance`` 'confirmed').

    The other's line is just before the reply and the speaker's own line (a question, or ``OWN_LINE_MIN_WORDS``
    content words) just before it; the other's line has topic words, neither reacts nor evaluates, and asks yes or
    no, draws a conclusion, carries on or takes up what the speaker said (``_FOLLOWS_UP``) or answers the speaker's
    question. None for a yes shouted (a cheer), or when ``asked`` (the question the reply answers) already says
    enough for a yes to state it.
    """
    reply = without_speaker(message.text or "", message.speaker)
    if len(prior) < 2 or not is_bare_yes(reply) or _shouted(reply) or prior[-1].speaker == message.speaker \
            or prior[-2].speaker != message.speaker or asked is not None and confirmed.checks_enough(asked):
        return None
    line = without_speaker(prior[-1].text or "", prior[-1].speaker).strip()
    own = without_speaker(prior[-2].text or "", prior[-2].speaker).strip()
    names = [message.speaker, prior[-1].speaker]
    topic = topic_stems(line, names)
    value = _bare_value(own)
    checked = _checks_value(line, own)  # "11 a kilo now" / "from 9.50?"
    if not (topic or checked) or rules.PHATIC.search(line) or rules.EMOTION.search(line) or reusable.evaluates(line) \
            or not (asks(own) or value or len(content_stems(own)) >= OWN_LINE_MIN_WORDS):
        return None  # "soggy boxes are the worst" / "yep": an opinion shared, no fact confirmed
    if asks(line) and not (asks_yes_no(line) or checked) or not asks(line) and (len(topic) < CLAIM_MIN_TOPIC or not (
            _FOLLOWS_UP.search(line) or asks(own))):
        return None  # "so, never" / "haha exactly": too little of a claim to confirm
    asking = line if checked else " ".join(t.strip() for t in _SENTENCE.findall(line) if asks(t)) or line
    if value and asks(line):  # "84" / "covers?" / "yep": the question checks what the number counts
        asking = f"{value} {asking}"
    return Asked(asker=prior[-1].speaker, question=asking, turn_id=prior[-1].turn_id, stance="confirmed")


def is_bare_yes(reply: str) -> bool:
    """Whether a reply is a yes and nothing else ("yep", "Yes.", "Exactly so.", "omg yes")."""
    return bool(_BARE_YES.match(reply))


def _bare_value(own: str) -> str:
    """The speaker's line when it is a bare number ("84", "3.5") whose kind the other's question names; else ''."""
    return own if _VALUE.match(own) else ""


def _checks_value(line: str, own: str) -> bool:
    """Whether the other's line is a short question checking a number against the speaker's line that says one.

    "11 a kilo now" / "from 9.50?": no topic word, but a number to confirm (``VALUE_CHECK_MAX_WORDS`` words at most).
    """
    return asks(line) and len(line.split()) <= VALUE_CHECK_MAX_WORDS and bool(_NUMBER.search(line)) \
        and bool(_NUMBER.search(own)) and not _ASKING_WORD.search(line)


def _shouted(reply: str) -> bool:
    """A yes in capitals ("YES", "YESSS"): a cheer at the other's news, not a confirmation of it."""
    letters = [c for c in reply if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def _value_said(reply: str, message: Message, prior: Sequence[Message]) -> Asked | None:
    """The other's sentence saying the speaker "<verb> <number>" that "I <verb> <number>" answers or corrects.

    "you had 11 dumplings" -> "I had nine.": read alone the reply says eight of nothing; with the sentence it is the
    speaker's own count of it ('Quill replied to Maren's "you had 11 dumplings": I had eight'). The reply's value
    must be a number and the sentence must say one with the same verb of the listener ("you", "u").
    """
    m = _I_VALUE.match(reply)
    if m is None or not any(s.isdigit() for s in content_stems(m["value"])):
        return None
    said = re.compile(rf"\b(?:you|u)\s+(?:only\s+|just\s+)?{re.escape(m['verb'])}\s+(?P<value>[\w.,%]+)", re.I)
    for turn in _asking_turns(message, prior):
        for sentence in _SENTENCE.findall(without_speaker(turn.text or "", turn.speaker)):
            if (found := said.search(sentence)) and any(s.isdigit() for s in content_stems(found["value"])):
                return Asked(asker=turn.speaker, question=sentence.strip(), turn_id=turn.turn_id, stance="picked")
    return None
