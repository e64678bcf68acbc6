"""OfflineDecider: every decision by rules, local embeddings, BM25 and deterministic date grounding.

No chat model is called (``Usage.calls`` is always 0); the same inputs always give the same verdicts.
Rules live in ``rules``/``admission``/``splitting``/``scoping``/``enrichment``/``lifecycle_rules``/
``answer_extraction``/``spans``/``gate``/``voting``; ``topics`` says what a question is about (names stripped
before embedding, concept classes, relative standouts). This class only times them and shapes their results.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from langchain_core.embeddings import Embeddings

from dmem.decisions.base import Decided
from dmem.decisions.offline import (
    clauses,
    enrichment,
    gate,
    lifecycle_rules,
    scoping,
    spans,
    splitting,
    voting,
    wide_context,
)
from dmem.decisions.offline.admitted import Admitted, admit_exchange
from dmem.decisions.offline.spans import NO_INFO
from dmem.decisions.offline.topics import focused_signals, standouts, strip_vocatives, topical_names
from dmem.grounding.deixis import format_day, ground_time
from dmem.state.schemas import Fact, MemoryRecord, Message, Usage
from dmem.state.verdicts import (
    AdmissionVerdicts,
    AnswerDraft,
    AnswerGroups,
    ChunkFacts,
    Enrichment,
    FactDrafts,
    LifecycleDecision,
    MemorySelection,
    QualityGateVerdict,
    ScopeLabel,
    ScopeLabels,
    ScoredFact,
    UtteranceVerdict,
)
from dmem.text.lexical import cosines, hybrid_scores
from dmem.text.names import mentions, question_names
from dmem.text.questions import restate

__all__ = ["NO_INFO", "OfflineDecider"]

T = TypeVar("T")

FILTER_MARGIN = 0.15  # filter keeps memories whose hybrid score is within this of the best one
CHUNK_FULL_SCORE = 0.5  # relevance that maps to score 10 (see chunk_score)
CHUNK_MIN_SCORE = 5  # relevance (0-10) a chunk message needs to become a deliberation fact
SELECT_MAX_FACTS = 6  # at most this many deliberation facts are kept for the final answer
SELECT_MIN_SHARE = 0.5  # a kept deliberation fact scores at least this share of the best fact's score


def _timed(stage: str, work: Callable[[], T]) -> Decided[T]:
    start = time.perf_counter()
    value = work()
    return Decided(value, Usage(stage=stage, calls=0, seconds=time.perf_counter() - start))


def chunk_score(relevance: float) -> int:
    """Map a 0..1 relevance to the 0-10 scale: round(10 * relevance / CHUNK_FULL_SCORE), clamped.

    read_chunk's relevance is max(embedding cosine, absolute BM25), so a semantic or a lexical
    match alone counts in this recall-oriented map step; messages sharing no topic word with the
    question (and not semantically very close) are capped below CHUNK_MIN_SCORE.
    """
    return max(0, min(10, int(10 * relevance / CHUNK_FULL_SCORE + 0.5)))


class OfflineDecider:
    """The ``Decider`` protocol without a chat model."""

    name = "offline"

    def __init__(self, embeddings: Embeddings) -> None:
        self.embeddings = embeddings

    # Ingestion -----------------------------------------------------------------------------
    def admit(self, exchange: list[Message], history: list[Message],
              memories: list[MemoryRecord]) -> Decided[AdmissionVerdicts]:
        """Each turn judged; the verdicts carry the clauses judged (``Admitted``) to ``split`` of the same exchange."""
        texts = [m.text for m in memories]

        def work() -> AdmissionVerdicts:
            judged = admit_exchange(exchange, history, texts)
            verdicts = [UtteranceVerdict(turn_id=m.turn_id, reason=j.reason, admit=j.admit)
                        for m, j in zip(exchange, judged.verdicts(), strict=True)]
            return AdmissionVerdicts(verdicts=verdicts).read_with(judged)

        return _timed("admit", work)

    def split(self, admitted: list[Message], history: list[Message], memories: list[MemoryRecord],
              admission: AdmissionVerdicts | None = None) -> Decided[FactDrafts]:
        """The admitted turns' facts; a turn ``admission`` (``admit``'s verdicts) already cut is not cut again."""
        texts = [m.text for m in memories]
        handed = admission.reading if admission is not None and isinstance(admission.reading, Admitted) else None
        return _timed("split", lambda: FactDrafts(facts=splitting.split_messages(admitted, history, gated=True,
                                                                                 memories=texts, admitted=handed)))

    def classify_scope(self, facts: list[Fact]) -> Decided[ScopeLabels]:
        def work() -> ScopeLabels:
            labels = []
            for i, fact in enumerate(facts, start=1):
                scope, enrich, reason, entity = scoping.classify(fact.text, fact.speaker)
                labels.append(ScopeLabel(index=i, reason=reason, scope=scope, entity=entity, enrich=enrich))
            return ScopeLabels(labels=labels)

        return _timed("classify_scope", work)

    def enrich(self, fact: Fact, knowledge: list[str]) -> Decided[Enrichment]:
        def work() -> Enrichment:
            attributes, reason = enrichment.parse_knowledge(fact.text, fact.speaker, knowledge)
            return Enrichment(reason=reason, attributes=attributes)

        return _timed("enrich", work)

    def extract_facts(self, exchange: list[Message], history: list[Message],
                      memories: list[MemoryRecord]) -> Decided[FactDrafts]:
        return _timed("extract_facts",
                      lambda: FactDrafts(facts=splitting.split_messages(exchange, history, gated=False)))

    def decide_lifecycle(self, fact: Fact, background: list[MemoryRecord]) -> Decided[LifecycleDecision]:
        def work() -> LifecycleDecision:
            sims = cosines(self.embeddings, fact.text, [m.text for m in background])
            return lifecycle_rules.decide(fact, background, sims)

        return _timed("decide_lifecycle", work)

    def decide_lifecycle_batch(self, facts: list[Fact],
                               background: list[MemoryRecord]) -> Decided[list[LifecycleDecision]]:
        """Each fact by the per-fact rules against the shared background."""
        return _timed("decide_lifecycle", lambda: [self.decide_lifecycle(f, background).value for f in facts])

    # Query ---------------------------------------------------------------------------------
    def filter_memories(self, question: str, memories: list[MemoryRecord]) -> Decided[MemorySelection]:
        question = restate(question)

        def work() -> MemorySelection:
            if not memories:
                return MemorySelection(reason="no memories to filter", keep=[])
            scores = hybrid_scores(self.embeddings, question, [m.text for m in memories])
            top = max(scores)
            keep = [i for i, s in enumerate(scores, start=1) if s >= top - FILTER_MARGIN]
            return MemorySelection(reason=f"kept {len(keep)} of {len(memories)} memories within {FILTER_MARGIN} "
                                   f"of the best hybrid score {top:.2f}", keep=keep)

        return _timed("filter_memories", work)

    def answer(self, question: str, context: list[str], *,
               temperature: float | None = None, sample: int = 0, core: int | None = None) -> Decided[AnswerDraft]:
        # Sample 0 (or temperature 0) is the extractive answer; a vote's later samples draw alternatives.
        # A wide question's wider share is read only when the same-K lines answer nothing (``wide_context``).
        question = restate(question)
        return _timed("answer", lambda: wide_context.core_first(
            lambda lines: voting.sample_answer(self.embeddings, question, lines, sample=sample,
                                               temperature=temperature or 0.0), context, core))

    def quality_gate(self, question: str, answer: str, context: list[str]) -> Decided[QualityGateVerdict]:
        return _timed("quality_gate", lambda: gate.quality_gate(self.embeddings, restate(question), answer, context))

    def partial_stands(self, question: str, answer: str) -> bool:
        """Only an answer of the kind the question asks (a person for "who", a number for "how many", ...), no date."""
        return gate.partial_stands(restate(question), answer)

    # The async path: the offline engine embeds (CPU work), so it runs in a worker thread.
    async def aadmit(self, exchange: list[Message], history: list[Message],
                     memories: list[MemoryRecord]) -> Decided[AdmissionVerdicts]:
        """``admit`` in a worker thread."""
        return await asyncio.to_thread(self.admit, exchange, history, memories)

    async def asplit(self, admitted: list[Message], history: list[Message], memories: list[MemoryRecord],
                     admission: AdmissionVerdicts | None = None) -> Decided[FactDrafts]:
        """``split`` in a worker thread."""
        return await asyncio.to_thread(self.split, admitted, history, memories, admission)

    async def aclassify_scope(self, facts: list[Fact]) -> Decided[ScopeLabels]:
        """``classify_scope`` in a worker thread."""
        return await asyncio.to_thread(self.classify_scope, facts)

    async def aextract_facts(self, exchange: list[Message], history: list[Message],
                             memories: list[MemoryRecord]) -> Decided[FactDrafts]:
        """``extract_facts`` in a worker thread."""
        return await asyncio.to_thread(self.extract_facts, exchange, history, memories)

    async def adecide_lifecycle(self, fact: Fact, background: list[MemoryRecord]) -> Decided[LifecycleDecision]:
        """``decide_lifecycle`` in a worker thread."""
        return await asyncio.to_thread(self.decide_lifecycle, fact, background)

    async def adecide_lifecycle_batch(self, facts: list[Fact],
                                      background: list[MemoryRecord]) -> Decided[list[LifecycleDecision]]:
        """``decide_lifecycle_batch`` in a worker thread."""
        return await asyncio.to_thread(self.decide_lifecycle_batch, facts, background)

    async def agroup_answers(self, question: str, answers: list[str]) -> Decided[AnswerGroups]:
        """``group_answers`` in a worker thread."""
        return await asyncio.to_thread(self.group_answers, question, answers)

    async def aread_chunk(self, question: str, chunk: list[Message], history: list[Message]) -> Decided[ChunkFacts]:
        """``read_chunk`` in a worker thread."""
        return await asyncio.to_thread(self.read_chunk, question, chunk, history)

    async def aselect_facts(self, question: str, facts: list[ScoredFact]) -> Decided[MemorySelection]:
        """``select_facts`` in a worker thread."""
        return await asyncio.to_thread(self.select_facts, question, facts)

    async def afilter_memories(self, question: str, memories: list[MemoryRecord]) -> Decided[MemorySelection]:
        """``filter_memories`` in a worker thread."""
        return await asyncio.to_thread(self.filter_memories, question, memories)

    async def aanswer(self, question: str, context: list[str], *,
                      temperature: float | None = None, sample: int = 0,
                      core: int | None = None) -> Decided[AnswerDraft]:
        """``answer`` in a worker thread."""
        return await asyncio.to_thread(self.answer, question, context, temperature=temperature, sample=sample,
                                       core=core)

    async def aquality_gate(self, question: str, answer: str, context: list[str]) -> Decided[QualityGateVerdict]:
        """``quality_gate`` in a worker thread."""
        return await asyncio.to_thread(self.quality_gate, question, answer, context)

    def group_answers(self, question: str, answers: list[str]) -> Decided[AnswerGroups]:
        return _timed("group_answers", lambda: gate.group(answers))

    def read_chunk(self, question: str, chunk: list[Message], history: list[Message]) -> Decided[ChunkFacts]:
        question = restate(question)

        def work() -> ChunkFacts:
            names = question_names(question)
            docs = [f"{m.speaker}: {strip_vocatives(clauses.utterance_text(m), names)}" for m in chunk]
            signals = focused_signals(self.embeddings, question, docs)
            stand = standouts([c for c, _ in signals])
            topical = topical_names(question, docs, [m.speaker for m in chunk])
            facts = []
            for i, (message, doc, (cos, lex)) in enumerate(zip(chunk, docs, signals, strict=True)):
                score = chunk_score(max(cos, lex))
                if not spans.on_topic(question, doc, stand[i] or mentions(doc, topical)):
                    score = min(score, CHUNK_MIN_SCORE - 1)
                if score >= CHUNK_MIN_SCORE:
                    facts.append(ScoredFact(fact=standalone(message), score=score, turn_ids=[message.turn_id]))
            return ChunkFacts(facts=facts)

        return _timed("read_chunk", work)

    def select_facts(self, question: str, facts: list[ScoredFact]) -> Decided[MemorySelection]:
        question = restate(question)

        def work() -> MemorySelection:
            scores = hybrid_scores(self.embeddings, question, [f.fact for f in facts])
            order = sorted(range(len(facts)), key=lambda i: (-scores[i], -facts[i].score, i))
            floor = scores[order[0]] * SELECT_MIN_SHARE if order else 0.0
            top = [i for i in order[:SELECT_MAX_FACTS] if scores[i] >= floor]
            keep = sorted(i + 1 for i in top)
            return MemorySelection(reason=f"top {len(keep)} of {len(facts)} facts by hybrid score (at most "
                                   f"{SELECT_MAX_FACTS}, each >= {SELECT_MIN_SHARE} of the best)", keep=keep)

        return _timed("select_facts", work)


def standalone(message: Message) -> str:
    """'On <date>, <speaker> said: <text>' with the message's relative times grounded."""
    body = clauses.utterance_text(message).replace("\n", " ")
    body = " ".join(body.split())
    if message.timestamp is None:
        return f"{message.speaker} said: {body}"
    stamp: datetime = message.timestamp
    return f"On {format_day(stamp.date())}, {message.speaker} said: {ground_time(body, stamp).text}"
