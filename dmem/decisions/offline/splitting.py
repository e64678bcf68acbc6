"""Offline multi-intent splitting: clauses become standalone, categorized facts with provenance.

The current exchange is the only source of facts; reference history only supplies antecedents
and the listener. Relative time words are kept as said (a later node grounds them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from dmem.decisions.offline import (
    asked_before,
    confirmed,
    echoed_value,
    followup,
    frames,
    leaning,
    opening,
    payback,
    reacted,
    rules,
    short_pieces,
    thread_value,
    threads,
)
from dmem.decisions.offline.admission import (
    Judged,
    announced_news,
    carrier_piece,
    followup_news,
    followup_unit,
    judge_utterance,
    line_verdict,
    listeners_of,
    opening_news,
    reacted_news,
    remarked_line,
    takeup_news,
    thread_piece,
    thread_value_topic,
)
from dmem.decisions.offline.admitted import Admitted
from dmem.decisions.offline.announced import Announced
from dmem.decisions.offline.clause_admission import judge_clause
from dmem.decisions.offline.clause_facts import TOLD_KINDS, Drafting, clause_pairs, lowered, main_fact
from dmem.decisions.offline.clauses import Clause, ClauseVerdict, answer_words, clauses_of, utterance_text
from dmem.decisions.offline.fact_text import categorize, tidy
from dmem.decisions.offline.followup_writing import detail, followup_fact, thread_fact, with_news
from dmem.decisions.offline.markers import claimed
from dmem.decisions.offline.pronouns import Antecedent, antecedents
from dmem.decisions.offline.repeated import said_once
from dmem.decisions.offline.replies import Asked, listener_of
from dmem.decisions.offline.takeup import Unformed
from dmem.state.schemas import Message, Provenance
from dmem.state.verdicts import FactDraft
from dmem.text.asked import topic_stems
from dmem.text.lexical import content_stems, tokenize
from dmem.text.words import WH, alternation

# An asking word in the listener's prompt for announced news: it asks about what the announcement said.
_ASKS_ABOUT = re.compile(rf"\b(?:{alternation(WH)})\b", re.I)
# Reasons that mean "no content", which drop a clause even when the admission gate is off.
_CONTENTLESS = frozenset({"phatic", "emotional", "vague", "question"})
# Most words of a stored memory a line told as the speaker's world is joined to (``_continued_own``): a longer one
# already holds several details, and the line starts a memory of its own.
LINE_JOIN_MAX_WORDS = 40
# Content stems (the speaker's name aside) a line shares with their stored memory to be written with it.
LINE_JOIN_MIN_SHARED = 2


def facts_from_message(message: Message, window: list[Message], history: list[Message],
                       *, gated: bool, memories: Sequence[str] = ()) -> list[FactDraft]:
    """Facts of one utterance; gated=True keeps admitted clauses, False every content clause.

    A reply's facts name the question's turn as a source too; a hedged clause's facts are 'hedged'.
    """
    return _message_facts(message, window, history, gated=gated, memories=memories)[0]


def _message_facts(message: Message, window: list[Message], history: list[Message], *, gated: bool,
                   memories: Sequence[str] = (),
                   admitted: Admitted | None = None) -> tuple[list[FactDraft], Joins | None]:
    """``facts_from_message``, and what of it joins the draft of an earlier line of the exchange, if any (``Joins``).

    A reply to a question naming nothing is written with the speaker's news that question asked after (B48b).
    ``admitted``: admission's judgement of the exchange, whose clauses of the line are read rather than cut again.
    """
    if message.speaker.lower() in rules.ASSISTANT_SPEAKERS:
        return [], None
    prior = [*history, *window[: window.index(message)]] if message in window else history
    news = followup_news(message, prior, memories) if gated else None  # looked up once, for both uses below
    judged = admitted.of(message, prior, memories) if gated and admitted is not None else None
    facts, line = _said_facts(message, prior, [*history, *window], news, gated=gated, memories=memories,
                              judged=judged)
    if gated and line is None:  # "how did grandad take it" / "He grumbled ...": the question a source of the answer
        facts = asked_before.with_question(facts, message, prior)
    if facts and news:
        facts, line = with_news(facts, news, message, listener_of(message, [*history, *window]), memories), None
    if gated and (taken := takeup_news(message, prior, memories)):
        told = taken.news
        fact = _news_fact(told, taken.told, prior[: prior.index(told)], prior, memories)
        if taken.how == reacted.REACTION:  # the reaction says how the listener took the news: a source too
            fact = _sourced(fact, message.turn_id)
        return [*facts, fact], None
    if gated and not facts and (opened := opening_news(message, prior, memories)):
        opener = _news_fact(message, opened.told, prior, prior, memories)
        return [opener], _told_joins(opener, message, prior)
    if gated and not facts and (asked_for := announced_news(message, prior, memories)):
        return [_asked_fact(asked_for, message, prior, memories)], None
    if gated and not facts and (line_of := reacted_news(message, prior, memories)
                                or _remarked(message, prior, memories, judged)):
        return _restated(line_of, message, prior, memories), Joins(line_of.turn_id, "")
    if gated and not facts and (topic := thread_value_topic(message, prior, memories, judged)):
        if again := _echo_sourced(topic, message, prior, memories):  # a pure echo: a source of the line it echoes
            return again, Joins(topic.turn.turn_id, "")
        return [_thread_value_fact(topic, message)], None
    if gated and not facts and (piece := carrier_piece(message, prior, memories, judged)):
        if short_pieces.valued(piece) and (topic := thread_value.topic_of(piece.message, prior, answer_words)):
            return [_thread_value_fact(topic, piece.message)], None  # "340. If 30 people put in 12 each ..."
        return _message_facts(piece.message, [], prior, gated=True, memories=memories)  # its fact, as said alone
    return facts, line


def _remarked(message: Message, prior: list[Message], memories: Sequence[str], judged: Judged | None) -> Message | None:
    """The line before whose person a he/she line goes on about, when admission admitted it so (``remarked``).

    Admission's verdict carries the line (``Judged.remarked``); judged afresh only without one.
    """
    if judged is not None:
        return judged.remarked
    return remarked_line(message, prior, memories)


def _echo_sourced(topic: thread_value.Topic, message: Message, prior: list[Message],
                  memories: Sequence[str]) -> list[FactDraft]:
    """The facts of the other's line that a pure echo of its value ("THIRD!!!") is a source of; none if not one.

    Only when the line formed a fact stating the value (``echoed_value.holds``): else the echo's own memory keeps it.
    """
    said = followup.said(message)
    if topic.how != "echoed" or not echoed_value.pure(said) \
            or not judge_utterance(topic.turn, prior[: prior.index(topic.turn)], memories)[0]:
        return []
    again = _restated(topic.turn, message, prior, memories)
    return again if any(echoed_value.holds(said, f.text) for f in again) else []


def _thread_value_fact(topic: thread_value.Topic, message: Message) -> FactDraft:
    """A terse value line with the turn that gives its topic (``thread_value``): one fact, both turns its sources."""
    speaker, reply = message.speaker, followup.said(message).strip()
    if topic.pieces:  # the last piece of a run answering the question: the run is the answer, one reply a piece
        reply = frames.JOIN.join([*(followup.said(p).strip().rstrip(".!,;") for p in topic.pieces), reply])
    if topic.how in ("asked", thread_value.IN_PIECES):
        text = frames.answered(speaker, topic.turn.speaker, topic.sentence, reply)
    elif topic.how in ("requested", "echoed"):
        text = frames.picked(speaker, topic.turn.speaker, topic.sentence, reply, False)
    else:
        text = frames.added(speaker, topic.sentence, reply)
    sources = [topic.turn.turn_id, *(p.turn_id for p in topic.pieces), message.turn_id]
    return FactDraft(text=tidy(text), speaker=speaker, source_turn_ids=sources,
                     categories=categorize(reply), provenance=Provenance.STATED, language="en")


@dataclass(frozen=True)
class Joins:
    """What of a line joins the draft of an earlier line of the same exchange, and that line's turn."""

    turn_id: str
    """The earlier line whose draft it joins: the speaker's line just before, or the fact its thread goes on with."""
    said: str
    """What it adds, as the joined piece ('; ' then this); empty: it adds only its turn as a source (``reacted``)."""


def _told_joins(line: FactDraft, message: Message, prior: Sequence[Message]) -> Joins | None:
    """A line told as the speaker's world joins the draft of the speaker's line just before, when there is one."""
    if not prior or prior[-1].speaker != message.speaker:
        return None
    return Joins(prior[-1].turn_id, line.text.removeprefix(f"{message.speaker}: "))


def _news_fact(news: Message, told: Unformed, before: list[Message], chat: list[Message],
               memories: Sequence[str]) -> FactDraft:
    """A line that formed nothing alone, shown to be news (``takeup``, ``opening``, ``announced``), told as theirs.

    Their fact, in their namespace: 'Nadia: keys today', the line its source (a take-up's words are not in it;
    the caller adds a reaction's turn, which says how the news was taken).
    ``told``: the line as admission judged it, whose pooled clauses the fact says (it is not cut again).
    """
    speaker, pooled, language = news.speaker, told.pooled, told.language
    known = [a for h in before for a in antecedents(utterance_text(h), h.speaker)]
    said = _pieces(pooled, speaker, listener_of(news, chat), known)
    continued = _continued_own(pooled, speaker, memories)
    text = said if len(pooled) == 1 and not continued and said.startswith(f"{speaker} ") \
        else _line_text(said, speaker, continued)  # 'Nadia got the keys', not 'Nadia: Nadia got the keys'
    hedged = any(rules.HEDGE.search(c.text) for c in pooled)
    return FactDraft(text=tidy(text), speaker=speaker, source_turn_ids=[news.turn_id], categories=categorize(said),
                     provenance=Provenance.HEDGED if hedged else Provenance.STATED, language=language)


def _asked_fact(asked: Announced, message: Message, prior: list[Message], memories: Sequence[str]) -> FactDraft:
    """News told when asked for (``announced``), as a line told as the speaker's world ('Bramwell: Climbing').

    A prompt with an asking word ("where", "WHAT", "how was it") asks about the announcement, so one saying
    something of its own is the line's topic: the fact joins both ('Zuleika: he's retiring; july'), both lines
    its sources. After a bare prompt ("?", "go on") the announcement is only a teaser ("bad news").
    """
    fact = _news_fact(message, asked.told, prior, prior, memories)
    if not _ASKS_ABOUT.search(followup.said(asked.prompt)) or not opening.details(asked.announcement):
        return fact
    speaker, head = message.speaker, followup.said(asked.announcement).rstrip(" .!")
    told = lowered(fact.text.removeprefix(f"{speaker}: "))
    return fact.model_copy(update={"text": tidy(f"{speaker}: {head}; {told}"),
                                   "source_turn_ids": [asked.announcement.turn_id, *fact.source_turn_ids]})


def _replies(clause: Clause, kind: str, linked: bool) -> bool:
    """Whether a clause's facts answer the question its utterance replies to (its turn joins their sources).

    The utterance's first admitted clause does, and any later one that takes up a word of the question.
    """
    if clause.replies_to is None or kind in ("answer", "confirms"):
        return False
    return not linked or bool(topic_stems(clause.text) & topic_stems(clause.replies_to.question))


def _said_facts(message: Message, prior: list[Message], chat: list[Message], news: followup.FollowUp | None,
                *, gated: bool, memories: Sequence[str] = (),
                judged: Judged | None = None) -> tuple[list[FactDraft], Joins | None]:
    """The utterance's own facts, and what of it joins the draft of an earlier line of the exchange (``Joins``).

    A line told as the speaker's world joins their line just before; a terse piece going on with the speaker's fact
    of the same thread (``threads``: what forms nothing alone, or only a fragment 'Corwen: 900') is written with it.

    ``prior``: the turns before it; ``chat``: history and window; ``news``: what a question naming nothing just
    before asked after (``followup_news``), which a reply no clause of which was admitted may go on with;
    ``judged``: admission's judgement of the line read the same way, whose clauses and verdicts are taken as they are.
    """
    clauses, verdicts, language = _judged_clauses(message, prior, memories if gated else (), judged)
    listener = listener_of(message, chat)
    known = [a for h in prior for a in antecedents(utterance_text(h), h.speaker)]
    state = Drafting(known=known, remember=any(c.remember for c in clauses))
    for clause, verdict in zip(clauses, verdicts, strict=True):
        if (gated and not verdict.admit) or (not gated and verdict.kind in _CONTENTLESS):
            continue
        _draft_clause(state, clause, verdict, message, listener, language, gated=gated)
    drafts = payback.without_restated(state.drafts, state.restating)
    if drafts or not gated:
        return drafts or state.told, None
    line = _told_line(state.told, clauses, verdicts, message.speaker, listener, known, memories,
                      listeners_of(message, prior, memories)) if state.told else \
        _line_fact(clauses, verdicts, message, prior, listener, known, language, memories)
    if not line and (unit := followup_unit(clauses, verdicts, message, prior, language, news, memories)):
        return [followup_fact(unit, [clauses[i] for i in unit.pooled], message, listener, memories)], None
    if news is None and (not line or _fragment(line, message.speaker)) \
            and (thread := thread_piece(clauses, verdicts, message, prior, language, memories)):
        pooled = [clauses[i] for i in thread.pooled]
        said = _as_said(line[0], message.speaker) if line else detail(pooled, message.speaker, listener)
        if thread.kind is not None:  # "how many" / "52": what the question asked says what the piece is
            said = f"{threads.asked_words(followup.said(thread.kind))}? {said}"
        hedged = any(d.provenance == Provenance.HEDGED for d in line) or any(rules.HEDGE.search(c.text) for c in pooled)
        fact = thread_fact(thread, said, message, listener, memories, hedged)
        sources = list(dict.fromkeys([*fact.source_turn_ids, *(s for d in line for s in d.source_turn_ids)]))
        return [fact.model_copy(update={"source_turn_ids": sources})], Joins(thread.fact.turn_id, said)
    return line, _told_joins(line[0], message, prior) if line else None


def _judged_clauses(message: Message, prior: list[Message], memories: Sequence[str],
                    judged: Judged | None) -> tuple[list[Clause], list[ClauseVerdict], str]:
    """The line's clauses, each clause's verdict and the language: admission's when handed, else cut and judged."""
    if judged is not None and judged.clauses:
        return list(judged.clauses), list(judged.verdicts), judged.language
    clauses, language = clauses_of(message, prior, memories)
    return clauses, [judge_clause(c, language) for c in clauses], language


def _as_said(line: FactDraft, speaker: str) -> str:
    """What a line told as the speaker's world says, without its 'Speaker: ', opening lowercase as a joined piece."""
    said = line.text.removeprefix(f"{speaker}: ")
    return said[:1].lower() + said[1:] if said[:2] != said[:2].upper() else said


def _fragment(line: list[FactDraft], speaker: str) -> bool:
    """Whether a line's one fact is a fragment told as the speaker's ('Corwen: 900'): no verb, no subject of its own."""
    said = line[0].text.removeprefix(f"{speaker}: ") if len(line) == 1 else line[0].text
    return said != line[0].text and threads.fragment(said)


def _draft_clause(state: Drafting, clause: Clause, verdict: ClauseVerdict, message: Message, listener: str | None,
                  language: str, *, gated: bool) -> None:
    """One admitted clause's facts added to ``state``: its sources with the question it replies to, if any."""
    replied = clause.replies_to if _replies(clause, verdict.kind, state.linked) else None
    pairs, sources, statement = clause_pairs(state, clause, verdict.kind, message, listener, language, replied)
    if pairs and replied is not None and replied.turn_id and replied.turn_id not in sources:
        sources = [replied.turn_id, *sources]
        state.linked = True
    if clause.introduced and clause.introduced not in sources:  # "he" is read through the turn naming him
        sources = [clause.introduced, *sources]
    state.known += antecedents(clause.text, message.speaker)
    restated = gated and bool(pairs) and payback.restates(clause, verdict, language)  # once a clause
    for i, (fact_text, categories, provenance) in enumerate(pairs):
        if any(d.text.lower() == fact_text.lower() for d in state.drafts):
            continue
        if verdict.hedge and provenance == Provenance.STATED:
            provenance = Provenance.HEDGED
        draft = FactDraft(text=fact_text, speaker=message.speaker, source_turn_ids=sources,
                          categories=categories, provenance=provenance, language=language)
        leans = statement and i == 0 and leaning.joined_back(state.drafts, draft)
        if not leans and not _joined_answer(state.drafts, draft, state.confirmations):
            if restated:
                state.restating.add(len(state.drafts))
            state.drafts.append(draft)
        elif not restated:  # a piece of its own joined the answer: the joined line says something
            state.restating -= {j for j, d in enumerate(state.drafts) if d.source_turn_ids == sources}


def _told_line(told: list[FactDraft], clauses: list[Clause], verdicts: list[ClauseVerdict], speaker: str,
               listener: str | None, known: list[Antecedent], memories: Sequence[str],
               listeners: Callable[[str], bool] = lambda _: False) -> list[FactDraft]:
    """A line told plainly (``TOLD_KINDS``) is one fact with the fragments beside it that no marker claims.

    "shed roof. new felt. 40 quid" is 'Noor: Shed roof; new felt; 40 quid', not 'Noor: 40 quid' (``worldline``);
    written with the speaker's stored memory it continues, the lifecycle refines that memory instead of adding one.
    A fragment is claimed as a line judged whole claims it (``worldline``): with the names the chat wrote before
    and ``listeners``, whether its subject is the listener's thing.
    """
    keep = [c for c, v in zip(clauses, verdicts, strict=True)
            if (v.admit and v.kind in TOLD_KINDS)
            or (not v.admit and claimed(c.text, v.kind, c.foreign, c.names, listeners) is None
                and answer_words(c.text))]
    continued = _continued_own(keep, speaker, memories)
    if len(told) != 1 or (len(keep) <= sum(v.admit for v in verdicts) and continued is None):
        return told
    said = _pieces(keep, speaker, listener, known)
    return [told[0].model_copy(update={"text": tidy(_line_text(said, speaker, continued))})]


def _pieces(clauses: Sequence[Clause], speaker: str, listener: str | None, known: list[Antecedent]) -> str:
    """A line's clauses stated as said, joined: 'Marigold; The grey one; Osric is gutted'."""
    return "; ".join(main_fact(c, speaker, listener, known, False)[0] for c in clauses)


def _line_text(said: str, speaker: str, continued: str | None) -> str:
    """The joined pieces attributed to the speaker, or written after the stored memory of theirs they continue.

    Pieces naming the speaker first already say whose they are ("Zuleika threw up", from "i threw up").
    """
    if continued:
        return f"{continued.strip().rstrip('.')}; {lowered(said)}"
    return said if said.startswith(f"{speaker} ") else f"{speaker}: {said}"


def _line_fact(clauses: list[Clause], verdicts: list[ClauseVerdict], message: Message, prior: list[Message],
               listener: str | None, known: list[Antecedent], language: str,
               memories: Sequence[str]) -> list[FactDraft]:
    """The one fact of a line told as the speaker's world (``worldline``): its pooled clauses joined, or none."""
    line = line_verdict(clauses, verdicts, message, prior, language, memories)
    if line is None or not line.admit:
        return []
    pooled = [clauses[i] for i in line.pooled]
    said = _pieces(pooled, message.speaker, listener, known)
    # written with the stored memory it continues, the lifecycle refines that memory instead of adding one
    text = _line_text(said, message.speaker, _continued_own(pooled, message.speaker, memories))
    sources = [message.turn_id]
    for c in (pooled[0].replies_to, *pooled):  # the question the line answers, the turns naming its people
        turn = c.turn_id if isinstance(c, Asked) else c.introduced if c else None
        if turn and turn not in sources:
            sources.insert(0, turn)
    hedged = any(verdicts[i].hedge for i in line.pooled) or any(rules.HEDGE.search(c.text) for c in pooled)
    return [FactDraft(text=tidy(text), speaker=message.speaker, source_turn_ids=sources,
                      categories=categorize(said), provenance=Provenance.HEDGED if hedged else Provenance.STATED,
                      language=language)]



# Most words of what was said in replies joined under one question when a piece starts another topic: such
# pieces stay lines of their own, so one long line does not stand for (and rank below) several topics. Chosen
# leaving one conversation out (tuning half): the least joining that keeps memories per turn within +10 % of the
# pre-#26 baseline. A piece going on with the topic joins at any length (``_one_topic``).
JOINED_MAX_WORDS = 20


def _one_topic(earlier: str, piece: str) -> bool:
    """Whether a further piece of a reply goes on with what the reply has said so far.

    It points back ('It opens at noon', 'And the drummers...') or takes up a content word of the earlier pieces.
    """
    said = frames.said(piece)
    return leaning.points_back(said) or bool(topic_stems(" ".join(frames.pieces(earlier))) & topic_stems(said))


def _after_confirmed(earlier: str, framed: str) -> str | None:
    """The rest of a reply framed with the question whose yes or no ``earlier`` states, joined to it; else None.

    'Perpetua does not eat coriander yet' + 'Perpetua answered ... "does Perpetua eat coriander yet?": never'
    -> 'Perpetua does not eat coriander yet; never': one answer, one memory.
    """
    question, said = frames.replied_to(framed), frames.said(framed)
    who = framed.split(" answered ", 1)[0]
    if not question or said == framed:
        return None
    stated = {tidy(s).rstrip(".") for r in ("yes", "no") if (s := confirmed.confirmed_statement(question, r, who))}
    first = earlier.split(frames.JOIN, 1)[0].rstrip(".")  # a rest joined already: the statement opens the line
    return f"{earlier.rstrip('.')}{frames.JOIN}{said}" if first in stated else None


def _after_stated(earlier: str, piece: str, speaker: str) -> str | None:
    """The next piece of a reply joined to the confirmation it stated, or to its line asked back (B47d).

    'Osric added to "Osric got an interview": the council one; mhm' + '... : the council one; tomorrow at 2'
    -> '...: the council one; mhm; tomorrow at 2'; 'Jolka is using a new glaze' + 'Jolka mixes the glaze from ash'
    -> 'Jolka is using a new glaze; Jolka mixes the glaze from ash' (a piece on another topic stays apart).
    """
    said, told = frames.said(earlier), frames.said(piece)
    if said == earlier:  # a stated confirmation: a piece on its topic joins whole, another topic stays apart
        shared = topic_stems(earlier, [speaker]) & topic_stems(piece, [speaker])  # the speaker's name is no topic
        return f"{earlier.rstrip('.')}{frames.JOIN}{piece}" if shared else None
    head, first = piece[: piece.rindex(told)], said.split(frames.JOIN, 1)[0]
    if told == piece or not earlier.startswith(head):
        return None
    rest = told[len(first) + len(frames.JOIN):] if told.startswith(first + frames.JOIN) else told
    return f"{earlier.rstrip('.')}{frames.JOIN}{rest}"


def _joined_answer(drafts: list[FactDraft], draft: FactDraft, confirmations: Collection[int] = ()) -> bool:
    """A reply framed with the question an earlier fact of the utterance already answers joins that fact.

    One answer is one memory: 'What were the best moments of the festival?' answered "The lantern
    parade. The drummers at midnight." gives 'Noor answered ... question "...": The lantern parade; The
    drummers at midnight', not two lines repeating the question. Past ``JOINED_MAX_WORDS`` a piece joins
    only while it goes on with the answer's topic; a piece on another topic starts a line of its own.
    A question stated as confirmed (``confirmations``: their indexes) takes what the reply says next the same
    way when it goes on with its topic: 'Jolka is using a new glaze; Jolka mixes the glaze from ash' (B47d).
    """
    for i, earlier in enumerate(drafts):
        text = frames.joined(earlier.text, draft.text) or _after_confirmed(earlier.text, draft.text) \
            or (_after_stated(earlier.text, draft.text, draft.speaker) if i in confirmations else None)
        if earlier.source_turn_ids != draft.source_turn_ids or text is None:
            continue
        if len(frames.said(text).split()) > JOINED_MAX_WORDS and not _one_topic(earlier.text, draft.text):
            continue
        stated = Provenance.STATED in (earlier.provenance, draft.provenance)
        drafts[i] = earlier.model_copy(update={
            "text": text, "categories": list(dict.fromkeys([*earlier.categories, *draft.categories])),
            "provenance": Provenance.STATED if stated else earlier.provenance})
        return True
    return False


def split_messages(messages: list[Message], history: list[Message], *, gated: bool,
                   memories: Sequence[str] = (), admitted: Admitted | None = None) -> list[FactDraft]:
    """Facts of every message of the current exchange, in order (``memories``: stored texts it may continue).

    ``admitted``: admission's judgement of the same exchange (``admitted.Admitted``); a line it read as splitting
    does is not cut again.
    """
    drafts: list[FactDraft] = []
    for message in messages:
        facts, joins = _message_facts(message, messages, history, gated=gated, memories=memories, admitted=admitted)
        if joins and not joins.said and any(joins.turn_id in d.source_turn_ids for d in drafts):
            # a reaction to a line of this exchange: its turn joins that line's drafts, which it says
            drafts = [_sourced(d, message.turn_id) if joins.turn_id in d.source_turn_ids else d for d in drafts]
        elif joins and joins.said and drafts and joins.turn_id in drafts[-1].source_turn_ids \
                and drafts[-1].speaker in (None, message.speaker) \
                and any(m.turn_id == joins.turn_id for m in messages):
            drafts[-1] = _joined_line(drafts[-1], joins.said, facts[0].source_turn_ids)
        else:
            drafts += facts
    return said_once(drafts)


def _restated(news: Message, reaction: Message, prior: list[Message], memories: Sequence[str]) -> list[FactDraft]:
    """The stored memories a line formed, written again with the reaction to it as a source (``reacted``).

    The line's facts are split again in its place, alone (no stored memory to continue: the line's own words); one a
    stored memory read with the exchange says word for word is written as that memory, the others as split (the
    lifecycle finds the memory they repeat, or that holds every word of them, by their own text), so the lifecycle's
    repeat (NOOP) adds the reaction's turn to the memory. Within one exchange the line's drafts take the turn
    instead (``split_messages``).
    """
    stored = {" ".join(tokenize(m)): m for m in memories}
    again = _message_facts(news, [news], prior[: prior.index(news)], gated=True)[0]
    return [_sourced(f.model_copy(update={"text": stored.get(" ".join(tokenize(f.text)), f.text)}), reaction.turn_id)
            for f in again]


def _sourced(draft: FactDraft, turn_id: str) -> FactDraft:
    """A draft with one more source turn: a turn that says how its news was taken, not what it said."""
    return draft.model_copy(update={"source_turn_ids": list(dict.fromkeys([*draft.source_turn_ids, turn_id]))})


def _continued_own(pooled: Sequence[Clause], speaker: str, memories: Sequence[str]) -> str | None:
    """The speaker's own stored memory the line goes on with (most shared stems), short enough to take the detail."""
    mine = set(content_stems(" ".join(c.text for c in pooled))) - set(content_stems(speaker))
    return followup.own_memory(mine, speaker, memories, LINE_JOIN_MIN_SHARED, LINE_JOIN_MAX_WORDS)


def _joined_line(earlier: FactDraft, said: str, sources: list[str]) -> FactDraft:
    """A line told as the speaker's world, or a thread's piece, joins the draft of the earlier line: one memory."""
    sources = list(dict.fromkeys([*earlier.source_turn_ids, *sources]))
    return earlier.model_copy(update={"text": f"{earlier.text}; {said[:1].lower() + said[1:]}",
                                      "source_turn_ids": sources})
