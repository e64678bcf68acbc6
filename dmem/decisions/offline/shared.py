"""What both speakers share: a topic each states as their own within one exchange, one memory with both turns.

Asked "what do Ilse and Bram have in common?" or "what could they do together?", memory holds each speaker's line
apart ("Bram plays water polo on Thursdays", "Ilse swam water polo at school"), and neither line says it is shared:
the question's words meet neither, and its embedding, with both names left out, meets nothing. When the speaker's
line states something of their own (a fact it formed) about a topic the listener's line a few turns before stated
of theirs (a fact that line formed, naming the same topic word), the two make one more memory: 'Bram and Ilse both
share an interest in water polo: <Bram's fact>; <Ilse's fact>', both turns its sources, in the speaker's namespace
(one chat's two participants, as a reply's fact names the question's turn).

Only what the two lines said: the memory joins the two facts formed from them, and the topic is a word both facts
say. Chit-chat both say alike forms nothing: a greeting, thanks or "doing great" forms no fact, and a topic word
is no chat word ("great", "day", "time": ``asked.topic_stems``), nor a person (``rules.RELATIONS``), nor a word any
line says of anything (``_BROAD``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from dmem.decisions.offline import frames, rules
from dmem.state.schemas import Category, Message, Provenance
from dmem.state.verdicts import FactDraft
from dmem.text.asked import topic_stems
from dmem.text.lexical import STOPWORDS, stem, tokenize
from dmem.text.words import wordset

SHARED_REACH = 4
"""Most turns back the listener's line may be: the same exchange of the chat, not a topic met again later."""
TOPIC_MAX_WORDS = 3
"""Most topics (a word, or neighbouring words) the memory names first; the rest are in the two facts."""
# Words any line says of anything: a line about them is not about a shared topic.
_BROAD = frozenset(stem(w) for w in wordset(
    "work job home house place weekend morning night evening year month people person everyone friend friends "
    "family life experience moment idea plan plans kind sort bit little big better best favorite favourite enjoy "
    "enjoyed enjoying fan happy glad excited amazing wonderful beautiful delicious interesting definitely totally "
    "usually always often sometimes recently lately tomorrow yesterday tonight hour hours minute minutes ago "
    "back first last next other another many few lots actually pretty quite play plays played playing watch "
    "watched watching do did doing go going take took give gave help use start started keep call say said tell "
    "told talk talked see saw visit visited"))
_PEOPLE = frozenset(stem(w) for w in rules.RELATIONS)
# A capitalised word inside a sentence names someone or somewhere: no interest ("Mia" both know, "Lyon" both left).
# Endings of a word that says how or when, or what was done, not a topic ("whenever", "really", "celebrated").
_NOT_TOPIC = ("ly", "ed", "ever")
_NEGATED = re.compile(r"\b(?:not|never|no(?!\s+way\b))\b|n't\b", re.I)  # "no way, me too!" agrees
_CAPITALISED = re.compile(r"(?<=[\w,'] )[A-Z][\w'-]*")


def shared_fact(message: Message, own: Sequence[FactDraft], prior: Sequence[Message],
                formed: Callable[[Message], list[FactDraft]], memories: Sequence[str] = ()) -> FactDraft | None:
    """The memory of a topic both speakers state as theirs: ``message``'s fact and the listener's recent one.

    ``own``: the facts ``message`` formed (the speaker's own, stated). ``prior``: the turns before it. ``formed``:
    the facts a turn of the listener's formed (asked only of a line sharing a topic word with ``own``).
    ``memories``: stored texts; one that already joins the two on the topic leaves the line to its own fact.
    """
    for turn in reversed(prior[-SHARED_REACH:]):
        if turn.speaker == message.speaker or turn.speaker.lower() in rules.ASSISTANT_SPEAKERS:
            continue
        mine = _liked(own, message.speaker, turn.speaker)
        if not _topic(" ".join(d.text for d in mine), turn.text or "", (message.speaker, turn.speaker)):
            continue
        for fact in mine:
            for other in _liked(formed(turn), turn.speaker, message.speaker):
                topic = _topic(frames.said(fact.text), frames.said(other.text), (message.speaker, turn.speaker))
                if topic and not _known(topic, message.speaker, turn.speaker, memories):
                    return _joined(topic, fact, other, message, turn)
    return None


def _liked(facts: Sequence[FactDraft], speaker: str, listener: str) -> list[FactDraft]:
    """The speaker's stated facts that say what they like, love, enjoy or prefer, of their own.

    Not a question kept as asked, a line with a "not" ("has no favourite spot"), nor one naming the listener ("Bo is
    glad Ann enjoys hiking" is about Ann).
    """
    return [d for d in facts if d.speaker == speaker and d.provenance == Provenance.STATED
            and not frames.is_asked(d.text) and rules.PREFERENCE.search(said := frames.said(d.text))
            and not _NEGATED.search(said) and not re.search(rf"\b{re.escape(listener)}\b", said, re.I)]


def _known(topic: list[str], speaker: str, listener: str, memories: Sequence[str]) -> bool:
    """Whether a stored memory already says the two share all of this topic.

    A topic met again forms nothing new; one with a new word forms the memory again, which the lifecycle updates.
    """
    pair = {speaker.lower(), listener.lower()}
    return any((known := frames.shared_by(m)) is not None and {known[0].lower(), known[1].lower()} == pair
               and all(t in known[2] for t in topic) for m in memories)


def _topic(text: str, other: str, names: Sequence[str]) -> list[str]:
    """The words of ``text`` whose stems ``other`` says too, neighbours as one ('water polo'): a topic, not chat.

    Empty when the two share no such word.
    """
    named = {stem(w) for w in tokenize(" ".join(_CAPITALISED.findall(f"{text} {other}")))}
    theirs = topic_stems(other, names) - _BROAD - _PEOPLE - named
    phrases: list[list[str]] = [[]]
    for word in tokenize(text):
        if word not in STOPWORDS and stem(word) in theirs and not word.endswith(_NOT_TOPIC):
            phrases[-1].append(word)
        elif phrases[-1]:
            phrases.append([])
    topics: list[str] = []
    seen: set[str] = set()
    for phrase in (p for p in phrases if p):  # a word met again ("baking" ... "bakes") names no new topic
        if not {stem(w) for w in phrase} <= seen:
            topics.append(" ".join(phrase))
            seen |= {stem(w) for w in phrase}
    return topics[:TOPIC_MAX_WORDS]


def _joined(topic: list[str], fact: FactDraft, other: FactDraft, message: Message, turn: Message) -> FactDraft:
    """The shared memory: the two people and the topic, no more (each fact stays in its own memory).

    Short, so that it meets a question about both ("what do they have in common?") and few others: two facts
    written out in it drew every question about either's detail and pushed their own memories out of the K kept.
    """
    categories = list(dict.fromkeys([Category.PREFERENCE, *fact.categories, *other.categories]))
    return FactDraft(text=frames.shared(message.speaker, turn.speaker, topic),
                     speaker=message.speaker, source_turn_ids=[turn.turn_id, message.turn_id],
                     categories=categories, provenance=Provenance.STATED, language=fact.language)
