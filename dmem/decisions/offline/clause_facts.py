"""One admitted clause as the facts it states: each verdict kind's shape, its wording and its source turns.

``splitting`` drafts an utterance clause by clause; this module writes one clause's facts (an answer with its
question, an outcome or follow-on with what it goes on with, an opinion, a question's presupposition, the
speaker's world told without "I", or the clause's own proposition) and keeps what the clauses drafted so far.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dmem.decisions.offline import chains, confirmed, embedded, frames, presuppose, register, rules, speech_acts
from dmem.decisions.offline.accepted import we_named
from dmem.decisions.offline.clause_admission import confirmed_question, embedded_clause
from dmem.decisions.offline.clauses import Clause, utterance_text
from dmem.decisions.offline.fact_text import categorize, drop_vocative, tidy, trim
from dmem.decisions.offline.pronouns import Antecedent, agree, resolve_subjects, rewrite_person
from dmem.decisions.offline.replies import Asked, restore_subject
from dmem.state.schemas import Category, Message, Provenance
from dmem.state.verdicts import FactDraft
from dmem.text.asked import asks
from dmem.text.lexical import first_word
from dmem.text.quotes import shorten

# Verdict kinds whose fact has a shape of its own; any other admitted clause is stated as said, and a
# fragment of it with the question it answers.
_SHAPED = frozenset({"answer", "confirms", "outcome", "follows", "opinion", "question_fact", "non_english"})
# Verdict kinds of the speaker's world told without "I": kept as said, one fact per line (``splitting._told_line``).
TOLD_KINDS = frozenset({"reusable", "news", "own_world"})

_NEED_NOUNS = re.compile(r"^\s*(?:some\s+)?(?:[\w-]+\s+)?(?:ideas|recommendations|suggestions|tips|options)\s+"
                         r"(?:for|on|about)\b", re.I)
_PASSING = re.compile(r"\bmy\s+(?P<rel>" + "|".join(rules.RELATIONS + rules.PETS) + r")\b", re.I)


def passing_references(clause: str, speaker: str, remember: bool) -> list[tuple[str, Provenance]]:
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


def rule_fact(fact: str, condition: tuple[str, str], speaker: str, listener: str | None) -> str:
    """The assistant behaviour a remembered fact governs: 'Assistant should suggest vegetarian restaurants'."""
    verb, obj = condition[0].lower(), rewrite_person(condition[1], speaker, listener)
    who = listener or "the assistant"
    if m := re.fullmatch(rf"{re.escape(speaker)} is (?P<adj>[a-z-]+)", fact):
        return tidy(f"{who} should {verb} {m['adj']} {obj} for {speaker}")
    return tidy(f"when {who} {agree(verb)} {obj}, {who} should keep in mind that {fact}")


def answer_fact(clause: Clause, asked: Asked, speaker: str, known: list[Antecedent]) -> str:
    """The reply with the question it answers, as one fact.

    "Theo's favourite film is the one with the lighthouse", or for other question shapes
    'Theo answered Maya's question "What's Theo's favourite film?": the one with the lighthouse'.
    """
    asker = asked.asker
    said = resolve_subjects(rewrite_person(drop_vocative(clause.text, asker), speaker, asker), speaker, known)
    if asked.stance == "accepted":  # "deal" to "you can pay for the first pizza": the plan is what was said
        sentence = trim(rewrite_person(we_named(asked.question, asker, speaker), asker, speaker))
        return tidy(frames.accepted(speaker, asker, shorten(sentence, 160)))
    if asked.stance == "attending":  # "I'll be there" to "concert on the 30th": the speaker will be at that event
        return tidy(frames.attending(speaker, asker, shorten(trim(asked.question), 160)))  # in the third person
    if asked.stance == "continued":  # "and sunday" after the rota: the line in the third person already
        return tidy(frames.added_to(speaker, asker, shorten(asked.question, 160), trim(said)))
    if asked.stance:  # "bakery one" names a sentence of the other's message; "👍 29th" or a bare "yep" agrees to it
        sentence = trim(rewrite_person(asked.question, asker, speaker))
        return tidy(frames.picked(speaker, asker, shorten(sentence, 160), trim(said),
                                   asked.stance not in ("picked", "named")))
    if asked.thing:  # "how r lessons" -> "can float now": the thing asked about is the speaker's
        return tidy(f"{speaker}'s {asked.thing}: {lowered(trim(said))}")
    if stated := chains.answer_statement(asked.question, trim(said), speaker):
        return tidy(stated)
    question = rewrite_person(asked.question, asker, speaker)
    before = utterance_text(clause.asked_back) if clause.asked_back else None
    if stated := speech_acts.granted(asked.question, clause.text, speaker, asker):  # "sure" to "can i borrow ur X"
        return tidy(stated)
    if stated := confirmed.confirmed_statement(question, trim(said), speaker, before):  # "got it!!": stated
        return tidy(stated)
    if before and (thing := confirmed.thing_asked(asked.question)):  # "GOT AN INTERVIEW" "the council one??"
        told = before.lower() if before.isupper() else before
        earlier = trim(rewrite_person(restore_subject(told), speaker, asker))
        reply = lowered(trim(said))
        reply = reply if reply.lower().startswith(thing) else f"{thing}{frames.JOIN}{reply}"
        return tidy(frames.added(speaker, earlier, reply))
    return tidy(frames.answered(speaker, asker, question, trim(said)))


def asked_of(clause: Clause, kind: str) -> Asked | None:
    """The question an 'answer' clause answers (the one just before); a 'confirms' clause's may be crossed."""
    if kind == "confirms":
        return confirmed_question(clause)
    return clause.asked


_LOWER_FIRST = frozenset({"it", "it's", "its", "this", "that", "these", "those", "they", "they're", "there",
                          "there's", "he", "she", "the", "a", "an", "some", "mostly", "also", "so", "and", "but"})


def follow_fact(clause: Clause, before: Message, speaker: str, listener: str | None) -> str:
    """A short message continuing the speaker's own one, said with what it continues.

    'Noor added to "Noor just started at the art school": it is right by the ferry pier'.
    """
    said = trim(rewrite_person(drop_vocative(clause.text, listener), speaker, listener))
    earlier = trim(rewrite_person(utterance_text(before), speaker, listener))
    earlier = shorten(earlier, 100)
    return tidy(frames.added(speaker, earlier, lowered(said)))


def outcome_fact(clause: Clause, event: Message | str, speaker: str, listener: str | None) -> str:
    """An outcome kept with the event it reports on: 'Lale added to "Lale's boat licence exam is tmrw": WE PASSED'."""
    if isinstance(event, Message):
        return follow_fact(clause, event, speaker, listener)
    said = trim(rewrite_person(drop_vocative(clause.text, listener), speaker, listener))
    return tidy(frames.added(speaker, shorten(event, 100), said))


def presupposed(clause: Clause, speaker: str, listener: str | None) -> str | None:
    """What a question clause presupposes, as a statement ('Maya lent Theo the puzzle book'), or None."""
    return presuppose.statement(trim(drop_vocative(clause.text, listener)), speaker, listener, clause.then)


def question_fact(clause: Clause, speaker: str, listener: str | None,
                   stated: str | None = None) -> tuple[str, Provenance]:
    """A question that carries a fact: what it presupposes, as a statement, else the question as asked.

    'Maya lent Theo the puzzle book' (inferred: presupposed, not said), else 'Maya asked Theo: "..."' (both named).
    ``stated``: the statement when the caller has already drafted it (``presupposed``).
    """
    said = drop_vocative(clause.text, listener)
    found = embedded_clause(clause)
    if (found is None or not found.teaser) and (stated or (stated := presupposed(clause, speaker, listener))):
        return tidy(stated), Provenance.INFERRED  # a teaser tells its answer; it presupposes nothing
    if found:  # what the question takes as known, its person named
        prov = Provenance.HEDGED if found.hedged else Provenance.STATED if found.told else Provenance.INFERRED
        return tidy(embedded.statement(found, speaker, listener)), prov
    if act := speech_acts.act(said, clause.names):  # a request, an offer or news, said as what it tells
        return tidy(speech_acts.statement(act, speaker, listener)), Provenance.STATED
    asked = rewrite_person(register.standard(said), speaker, listener)
    return tidy(frames.asked(speaker, listener or "someone", trim(asked))), Provenance.STATED


def main_fact(clause: Clause, speaker: str, listener: str | None,
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


def lowered(said: str) -> str:
    """A joined piece with its first word lowered when it is a function word ('The grey one' -> 'the grey one')."""
    return f"{said[:1].lower()}{said[1:]}" if first_word(said).lower() in _LOWER_FIRST else said


def joined_reusable(drafts: list[FactDraft], speaker: str, sources: list[str], said: str) -> bool:
    """A message's further reusable clause joins its first one: one message told plainly is one memory."""
    prefix = f"{speaker}: "
    for i, earlier in enumerate(drafts):
        if earlier.text.lower().startswith(prefix.lower()) and earlier.source_turn_ids[-1:] == sources[-1:]:
            drafts[i] = earlier.model_copy(update={"text": f"{earlier.text}; {tidy(said)}"})
            return True
    return False



Pair = tuple[str, list[Category], Provenance]
"""One fact of a clause: its text, categories and provenance."""


@dataclass
class Drafting:
    """What the clauses of one utterance drafted so far (``splitting._said_facts``)."""

    known: list[Antecedent]
    """Antecedents of the chat before and of the clauses drafted: who 'he', 'she' and 'they' are."""
    remember: bool = False
    """The utterance asks to be remembered: what it implies is stated, not inferred."""
    drafts: list[FactDraft] = field(default_factory=list)
    linked: bool = False
    """A fact of this utterance already names the question it replies to."""
    told: list[FactDraft] = field(default_factory=list)
    """Plain statements without "I" (``TOLD_KINDS``): kept when nothing else is."""
    confirmations: set[int] = field(default_factory=set)
    """Drafts stating a question the reply confirmed: what it says more joins them."""
    restating: set[int] = field(default_factory=set)
    """Drafts of answer clauses that only react to the question (``payback``)."""


def clause_pairs(state: Drafting, clause: Clause, kind: str, message: Message, listener: str | None,
                 language: str, replied: Asked | None) -> tuple[list[Pair], list[str], bool]:
    """The clause's facts, their source turns, and whether the first is its own proposition as said.

    ``kind``: its verdict's kind; ``replied``: the question its utterance replies to, when its facts answer it. A
    clause of the speaker's world told without "I" drafts into ``state.told`` and returns no fact.
    """
    speaker, sources = message.speaker, [message.turn_id]
    if language != "en":
        return [(tidy(f"{speaker}: {clause.text}"), categorize(clause.text), Provenance.STATED)], sources, False
    if (shaped := _shaped_pairs(state, clause, kind, message, listener, replied)) is not None:
        return shaped[0], shaped[1], False
    stated: str | None = None  # a question's presupposed fact, drafted once (below)
    if kind == "opinion" or (kind == "rated" and not rules.FIRST_PERSON.search(clause.text)):
        said = rewrite_person(drop_vocative(clause.text, listener), speaker, listener)
        return [(tidy(f"{speaker}'s opinion: {trim(said)}"), [Category.PREFERENCE], Provenance.STATED)], sources, False
    if kind == "question_fact" or (asks(clause.text) and (stated := presupposed(clause, speaker, listener))):
        text, provenance = question_fact(clause, speaker, listener, stated)
        return [(text, categorize(text), provenance)], sources, False
    if kind in TOLD_KINDS:  # the speaker's world without "I": kept as said, with the question it answers
        said, categories, _ = main_fact(clause, speaker, listener, state.known, state.remember)
        sources = [replied.turn_id, *sources] if replied is not None and replied.turn_id else sources
        if not joined_reusable(state.told, speaker, sources, said):
            state.told.append(FactDraft(text=tidy(f"{speaker}: {said}"), speaker=speaker, source_turn_ids=sources,
                                        categories=categories, provenance=Provenance.STATED, language=language))
        return [], sources, False
    pairs = [main_fact(clause, speaker, listener, state.known, state.remember)]
    if clause.about is None:  # a person written out from a pronoun is no news that they exist
        pairs += [(t, [Category.PERSONA], p) for t, p in passing_references(clause.text, speaker, state.remember)]
    if clause.condition:
        pairs.append((rule_fact(pairs[0][0], clause.condition, speaker, listener), [Category.USER_RULE],
                      Provenance.STATED))
    return pairs, sources, True


def _shaped_pairs(state: Drafting, clause: Clause, kind: str, message: Message, listener: str | None,
                  replied: Asked | None) -> tuple[list[Pair], list[str]] | None:
    """An answer, a fragment with its question, an outcome or a follow-on: its fact and sources; else None."""
    speaker, turn = message.speaker, message.turn_id
    if kind in ("answer", "confirms") and (asked := asked_of(clause, kind)) is not None:
        pairs: list[Pair] = [(answer_fact(clause, asked, speaker, state.known), categorize(clause.text),
                              Provenance.STATED)]
        back = clause.asked_back.turn_id if clause.asked_back else None
        if (kind == "confirms" or back) and not frames.replied_to(pairs[0][0]):  # the rest joins it
            state.confirmations.add(len(state.drafts))
        return pairs, [t for t in (back, *asked.also, asked.turn_id, turn) if t]
    alone = clause.then is None and not state.drafts and not state.told  # the line's one clause
    if replied is not None and kind not in _SHAPED and chains.fragment(clause.text, replied.question, alone):
        return [(answer_fact(clause, replied, speaker, state.known), categorize(clause.text), Provenance.STATED)], \
            [turn]
    if kind == "outcome" and clause.outcome_of is not None:
        event = clause.outcome_of
        sources = [event.turn_id, turn] if isinstance(event, Message) else [turn]
        return [(outcome_fact(clause, event, speaker, listener), categorize(clause.text), Provenance.STATED)], sources
    if kind == "follows" and clause.follows is not None:
        return [(follow_fact(clause, clause.follows, speaker, listener), categorize(clause.text),
                 Provenance.STATED)], [clause.follows.turn_id, turn]
    return None
