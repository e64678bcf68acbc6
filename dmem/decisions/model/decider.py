"""``ModelDecider``: every decision made by a chat model with our prompts, then checked cheaply.

Replies are validated by ``StructuredCaller`` (retries, JSON repair, fallback chain) and then
post-processed deterministically: ids and indexes the input does not contain are dropped,
missing verdicts are filled conservatively, scores are clamped. ``StructuredOutputError``
propagates; the graphs catch it.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Any, Literal, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ConfigDict, Field, create_model

from dmem.decisions.base import Decided
from dmem.models.structured import StructuredCaller
from dmem.prompts import (
    NO_INFO,
    admission_prompt,
    answer_prompt,
    enrich_prompt,
    extraction_prompt,
    filter_prompt,
    group_prompt,
    lifecycle_prompt,
    quality_gate_prompt,
    read_chunk_prompt,
    scope_prompt,
    select_prompt,
    split_prompt,
)
from dmem.state.schemas import Fact, MemoryRecord, Message, Operation, Scope, Usage
from dmem.state.verdicts import (
    AdmissionVerdicts,
    AnswerDraft,
    AnswerGroups,
    ChunkFacts,
    CriterionVerdict,
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

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)
_NO_INFO_FORMS = {"", "none", "null", "n/a", NO_INFO.lower().rstrip(".")}

class _ReplyScoredFact(BaseModel):
    """ScoredFact as a model may write it: any number as score, clamped afterwards."""

    model_config = ConfigDict(title="ScoredFact")
    fact: str = Field(description="Standalone fact with speaker and date, pronouns resolved.")
    score: float = Field(description="Relevance to the question, an integer from 0 to 10.")
    turn_ids: list[str] = Field(default_factory=list, description="turn_ids the fact was read from.")


# Same name and shape as ChunkFacts, so a score of 11 or 7.5 is clamped rather than retried.
_ReplyChunkFacts = create_model(
    "ChunkFacts",
    __doc__="Facts one Full Deliberation worker extracted from its chunk.",
    facts=(list[_ReplyScoredFact], Field(default_factory=list, description="Relevant facts; empty if none.")),
)

class ModelDecider:
    """The ``Decider`` backed by a chat model."""

    name = "model"

    def __init__(self, model: BaseChatModel, *, method: str = "auto", max_retries: int = 2,
                 max_concurrency: int = 4, answer_style: Literal["short", "sentence"] = "short",
                 temperature: float = 0.0) -> None:
        self.model = model
        self.caller = StructuredCaller(model, method=method, max_retries=max_retries,
                                       max_concurrency=max_concurrency)
        self.answer_style = answer_style
        self.temperature = temperature

    def _call(self, schema: type[M], messages: list[BaseMessage], stage: str, phase: str,
              temperature: float | None = None) -> tuple[M, Usage]:
        temp = self.temperature if temperature is None else temperature
        return self.caller.call(schema, messages, stage=stage, temperature=temp, tags=[phase, stage])

    # Ingestion ---------------------------------------------------------------------------
    def admit(self, exchange: list[Message], history: list[Message],
              memories: list[MemoryRecord]) -> Decided[AdmissionVerdicts]:
        out, usage = self._call(AdmissionVerdicts, admission_prompt(exchange, history, memories),
                                "admit", "ingestion")
        return Decided(complete_verdicts(out, exchange), usage)

    def split(self, admitted: list[Message], history: list[Message],
              memories: list[MemoryRecord]) -> Decided[FactDrafts]:
        out, usage = self._call(FactDrafts, split_prompt(admitted, history, memories),
                                "split_intents", "ingestion")
        return Decided(clean_drafts(out, admitted), usage)

    def classify_scope(self, facts: list[Fact]) -> Decided[ScopeLabels]:
        out, usage = self._call(ScopeLabels, scope_prompt(facts), "classify_scope", "ingestion")
        return Decided(complete_labels(out, len(facts)), usage)

    def enrich(self, fact: Fact, knowledge: list[str]) -> Decided[Enrichment]:
        """Enrich from the knowledge lines; with none, nothing may be added, so no call is made."""
        lines = [k for k in knowledge if k.strip()]
        if not lines:
            return Decided(Enrichment(reason="no knowledge supplied"), Usage(stage="enrich"))
        out, usage = self._call(Enrichment, enrich_prompt(fact, lines), "enrich", "ingestion")
        attrs = {k.strip(): v.strip() for k, v in out.attributes.items() if k.strip() and v.strip()}
        return Decided(out.model_copy(update={"attributes": attrs}), usage)

    def extract_facts(self, exchange: list[Message], history: list[Message],
                      memories: list[MemoryRecord]) -> Decided[FactDrafts]:
        out, usage = self._call(FactDrafts, extraction_prompt(exchange, history, memories),
                                "extract_facts", "ingestion")
        return Decided(clean_drafts(out, exchange), usage)

    def decide_lifecycle(self, fact: Fact, background: list[MemoryRecord]) -> Decided[LifecycleDecision]:
        out, usage = self._call(LifecycleDecision, lifecycle_prompt(fact, background),
                                "decide_lifecycle", "ingestion")
        return Decided(check_lifecycle(out, fact, len(background)), usage)

    # Query -------------------------------------------------------------------------------
    def filter_memories(self, question: str, memories: list[MemoryRecord]) -> Decided[MemorySelection]:
        out, usage = self._call(MemorySelection, filter_prompt(question, memories),
                                "filter_memories", "query")
        return Decided(clean_selection(out, len(memories)), usage)

    def answer(self, question: str, context: list[str], *,
               temperature: float | None = None, sample: int = 0) -> Decided[AnswerDraft]:
        # The model's own sampling noise at ``temperature`` varies the samples; the index is not needed.
        out, usage = self._call(AnswerDraft, answer_prompt(question, context, self.answer_style),
                                "answer", "query", temperature)
        text = out.answer.strip()
        if text.lower().rstrip(".") in _NO_INFO_FORMS:
            text = NO_INFO
        return Decided(out.model_copy(update={"answer": text}), usage)

    def quality_gate(self, question: str, answer: str, context: list[str]) -> Decided[QualityGateVerdict]:
        prompt = quality_gate_prompt(question, answer, context)
        out, usage = self._call(QualityGateVerdict, prompt, "quality_gate", "query")
        if is_null_answer(answer) and out.completeness.passed:  # the rubric: no answer is never complete
            out = out.model_copy(update={"completeness": CriterionVerdict(
                reason=f"{out.completeness.reason} [overridden: a no-information answer is incomplete]",
                passed=False)})
        return Decided(out, usage)

    def group_answers(self, question: str, answers: list[str]) -> Decided[AnswerGroups]:
        out, usage = self._call(AnswerGroups, group_prompt(question, answers), "group_answers", "query")
        return Decided(clean_groups(out, len(answers)), usage)

    def read_chunk(self, question: str, chunk: list[Message], history: list[Message]) -> Decided[ChunkFacts]:
        out, usage = self._call(_ReplyChunkFacts, read_chunk_prompt(question, chunk, history),
                                "read_chunk", "deliberation")
        return Decided(clamp_chunk_facts(out.model_dump()["facts"], chunk), usage)

    def select_facts(self, question: str, facts: list[ScoredFact]) -> Decided[MemorySelection]:
        out, usage = self._call(MemorySelection, select_prompt(question, facts),
                                "select_facts", "deliberation")
        return Decided(clean_selection(out, len(facts)), usage)


# Deterministic post-processing -----------------------------------------------------------------
def is_null_answer(answer: str) -> bool:
    """Check whether an answer says there is no information ('No information available.', 'NONE', '')."""
    return answer.strip().lower().rstrip(".") in _NO_INFO_FORMS


def match_id(raw: str, known: Sequence[str]) -> str | None:
    """Return the known turn id a model wrote, tolerating the brackets and spaces of our rendering."""
    cleaned = raw.strip().strip("[]").strip()
    return cleaned if cleaned in known else None


def complete_verdicts(out: AdmissionVerdicts, exchange: Sequence[Message]) -> AdmissionVerdicts:
    """One verdict per utterance in exchange order: unknown ids dropped, missing ones rejected."""
    order = [m.turn_id for m in exchange]
    got: dict[str, UtteranceVerdict] = {}
    for verdict in out.verdicts:
        tid = match_id(verdict.turn_id, order)
        if tid is None:
            log.warning("admit: dropped a verdict for unknown turn_id %r", verdict.turn_id)
            continue
        got.setdefault(tid, verdict.model_copy(update={"turn_id": tid}))
    missing = UtteranceVerdict(turn_id="", reason="no verdict returned", admit=False)
    verdicts = [got.get(t) or missing.model_copy(update={"turn_id": t}) for t in order]
    return AdmissionVerdicts(verdicts=verdicts)


def clean_drafts(out: FactDrafts, sources: Sequence[Message]) -> FactDrafts:
    """Drop empty facts, keep only source turn ids of the source messages, fill a missing speaker."""
    ids = [m.turn_id for m in sources]
    speakers = {m.turn_id: m.speaker for m in sources}
    facts = []
    for draft in out.facts:
        if not draft.text.strip():
            continue
        turn_ids = list(dict.fromkeys(t for t in (match_id(r, ids) for r in draft.source_turn_ids) if t))
        speaker = draft.speaker.strip() or (speakers[turn_ids[0]] if turn_ids else "")
        facts.append(draft.model_copy(update={"text": draft.text.strip(), "speaker": speaker,
                                              "source_turn_ids": turn_ids}))
    return FactDrafts(facts=facts)


def complete_labels(out: ScopeLabels, n: int) -> ScopeLabels:
    """One label per fact (1..n): out-of-range dropped, missing ones get the most restrictive scope."""
    got: dict[int, ScopeLabel] = {}
    for label in out.labels:
        if 1 <= label.index <= n:
            got.setdefault(label.index, label)
    fallback = ScopeLabel(index=0, reason="no label returned; most restrictive scope assumed",
                          scope=Scope.USER_PII, enrich=False)
    labels = [got.get(i) or fallback.model_copy(update={"index": i}) for i in range(1, n + 1)]
    return ScopeLabels(labels=labels)


def check_lifecycle(out: LifecycleDecision, fact: Fact, n: int) -> LifecycleDecision:
    """UPDATE/DELETE on an id not shown becomes ADD; ADD/UPDATE without text use the fact's text."""
    in_range = out.target is not None and 0 <= out.target < n
    text = (out.text or "").strip() or None
    if out.operation in (Operation.UPDATE, Operation.DELETE) and not in_range:
        reason = (f"{out.reason} [model chose {out.operation.value} on id {out.target}, "
                  f"not one of the {n} memories shown: added instead]")
        return LifecycleDecision(reason=reason, operation=Operation.ADD, target=None, text=fact.text)
    if out.operation is Operation.DELETE:
        return out.model_copy(update={"text": None})
    if out.operation is Operation.UPDATE:
        return out.model_copy(update={"text": text or fact.text})
    if out.operation is Operation.ADD:
        return out.model_copy(update={"target": None, "text": text or fact.text})
    return out.model_copy(update={"target": out.target if in_range else None})


def clean_selection(out: MemorySelection, n: int) -> MemorySelection:
    """Indexes within 1..n, each once, in the order given."""
    keep = list(dict.fromkeys(i for i in out.keep if 1 <= i <= n))
    return out.model_copy(update={"keep": keep})


def clean_groups(out: AnswerGroups, n: int) -> AnswerGroups:
    """Every answer index 1..n in exactly one group, and a valid chosen member per group."""
    seen: set[int] = set()
    groups: list[list[int]] = []
    best: list[int] = []
    for pos, group in enumerate(out.groups):
        members = [i for i in dict.fromkeys(group) if 1 <= i <= n and i not in seen]
        if not members:
            continue
        seen.update(members)
        pick = out.best[pos] if pos < len(out.best) else None
        groups.append(members)
        best.append(pick if pick in members else members[0])
    for i in range(1, n + 1):
        if i not in seen:
            groups.append([i])
            best.append(i)
    return AnswerGroups(reason=out.reason, groups=groups, best=best)


def clamp_chunk_facts(raw: list[dict[str, Any]], chunk: Sequence[Message]) -> ChunkFacts:
    """Scores rounded and clamped to 0-10, empty facts dropped, turn ids limited to the chunk."""
    ids = [m.turn_id for m in chunk]
    facts = []
    for item in raw:
        text = str(item["fact"]).strip()
        if not text:
            continue
        value = float(item["score"])
        score = min(10, max(0, round(value))) if math.isfinite(value) else 0
        turn_ids = list(dict.fromkeys(t for t in (match_id(r, ids) for r in item["turn_ids"]) if t))
        facts.append(ScoredFact(fact=text, score=score, turn_ids=turn_ids))
    return ChunkFacts(facts=facts)
