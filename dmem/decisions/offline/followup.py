"""A reply to a question that names nothing takes its topic from the replier's own news just before it.

"failed the test 😩" / "noo what happened" / "roundabout. obvs"; "moved in tho!" / "hows it" / "cold. boiler makes
a noise": the other's follow-up ("what happened", "hows it", "and??", "how come", "why", "tell me more") names
nothing of its own, so the reply alone has no topic and says too little to tell. Judged as the unit the three turns
are (as ``confirmed`` judges a yes or no), the reply goes on with the news: its clauses pool as a line's do
(``worldline``), a bare subject meaning the news's thing rather than things in general ("boiler makes a noise"),
and it is the speaker's world when it carries one answer word that is no filler. The fact is written with the
memory the news formed when it is stored ("Osric moved in; cold; boiler makes a noise"; the lifecycle then refines
that memory), else with the news quoted ('Osric added to "Osric failed the test": roundabout'), the news, the
question and the reply as its sources. When the news is a bare yes ("did you book the bike test?" / "yep" / "when!"
/ "mon. 9am"), what it told is the line it confirmed (``FollowUp.confirms``): the fact quotes that line, not "yep".
Kept out: a question naming its own topic ("how's the new boiler?": judged as now), a reply that only reacts or
fills ("lol idk"), a reply about the listener, advice or the world, and a line before the question that is not
the speaker's own news (a question, a reaction, the other's news: nothing the rules admitted as the speaker's).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dmem.decisions.offline import picked, reusable, rules
from dmem.decisions.offline.markers import claimed
from dmem.decisions.offline.replies import without_speaker
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import content_stems, content_words, first_word, straighten
from dmem.text.words import WH_FOLLOWUP, alternation, wordset

# The asker's turns between the speaker's news and the reply ("noo" / "what happened"), the question the last.
FOLLOWUP_RUN = 2
# Answer words (no filler) the reply needs: its topic is the news, so one detail is enough ("roundabout").
FOLLOWUP_MIN_WORDS = 1
# Most words of a follow-up question: a longer line says something of its own.
FOLLOWUP_MAX_WORDS = 6
# Share of the news's content stems a stored memory of the speaker's holds to be the one the news formed.
NEWS_SHARE = 0.5
# Words that name nothing: asking words, generic verbs, pointing back, a prompt to go on.
GENERIC = wordset(
    f"{WH_FOLLOWUP} what's how's happened happen happens happening go goes went "
    "going gone was is were be been it its it's that thats that's this they them he she him her say said says come "
    "came so and then tell me more again exactly really seriously wait well else like story deets details detail "
    "spill one do did does done the a an about with on up mean meaning ok okay oh omg no noo nooo wtf huh eh "
    "pls please now")
# What marks a follow-up as asking: an asking word, a question mark, or a prompt to go on.
_ASKING = re.compile(rf"\?|\b(?:{alternation(WH_FOLLOWUP)})\b|\btell\s+me\b|\bspill\b|"
                     r"\bgo\s+on\b|^\W*(?:and|so|well|deets|details)\W*$", re.I)
# Chat filler that answers nothing: "lol idk", "obvs", "tbh".
_FILLER = wordset("idk dunno know knows obvs obv obviously tbh ikr ngl lol lmao haha hahaha rn fr idc whatever "
                        "nothing much literally honestly basically long ugh meh guess mean sure")
# A letter or capitalised word past the first names someone or something: "Who's T?", "and Bram?".
NAMED = re.compile(r"\b(?![AIU]\b)[A-Z](?:\b|[a-z]+\b)")
_REPEATED = re.compile(r"^(?:n+o+|o+h+|a+h+|w+h+a+t+|h+u+h+|e+h+|u+m+|h+m+)$", re.I)


@dataclass(frozen=True)
class FollowUp:
    """The replier's own news and the other's question that names nothing, between it and the reply."""

    news: Message
    question: Message
    pooled: tuple[int, ...] = ()
    """Indexes of the reply's clauses that go on with the news (what the fact says of it)."""
    confirms: tuple[Message, ...] = ()
    """When the news is a bare yes: the other's line it confirmed, after the speaker's own line that line checks
    ("11 a kilo now" / "from 9.50?" / "yep"); what the news told is these lines, not "yep"."""


def said(message: Message) -> str:
    """A message's text without its 'Speaker:' prefix, quotes straightened."""
    return straighten(without_speaker(message.text or "", message.speaker)).strip()


def names_nothing(text: str) -> bool:
    """Whether a line asks to go on without naming anything ("noo what happened", "hows it", "and??", "why")."""
    words = text.split()
    if not words or len(words) > FOLLOWUP_MAX_WORDS or not _ASKING.search(text) or NAMED.search(text[1:]):
        return False
    return reacts(text)


def reacts(text: str) -> bool:
    """Whether a line has no word of its own: only asking, generic or reacting words ("noo", "omg!!", "😭")."""
    return all(w in GENERIC or w in rules.INTERJECTIONS or _REPEATED.match(w) for w in content_words(text))


def asked_on(message: Message, prior: Sequence[Message],
             told: Callable[[Message, Sequence[Message]], bool]) -> FollowUp | None:
    """The speaker's news and the other's question naming nothing that ``message`` answers, or None.

    The question is the other's turn just before, after at most ``FOLLOWUP_RUN`` - 1 turns of theirs that only
    react; the news is the speaker's turn before those, when ``told`` (the rules) admits it as theirs.
    """
    if not prior or prior[-1].speaker == message.speaker or not names_nothing(said(prior[-1])):
        return None
    question, at = prior[-1], len(prior) - 1
    while at and prior[at - 1].speaker == question.speaker and len(prior) - at < FOLLOWUP_RUN \
            and reacts(said(prior[at - 1])):
        at -= 1
    news = prior[at - 1] if at else None
    if news is None or news.speaker != message.speaker or not told(news, prior[: at - 1]):
        return None
    return FollowUp(news, question, confirms=confirmed_by(news, prior[: at - 1]))


def confirmed_by(yes: Message, prior: Sequence[Message]) -> tuple[Message, ...]:
    """The lines a bare yes confirmed: the other's line just before it, after the speaker's own line it checks.

    "did you book the bike test?" / "yep" -> that question; "11 a kilo now" / "from 9.50?" / "yep" -> both lines (a
    question of ``picked.VALUE_CHECK_MAX_WORDS`` words at most checks the speaker's line). () for no bare yes.
    """
    if not picked.is_bare_yes(said(yes)) or not prior or prior[-1].speaker == yes.speaker:
        return ()
    line = said(prior[-1])
    if len(prior) > 1 and prior[-2].speaker == yes.speaker and asks(line) \
            and len(line.split()) <= picked.VALUE_CHECK_MAX_WORDS:
        return prior[-2], prior[-1]
    return (prior[-1],)


def detail_words(words: Sequence[str]) -> list[str]:
    """The answer words that say something: no chat filler ("lol idk", "obvs")."""
    return [w for w in words if w not in _FILLER and not _REPEATED.match(w)]


def news_memory(news: str, speaker: str, memories: Sequence[str]) -> str | None:
    """The speaker's stored memory the news formed: theirs, holding ``NEWS_SHARE`` of the news's content stems."""
    stems = set(content_stems(news)) - set(content_stems(speaker))
    return own_memory(stems, speaker, memories, max(1, math.ceil(NEWS_SHARE * len(stems))))


def own_memory(stems: set[str], speaker: str, memories: Sequence[str], least: int,
               max_words: int | None = None) -> str | None:
    """The speaker's stored memory sharing the most of ``stems`` (at least ``least``; the first of equals), or None.

    A memory is the speaker's when it opens with their first name; ``max_words``: the longest it may be.
    """
    first = first_word(speaker).lower()
    best, shared = None, least - 1
    for memory in memories:
        if memory.lstrip().lower().startswith(first) and (max_words is None or len(memory.split()) <= max_words) \
                and (n := len(stems & set(content_stems(memory)))) > shared:
            best, shared = memory, n
    return best


def goes_on(text: str, kind: str, foreign: bool, known: frozenset[str], listeners: Callable[[str], bool],
            lifted: frozenset[str] = frozenset()) -> bool:
    """Whether a reply's clause goes on with the news: no marker claims it, or only as a general statement.

    After "hows it", "boiler makes a noise" speaks of the news's boiler, not of boilers in general; a reaction,
    the listener, advice or the world still claim a clause. ``lifted``: claims the caller's line cannot bear
    (after a silence there is no line to react to: ``opening.UNANSWERING``), which claim nothing.
    """
    why = claimed(text, kind, foreign, known, listeners)
    return why is None or why in lifted or (why == "a general statement or a reaction" and not reusable.reacts(text))


def judge_reply(texts: Sequence[str], kinds: Sequence[str], foreign: Sequence[bool],
                words: Callable[[str], list[str]], known: frozenset[str], people: set[str],
                listeners: Callable[[str], bool] = lambda _: False) -> tuple[int, ...]:
    """The reply's clauses that tell the news's detail, or () when the reply only reacts, fills or is claimed.

    ``texts``/``kinds``/``foreign``: each clause, its rejection kind and whether it is about someone else's
    person; ``words``: a clause's answer words; ``known``: names the chat wrote before; ``people``: the speakers'
    name words, lowercased.
    """
    goes = [goes_on(t, k, f, known, listeners) for t, k, f in zip(texts, kinds, foreign, strict=True)]
    pooled = tuple(i for i, ok in enumerate(goes)
                   if ok and detail_words([w for w in words(texts[i]) if w not in people]))
    claimed_out = sum(not ok and kinds[i] != "vague" for i, ok in enumerate(goes))
    told = [w for i in pooled for w in detail_words(words(texts[i])) if w not in people]
    if len(told) < FOLLOWUP_MIN_WORDS or claimed_out > len(pooled):
        return ()
    return pooled
