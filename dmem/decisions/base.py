"""The decision interface: every judgement the graphs need, behind one protocol.

Two implementations exist: ``ModelDecider`` (a chat model with our prompts) and
``OfflineDecider`` (rules, local embeddings, BM25, deterministic date grounding).
Nodes call a ``Decider`` and never ask which one they hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, runtime_checkable

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
    ScopeLabels,
    ScoredFact,
)

T = TypeVar("T")


@dataclass(frozen=True)
class Decided(Generic[T]):
    """A decision's value and what it cost."""

    value: T
    usage: Usage


@runtime_checkable
class Decider(Protocol):
    """Every model-driven decision of ingestion and query.

    Methods raise ``StructuredOutputError`` when a reply stays malformed after retries, and
    ``ProviderError`` when the model endpoint keeps failing; the graphs catch them and degrade
    (turn kept for retry, chunk skipped, answer unaudited).
    """

    name: str
    """'model' or 'offline': shown in outputs so users know which engine answered."""

    # Ingestion ---------------------------------------------------------------------------
    def admit(
        self, exchange: list[Message], history: list[Message], memories: list[MemoryRecord]
    ) -> Decided[AdmissionVerdicts]:
        """Admit or reject each utterance of the current exchange (history only resolves references)."""
        ...

    def split(
        self, admitted: list[Message], history: list[Message], memories: list[MemoryRecord],
        admission: AdmissionVerdicts | None = None,
    ) -> Decided[FactDrafts]:
        """Split admitted utterances into atomic, grounded, categorized facts.

        ``admission``: this engine's ``admit`` verdicts of the same exchange, whose reading of the turns
        (``AdmissionVerdicts.reading``) an engine may reuse rather than read them again.
        """
        ...

    def classify_scope(self, facts: list[Fact]) -> Decided[ScopeLabels]:
        """One scope (USER_PII, INTERNAL, EXTERNAL, GENERIC) and an enrich flag per fact."""
        ...

    def enrich(self, fact: Fact, knowledge: list[str]) -> Decided[Enrichment]:
        """Attributes for a fact, drawn only from the given (scope-permitted) knowledge."""
        ...

    def extract_facts(
        self, exchange: list[Message], history: list[Message], memories: list[MemoryRecord]
    ) -> Decided[FactDrafts]:
        """Mem0*-style extraction (formation layer off): salient facts of the exchange."""
        ...

    def decide_lifecycle(self, fact: Fact, background: list[MemoryRecord]) -> Decided[LifecycleDecision]:
        """ADD, UPDATE, DELETE or NOOP for a new fact; background ids are 0..n-1 in list order."""
        ...

    def decide_lifecycle_batch(
        self, facts: list[Fact], background: list[MemoryRecord]
    ) -> Decided[list[LifecycleDecision]]:
        """One decision per new fact of an exchange, in fact order.

        The facts share one background; its ids are 0..n-1 in list order.
        """
        ...

    # Query -------------------------------------------------------------------------------
    def filter_memories(self, question: str, memories: list[MemoryRecord]) -> Decided[MemorySelection]:
        """Keep only the memories strictly needed to answer (indexes from 1)."""
        ...

    def answer(
        self, question: str, context: list[str], *, temperature: float | None = None, sample: int = 0,
        core: int | None = None,
    ) -> Decided[AnswerDraft]:
        """Answer from context lines (memories or deliberation facts).

        ``sample`` numbers a vote's samples (0 = the answer itself); an engine without sampling noise
        uses it, with ``temperature``, to give each sample its own repeatable draw. ``core``: how many of
        the first lines are the memories of the same K every question gets, a wide question's wider share
        after them (None: all lines alike); an engine may read those first (the offline engine does), a
        model reads every line.
        """
        ...

    def quality_gate(self, question: str, answer: str, context: list[str]) -> Decided[QualityGateVerdict]:
        """Quality gate: relevance, faithfulness & consistency, completeness."""
        ...

    def group_answers(self, question: str, answers: list[str]) -> Decided[AnswerGroups]:
        """Group candidate answers that mean the same thing (indexes from 1)."""
        ...

    def partial_stands(self, question: str, answer: str) -> bool:
        """Whether System 1's incomplete ``answer`` stands when deliberation finds nothing (the engine's own rule).

        Asked of an answer the quality gate found relevant and faithful and failed only on completeness; no model call.
        """
        ...

    # The async path: same decisions, awaited on the caller's event loop.
    async def aadmit(
        self, exchange: list[Message], history: list[Message], memories: list[MemoryRecord]
    ) -> Decided[AdmissionVerdicts]:
        """``admit`` on the event loop."""
        ...

    async def asplit(
        self, admitted: list[Message], history: list[Message], memories: list[MemoryRecord],
        admission: AdmissionVerdicts | None = None,
    ) -> Decided[FactDrafts]:
        """``split`` on the event loop."""
        ...

    async def aclassify_scope(self, facts: list[Fact]) -> Decided[ScopeLabels]:
        """``classify_scope`` on the event loop."""
        ...

    async def aextract_facts(
        self, exchange: list[Message], history: list[Message], memories: list[MemoryRecord]
    ) -> Decided[FactDrafts]:
        """``extract_facts`` on the event loop."""
        ...

    async def adecide_lifecycle(self, fact: Fact, background: list[MemoryRecord]) -> Decided[LifecycleDecision]:
        """``decide_lifecycle`` on the event loop."""
        ...

    async def adecide_lifecycle_batch(
        self, facts: list[Fact], background: list[MemoryRecord]
    ) -> Decided[list[LifecycleDecision]]:
        """``decide_lifecycle_batch`` on the event loop."""
        ...

    async def agroup_answers(self, question: str, answers: list[str]) -> Decided[AnswerGroups]:
        """``group_answers`` on the event loop."""
        ...

    async def aread_chunk(self, question: str, chunk: list[Message], history: list[Message]) -> Decided[ChunkFacts]:
        """``read_chunk`` on the event loop."""
        ...

    async def aselect_facts(self, question: str, facts: list[ScoredFact]) -> Decided[MemorySelection]:
        """``select_facts`` on the event loop."""
        ...

    async def afilter_memories(self, question: str, memories: list[MemoryRecord]) -> Decided[MemorySelection]:
        """``filter_memories`` on the event loop."""
        ...

    async def aanswer(
        self, question: str, context: list[str], *, temperature: float | None = None, sample: int = 0,
        core: int | None = None,
    ) -> Decided[AnswerDraft]:
        """``answer`` on the event loop."""
        ...

    async def aquality_gate(self, question: str, answer: str, context: list[str]) -> Decided[QualityGateVerdict]:
        """``quality_gate`` on the event loop."""
        ...

    def read_chunk(self, question: str, chunk: list[Message], history: list[Message]) -> Decided[ChunkFacts]:
        """Full Deliberation map step: scored, query-relevant facts from one chunk."""
        ...

    def select_facts(self, question: str, facts: list[ScoredFact]) -> Decided[MemorySelection]:
        """Full Deliberation reduce step: the facts needed to answer (indexes from 1)."""
        ...
