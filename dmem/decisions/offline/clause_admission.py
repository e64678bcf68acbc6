"""Offline admission of one clause (``clauses`` cuts an utterance into them): ordered, quotable rules.

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
The rules that read the clause's words alone live in ``clause_rules``, those telling whether a question carries a fact
in ``question_facts``; here they are ordered, and the clause's place in the chat may override a rejection.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dmem.decisions.offline import (
    chains,
    clause_rules,
    confirmed,
    embedded,
    news,
    question_facts,
    reusable,
    rules,
    speech_acts,
)
from dmem.decisions.offline.clauses import Clause, ClauseVerdict, answer_words, informative_words, utterance_text
from dmem.decisions.offline.replies import Asked
from dmem.text.answers import names_who, yes_no_echo
from dmem.text.asked import asks_yes_no, opens_yes_no
from dmem.text.lexical import content_words
from dmem.text.quotes import shorten
from dmem.text.words import SECOND_PERSON

NON_ENGLISH_MIN_WORDS = 3  # words a non-English clause needs (rules there are only a length check)
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
# Words of a bare confirmation ("...yes", "oh ya she is", "I did!"); a longer reply says something of its own.
W_CONFIRM_MAX_WORDS = 4
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
# Rejections a clause describing the person its message names overrides (``described``), when nothing else admits
# the line: "no personal fact" only; a vague or emotional clause says nothing of them.
_DESCRIBABLE = frozenset({"impersonal"})


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
    if needed and clause.asked and clause.asked.stance == "named":
        needed = 1  # "the test: CONGRATS 🎉": the label names the piece, the reaction is to it (``labelled``)
    if clause.asked and not verdict.admit and needed \
            and (len(answer_words(clause.text)) >= needed or names_who(clause.asked.question, clause.text)):
        said_to = {"": "question", "accepted": "proposal, which the reply accepts",
                   "continued": "line, which the reply adds to", "attending": "event, which the reply will attend"}.get(
            clause.asked.stance, "message, which the reply names")  # ``picked``, ``accepted``
        verdict = ClauseVerdict(True, f"admitted: answer to {clause.asked.asker}'s {said_to} "
                                      f"('{shorten(clause.asked.question, 80)}')", "answer", ruled=verdict)
    elif not verdict.admit and (verdict.kind in _ANSWERABLE or clause.settles and verdict.kind == "phatic") \
            and (asked := confirmed_question(clause)):  # "no thanks" settles an offer though it thanks
        said_to = {"confirmed": "follow-up on the speaker's line", "accepted": "proposal",
                   "attending": "event"}.get(asked.stance, "question")
        verdict = ClauseVerdict(True, f"admitted: yes or no to {asked.asker}'s {said_to} "
                                      f"('{shorten(asked.question, 80)}')", "confirms")
    elif clause.outcome_of is not None and not verdict.admit and verdict.kind in _EVALUABLE:
        event = clause.outcome_of if isinstance(clause.outcome_of, str) else utterance_text(clause.outcome_of)
        verdict = ClauseVerdict(True, f"admitted: how the speaker's awaited event went ('{shorten(event, 60)}')",
                                "outcome")
    elif clause.own_event and not verdict.admit and verdict.kind in _EVALUABLE:
        verdict = ClauseVerdict(True, f"admitted: the speaker's view of their own dated occasion "
                                      f"('{shorten(clause.own_event, 60)}')", "opinion")
    elif (clause.continues and not verdict.admit and verdict.kind in _CONTINUABLE
          and len(answer_words(clause.text)) >= chains.CONTINUE_MIN_SHARED):
        verdict = ClauseVerdict(True, f"admitted: continues a stored topic ('{shorten(clause.continues, 60)}')",
                                "continues")
    elif (clause.follows and not verdict.admit and verdict.kind in _FOLLOWABLE
          and len(answer_words(clause.text)) >= FOLLOW_MIN_WORDS):
        before = shorten(utterance_text(clause.follows), 60)
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
    return clause_rules.hedged(verdict, clause.text)


def described_people(clauses: Sequence[Clause],
                     verdicts: Sequence[ClauseVerdict]) -> tuple[list[Clause], list[ClauseVerdict]] | None:
    """A rejected line's clauses describing the person the message names (``Clause.describe``), admitted.

    Each such clause has the person written out; None when there is none. Asked only when nothing else admits the line,
    and a clause is read only when its own verdict is a rejection this overrides.
    """
    told = [c.describe() if c.describe is not None and not v.admit and v.kind in _DESCRIBABLE else None
            for c, v in zip(clauses, verdicts, strict=True)]
    if not any(told):
        return None
    return ([replace(c, text=t) if t else c for c, t in zip(clauses, told, strict=True)],
            [ClauseVerdict(True, f"admitted: describes the person the message names ('{shorten(t, 60)}')",
                           "described") if t else v
             for v, t in zip(verdicts, told, strict=True)])


def _about_words(clause: Clause) -> bool:
    """Whether the clause says enough about its person besides naming them (V_ABOUT_MIN_WORDS answer words)."""
    person = set(content_words(clause.about or ""))
    return len([w for w in answer_words(clause.text) if w not in person]) >= V_ABOUT_MIN_WORDS


def confirmed_question(clause: Clause) -> Asked | None:
    """The yes/no question with a topic of its own that the clause answers with a yes, a no or an echo ("she is").

    Or the ask (``speech_acts.settled``) the clause's yes or no settles, maybe across a clarifying exchange.
    """
    if len(clause.text.split()) > W_CONFIRM_MAX_WORDS:
        return None
    if clause.asked is not None and clause.asked.stance in ("confirmed", "accepted", "attending"):  # a yes, a deal
        return clause.asked
    if clause.settles is not None and speech_acts.yes_or_no(clause.text) is not None:
        return clause.settles  # "want my old desk?" ... "yes pls": the ask names what the yes settles
    for asked in (clause.asked, clause.replies_to):
        if asked is not None and asks_yes_no(asked.question) \
                and (opens_yes_no(clause.text) or confirmed.hedged_yes(clause.text)
                     or yes_no_echo(asked.question, clause.text)
                     or (SECOND_PERSON.search(asked.question) and confirmed.verb_echo(asked.question, clause.text))) \
                and confirmed.checks_enough(asked):
            return asked
        before = utterance_text(clause.asked_back) if clause.asked_back else None
        if asked is not None and confirmed.clarified(asked.question, clause.text, before):  # "THE JOB???" "got it"
            return asked
    return None


def embedded_clause(clause: Clause, language: str = "en") -> embedded.Embedded | None:
    """The question clause's embedded clause when it is judged a fact like a statement (``embedded``), or None."""
    def judged(said: str) -> bool:
        plain = replace(clause, text=said, asked=None, replies_to=None, follows=None, then=None, outcome_of=None)
        return judge_clause(plain, language).admit

    return embedded.embedded(clause.text, answer_words, clause.names, set(clause.people), judged, clause.then)


def teaser(clause: Clause, language: str = "en") -> embedded.Embedded | None:
    """The clause's teaser ('guess where I'm going? Lisbon!', 'guess who got the job') when judged a fact, or None."""
    if not (embedded.answered(clause.text, clause.then, answer_words) or embedded.guessed(clause.text, clause.then)):
        return None
    found = embedded_clause(clause, language)
    return found if found is not None and found.teaser else None


def _judge(clause: Clause, language: str) -> ClauseVerdict:
    text = clause.text
    if clause.remember and content_words(text):
        return ClauseVerdict(True, "admitted: explicit instruction to remember", "remember")
    if language != "en":
        ok = len(text.split()) >= NON_ENGLISH_MIN_WORDS
        why = "content kept in its language" if ok else "too short to carry a fact"
        return ClauseVerdict(ok, f"{'admitted' if ok else 'rejected'}: non-English {why}", "non_english")
    if early := clause_rules.reject_early(text):
        return early
    criterion = clause_rules.admit_criterion(clause)
    teased = teaser(clause, language)  # "guess where I'm going? Lisbon!", "guess who got the job": told
    if teased or (question_facts.is_question(text) and not (criterion and rules.FIRST_PERSON.search(text))):
        if (m := rules.PHATIC.search(text)) and len(informative_words(text)) <= clause_rules.MIN_INFORMATIVE_WORDS:
            return ClauseVerdict(False, f"rejected: phatic ('{clause_rules.quote(m)}')", "phatic")
        if not teased and (carried := question_facts.carries_fact(text, clause.then)):
            return ClauseVerdict(True, f"admitted: question carrying a fact ('{carried}')", "question_fact")
        if found := embedded_clause(clause, language):
            how = "the asker's own statement in a question" if found.told else "presupposed by a question"
            return ClauseVerdict(True, f"admitted: {how} ('{shorten(found.said, 60)}')", "question_fact")
        if act := speech_acts.act(text, clause.names):  # "can i borrow ur drill", "want my old tablet?"
            return ClauseVerdict(True, f"admitted: {act.kind} asked as a question ('{shorten(act.said, 60)}')",
                                 "question_fact")
        return ClauseVerdict(False, "rejected: question without a first-person fact", "question")
    return criterion or clause_rules.reject_late(text)
