"""Offline admission of an utterance: admitted when any of its clauses is (``clause_admission``).

Else the exchange may still show it says something: the line judged whole as the speaker's world (``worldline``),
a reply going on with the speaker's news that a question naming nothing asked after (``followup``), the listener's
take-up of a short line as news (``takeup``), a reaction to the other's news that formed something
(``reacted``: it becomes a source of that; so does a he/she line going on about the person of the line before,
``remarked``), the line opening the chat after a silence (``opening``), the news the
speaker announced and the listener asked for (``announced``), or a terse
piece going on with the speaker's own fact of the same thread across the listener's interjections (``threads``);
a terse value line rejected for too little content, read with the turn that gives its topic (``thread_value``);
last, a short line of two or three sentences read by the piece that carries its fact (``short_pieces``).
A verdict keeps the clauses it was drawn from (``Judged``), so a caller reads them rather than cutting the line again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from dmem.decisions.offline import (
    announced,
    followup,
    markers,
    opening,
    ownworld,
    question_facts,
    reacted,
    remarked,
    rules,
    runs,
    short_pieces,
    takeup,
    thread_value,
    threads,
    worldline,
)
from dmem.decisions.offline.clause_admission import described_people, judge_clause
from dmem.decisions.offline.clauses import (
    Clause,
    ClauseVerdict,
    answer_words,
    clauses_of,
    utterance_text,
)
from dmem.decisions.offline.replies import listener_of
from dmem.silence import spoken
from dmem.state.schemas import Message
from dmem.text.quotes import shorten

_REJECT_RANK = {"transient": 5, "unreal": 5, "question": 4, "reaction": 3, "emotional": 3, "vague": 2, "phatic": 1}
# Clauses kept as said, only when no other clause of the message forms a fact.
_TOLD = frozenset({"reusable", "news", "own_world"})
# Rejections for too little content that a terse value read with its thread overrides (``thread_value``); not
# "no personal fact": a line about another's world stays theirs.
TERSE_POOR = ("rejected: too little detail", "rejected: vague content", "rejected: a title or a name alone")
THREAD_VALUE = "admitted: a terse value read with its thread ("
"""How a terse value line's admission reason opens; the turn it was read with is ``Judged.topic``."""


@dataclass(frozen=True)
class Judged:
    """An utterance's verdict with the clauses it was cut into and theirs, so a caller reads them, not redoes them."""

    admit: bool
    reason: str
    clauses: Sequence[Clause] = ()
    """The utterance's clauses (``clauses_of``); none for an assistant turn or an empty one."""
    verdicts: Sequence[ClauseVerdict] = ()
    """Each clause's own verdict (``judge_clause``), in order."""
    language: str = "en"
    """The language ``clauses_of`` found."""
    topic: thread_value.Topic | None = None
    """The thread's turn a terse value line was admitted with (``thread_value``); None if admitted otherwise."""
    piece: short_pieces.Piece | None = None
    """The piece a short line of 2-3 sentences was admitted by (``short_pieces``); None if admitted otherwise."""
    remarked: Message | None = None
    """The line before whose person a he/she line goes on about, it admitted as that line's source (``remarked``);
    None if admitted otherwise."""


def judge_utterance(message: Message, prior: Sequence[Message] = (),
                    memories: Sequence[str] = (), *, reopened: bool = True, threaded: bool = True) -> tuple[bool, str]:
    """Admit if any clause is admitted (its reason); else the most telling clause rejection.

    ``prior`` are the turns before it, in order (they say what question it may answer);
    ``memories`` are stored memory texts it may continue; ``reopened`` False judges it without its place
    after a silence (``opening``), as that rule itself does; ``threaded`` False without the thread it may
    continue (``threads``) or the news it reacts to (``reacted``), as a thread's fact is judged: it must form a fact
    of its own.
    """
    judged = judged_utterance(message, prior, memories, reopened=reopened, threaded=threaded)
    return judged.admit, judged.reason


def judged_utterance(message: Message, prior: Sequence[Message] = (), memories: Sequence[str] = (), *,
                     reopened: bool = True, threaded: bool = True, prompted: bool = True,
                     remarking: bool = True) -> Judged:
    """``judge_utterance``'s verdict, with the clauses and clause verdicts it was drawn from.

    ``prompted`` False judges it without the news it may tell when asked for (``announced``), as that rule does;
    ``remarking`` False without the line before whose person it goes on about (``remarked``), as a line taken up
    as news is judged: it formed nothing of its own.
    """
    if message.speaker.lower() in rules.ASSISTANT_SPEAKERS:
        return Judged(False, "rejected: assistant turns are context, not a source of user facts")
    if not utterance_text(message):
        return Judged(False, "rejected: empty utterance")
    clauses, language = clauses_of(message, prior, memories)
    verdicts = [judge_clause(c, language) for c in clauses]
    admit, reason = _utterance_verdict(clauses, verdicts, language, message, prior, memories, reopened, threaded,
                                       prompted)
    topic = _thread_value(message, prior, language, reason) if threaded and not admit else None
    if topic is not None:
        admit, reason = True, f"{THREAD_VALUE}{topic.turn.speaker}'s '{shorten(topic.sentence, 60)}', {topic.how})"
    piece = _carrier(message, prior, memories, reopened, prompted) \
        if threaded and not admit and language == "en" else None
    if piece is not None:  # "kazik. from lodz"
        admit, reason = True, short_pieces.reason_of(piece)
    if not admit and (told := described_people(clauses, verdicts)):  # "kirsty is from fife, she does nursing"
        clauses, verdicts = told
        admit, reason = True, next(v.reason for v in verdicts if v.kind == "described")
    line = remarked_line(message, prior, memories) \
        if remarking and threaded and not admit and reason.startswith(remarked.REMARKABLE) else None
    if line is not None:  # "He loves that boat": no fact of its own
        admit, reason = True, f"{remarked.REASON}{line.speaker}'s line ('{shorten(utterance_text(line), 60)}'), " \
                              "a source of what it formed"
    return Judged(admit, reason, clauses, verdicts, language, topic, piece, line)


def _utterance_verdict(clauses: Sequence[Clause], verdicts: Sequence[ClauseVerdict], language: str,
                       message: Message, prior: Sequence[Message], memories: Sequence[str],
                       reopened: bool = True, threaded: bool = True, prompted: bool = True) -> tuple[bool, str]:
    """The verdict from the clauses' own: an admitted clause, else the line, news, take-up, opening or thread rules.

    The opening rule (a line after a silence) is asked only when ``reopened``, the announced news rule when
    ``prompted``, the thread rule when ``threaded``.
    """
    # A reusable clause forms a fact only when no other clause does: the reason names the clause that does.
    admitted = sorted((v for v in verdicts if v.admit), key=lambda v: v.kind in _TOLD)
    if admitted:
        replied = clauses[0].replies_to
        if replied and admitted[0].kind != "answer":  # the audit trail names the question the facts answer
            asked = shorten(replied.question, 80)
            return True, f"{admitted[0].reason}; replies to {replied.asker}'s question ('{asked}')"
        return True, admitted[0].reason
    worst = max(verdicts, key=lambda v: _REJECT_RANK.get(v.kind, 0), default=None)
    line = line_verdict(clauses, verdicts, message, prior, language, memories)
    if line is not None and line.admit:
        return True, line.reason
    asked_after = followup_news(message, prior, memories) if may_follow_up(clauses, verdicts, language) else None
    if unit := followup_unit(clauses, verdicts, message, prior, language, asked_after, memories):
        return True, f"admitted: goes on with the speaker's news ('{shorten(utterance_text(unit.news), 60)}') " \
                     f"asked after ('{shorten(utterance_text(unit.question), 40)}')"
    if taken := takeup_news(message, prior, memories):
        return True, f"admitted: takes up {taken.news.speaker}'s news " \
                     f"('{shorten(utterance_text(taken.news), 60)}'), {taken.how}"
    if reopened and (opened := opening_news(message, prior, memories)):
        return True, f"admitted: the speaker's news, opening the chat after {spoken(opened.silence)} of silence"
    if prompted and (asked_for := announced_news(message, prior, memories)):
        announcement, prompt = (shorten(utterance_text(m), 30) for m in (asked_for.announcement, asked_for.prompt))
        return True, f"admitted: the speaker's news, announced ('{announcement}') and asked for ('{prompt}')"
    if threaded and (thread := thread_piece(clauses, verdicts, message, prior, language, memories)):
        return True, f"admitted: goes on with the speaker's fact ('{shorten(utterance_text(thread.fact), 60)}')"
    if threaded and (news := reacted_news(message, prior, memories)):  # a reaction forms no fact of its own
        return True, f"admitted: reacts to {news.speaker}'s news ('{shorten(utterance_text(news), 60)}'), " \
                     "a source of what it formed"
    if line is not None and (worst is None or worst.kind in markers.POOLABLE):
        return line.admit, line.reason
    return False, worst.reason if worst else "rejected: empty utterance"


def _thread_value(message: Message, prior: Sequence[Message], language: str,
                  rejected: str) -> thread_value.Topic | None:
    """The thread's turn that admits a terse value line ``rejected`` for too little content (``thread_value``)."""
    if not rejected.startswith(TERSE_POOR) or language != "en":
        return None
    return thread_value.topic_of(message, prior, answer_words)


def _carrier(message: Message, prior: Sequence[Message], memories: Sequence[str], reopened: bool = True,
             prompted: bool = True) -> short_pieces.Piece | None:
    """The piece carrying the fact of a short line of 2-3 sentences, judged in the line's place (``short_pieces``).

    A piece is judged as the line is (``reopened``, ``prompted``): a rule judging the line without its place after
    a silence does not find it told by a piece in that place.
    """
    def judge(piece: Message) -> tuple[bool, str]:
        judged = judged_utterance(piece, prior, memories, reopened=reopened, prompted=prompted, remarking=False)
        return judged.admit, judged.reason

    return short_pieces.carrier(message, utterance_text(message), judge, prior[-1] if prior else None)


def carrier_piece(message: Message, prior: Sequence[Message], memories: Sequence[str] = (),
                  judged: Judged | None = None) -> short_pieces.Piece | None:
    """The piece a short line was admitted by (``Judged.piece``), or None if it was admitted otherwise or not at all.

    ``judged``: the line's judgement in its place when the caller holds it. Else the line's shape is read first: most
    lines are no 2-3 short sentences, where judging the line again reads all its clauses.
    """
    if judged is None and not short_pieces.shaped(utterance_text(message)):
        return None
    return (judged or judged_utterance(message, prior, memories)).piece


def thread_value_topic(message: Message, prior: Sequence[Message], memories: Sequence[str] = (),
                       judged: Judged | None = None) -> thread_value.Topic | None:
    """The thread's turn a terse value line was admitted with (``Judged.topic``), or None if admitted otherwise.

    ``judged``: the line's judgement in its place when the caller holds it. Else the thread is read first: it is a
    few turns' patterns and rules out most lines, where judging the line again reads all its clauses.
    """
    if judged is None and thread_value.topic_of(message, prior, answer_words) is None:
        return None
    return (judged or judged_utterance(message, prior, memories)).topic


def thread_piece(clauses: Sequence[Clause], verdicts: Sequence[ClauseVerdict], message: Message,
                 prior: Sequence[Message], language: str, memories: Sequence[str] = ()) -> threads.Thread | None:
    """The speaker's fact of the same thread that a terse line goes on with (``threads``), or None.

    Its clauses are judged as a reply after "hows it" is (``followup.judge_reply``); a reply to a question is one
    only to the listener's interjection in the thread ("how far"), which ``threads`` reads among the turns between.
    """
    if not clauses or language != "en" or not (threads.may_continue(message) or runs.may_join(message, prior)):
        return None
    replied = clauses[0].replies_to or clauses[0].asked
    if replied is not None and replied.turn_id not in {t.turn_id for t in prior[-threads.THREAD_TURNS:]}:
        return None
    texts = [c.text for c in clauses]
    pooled = followup.judge_reply(texts, [v.kind for v in verdicts], [c.foreign for c in clauses], answer_words,
                                  clauses[0].names, set(clauses[0].people), listeners_of(message, prior, memories))
    formed = functools.partial(_head_formed, after=prior, memories=memories)
    return threads.continues(message, prior, texts, pooled, formed) \
        or runs.continues(message, prior, texts, pooled, formed)  # a list told one piece per line


def _head_formed(fact: Message, before: Sequence[Message], after: Sequence[Message],
                 memories: Sequence[str] = ()) -> bool:
    """Whether a thread's head formed a fact: alone, or as the news the listener's next turn asks after.

    "the walk in is running warm" forms nothing alone; the listener's "how warm" takes it up with a follow-up
    question (``takeup``), and its fact is the one the reply "7" goes on with. A take-up by a reaction or an echo
    ("manual or auto" / "manual 😩") asks nothing: the speaker's next line replies to it ("respect"). Only the
    answer right after the question goes on so ("leaving do fri" / "where" / "tusk" / ... / "boo": no).
    ``before``: the turns before the head; ``after``: the turns before the piece, from the chat's start.
    """
    if judge_utterance(fact, before, memories, threaded=False)[0]:
        return True
    at = len(before) + 1  # the turn after the head: the question, and the piece right after it
    if at != len(after) - 1 or after[at].speaker == fact.speaker:
        return False
    taken = takeup_news(after[at], after[:at], memories)
    return taken is not None and taken.news.turn_id == fact.turn_id and taken.how == takeup.FOLLOWUP_QUESTION


def takeup_news(message: Message, prior: Sequence[Message], memories: Sequence[str] = ()) -> takeup.TakeUp | None:
    """The other speaker's earlier line that formed nothing and that the message takes up as news (``takeup``)."""
    told = functools.partial(_told, memories=memories)
    return takeup.taken_up(message, prior, told, functools.partial(told, lifted=takeup.OWN_NEWS_LIFT))


def reacted_news(message: Message, prior: Sequence[Message], memories: Sequence[str] = ()) -> Message | None:
    """The other's line just before that the message reacts to as news, when it formed something (``reacted``)."""
    return reacted.reacted_to(message, prior, lambda news, before: judge_utterance(news, before, memories)[0])


def remarked_line(message: Message, prior: Sequence[Message], memories: Sequence[str] = ()) -> Message | None:
    """The line just before whose person the message goes on about by he/she, when it formed (``remarked``)."""
    return remarked.remarked_on(message, prior,
                                lambda line, before: judge_utterance(line, before, memories, threaded=False)[0])


def announced_news(message: Message, prior: Sequence[Message],
                   memories: Sequence[str] = ()) -> announced.Announced | None:
    """The message as the news the speaker announced and the listener asked for (``announced``), or None."""
    judged = functools.partial(judged_utterance, message, prior, memories, prompted=False, remarking=False)
    return announced.announced(message, prior, functools.partial(_told, memories=memories, judged=judged))


def opening_news(message: Message, prior: Sequence[Message], memories: Sequence[str] = ()) -> opening.Opening | None:
    """The message as the speaker's news that opens the chat after a silence (``opening``), or None."""
    # The line is judged once, when the rule first asks, for both of its pools (with and without the lift).
    judged = functools.cache(functools.partial(judged_utterance, message, prior, memories, reopened=False,
                                               remarking=False))
    told = functools.partial(_told, memories=memories, reopened=False, judged=judged)
    return opening.opening(message, prior, told, functools.partial(told, lifted=opening.UNANSWERING))


def _told(news: Message, before: Sequence[Message], memories: Sequence[str] = (), reopened: bool = True,
          lifted: frozenset[str] = frozenset(), judged: Callable[[], Judged] | None = None) -> takeup.Unformed | None:
    """A line judged in its place, with the clauses it was cut into: None when it formed something.

    As after a follow-up (``followup``): taken as news, a line's bare subject is its news, not the world's.
    ``lifted``: markers' claims that do not keep a clause out of the pool (``followup.goes_on``); ``judged``, the
    line's judgement in its place when the caller already holds it (``news`` and ``before`` are then its own).
    """
    judgement = judged() if judged else judged_utterance(news, before, memories, reopened=reopened, remarking=False)
    if judgement.admit or judgement.language != "en" or not judgement.clauses:
        return None  # no clauses: an assistant turn or an empty one, whose rejection no take-up overrides
    clauses, verdicts = judgement.clauses, judgement.verdicts
    listeners = listeners_of(news, before, memories)
    pooled = [c for c, v in zip(clauses, verdicts, strict=True)
              if followup.goes_on(c.text, v.kind, c.foreign, c.names, listeners, lifted)]
    people = set(clauses[0].people) if clauses else set()
    details = [w for c in pooled for w in answer_words(c.text) if w not in people]
    told = tuple(c for c in pooled if answer_words(c.text))
    return takeup.Unformed(judgement.reason, told, details, judgement.language)


def line_verdict(clauses: Sequence[Clause], verdicts: Sequence[ClauseVerdict], message: Message,
                 prior: Sequence[Message], language: str, memories: Sequence[str] = ()) -> worldline.LineVerdict | None:
    """A two-person chat line none of whose clauses was admitted, judged as one unit (``worldline``), or None."""
    listener = listener_of(message, prior)
    if not clauses or any(v.admit for v in verdicts) or language != "en" or listener is None:
        return None
    return worldline.judge_line([c.text for c in clauses], [v.kind for v in verdicts], [c.foreign for c in clauses],
                                answer_words, clauses[0].names, set(clauses[0].people),
                                listeners_of(message, prior, memories),
                                replying=_replying(clauses[0], message, prior),
                                topic=threads.said_with_i(message) and threads.topic_given(message, prior))


def _replying(clause: Clause, message: Message, prior: Sequence[Message]) -> bool:
    """Whether the message replies to a question of the other speaker's just before, one naming nothing too."""
    if clause.replies_to is not None or clause.asked is not None:
        return True
    if not prior or prior[-1].speaker == message.speaker:
        return False
    said = utterance_text(prior[-1])
    return question_facts.is_question(said) or followup.names_nothing(said)


def followup_unit(clauses: Sequence[Clause], verdicts: Sequence[ClauseVerdict], message: Message,
                  prior: Sequence[Message], language: str, news: followup.FollowUp | None,
                  memories: Sequence[str] = ()) -> followup.FollowUp | None:
    """A reply none of whose clauses was admitted, judged with ``news``: what a question naming nothing asked after.

    ``news`` is ``followup_news`` of the reply, looked up once by the caller (splitting also writes with it).
    """
    if news is None or not may_follow_up(clauses, verdicts, language):
        return None
    pooled = followup.judge_reply([c.text for c in clauses], [v.kind for v in verdicts], [c.foreign for c in clauses],
                                  answer_words, clauses[0].names, set(clauses[0].people),
                                  listeners_of(message, prior, memories))
    return replace(news, pooled=pooled) if pooled else None


def may_follow_up(clauses: Sequence[Clause], verdicts: Sequence[ClauseVerdict], language: str) -> bool:
    """``followup_unit``'s cheap guards (English clauses, none admitted): the news is looked up only past them."""
    return bool(clauses) and not any(v.admit for v in verdicts) and language == "en"


def followup_news(message: Message, prior: Sequence[Message], memories: Sequence[str] = ()) -> followup.FollowUp | None:
    """The speaker's news and the other's question naming nothing that the message replies to (``followup``)."""
    # the news formed a fact of its own: a thread's piece is no news a question asks after (``threads`` joins it)
    return followup.asked_on(message, prior,
                             lambda news, before: judge_utterance(news, before, memories, threaded=False)[0])


def listeners_of(message: Message, prior: Sequence[Message],
                 memories: Sequence[str] = ()) -> Callable[[str], bool]:
    """Whether a clause's subject is the listener's thing (said or stored as theirs: "The bees swarmed").

    Lines told plainly and lines judged whole ask it alike (``markers.claimed``).
    """
    listener = listener_of(message, prior)

    def listeners(text: str) -> bool:
        why = ownworld.owned(text, listener, "", prior, memories) if listener else None
        return why is not None and "as theirs" in why

    return listeners
