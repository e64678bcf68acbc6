"""A terse line goes on with the speaker's own fact of the same thread, across the listener's interjections.

Terse chat tells one fact over several turns, the listener reacting between: "van failed inspection" / "oh no" /
"brakes + rust"; "sold the van" / "nooo" / "900"; "the dog got out" / "WHAT" / "under the fence" / "how far" /
"next door". Judged alone, the later lines say too little ("too little detail") or form a fragment memory that
says nothing on its own ("Corwen: 900"). Such a line (``THREAD_MAX_WORDS`` at most, asking nothing, carrying a
content word of its own, no verb of its own: a new topic has one, "got a ferret") continues the speaker's nearest
line that formed a fact when that line is at most ``THREAD_TURNS`` turns before it, no pause of ``THREAD_GAP``
or more falls between, and every turn between is the listener's interjection (``interjects``: a reaction, filler,
a short question naming nothing of its own, or one word) or the speaker's own unformed piece of the same thread.
It is then written with that fact (``followup_writing.thread_fact``): with the memory the fact formed (the
lifecycle updates it, no new memory), within one exchange joined to the fact's draft, else joined to the fact
restated ('Corwen: van failed inspection; brakes + rust'); the fact's line and the piece are its sources.
The case with no turn between (h52b's ``extending``: "need new tyres" then "fronts") is the same rule.
When the listener's turn just before the piece asks for the kind of detail the piece gives ("how many" / "52",
"when" / "end of the month", "whose", "how tiny": ``asks_kind``), that question is a source too and the fact says it
('Corwen: sold the van; how much? 900', h64g).
Kept out: a question, a reply or reaction to the listener, a turn elsewhere ("sorry", "anyway", "btw"), a line
about the listener, a repeat of the fact's words, a piece with no content word of its own (``carries_content``),
a piece that only reacts ("phew", "not funny": ``reaction``) or says there is news ("news tho", h57g),
a listener turn that says something of their own or asks about a topic of its own, a head with no topic (one
content word; a short answer takes the topic of the listener's question just before it: "what are you up to
saturday?" / "market" / "oh nice" / "jam stall", written with the question, h57f), a long head (a paragraph's
thread is no terse one) and anything across a session break.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from dmem.decisions.offline import announced, opening, reusable, rules, takeup, worldline
from dmem.decisions.offline.followup import GENERIC, NAMED, detail_words, reacts, said
from dmem.state.schemas import Message
from dmem.text.answers import answer_kind, is_kind_asked
from dmem.text.asked import asks, ends_asking
from dmem.text.lexical import content_stems, content_words, stem
from dmem.text.words import I_FORMS, WH, WHAT_CHAT, alternation

# Most turns from the piece back to the fact it continues: a thread's fact, a reaction, a question, the speaker's
# earlier pieces. Chosen on the tuning half and released batches 1-11 and 13 (see RESULTS, h54b).
THREAD_TURNS = 6
# Longest pause between two turns of one thread when both are timed: pieces of one statement are sent seconds to
# a few minutes apart; after a longer pause a short line starts something else. h51f's choice for the case with
# no turn between (1 and 5 minutes formed the same drafts on the tuning half and batches 1-6), kept.
THREAD_GAP = timedelta(minutes=5)
# Most turns back that give a terse first-person line its topic (``topic_given``): the speaker's line and the
# listener's interjection after it. Not tuned: the shortest thread across one interjection.
TOPIC_TURNS = 2
# A line opening with "I" said, in chat's spellings ("i", "im", "ive"), not asking ("i?").
_I_OPENS = re.compile(rf"^\W*(?:{alternation(I_FORMS)})\b(?!\s*\?)", re.I)
# Most words of such a line: a longer one says what it is about and is judged so.
TOPIC_MAX_WORDS = 4
# Most words of a thread's piece: a longer line says something of its own and is judged so.
THREAD_MAX_WORDS = 12
# Most words of the listener's interjection: a longer turn says something of its own.
INTERJECTION_MAX_WORDS = 4
# Fewest content words (no chat filler) of the fact's line: a one-word fact ("happy", "B2 lol") names no topic.
FACT_MIN_WORDS = 2
# Shortest content word that is a detail: shorter ones are chat's letters and marks ("v", "k", "x").
DETAIL_MIN_CHARS = 3
# Opening or marker of a line that turns elsewhere rather than going on ("sorry, that was a lot", "anyway",
# "btw the kids loved it"): closed-class discourse markers, each changing the subject by its meaning.
_ELSEWHERE = re.compile(r"^\W*(?:sorry|anyway|anyways|anyhow)\b|\b(?:btw|by\s+the\s+way|speaking\s+of|"
                        r"on\s+another\s+note|changing\s+the\s+subject)\b", re.I)
# The listener named in a line ("ur watch is in ur postbox"): the line is about them, no piece of the speaker's.
_LISTENER = re.compile(r"\b(?:u|ur|you|your|youre|you're|yours|urs)\b", re.I)
# A line opening with chat's thanks, apology, concession, farewell or wish ("ty", "sry", "fair", "deal", "night",
# "safe trip"): said to the listener, closed-class words each of which answers the other's turn.
_TO_LISTENER = re.compile(r"^\W*(?:ty|thx|thanks|thank|sry|soz|oops|fair|deal|night|nite|bye|later|cya|gn|np|safe|"
                          r"enjoy|have\s+fun|good\s+luck)\b", re.I)
# A question without its mark: a question word anywhere in a short line ("with which car", "hows the dog", chat's
# "wat then"), or chat's "any" opening a request ("any tips").
_ASKING = re.compile(rf"\b(?:{alternation(WH)}|{alternation(WHAT_CHAT)})\b|^\W*any\b", re.I)
# A head that asks without its mark: an asking word or an offer opening it ("want me to come over", "shall i
# bring it"): the speaker's question to the listener states no fact of theirs a piece goes on with.
_HEAD_ASKS = re.compile(rf"^\W*(?:{alternation(WH)}|{alternation(WHAT_CHAT)}|(?:want|wanna|shall|should|can|could)\s+"
                        r"(?:me|i|we)\b)", re.I)
# The listener restating what they asked ("i mean the time", "meant the time"): the reply after answers that, it
# goes on with no fact of the speaker's.
_RESTATES = re.compile(r"^\W*(?:i\s+)?(?:mean|meant)\b", re.I)
# A relative time of the piece's own ("physio today", "gig next fri"): a dated event of its own, not a detail.
_OWN_TIME = re.compile(r"\b(?:today|tonight|tomorrow|tmrw|tmr|yesterday|(?:next|last|this)\s+(?:week|weekend|month|"
                       r"year|term|morning|afternoon|evening|night|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|"
                       r"\w+day|spring|summer|autumn|fall|winter))\b", re.I)
# A verb of the piece's own (finite, a modal or a past form): "got a ferret", "can float now" open something.
_OWN_VERB = re.compile(
    r"'(?:s|re|ve|ll|d|m)\b|\b(?:is|are|was|were|am|has|have|had|will|won't|can|can't|could|would|should|must|"
    r"might|do|does|did|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|got|gets|went|goes|came|comes|took|"
    r"made|gave|broke|fell|grew|ran|sold|bought|lost|won|left|found|saw|told|said|keeps|needs|makes|takes|gives|"
    r"lives|runs|wants|says|gone|been|done|need|want|love|hate|think|feel|know|going|gonna|doing|getting|having|"
    r"coming|trying|[a-z]{3,}ed|i|im|ive|ill|id|its|hes|shes|thats|theyre|were|theres)\b"
    r"|^\W*(?:he|she|they|we|it|this|that)\s", re.I)
# The asker's own subject or possession in a question ("should I get the blue one?", "my bike or yours?"): it asks
# about their topic. Closed-class first-person words; not "me" ("tell me everything" asks for the speaker's news).
_ASKER_OWN = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|my|mine|myself|we|we're|our|ours)\b", re.I)
# A negation before one word, an intensifier between ("not funny", "not that bad", "not so great").
_NEGATED = re.compile(r"^\W*not\s+(?:so\s+|that\s+|very\s+|too\s+|really\s+)?([a-z]+)\W*$", re.I)
# A two-word question's measure word after "how" ("how far", "how much", "how long"): it asks for the detail, it
# names no topic of its own ("how r lessons" does).
_HOW = re.compile(r"^\W*how\s+(\w+)", re.I)
# The listener's interjection asking for the kind of detail the piece gives ("how many" / "52", "when" / "end of the
# month", "how bad" / "the lamb was grey", "whose" / "my cousin's"): an asking word alone or with the measure it asks
# for; not one asking what happened or how things are ("what happened", "how come", "how was it": ``followup``'s).
_KIND_ASKED = re.compile(r"^\W*(?:(?:and|so|ok|oh)\W+)?(?:how\s+(?!(?:is|was|are|were|come|so|r|s|it)\b)[a-z]+|"
                         r"when|where|whose|who|which(?:\s+one)?|what\s+time|since\s+when)\s*(?:then|tho|exactly)?\W*$",
                         re.I)


@dataclass(frozen=True)
class Thread:
    """The speaker's earlier line that formed the fact, and the clauses of the piece that go on with it."""

    fact: Message
    """The speaker's line whose fact the piece continues."""
    pooled: tuple[int, ...] = ()
    """Indexes of the piece's clauses that tell the detail."""
    asked: Message | None = None
    """The listener's question the fact's line answers, when its words give that line its topic (``_asked``)."""
    kind: Message | None = None
    """The listener's interjection just before the piece asking the kind of detail it gives ("how many" / "52"),
    a source of the fact, which says what it asked (``kind_asked``)."""
    between: tuple[Message, ...] = ()
    """The speaker's pieces of a run between the fact's line and the piece that formed nothing (``runs``): sources."""


def may_continue(message: Message) -> bool:
    """Whether a line may be a thread's piece: short, asking nothing, no reply, aside or word to the listener.

    Nor a line standing for a picture ("pic", "[photo]": ``takeup.STANDS_FOR``), nor a dated event of its own: a
    line of several words with its own relative time ("physio today").
    """
    text = said(message)
    if not text or len(text.split()) > THREAD_MAX_WORDS or asks(text) or ends_asking(text):
        return False
    if takeup.STANDS_FOR.match(text):
        return False
    if any(p.search(text) for p in (worldline.REPLY_OPENING, takeup.REPLYING, _ASKING, _ELSEWHERE, _LISTENER,
                                    _TO_LISTENER)):
        return False
    return len(text.split()) == 1 or not _OWN_TIME.search(text)


def fragment(text: str) -> bool:
    """Whether a piece has no verb or subject of its own: "brakes + rust", not "they sing now" or "got a ferret"."""
    return not _OWN_VERB.search(text)


def interjects(text: str, thread: set[str]) -> bool:
    """Whether the listener's turn only interjects: a reaction, filler, a short question naming nothing of its own.

    At most ``INTERJECTION_MAX_WORDS`` words, no name, and at most one word that is not asking, generic, reacting
    or filler ("lol not far", "not bad", "OMG"); in a question that word is the thread's, or the measure a
    leading "how" asks for ("how far"): "how r lessons" asks about a topic of its own. Not the listener restating
    their question ("i mean the time"): the reply answers that.
    """
    if len(text.split()) > INTERJECTION_MAX_WORDS or NAMED.search(text[1:]) or _RESTATES.match(text):
        return False
    measure = m.group(1).lower() if (m := _HOW.match(text)) and len(text.split()) == 2 else None
    own = [w for w in detail_words(content_words(text)) if not reacts(w) and w not in GENERIC and w != measure]
    if len(own) > 1:
        return False
    return not own or not (asks(text) or ends_asking(text) or _ASKING.search(text)) or stem(own[0]) in thread


def thread_of(message: Message, prior: Sequence[Message],
              formed: Callable[[Message, Sequence[Message]], bool]) -> tuple[Message, bool, Message | None] | None:
    """The speaker's line whose fact ``message`` continues, whether the listener spoke between, and its question.

    The question is the listener's that line answers when its words give the line its topic (``_asked``), else
    None; None when no line of the speaker's formed the fact.

    ``formed``: whether a line formed a fact of its own, judged with the turns before it (the rules, passed in).
    """
    if not may_continue(message):
        return None
    later, thread, crossed, pieces = message, set(content_stems(said(message))), False, False
    for at in range(len(prior) - 1, max(-1, len(prior) - 1 - THREAD_TURNS), -1):
        turn = prior[at]
        if later.timestamp and turn.timestamp and abs(later.timestamp - turn.timestamp) >= THREAD_GAP:
            return None
        later, text = turn, said(turn)
        if turn.speaker != message.speaker:
            if not interjects(text, thread):
                return None
            crossed = True
            continue
        most, question = THREAD_MAX_WORDS if crossed else reusable.Z_MAX_MESSAGE_WORDS, prior[at - 1] if at else None
        if formed(turn, prior[:at]) and _topic(text, most, _asked(turn, question)):
            if _topic(text, most):
                return turn, crossed, None
            # a short answer's topic is the question's: the speaker's other pieces after it have moved on from it
            return (turn, crossed, question) if not pieces else None
        if asks(text) or ends_asking(text) or not may_continue(turn):
            return None  # the speaker's own question, reply or aside: no thread of theirs runs through it
        pieces = True
        thread |= set(content_stems(text))  # an earlier piece: formed nothing, or only as a piece ("under the fence")
    return None


def _asked(head: Message, before: Message | None) -> list[str]:
    """The topic words the listener's question just before the head gives it when the head answers it (h57f).

    "what would you do instead?" / "bikes" / "fixing them"; "still on for camping this weekend?" / "ya" /
    "lowkirk": the answer's topic is what was asked, so its words count towards the head's topic. The question's
    words that name something (no asking, generic, reacting word or chat filler); none when the turn before is the
    speaker's own, asks nothing, or is about the asker ("should I get the blue one?": the answer is on their topic).
    """
    if before is None or before.speaker == head.speaker:
        return []
    text = said(before)
    if not (asks(text) or ends_asking(text)) or _ASKER_OWN.search(text):
        return []
    return [w for w in detail_words(content_words(text)) if w not in GENERIC and not reacts(w)]


def _topic(text: str, most: int, asked: Sequence[str] = ()) -> bool:
    """Whether the fact's line has a topic a piece can continue: two content words, no question, ``most`` words.

    ``asked``: the words of the listener's question the line answers (``_asked``), which count towards the two.

    No question without its mark either (``_HEAD_ASKS``): "want me to come over" / "omw" continues no fact.

    Across the listener's turn the fact is a terse line too (``THREAD_MAX_WORDS``): a longer one tells several
    things, and what comes after the listener's turn is no piece of one of them; with no turn between, a chat line
    (``reusable.Z_MAX_MESSAGE_WORDS``, h52b), as a one-word line after a paragraph starts something else.
    """
    return not ends_asking(text) and not _HEAD_ASKS.match(text) \
        and len(detail_words(content_words(text))) + len(asked) >= FACT_MIN_WORDS and len(text.split()) <= most


def has_topic(text: str, asked: Sequence[str] = ()) -> bool:
    """Whether a chat line (``reusable.Z_MAX_MESSAGE_WORDS`` at most) has a topic a piece can continue (``_topic``)."""
    return _topic(text, reusable.Z_MAX_MESSAGE_WORDS, asked)


def question_topic(head: Message, before: Message | None) -> list[str]:
    """The topic words of the listener's question ``before`` that the head answers (``_asked``); none if not one."""
    return _asked(head, before)


def said_with_i(message: Message) -> bool:
    """Whether a line is a short one the speaker says with "I" ("i threw up"; not "got the keys", its "I" restored)."""
    text = said(message)
    return len(text.split()) <= TOPIC_MAX_WORDS and _I_OPENS.match(text) is not None


def topic_given(message: Message, prior: Sequence[Message]) -> bool:
    """Whether the turns just before give a terse line a topic: a shared content word, or the speaker's own line.

    The speaker's own line before the listener's interjection must say something and ask nothing ("the ferry tho" /
    "🤢" / "i threw up"); right before it, with no turn between, the thread rule's adjacent case reads the line.
    ``TOPIC_TURNS`` turns back at most, none across a pause of ``THREAD_GAP``.
    """
    stems, later = set(content_stems(said(message))), message
    for turn in reversed(prior[-TOPIC_TURNS:]):
        if later.timestamp and turn.timestamp and abs(later.timestamp - turn.timestamp) >= THREAD_GAP:
            return False
        later, text = turn, said(turn)
        if turn.speaker == message.speaker and turn is prior[-1]:
            return False  # the speaker's line just before: the line goes on with it (``thread_of``)
        if stems & set(content_stems(text)):
            return True
        if turn.speaker == message.speaker:  # its words besides greetings and filler ("heyy" gives no topic)
            return not (asks(text) or ends_asking(text)) and bool(opening.details(turn))
        if not interjects(text, stems):
            return False
    return False


def carries_content(details: Sequence[str], earlier: str) -> bool:
    """Whether the piece's clauses carry a content word that says something new of the fact (h52b's mend).

    A content word (no stopword) that is no chat filler, a number or a word of ``DETAIL_MIN_CHARS`` letters that
    is no adverb in -ly (how or when, not what: "finally", "literally"), and not one of the fact's words.
    """
    told = {stem(w) for w in content_words(earlier)}
    for word in detail_words([w for d in details for w in content_words(d)]):
        if stem(word) in told or word in rules.INTERJECTIONS:
            continue
        if word.isdigit() or (word.isalpha() and len(word) >= DETAIL_MIN_CHARS and not word.endswith("ly")):
            return True
    return False


def continues(message: Message, prior: Sequence[Message], texts: Sequence[str], pooled: tuple[int, ...],
              formed: Callable[[Message, Sequence[Message]], bool]) -> Thread | None:
    """The thread ``message``'s ``pooled`` clauses (of ``texts``) go on with, or None.

    ``pooled``: the clauses ``followup.judge_reply`` found going on (no marker claims them, a detail word).
    """
    if not pooled:
        return None
    details = [texts[i] for i in pooled]
    found = thread_of(message, prior, formed)
    if found is None:
        return None
    head, crossed, asked = found
    if crossed and not all(fragment(d) for d in details):
        return None  # after the listener's turn, a line with a verb of its own tells something new
    if announced.announces_news(said(message)) or all(reaction(d) for d in details):
        return None  # "news tho" starts something new; "phew", "not funny" say how the speaker feels (h57g)
    earlier = said(head)
    if set(content_stems(" ".join(details))) <= set(content_stems(earlier)) or not carries_content(details, earlier):
        return None  # only the fact's words again, or no word that says something
    return Thread(head, pooled, asked, kind_asked(message, prior, " ".join(details)))


def kind_asked(message: Message, prior: Sequence[Message], reply: str) -> Message | None:
    """The listener's turn just before the piece when it asks for the kind of detail the piece gives, else None.

    "my hours this week are mad" / "how many" / "52": the question says what the number counts, so it is a source
    of the fact and the fact says it ('...; how many? 52'). A question asking for a number, a time, a place or a
    length (``answer_kind``) needs a piece of that kind (``is_kind_asked``): "how much" / "sold it" answers nothing.
    """
    if not prior or prior[-1].speaker == message.speaker:
        return None
    return prior[-1] if asks_kind(said(prior[-1]), reply) else None


def asks_kind(question: str, reply: str) -> bool:
    """Whether a bare question asks for the kind of detail ``reply`` is ("how many" / "52", "whose" / "my aunt's")."""
    if not _KIND_ASKED.match(question):
        return False
    return answer_kind(question) is None or is_kind_asked(question, reply)


def asked_words(question: str) -> str:
    """The kind question as a fact says it: its words, lowercased, without marks ("How much??" -> "how much")."""
    return " ".join(re.findall(r"[a-z]+", question.lower()))


def reaction(text: str) -> bool:
    """Whether a clause only reacts: interjections alone ("phew", "oops lol") or a negated evaluation ("not funny").

    A negation before one evaluating word ("not bad", "not so great") judges what was said, as "lol" does; a
    negation before a word that names something ("not the van", "no brakes") tells a detail.
    """
    if all(w in rules.INTERJECTIONS for w in content_words(text)):
        return True  # not ``followup.reacts``: its prompts to go on ("details", "done") may be a piece's words
    negated = _NEGATED.match(text)
    return negated is not None and (negated[1].lower() in rules.INTERJECTIONS or reusable.evaluates(negated[1]))
