"""Offline multi-intent splitting: clauses become standalone, categorized facts with provenance.

The current exchange is the only source of facts; reference history only supplies antecedents
and the listener. Relative time words are kept as said (a later node grounds them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from dmem.decisions.offline import (
    chains,
    confirmed,
    embedded,
    followup,
    frames,
    leaning,
    payback,
    presuppose,
    register,
    rules,
)
from dmem.decisions.offline.admission import (
    Clause,
    ClauseVerdict,
    answer_words,
    clauses_of,
    confirmed_question,
    embedded_clause,
    followup_news,
    followup_unit,
    judge_clause,
    line_verdict,
    listeners_of,
    takeup_news,
    utterance_text,
)
from dmem.decisions.offline.fact_text import categorize, drop_vocative, tidy, trim
from dmem.decisions.offline.followup_writing import followup_fact, with_news
from dmem.decisions.offline.markers import claimed
from dmem.decisions.offline.pronouns import Antecedent, agree, antecedents, resolve_subjects, rewrite_person
from dmem.decisions.offline.replies import Asked, listener_of, restore_subject
from dmem.decisions.offline.takeup import TakeUp
from dmem.state.schemas import Category, Message, Provenance
from dmem.state.verdicts import FactDraft
from dmem.text.asked import asks, topic_stems
from dmem.text.lexical import content_stems
from dmem.text.quotes import shorten

# Reasons that mean "no content", which drop a clause even when the admission gate is off.
_CONTENTLESS = frozenset({"phatic", "emotional", "vague", "question"})
# Verdict kinds whose fact has a shape of its own; any other admitted clause is stated as said, and a
# fragment of it with the question it answers.
_SHAPED = frozenset({"answer", "confirms", "outcome", "follows", "opinion", "question_fact", "non_english"})
# Verdict kinds of the speaker's world told without "I": kept as said, one fact per line (``_told_line``).
_TOLD_KINDS = frozenset({"reusable", "news", "own_world"})
# Most words of a stored memory a line told as the speaker's world is joined to (``_continued_own``): a longer one
# already holds several details, and the line starts a memory of its own.
LINE_JOIN_MAX_WORDS = 40
# Content stems (the speaker's name aside) a line shares with their stored memory to be written with it.
LINE_JOIN_MIN_SHARED = 2
_NEED_NOUNS = re.compile(r"^\s*(?:some\s+)?(?:[\w-]+\s+)?(?:ideas|recommendations|suggestions|tips|options)\s+"
                         r"(?:for|on|about)\b", re.I)
_PASSING = re.compile(r"\bmy\s+(?P<rel>" + "|".join(rules.RELATIONS + rules.PETS) + r")\b", re.I)



def _passing_references(clause: str, speaker: str, remember: bool) -> list[tuple[str, Provenance]]:
    """'gift ideas for my son' implies "<speaker> has a son" (inferred unless told to remember)."""
    out = []
    for m in _PASSING.finditer(clause):
        if clause[: m.start()].strip() == "" or re.search(r"\bhave\s+(?:a|an)?\s*$", clause[: m.start()], re.I):
            continue  # the relation is the clause's subject or its very assertion, not a passing mention
        rel = m["rel"].lower()
        plural = rel in rules.PLURAL or (rel.endswith("s") and rel in rules.PETS)
        article = "" if plural else ("an " if rel[0] in "aeiou" else "a ")
        out.append((f"{speaker} has {article}{rel}", Provenance.STATED if remember else Provenance.INFERRED))
    return out


def _rule_fact(fact: str, condition: tuple[str, str], speaker: str, listener: str | None) -> str:
    """The assistant behaviour a remembered fact governs: 'Assistant should suggest vegetarian restaurants'."""
    verb, obj = condition[0].lower(), rewrite_person(condition[1], speaker, listener)
    who = listener or "the assistant"
    if m := re.fullmatch(rf"{re.escape(speaker)} is (?P<adj>[a-z-]+)", fact):
        return tidy(f"{who} should {verb} {m['adj']} {obj} for {speaker}")
    return tidy(f"when {who} {agree(verb)} {obj}, {who} should keep in mind that {fact}")


def _answer_fact(clause: Clause, asked: Asked, speaker: str, known: list[Antecedent]) -> str:
    """The reply with the question it answers, as one fact.

    "Theo's favourite film is the one with the lighthouse", or for other question shapes
    'Theo answered Maya's question "What's Theo's favourite film?": the one with the lighthouse'.
    """
    asker = asked.asker
    said = resolve_subjects(rewrite_person(drop_vocative(clause.text, asker), speaker, asker), speaker, known)
    if stated := chains.answer_statement(asked.question, trim(said), speaker):
        return tidy(stated)
    question = rewrite_person(asked.question, asker, speaker)
    before = utterance_text(clause.asked_back) if clause.asked_back else None
    if stated := confirmed.confirmed_statement(question, trim(said), speaker, before):  # "got it!!": stated
        return tidy(stated)
    if before and (thing := confirmed.thing_asked(asked.question)):  # "GOT AN INTERVIEW" "the council one??"
        told = before.lower() if before.isupper() else before
        earlier = trim(rewrite_person(restore_subject(told), speaker, asker))
        reply = _lowered(trim(said))
        reply = reply if reply.lower().startswith(thing) else f"{thing}{frames.JOIN}{reply}"
        return tidy(frames.added(speaker, earlier, reply))
    return tidy(frames.answered(speaker, asker, question, trim(said)))


def _asked_of(clause: Clause, kind: str) -> Asked | None:
    """The question an 'answer' clause answers (the one just before); a 'confirms' clause's may be crossed."""
    if kind == "confirms":
        return confirmed_question(clause)
    return clause.asked


def _replies(clause: Clause, kind: str, linked: bool) -> bool:
    """Whether a clause's facts answer the question its utterance replies to (its turn joins their sources).

    The utterance's first admitted clause does, and any later one that takes up a word of the question.
    """
    if clause.replies_to is None or kind in ("answer", "confirms"):
        return False
    return not linked or bool(topic_stems(clause.text) & topic_stems(clause.replies_to.question))


_LOWER_FIRST = frozenset({"it", "it's", "its", "this", "that", "these", "those", "they", "they're", "there",
                          "there's", "he", "she", "the", "a", "an", "some", "mostly", "also", "so", "and", "but"})


def _follow_fact(clause: Clause, before: Message, speaker: str, listener: str | None) -> str:
    """A short message continuing the speaker's own one, said with what it continues.

    'Noor added to "Noor just started at the art school": it is right by the ferry pier'.
    """
    said = trim(rewrite_person(drop_vocative(clause.text, listener), speaker, listener))
    earlier = trim(rewrite_person(utterance_text(before), speaker, listener))
    earlier = shorten(earlier, 100)
    return tidy(frames.added(speaker, earlier, _lowered(said)))


def _outcome_fact(clause: Clause, event: Message | str, speaker: str, listener: str | None) -> str:
    """An outcome kept with the event it reports on: 'Lale added to "Lale's boat licence exam is tmrw": WE PASSED'."""
    if isinstance(event, Message):
        return _follow_fact(clause, event, speaker, listener)
    said = trim(rewrite_person(drop_vocative(clause.text, listener), speaker, listener))
    return tidy(frames.added(speaker, shorten(event, 100), said))


def _presupposed(clause: Clause, speaker: str, listener: str | None) -> str | None:
    """What a question clause presupposes, as a statement ('Maya lent Theo the puzzle book'), or None."""
    return presuppose.statement(trim(drop_vocative(clause.text, listener)), speaker, listener, clause.then)


def _question_fact(clause: Clause, speaker: str, listener: str | None,
                   stated: str | None = None) -> tuple[str, Provenance]:
    """A question that carries a fact: what it presupposes, as a statement, else the question as asked.

    'Maya lent Theo the puzzle book' (inferred: presupposed, not said), else 'Maya asked Theo: "..."' (both named).
    ``stated``: the statement when the caller has already drafted it (``_presupposed``).
    """
    said = drop_vocative(clause.text, listener)
    if stated or (stated := _presupposed(clause, speaker, listener)):
        return tidy(stated), Provenance.INFERRED
    if found := embedded_clause(clause):  # what the question takes as known, its person named
        return tidy(embedded.statement(found, speaker, listener)), \
            Provenance.STATED if found.told else Provenance.INFERRED
    asked = rewrite_person(register.standard(said), speaker, listener)
    return tidy(frames.asked(speaker, listener or "someone", trim(asked))), Provenance.STATED


def _main_fact(clause: Clause, speaker: str, listener: str | None,
               known: list[Antecedent], remember: bool) -> tuple[str, list[Category], Provenance]:
    """The clause's own proposition, rewritten to stand alone."""
    said = drop_vocative(clause.text, listener)
    if m := rules.REQUEST.match(said):
        text = f"{speaker} wants {rewrite_person(m['obj'], speaker, listener)}"
        prov = Provenance.STATED if remember else Provenance.INFERRED
        return tidy(text), [Category.PREFERENCE], prov
    if _NEED_NOUNS.match(said):
        text = f"{speaker} looked for {rewrite_person(said, speaker, listener)}"
        return tidy(text), [Category.PROCEDURAL], Provenance.STATED
    text = resolve_subjects(rewrite_person(said, speaker, listener), speaker, known)
    return tidy(text), categorize(said), Provenance.STATED


def facts_from_message(message: Message, window: list[Message], history: list[Message],
                       *, gated: bool, memories: Sequence[str] = ()) -> list[FactDraft]:
    """Facts of one utterance; gated=True keeps admitted clauses, False every content clause.

    A reply's facts name the question's turn as a source too; a hedged clause's facts are 'hedged'.
    """
    return _message_facts(message, window, history, gated=gated, memories=memories)[0]


def _message_facts(message: Message, window: list[Message], history: list[Message],
                   *, gated: bool, memories: Sequence[str] = ()) -> tuple[list[FactDraft], bool]:
    """``facts_from_message``, and whether its one fact is the whole line told as the speaker's world.

    A reply to a question naming nothing is written with the speaker's news that question asked after (B48b).
    """
    if message.speaker.lower() in rules.ASSISTANT_SPEAKERS:
        return [], False
    prior = [*history, *window[: window.index(message)]] if message in window else history
    news = followup_news(message, prior, memories) if gated else None  # looked up once, for both uses below
    facts, line = _said_facts(message, prior, [*history, *window], news, gated=gated, memories=memories)
    if facts and news:
        facts, line = with_news(facts, news, message, listener_of(message, [*history, *window]), memories), False
    if gated and (taken := takeup_news(message, prior, memories)):
        return [*facts, _takeup_fact(taken, prior, memories)], False
    return facts, line


def _takeup_fact(taken: TakeUp, prior: list[Message], memories: Sequence[str]) -> FactDraft:
    """The other speaker's line the message took up as news, written as a line told as their world (``takeup``).

    Their fact, in their namespace: 'Nadia: keys today', the line its only source (the take-up's words are not in it).
    """
    news, speaker = taken.news, taken.news.speaker
    before = prior[: prior.index(news)]
    clauses, language = clauses_of(news, before, memories)
    pooled = [clauses[i] for i in taken.pooled]
    known = [a for h in before for a in antecedents(utterance_text(h), h.speaker)]
    said = _pieces(pooled, speaker, listener_of(news, prior), known)
    continued = _continued_own(pooled, speaker, memories)
    text = said if len(pooled) == 1 and not continued and said.startswith(f"{speaker} ") \
        else _line_text(said, speaker, continued)  # 'Nadia got the keys', not 'Nadia: Nadia got the keys'
    hedged = any(rules.HEDGE.search(c.text) for c in pooled)
    return FactDraft(text=tidy(text), speaker=speaker, source_turn_ids=[news.turn_id], categories=categorize(said),
                     provenance=Provenance.HEDGED if hedged else Provenance.STATED, language=language)


def _said_facts(message: Message, prior: list[Message], chat: list[Message], news: followup.FollowUp | None,
                *, gated: bool, memories: Sequence[str] = ()) -> tuple[list[FactDraft], bool]:
    """The utterance's own facts, and whether its one fact is the whole line told as the speaker's world.

    ``prior``: the turns before it; ``chat``: history and window; ``news``: what a question naming nothing just
    before asked after (``followup_news``), which a reply no clause of which was admitted may go on with.
    """
    clauses, language = clauses_of(message, prior, memories if gated else ())
    remember = any(c.remember for c in clauses)
    listener = listener_of(message, chat)
    known = [a for h in prior for a in antecedents(utterance_text(h), h.speaker)]
    drafts: list[FactDraft] = []
    linked = False  # whether a fact of this utterance already names the question it replies to
    told: list[FactDraft] = []  # plain statements without "I" (criterion 3): kept when nothing else is
    verdicts: list[ClauseVerdict] = []
    confirmations: set[int] = set()  # drafts stating a question the reply confirmed: what it says more joins them
    restating: set[int] = set()  # drafts of answer clauses that only react to the question (``payback``)
    for clause in clauses:
        verdict = judge_clause(clause, language)
        verdicts.append(verdict)
        if (gated and not verdict.admit) or (not gated and verdict.kind in _CONTENTLESS):
            continue
        pairs: list[tuple[str, list[Category], Provenance]]
        sources = [message.turn_id]
        replied = clause.replies_to if _replies(clause, verdict.kind, linked) else None
        stated: str | None = None  # a question's presupposed fact, drafted once (below)
        statement = False  # the clause's own proposition as said (it may lean on the fact before it)
        if language != "en":
            pairs = [(tidy(f"{message.speaker}: {clause.text}"), categorize(clause.text), Provenance.STATED)]
        elif verdict.kind in ("answer", "confirms") and (asked := _asked_of(clause, verdict.kind)) is not None:
            pairs = [(_answer_fact(clause, asked, message.speaker, known), categorize(clause.text),
                      Provenance.STATED)]
            back = clause.asked_back.turn_id if clause.asked_back else None
            sources = [t for t in (back, asked.turn_id, message.turn_id) if t]
            if (verdict.kind == "confirms" or back) and not frames.replied_to(pairs[0][0]):  # the rest joins it
                confirmations.add(len(drafts))
        elif replied is not None and verdict.kind not in _SHAPED and chains.fragment(clause.text, replied.question):
            pairs = [(_answer_fact(clause, replied, message.speaker, known), categorize(clause.text),
                      Provenance.STATED)]
        elif verdict.kind == "outcome" and clause.outcome_of is not None:
            pairs = [(_outcome_fact(clause, clause.outcome_of, message.speaker, listener), categorize(clause.text),
                      Provenance.STATED)]
            if isinstance(clause.outcome_of, Message):
                sources = [clause.outcome_of.turn_id, message.turn_id]
        elif verdict.kind == "follows" and clause.follows is not None:
            pairs = [(_follow_fact(clause, clause.follows, message.speaker, listener), categorize(clause.text),
                      Provenance.STATED)]
            sources = [clause.follows.turn_id, message.turn_id]
        elif verdict.kind == "opinion" or (verdict.kind == "rated" and not rules.FIRST_PERSON.search(clause.text)):
            said = rewrite_person(drop_vocative(clause.text, listener), message.speaker, listener)
            pairs = [(tidy(f"{message.speaker}'s opinion: {trim(said)}"), [Category.PREFERENCE], Provenance.STATED)]
        elif verdict.kind == "question_fact" or (asks(clause.text)
                                                 and (stated := _presupposed(clause, message.speaker, listener))):
            text, provenance = _question_fact(clause, message.speaker, listener, stated)
            pairs = [(text, categorize(text), provenance)]
        elif verdict.kind in _TOLD_KINDS:  # the speaker's world without "I": kept as said
            said, categories, _ = _main_fact(clause, message.speaker, listener, known, remember)
            if not _z_joined_reusable(told, message.speaker, sources, said):
                told.append(FactDraft(text=tidy(f"{message.speaker}: {said}"), speaker=message.speaker,
                                      source_turn_ids=sources, categories=categories, provenance=Provenance.STATED,
                                      language=language))
            pairs = []
        else:
            pairs = [_main_fact(clause, message.speaker, listener, known, remember)]
            statement = True
            if clause.about is None:  # a person written out from a pronoun is no news that they exist
                pairs += [(t, [Category.PERSONA], p) for t, p in
                          _passing_references(clause.text, message.speaker, remember)]
            if clause.condition:
                rule = _rule_fact(pairs[0][0], clause.condition, message.speaker, listener)
                pairs.append((rule, [Category.USER_RULE], Provenance.STATED))
        if pairs and replied is not None and replied.turn_id and replied.turn_id not in sources:
            sources = [replied.turn_id, *sources]
            linked = True
        if clause.introduced and clause.introduced not in sources:  # "he" is read through the turn naming him
            sources = [clause.introduced, *sources]
        known += antecedents(clause.text, message.speaker)
        restated = gated and bool(pairs) and payback.restates(clause, verdict, language)  # once a clause
        for i, (fact_text, categories, provenance) in enumerate(pairs):
            if any(d.text.lower() == fact_text.lower() for d in drafts):
                continue
            if verdict.hedge and provenance == Provenance.STATED:
                provenance = Provenance.HEDGED
            draft = FactDraft(text=fact_text, speaker=message.speaker, source_turn_ids=sources,
                              categories=categories, provenance=provenance, language=language)
            leans = statement and i == 0 and leaning.joined_back(drafts, draft)
            if not leans and not _joined_answer(drafts, draft, confirmations):
                if restated:
                    restating.add(len(drafts))
                drafts.append(draft)
            elif not restated:  # a piece of its own joined the answer: the joined line says something
                restating -= {j for j, d in enumerate(drafts) if d.source_turn_ids == sources}
    drafts = payback.without_restated(drafts, restating)
    if drafts or not gated:
        return drafts or told, False
    if told:
        return _told_line(told, clauses, verdicts, message.speaker, listener, known, memories,
                          listeners_of(message, prior, memories)), True
    line = _line_fact(clauses, verdicts, message, prior, listener, known, language, memories)
    if not line and (unit := followup_unit(clauses, verdicts, message, prior, language, news, memories)):
        return [followup_fact(unit, [clauses[i] for i in unit.pooled], message, listener, memories)], False
    return line, bool(line)


def _told_line(told: list[FactDraft], clauses: list[Clause], verdicts: list[ClauseVerdict], speaker: str,
               listener: str | None, known: list[Antecedent], memories: Sequence[str],
               listeners: Callable[[str], bool] = lambda _: False) -> list[FactDraft]:
    """A line told plainly (``_TOLD_KINDS``) is one fact with the fragments beside it that no marker claims.

    "shed roof. new felt. 40 quid" is 'Noor: Shed roof; new felt; 40 quid', not 'Noor: 40 quid' (``worldline``);
    written with the speaker's stored memory it continues, the lifecycle refines that memory instead of adding one.
    A fragment is claimed as a line judged whole claims it (``worldline``): with the names the chat wrote before
    and ``listeners``, whether its subject is the listener's thing.
    """
    keep = [c for c, v in zip(clauses, verdicts, strict=True)
            if (v.admit and v.kind in _TOLD_KINDS)
            or (not v.admit and claimed(c.text, v.kind, c.foreign, c.names, listeners) is None
                and answer_words(c.text))]
    continued = _continued_own(keep, speaker, memories)
    if len(told) != 1 or (len(keep) <= sum(v.admit for v in verdicts) and continued is None):
        return told
    said = _pieces(keep, speaker, listener, known)
    return [told[0].model_copy(update={"text": tidy(_line_text(said, speaker, continued))})]


def _pieces(clauses: list[Clause], speaker: str, listener: str | None, known: list[Antecedent]) -> str:
    """A line's clauses stated as said, joined: 'Marigold; The grey one; Osric is gutted'."""
    return "; ".join(_main_fact(c, speaker, listener, known, False)[0] for c in clauses)


def _line_text(said: str, speaker: str, continued: str | None) -> str:
    """The joined pieces attributed to the speaker, or written after the stored memory of theirs they continue."""
    return f"{continued.strip().rstrip('.')}; {_lowered(said)}" if continued else f"{speaker}: {said}"


def _lowered(said: str) -> str:
    """A joined piece with its first word lowered when it is a function word ('The grey one' -> 'the grey one')."""
    return f"{said[:1].lower()}{said[1:]}" if said.split() and said.split()[0].lower() in _LOWER_FIRST else said


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



def _z_joined_reusable(drafts: list[FactDraft], speaker: str, sources: list[str], said: str) -> bool:
    """A message's further reusable clause joins its first one: one message told plainly is one memory."""
    prefix = f"{speaker}: "
    for i, earlier in enumerate(drafts):
        if earlier.text.lower().startswith(prefix.lower()) and earlier.source_turn_ids == sources:
            drafts[i] = earlier.model_copy(update={"text": f"{earlier.text}; {tidy(said)}"})
            return True
    return False


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
                   memories: Sequence[str] = ()) -> list[FactDraft]:
    """Facts of every message of the current exchange, in order (``memories``: stored texts it may continue)."""
    drafts: list[FactDraft] = []
    before: Message | None = None
    for message in messages:
        facts, line = _message_facts(message, messages, history, gated=gated, memories=memories)
        if line and before is not None and before.speaker == message.speaker and drafts \
                and before.turn_id in drafts[-1].source_turn_ids:
            drafts[-1] = _joined_line(drafts[-1], facts[0], message.speaker)
        else:
            drafts += facts
        before = message
    return drafts


def _continued_own(pooled: list[Clause], speaker: str, memories: Sequence[str]) -> str | None:
    """The speaker's own stored memory the line goes on with (most shared stems), short enough to take the detail."""
    first = speaker.split()[0].lower() if speaker.split() else ""
    mine = set(content_stems(" ".join(c.text for c in pooled))) - set(content_stems(speaker))
    best, shared = None, LINE_JOIN_MIN_SHARED - 1
    for memory in memories:
        if memory.lstrip().lower().startswith(first) and len(memory.split()) <= LINE_JOIN_MAX_WORDS \
                and (n := len(mine & set(content_stems(memory)))) > shared:
            best, shared = memory, n
    return best


def _joined_line(earlier: FactDraft, line: FactDraft, speaker: str) -> FactDraft:
    """A line told as the speaker's world joins the fact of the speaker's message just before: one memory."""
    said = line.text.removeprefix(f"{speaker}: ")
    sources = list(dict.fromkeys([*earlier.source_turn_ids, *line.source_turn_ids]))
    return earlier.model_copy(update={"text": f"{earlier.text}; {said[:1].lower() + said[1:]}",
                                      "source_turn_ids": sources})
