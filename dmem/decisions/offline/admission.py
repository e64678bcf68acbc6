"""Offline admission: judge each clause of an utterance (``clauses``) by ordered, quotable rules.

Precedence (first that fires wins): explicit 'remember' > transient marker > question (admitted
when it carries a fact) > a named admit criterion > phatic > emotional reaction > vague >
first-person content (admit) > nothing personal (reject). "I drove a Jeep for the road trip that
I rented" is rejected as transient although it names a vehicle. A hedge ("probably", "I think",
"might") never rejects: the clause is judged without it and, when admitted, says it was hedged
(its facts get the 'hedged' provenance), so "my favourite is probably the blue one" is kept.

English chat is made explicit before the rules (``replies``): a dropped first-person subject is
put back ("Had an audition yesterday" is judged as "I had ..."), and a reply to the other speaker's
question is admitted when its only fault was naming no first-person fact ("Miso soup" after "What's
your comfort food?"); transient states, questions and greetings still reject it.
So is chat's telegraphic register (``telegraphic``): a dropped 'my' before what the speaker has
("Dog has been sick all week" is judged as "My dog ..."), and an evaluation of their own dated occasion
("The concert last night was incredible") is their opinion.
And chat's casual register (``register``): emoji, laughter and markers ("tbh", "lowkey") are dropped,
chat spellings written out, and a dropped "I" put back before a taste, trait, habit or dated past or plan
("usually run on sundays lol"); a casual taste ("big fan of jazz") and a rating ("10/10 would go again")
are admitted, a hypothetical ("if I won the lottery I'd ...") and a short compliment to the listener
("you're so sweet") rejected.
Chain-aware (``chains``): a clause that extends a stored memory (same topic words) is admitted
where its only fault was saying little on its own, and a question that presupposes a fact
("did you finish the game I lent you?", "how did your driving test go?") is admitted as carrying it.
A short message continuing the speaker's own message just before ("We went to the lantern festival."
then "Mostly paper cranes.") is admitted with it, and an opinion ranking something named ("the lake
trail has the best views") is the speaker's though it says no "I".
Last, in a chat-length message, a clause naming no personal fact but carrying specific content (a number, time,
date, weekday or name; a fragment, a detail not a name only) is the speaker's news (``news``): "also gig on friday!".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from dmem.decisions.offline import (
    chains,
    confirmed,
    embedded,
    followup,
    markers,
    news,
    opening,
    ownworld,
    presuppose,
    register,
    reusable,
    rules,
    takeup,
    worldline,
)
from dmem.decisions.offline.clauses import (
    Clause,
    ClauseVerdict,
    answer_words,
    clauses_of,
    informative_words,
    utterance_text,
)
from dmem.decisions.offline.replies import (
    Asked,
    listener_of,
)
from dmem.silence import spoken
from dmem.state.schemas import Message
from dmem.text.answers import yes_no_echo
from dmem.text.asked import asks, asks_yes_no, opens_yes_no, topic_stems
from dmem.text.lexical import content_words
from dmem.text.quotes import shorten
from dmem.text.words import SECOND_PERSON

MIN_INFORMATIVE_WORDS = 2  # informative (non-vague) content words a clause needs to count as content
NON_ENGLISH_MIN_WORDS = 3  # words a non-English clause needs (rules there are only a length check)
# Answer words a question needs to carry a fact (with a presupposing word); chosen on the tuning half.
QUESTION_FACT_MIN_WORDS = 5
_REJECT_RANK = {"transient": 5, "unreal": 5, "question": 4, "emotional": 3, "vague": 2, "phatic": 1}
# Rejections a reply to a question about the speaker overrides, with the informative words it needs:
# "Miso soup" answering "What's your comfort food?" is about the speaker though it says no "I".
_ANSWERABLE = {"impersonal": 1, "vague": 1, "emotional": 2}
# Rejections a clause continuing a stored memory overrides (it needs CONTINUE_MIN_SHARED shared words).
_CONTINUABLE = frozenset({"impersonal", "vague", "emotional", "question"})
# Rejections an evaluation of the speaker's own dated occasion overrides ("The concert last night was incredible").
_EVALUABLE = frozenset({"impersonal", "emotional", "vague"})
# Rejections a clause continuing the speaker's own message just before overrides (chat splits one turn
# into messages, ``clauses.FOLLOW_MAX_WORDS``), with the answer words it needs; chosen on the tuning half.
_FOLLOWABLE = frozenset({"impersonal"})
FOLLOW_MIN_WORDS = 2
# Topic words a yes/no question needs for a bare "yes" or "oh ya she is" that answers it to state a fact (the
# question says it all: "didnt u sell the van in may" -> "yep"); "is that ok" -> "ya" states none.
W_CONFIRMED_MIN_TOPIC = 2
# Words of a bare confirmation ("...yes", "oh ya she is", "I did!"); a longer reply says something of its own.
W_CONFIRM_MAX_WORDS = 4
# "How did your driving test go?", "How was the trip to the coast?", "Did you finish the quilt you started?":
# a question about how the listener's own event or thing went names it. Words chosen on the tuning half.
ASKS_HOW_MIN_WORDS = 2
_ASKS_HOW_IT_WENT = re.compile(
    r"\bhow\s+(?:did|was|were|is|are|'s)\s+(?:your|ur|the|that)\s+(?!day\b|week\b|weekend\b|morning\b|evening\b)"
    r"[\w'-]+(?:\s+[\w'-]+){0,5}?\s+(?:go|going|went|goes|been|turn\s+out|turning\s+out|come\s+along|coming\s+along)\b"
    r"|\bhow\s+(?:was|were|did\s+you\s+like|did\s+you\s+enjoy)\s+(?:your|ur|the|that)\s+(?!day\b|week\b|weekend\b)\w+"
    r"|\b(?:did|have)\s+you\s+(?:finish|finished|start|started|get|got|move|moved|hear\s+back|sell|sold|fix|fixed)\s+"
    r"(?:your|ur|the|that)\s+\w+", re.I)
# Rejections a clause about a person of the speaker's life overrides ("He keeps showing everyone the bottle
# you gave him" after "Dad was over the moon"), with the answer words it needs besides the person.
_ABOUT_OVERRIDES = frozenset({"impersonal", "vague"})
# Rejections specific content overrides in a chat-length statement (``news``). Only "impersonal": a reaction in a
# clause of its own ("wow. lantern parade on the 9th") is judged apart already, and one in the same clause marks
# an echo of the listener's news ("Wow, Bertil is from Tromso"); letting "emotional" and "vague" through too gained
# no evidence turn on the tuning half or invented batches 1-2 and admitted one such echo on the tuning half.
_NEWSWORTHY = frozenset({"impersonal"})
# Rejections a clause about the speaker's own thing overrides (``ownworld``): "The kiln reached temperature" after
# "my kiln has been clicking". Only "impersonal": a reaction or vague clause says nothing of the thing.
_OWNABLE = frozenset({"impersonal"})
V_ABOUT_MIN_WORDS = 2
_CLOSE = "attribute of someone close"
# Clauses kept as said, only when no other clause of the message forms a fact.
_TOLD = frozenset({"reusable", "news", "own_world"})
# Answer words an opinion without a first-person word needs ("the lake trail has the best views": 3).
OPINION_MIN_WORDS = 3
# A question presupposes a fact when it names someone's thing, the asker's own doing or a time: "the game
# I lent you", "your trip", "the match last week". "The" or "that" alone does not: "any books you look for
# at the library?", "a dish that you cook for guests?" only ask for news or tastes (ARTICLES_PRESUPPOSE 1
# counts them, as before; 0 was chosen leaving one conversation out, tuning half only).
ARTICLES_PRESUPPOSE = 0
_PRESUPPOSES = re.compile(r"\b(?:your|my|our|his|her|their)\s+\w+|\b(?:i|we)\s+\w+|"
                          r"\b(?:yesterday|last\s+\w+|ago|tonight|tomorrow|today)\b", re.I)
_ARTICLE = re.compile(r"\b(?:the|that)\s+\w+", re.I)


def _quote(m: re.Match[str]) -> str:
    return " ".join(m.group(0).split()).strip(" ,;:")


def _is_question(text: str) -> bool:
    return asks(text) or rules.opens_question(text)


def _reject_early(text: str) -> ClauseVerdict | None:
    """Transient markers, hypotheticals and compliments to the listener veto any admit criterion."""
    if m := rules.TRANSIENT.search(text):
        return ClauseVerdict(False, f"rejected: transient state ('{_quote(m)}')", "transient")
    if why := register.unreal(text):
        return ClauseVerdict(False, f"rejected: not a fact about the speaker, {why}", "unreal")
    return None


def _hedged(verdict: ClauseVerdict, text: str) -> ClauseVerdict:
    """An admitted clause said with a hedge keeps it as a confidence, not as a reason to reject."""
    if not verdict.admit or not (m := rules.HEDGE.search(text)):
        return verdict
    return replace(verdict, reason=f"{verdict.reason}; hedged ('{_quote(m)}'), kept as hedged", hedge=_quote(m))


def _admit_criterion(clause: Clause) -> ClauseVerdict | None:
    """The first admit criterion the clause meets; then a casual taste, then a rating of the speaker's own."""
    for label, pattern in rules.ADMIT_CRITERIA:
        if clause.foreign and label == _CLOSE and not rules.AGE.search(clause.text):
            continue  # "she has been touring for years" of a singer, "he must be glad" of the listener's dad
        if m := pattern.search(clause.text):
            return ClauseVerdict(True, f"admitted: {label} ('{_quote(m)}')", label)
    if m := register.TASTE.search(clause.text):
        return ClauseVerdict(True, f"admitted: taste ('{_quote(m)}')", "taste")
    if clause.rated:
        return ClauseVerdict(True, f"admitted: rating of something the speaker had ('{clause.rated}')", "rated")
    return None


def _reject_late(text: str) -> ClauseVerdict:
    """Clauses no admit criterion claimed: small talk, reactions, vague or impersonal content."""
    informative = informative_words(text)
    first_person = rules.FIRST_PERSON.search(text)
    if (m := rules.PHATIC.search(text)) and len(informative) < MIN_INFORMATIVE_WORDS + 1:
        return ClauseVerdict(False, f"rejected: phatic ('{_quote(m)}')", "phatic")
    if (m := rules.EMOTION.search(text)) and not (first_person and len(informative) > MIN_INFORMATIVE_WORDS):
        return ClauseVerdict(False, f"rejected: generic emotional reaction ('{_quote(m)}')", "emotional")
    if len(informative) < MIN_INFORMATIVE_WORDS:
        return ClauseVerdict(False, "rejected: vague content (no specific detail)", "vague")
    if first_person:
        return ClauseVerdict(True, "admitted: first-person statement with reusable content", "first_person")
    if (m := rules.OPINION.search(text)) and not SECOND_PERSON.search(text) \
            and len(answer_words(text)) >= OPINION_MIN_WORDS:
        return ClauseVerdict(True, f"admitted: the speaker's opinion ('{_quote(m)}')", "opinion")
    return ClauseVerdict(False, "rejected: no personal fact about the speaker", "impersonal")


def _cut(text: str, limit: int = 80) -> str:
    """``text`` for a reason's quote: at most ``limit`` characters, a cut one ending in '...'."""
    return shorten(text, limit)


def judge_clause(clause: Clause, language: str = "en", ruled: ClauseVerdict | None = None) -> ClauseVerdict:
    """Admit or reject one clause, naming the rule and quoting the words that decided it.

    A reply to a question about the speaker is admitted where the only fault was that it named
    no first-person fact (or too little of one), as long as it carries informative words; so is
    a clause that extends a stored memory's topic. A hedge is kept on the verdict, never a veto.
    ``ruled``: the rules' own verdict on this clause's text, when the caller has it (an answer's
    ``ClauseVerdict.ruled``: the rules read no question, so the clause is not judged by them again).
    """
    verdict = _judge(clause, language) if ruled is None else ruled
    needed = _ANSWERABLE.get(verdict.kind)
    if clause.asked and not verdict.admit and needed and len(answer_words(clause.text)) >= needed:
        verdict = ClauseVerdict(True, f"admitted: answer to {clause.asked.asker}'s question "
                                      f"('{_cut(clause.asked.question)}')", "answer", ruled=verdict)
    elif not verdict.admit and verdict.kind in _ANSWERABLE and (asked := confirmed_question(clause)):
        verdict = ClauseVerdict(True, f"admitted: yes or no to {asked.asker}'s question "
                                      f"('{_cut(asked.question)}')", "confirms")
    elif clause.outcome_of is not None and not verdict.admit and verdict.kind in _EVALUABLE:
        event = clause.outcome_of if isinstance(clause.outcome_of, str) else utterance_text(clause.outcome_of)
        verdict = ClauseVerdict(True, f"admitted: how the speaker's awaited event went ('{_cut(event, 60)}')",
                                "outcome")
    elif clause.own_event and not verdict.admit and verdict.kind in _EVALUABLE:
        verdict = ClauseVerdict(True, f"admitted: the speaker's view of their own dated occasion "
                                      f"('{_cut(clause.own_event, 60)}')", "opinion")
    elif (clause.continues and not verdict.admit and verdict.kind in _CONTINUABLE
          and len(answer_words(clause.text)) >= chains.CONTINUE_MIN_SHARED):
        verdict = ClauseVerdict(True, f"admitted: continues a stored topic ('{_cut(clause.continues, 60)}')",
                                "continues")
    elif (clause.follows and not verdict.admit and verdict.kind in _FOLLOWABLE
          and len(answer_words(clause.text)) >= FOLLOW_MIN_WORDS):
        before = _cut(utterance_text(clause.follows), 60)
        verdict = ClauseVerdict(True, f"admitted: continues the speaker's previous message ('{before}')", "follows")
    elif clause.about and not verdict.admit and verdict.kind in _ABOUT_OVERRIDES and _about_words(clause):
        verdict = ClauseVerdict(True, f"admitted: fact about someone of the speaker's life ('{clause.about}')",
                                "circle")
    elif verdict.kind == "impersonal" and clause.chat_length and not clause.foreign \
            and (anchor := reusable.reusable(clause.text, len(answer_words(clause.text)))):
        verdict = ClauseVerdict(True, f"admitted: reusable content ('{anchor}')", "reusable")
    elif not verdict.admit and verdict.kind in _NEWSWORTHY and clause.chat_length and not clause.foreign \
            and (anchor := news.own_news(clause.text, len(answer_words(clause.text)), clause.names)):
        verdict = ClauseVerdict(True, f"admitted: the speaker's news, specific content ('{anchor}')", "news")
    elif not verdict.admit and verdict.kind in _OWNABLE and clause.owns and not clause.foreign:
        verdict = ClauseVerdict(True, f"admitted: about the speaker's own thing ({clause.owns})", "own_world")
    return _hedged(verdict, clause.text)


def _about_words(clause: Clause) -> bool:
    """Whether the clause says enough about its person besides naming them (V_ABOUT_MIN_WORDS answer words)."""
    person = set(content_words(clause.about or ""))
    return len([w for w in answer_words(clause.text) if w not in person]) >= V_ABOUT_MIN_WORDS


def confirmed_question(clause: Clause) -> Asked | None:
    """The yes/no question with a topic of its own that the clause answers with a yes, a no or an echo ("she is")."""
    if len(clause.text.split()) > W_CONFIRM_MAX_WORDS:
        return None
    for asked in (clause.asked, clause.replies_to):
        if asked is not None and asks_yes_no(asked.question) \
                and (opens_yes_no(clause.text) or yes_no_echo(asked.question, clause.text)
                     or (SECOND_PERSON.search(asked.question) and confirmed.verb_echo(asked.question, clause.text))) \
                and len(topic_stems(asked.question, [asked.asker])) >= W_CONFIRMED_MIN_TOPIC:
            return asked
        before = utterance_text(clause.asked_back) if clause.asked_back else None
        if asked is not None and confirmed.clarified(asked.question, clause.text, before):  # "THE JOB???" "got it"
            return asked
    return None


def _carries_fact(text: str, then: str | None = None) -> str | None:
    """The words by which a question presupposes something definite about someone, or None.

    'the game I lent you', 'your new puppy' (``presuppose``); a longer question naming someone's thing or a
    time, or asking how the listener's own event went ("How did your driving test go?"), is quoted whole.
    """
    if said := presuppose.presupposed(text, then):
        return said
    words = len(answer_words(text))
    if words >= QUESTION_FACT_MIN_WORDS and (_PRESUPPOSES.search(text)
                                             or (ARTICLES_PRESUPPOSE and _ARTICLE.search(text))):
        return _cut(text, 60)
    return _cut(text, 60) if words >= ASKS_HOW_MIN_WORDS and _ASKS_HOW_IT_WENT.search(text) else None


def embedded_clause(clause: Clause, language: str = "en") -> embedded.Embedded | None:
    """The question clause's embedded clause when it is judged a fact like a statement (``embedded``), or None."""
    def judged(said: str) -> bool:
        plain = replace(clause, text=said, asked=None, replies_to=None, follows=None, then=None, outcome_of=None)
        return judge_clause(plain, language).admit

    return embedded.embedded(clause.text, answer_words, clause.names, set(clause.people), judged)


def _judge(clause: Clause, language: str) -> ClauseVerdict:
    text = clause.text
    if clause.remember and content_words(text):
        return ClauseVerdict(True, "admitted: explicit instruction to remember", "remember")
    if language != "en":
        ok = len(text.split()) >= NON_ENGLISH_MIN_WORDS
        why = "content kept in its language" if ok else "too short to carry a fact"
        return ClauseVerdict(ok, f"{'admitted' if ok else 'rejected'}: non-English {why}", "non_english")
    if early := _reject_early(text):
        return early
    criterion = _admit_criterion(clause)
    if _is_question(text) and not (criterion and rules.FIRST_PERSON.search(text)):
        if (m := rules.PHATIC.search(text)) and len(informative_words(text)) <= MIN_INFORMATIVE_WORDS:
            return ClauseVerdict(False, f"rejected: phatic ('{_quote(m)}')", "phatic")
        if carried := _carries_fact(text, clause.then):
            return ClauseVerdict(True, f"admitted: question carrying a fact ('{carried}')", "question_fact")
        if found := embedded_clause(clause, language):
            how = "the asker's own statement before a question" if found.told else "presupposed by a question"
            return ClauseVerdict(True, f"admitted: {how} ('{_cut(found.said, 60)}')", "question_fact")
        return ClauseVerdict(False, "rejected: question without a first-person fact", "question")
    return criterion or _reject_late(text)


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


def judge_utterance(message: Message, prior: Sequence[Message] = (),
                    memories: Sequence[str] = (), *, reopened: bool = True) -> tuple[bool, str]:
    """Admit if any clause is admitted (its reason); else the most telling clause rejection.

    ``prior`` are the turns before it, in order (they say what question it may answer);
    ``memories`` are stored memory texts it may continue; ``reopened`` False judges it without its place
    after a silence (``opening``), as that rule itself does.
    """
    judged = judged_utterance(message, prior, memories, reopened=reopened)
    return judged.admit, judged.reason


def judged_utterance(message: Message, prior: Sequence[Message] = (), memories: Sequence[str] = (), *,
                     reopened: bool = True) -> Judged:
    """``judge_utterance``'s verdict, with the clauses and clause verdicts it was drawn from."""
    if message.speaker.lower() in rules.ASSISTANT_SPEAKERS:
        return Judged(False, "rejected: assistant turns are context, not a source of user facts")
    if not utterance_text(message):
        return Judged(False, "rejected: empty utterance")
    clauses, language = clauses_of(message, prior, memories)
    verdicts = [judge_clause(c, language) for c in clauses]
    admit, reason = _utterance_verdict(clauses, verdicts, language, message, prior, memories, reopened)
    return Judged(admit, reason, clauses, verdicts, language)


def _utterance_verdict(clauses: Sequence[Clause], verdicts: Sequence[ClauseVerdict], language: str,
                       message: Message, prior: Sequence[Message], memories: Sequence[str],
                       reopened: bool = True) -> tuple[bool, str]:
    """The verdict from the clauses' own: an admitted clause, else the line, news, take-up or opening rules.

    The opening rule (a line after a silence) is asked only when ``reopened``.
    """
    # A reusable clause forms a fact only when no other clause does: the reason names the clause that does.
    admitted = sorted((v for v in verdicts if v.admit), key=lambda v: v.kind in _TOLD)
    if admitted:
        replied = clauses[0].replies_to
        if replied and admitted[0].kind != "answer":  # the audit trail names the question the facts answer
            return True, f"{admitted[0].reason}; replies to {replied.asker}'s question ('{_cut(replied.question)}')"
        return True, admitted[0].reason
    worst = max(verdicts, key=lambda v: _REJECT_RANK.get(v.kind, 0), default=None)
    line = line_verdict(clauses, verdicts, message, prior, language, memories)
    if line is not None and line.admit:
        return True, line.reason
    asked_after = followup_news(message, prior, memories) if may_follow_up(clauses, verdicts, language) else None
    if unit := followup_unit(clauses, verdicts, message, prior, language, asked_after, memories):
        return True, f"admitted: goes on with the speaker's news ('{_cut(utterance_text(unit.news), 60)}') " \
                     f"asked after ('{_cut(utterance_text(unit.question), 40)}')"
    if taken := takeup_news(message, prior, memories):
        return True, f"admitted: takes up {taken.news.speaker}'s news " \
                     f"('{_cut(utterance_text(taken.news), 60)}'), {taken.how}"
    if reopened and (opened := opening_news(message, prior, memories)):
        return True, f"admitted: the speaker's news, opening the chat after {spoken(opened.silence)} of silence"
    if line is not None and (worst is None or worst.kind in markers.POOLABLE):
        return line.admit, line.reason
    return False, worst.reason if worst else "rejected: empty utterance"


def takeup_news(message: Message, prior: Sequence[Message], memories: Sequence[str] = ()) -> takeup.TakeUp | None:
    """The other speaker's earlier line that formed nothing and that the message takes up as news (``takeup``)."""
    return takeup.taken_up(message, prior, functools.partial(_told, memories=memories))


def opening_news(message: Message, prior: Sequence[Message], memories: Sequence[str] = ()) -> opening.Opening | None:
    """The message as the speaker's news that opens the chat after a silence (``opening``), or None."""
    told = functools.partial(_told, memories=memories, reopened=False)
    return opening.opening(message, prior, told, functools.partial(told, lifted=opening.UNANSWERING))


def _told(news: Message, before: Sequence[Message], memories: Sequence[str] = (), reopened: bool = True,
          lifted: frozenset[str] = frozenset()) -> tuple[str, tuple[int, ...], list[str]] | None:
    """A line's rejection reason, its pooled clauses and their detail words; None when it formed something.

    As after a follow-up (``followup``): taken as news, a line's bare subject is its news, not the world's.
    ``lifted``: markers' claims that do not keep a clause out of the pool (``followup.goes_on``).
    """
    judged = judged_utterance(news, before, memories, reopened=reopened)
    if judged.admit or judged.language != "en" or not judged.clauses:
        return None  # no clauses: an assistant turn or an empty one, whose rejection no take-up overrides
    clauses, verdicts = judged.clauses, judged.verdicts
    listeners = listeners_of(news, before, memories)
    pooled = tuple(i for i, (c, v) in enumerate(zip(clauses, verdicts, strict=True))
                   if followup.goes_on(c.text, v.kind, c.foreign, c.names, listeners, lifted))
    people = set(clauses[0].people) if clauses else set()
    details = [w for i in pooled for w in answer_words(clauses[i].text) if w not in people]
    return judged.reason, tuple(i for i in pooled if answer_words(clauses[i].text)), details


def line_verdict(clauses: Sequence[Clause], verdicts: Sequence[ClauseVerdict], message: Message,
                 prior: Sequence[Message], language: str, memories: Sequence[str] = ()) -> worldline.LineVerdict | None:
    """A two-person chat line none of whose clauses was admitted, judged as one unit (``worldline``), or None."""
    listener = listener_of(message, prior)
    if not clauses or any(v.admit for v in verdicts) or language != "en" or listener is None:
        return None
    return worldline.judge_line([c.text for c in clauses], [v.kind for v in verdicts], [c.foreign for c in clauses],
                                answer_words, clauses[0].names, set(clauses[0].people),
                                listeners_of(message, prior, memories),
                                replying=_replying(clauses[0], message, prior))


def _replying(clause: Clause, message: Message, prior: Sequence[Message]) -> bool:
    """Whether the message replies to a question of the other speaker's just before, one naming nothing too."""
    if clause.replies_to is not None or clause.asked is not None:
        return True
    if not prior or prior[-1].speaker == message.speaker:
        return False
    said = utterance_text(prior[-1])
    return _is_question(said) or followup.names_nothing(said)


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
    return followup.asked_on(message, prior, lambda news, before: judge_utterance(news, before, memories)[0])


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
