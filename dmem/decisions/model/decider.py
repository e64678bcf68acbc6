"""``ModelDecider``: every decision made by a chat model with our prompts, then checked cheaply.

Replies are validated by ``StructuredCaller`` (method fallback, output caps, dmem's retry policy,
JSON repair) and then post-processed deterministically (:mod:`dmem.decisions.model.checks`): labels
are mapped back to turn and memory ids, missing verdicts are filled conservatively, scores are
clamped. ``StructuredOutputError`` and ``ProviderError`` propagate; the graphs catch them.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ConfigDict, Field, create_model

from dmem.decisions.base import Decided
from dmem.decisions.model.checks import (
    check_batch,
    check_lifecycle,
    clamp_chunk_facts,
    clean_drafts,
    clean_groups,
    clean_selection,
    complete_labels,
    complete_verdicts,
    is_null_answer,
    with_questions,
)
from dmem.models.endpoints import Endpoint, Endpoints
from dmem.models.retry import RetryPolicy
from dmem.models.structured import StructuredCaller
from dmem.prompts import (
    NO_INFO,
    admission_prompt,
    answer_prompt,
    enrich_prompt,
    extraction_prompt,
    filter_prompt,
    group_prompt,
    lifecycle_batch_prompt,
    lifecycle_prompt,
    quality_gate_prompt,
    read_chunk_prompt,
    scope_prompt,
    select_prompt,
    split_prompt,
)
from dmem.prompts.instructions import STAGE_SETTING, with_instructions
from dmem.state.caps import resolve_caps
from dmem.state.context import Context
from dmem.state.schemas import Fact, MemoryRecord, Message, Usage
from dmem.state.verdicts import (
    AdmissionVerdicts,
    AnswerDraft,
    AnswerGroups,
    ChunkFacts,
    CriterionVerdict,
    Enrichment,
    FactDrafts,
    Label,
    LifecycleDecision,
    LifecycleDecisions,
    MemorySelection,
    QualityGateVerdict,
    ScopeLabels,
    ScoredFact,
)

M = TypeVar("M", bound=BaseModel)


class _ReplyScoredFact(BaseModel):
    """ScoredFact as a model may write it: any number as score, clamped afterwards."""

    model_config = ConfigDict(title="ScoredFact")
    fact: str = Field(description="Standalone fact with speaker and date, pronouns resolved.")
    score: float = Field(description="Relevance to the question, an integer from 0 to 10.")
    turn_ids: list[Label] = Field(default_factory=list,
                                  description="Labels (numbers in brackets) of the chunk messages it was read from.")


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
                 temperature: float = 0.0, endpoint: Endpoint | None = None, retry: RetryPolicy | None = None,
                 caps: dict[str, int] | None = None, instructions: dict[str, str] | None = None) -> None:
        self.model = model
        self.instructions = instructions or {}
        """The deployment's rules by instructions setting (see ``dmem.prompts.instructions``)."""
        self.caller = StructuredCaller(model, method=method, max_retries=max_retries, endpoint=endpoint,
                                       retry=retry, caps=resolve_caps("") if caps is None else caps,
                                       max_concurrency=max_concurrency)
        self.answer_style = answer_style
        self.temperature = temperature

    @classmethod
    def from_context(cls, model: BaseChatModel, ctx: Context, endpoints: Endpoints | None = None) -> ModelDecider:
        """A decider with the call settings of ``ctx``, its endpoint taken from ``endpoints``.

        Deciders built with the same ``endpoints`` share each server's concurrency slots and the
        structured-output formats it refused (``Resources`` holds one ``Endpoints`` per owner).
        """
        endpoint = (endpoints or Endpoints()).for_model(model, ctx.endpoint_concurrency, ctx.max_concurrency)
        retry = RetryPolicy(retries=ctx.provider_retries, backoff=ctx.retry_backoff, deadline=ctx.call_deadline)
        return cls(model, method=ctx.structured_output, max_retries=ctx.max_retries, answer_style=ctx.answer_style,
                   temperature=ctx.temperature, endpoint=endpoint, retry=retry, caps=resolve_caps(ctx.output_caps),
                   instructions={name: getattr(ctx, name) for name in set(STAGE_SETTING.values())})

    def _call(self, schema: type[M], messages: list[BaseMessage], stage: str, phase: str,
              temperature: float | None = None) -> tuple[M, Usage]:
        temp = self.temperature if temperature is None else temperature
        messages = with_instructions(messages, stage, self.instructions)
        return self.caller.call(schema, messages, stage=stage, temperature=temp, tags=[phase, stage])

    async def _acall(self, schema: type[M], messages: list[BaseMessage], stage: str, phase: str,
                     temperature: float | None = None) -> tuple[M, Usage]:
        temp = self.temperature if temperature is None else temperature
        return await self.caller.acall(schema, messages, stage=stage, temperature=temp, tags=[phase, stage])

    # Ingestion ---------------------------------------------------------------------------
    def admit(self, exchange: list[Message], history: list[Message],
              memories: list[MemoryRecord]) -> Decided[AdmissionVerdicts]:
        """Judge the exchange's utterances with the question they answer (history) and the memories they extend."""
        out, usage = self._call(AdmissionVerdicts, admission_prompt(exchange, history, memories),
                                "admit", "ingestion")
        return Decided(complete_verdicts(out, exchange), usage)

    def split(self, admitted: list[Message], history: list[Message], memories: list[MemoryRecord],
              admission: AdmissionVerdicts | None = None) -> Decided[FactDrafts]:
        """The model drafts the facts from the turns themselves; ``admission`` holds no reading of a model's."""
        out, usage = self._call(FactDrafts, split_prompt(admitted, history, memories),
                                "split_intents", "ingestion")
        return Decided(with_questions(clean_drafts(out, admitted), admitted, history), usage)

    def classify_scope(self, facts: list[Fact]) -> Decided[ScopeLabels]:
        out, usage = self._call(ScopeLabels, scope_prompt(facts), "classify_scope", "ingestion")
        return Decided(complete_labels(out, len(facts)), usage)

    async def aadmit(self, exchange: list[Message], history: list[Message],
                     memories: list[MemoryRecord]) -> Decided[AdmissionVerdicts]:
        out, usage = await self._acall(AdmissionVerdicts, admission_prompt(exchange, history), "admit", "ingestion")
        return Decided(complete_verdicts(out, exchange), usage)

    async def asplit(self, admitted: list[Message], history: list[Message], memories: list[MemoryRecord],
                     admission: AdmissionVerdicts | None = None) -> Decided[FactDrafts]:
        out, usage = await self._acall(FactDrafts, split_prompt(admitted, history, memories),
                                       "split_intents", "ingestion")
        return Decided(clean_drafts(out, admitted), usage)

    async def aclassify_scope(self, facts: list[Fact]) -> Decided[ScopeLabels]:
        out, usage = await self._acall(ScopeLabels, scope_prompt(facts), "classify_scope", "ingestion")
        return Decided(complete_labels(out, len(facts)), usage)

    async def aextract_facts(self, exchange: list[Message], history: list[Message],
                             memories: list[MemoryRecord]) -> Decided[FactDrafts]:
        out, usage = await self._acall(FactDrafts, extraction_prompt(exchange, history, memories),
                                       "extract_facts", "ingestion")
        return Decided(clean_drafts(out, exchange), usage)

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

    def decide_lifecycle_batch(self, facts: list[Fact],
                               background: list[MemoryRecord]) -> Decided[list[LifecycleDecision]]:
        out, usage = self._call(LifecycleDecisions, lifecycle_batch_prompt(facts, background),
                                "decide_lifecycle_batch", "ingestion")
        return Decided(check_batch(out, facts, len(background)), usage)

    async def adecide_lifecycle(self, fact: Fact, background: list[MemoryRecord]) -> Decided[LifecycleDecision]:
        out, usage = await self._acall(LifecycleDecision, lifecycle_prompt(fact, background),
                                       "decide_lifecycle", "ingestion")
        return Decided(check_lifecycle(out, fact, len(background)), usage)

    async def adecide_lifecycle_batch(self, facts: list[Fact],
                                      background: list[MemoryRecord]) -> Decided[list[LifecycleDecision]]:
        out, usage = await self._acall(LifecycleDecisions, lifecycle_batch_prompt(facts, background),
                                       "decide_lifecycle_batch", "ingestion")
        return Decided(check_batch(out, facts, len(background)), usage)

    # Query -------------------------------------------------------------------------------
    def filter_memories(self, question: str, memories: list[MemoryRecord]) -> Decided[MemorySelection]:
        out, usage = self._call(MemorySelection, filter_prompt(question, memories),
                                "filter_memories", "query")
        return Decided(clean_selection(out, len(memories)), usage)

    async def afilter_memories(self, question: str, memories: list[MemoryRecord]) -> Decided[MemorySelection]:
        out, usage = await self._acall(MemorySelection, filter_prompt(question, memories),
                                       "filter_memories", "query")
        return Decided(clean_selection(out, len(memories)), usage)

    def answer(self, question: str, context: list[str], *,
               temperature: float | None = None, sample: int = 0, core: int | None = None) -> Decided[AnswerDraft]:
        # The model's own sampling noise at ``temperature`` varies the samples; the index is not needed.
        # A model reads every line, a wide question's wider share too: ``core`` is not needed either.
        out, usage = self._call(AnswerDraft, answer_prompt(question, context, self.answer_style),
                                "answer", "query", temperature)
        return _answered(out, usage)

    async def aanswer(self, question: str, context: list[str], *,
                      temperature: float | None = None, sample: int = 0,
                      core: int | None = None) -> Decided[AnswerDraft]:
        out, usage = await self._acall(AnswerDraft, answer_prompt(question, context, self.answer_style),
                                       "answer", "query", temperature)
        return _answered(out, usage)

    def quality_gate(self, question: str, answer: str, context: list[str]) -> Decided[QualityGateVerdict]:
        out, usage = self._call(QualityGateVerdict, quality_gate_prompt(question, answer, context),
                                "quality_gate", "query")
        return _gated(answer, out, usage)

    async def aquality_gate(self, question: str, answer: str, context: list[str]) -> Decided[QualityGateVerdict]:
        out, usage = await self._acall(QualityGateVerdict, quality_gate_prompt(question, answer, context),
                                       "quality_gate", "query")
        return _gated(answer, out, usage)

    def partial_stands(self, question: str, answer: str) -> bool:
        """Never: "no information" stands (the offline engine's rule was not measured on a chat model)."""
        return False

    def group_answers(self, question: str, answers: list[str]) -> Decided[AnswerGroups]:
        out, usage = self._call(AnswerGroups, group_prompt(question, answers), "group_answers", "query")
        return Decided(clean_groups(out, answers), usage)

    def read_chunk(self, question: str, chunk: list[Message], history: list[Message]) -> Decided[ChunkFacts]:
        out, usage = self._call(_ReplyChunkFacts, read_chunk_prompt(question, chunk, history),
                                "read_chunk", "deliberation")
        return Decided(clamp_chunk_facts(out.model_dump()["facts"], chunk), usage)

    def select_facts(self, question: str, facts: list[ScoredFact]) -> Decided[MemorySelection]:
        out, usage = self._call(MemorySelection, select_prompt(question, facts),
                                "select_facts", "deliberation")
        return Decided(clean_selection(out, len(facts)), usage)


    async def agroup_answers(self, question: str, answers: list[str]) -> Decided[AnswerGroups]:
        out, usage = await self._acall(AnswerGroups, group_prompt(question, answers), "group_answers", "query")
        return Decided(clean_groups(out, answers), usage)

    async def aread_chunk(self, question: str, chunk: list[Message], history: list[Message]) -> Decided[ChunkFacts]:
        out, usage = await self._acall(_ReplyChunkFacts, read_chunk_prompt(question, chunk, history),
                                       "read_chunk", "deliberation")
        return Decided(clamp_chunk_facts(out.model_dump()["facts"], chunk), usage)

    async def aselect_facts(self, question: str, facts: list[ScoredFact]) -> Decided[MemorySelection]:
        out, usage = await self._acall(MemorySelection, select_prompt(question, facts),
                                       "select_facts", "deliberation")
        return Decided(clean_selection(out, len(facts)), usage)

def _answered(out: AnswerDraft, usage: Usage) -> Decided[AnswerDraft]:
    """An answer draft with a null answer written as NO_INFO."""
    text = out.answer.strip()
    return Decided(out.model_copy(update={"answer": NO_INFO if is_null_answer(text) else text}), usage)


def _gated(answer: str, out: QualityGateVerdict, usage: Usage) -> Decided[QualityGateVerdict]:
    """The gate's verdict, with the rubric applied: a no-information answer is never complete."""
    if is_null_answer(answer) and out.completeness.passed:
        out = out.model_copy(update={"completeness": CriterionVerdict(
            reason=f"{out.completeness.reason} [overridden: a no-information answer is incomplete]",
            passed=False)})
    return Decided(out, usage)
