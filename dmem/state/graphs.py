"""State of the ingestion, query and deliberation graphs, with reducers for parallel writes."""

from __future__ import annotations

import operator
from typing import Annotated, Literal, TypedDict

from dmem.state.schemas import (
    AdmissionDecision,
    AppliedOperation,
    Fact,
    MemoryRecord,
    Message,
    SkippedChunk,
    Usage,
)
from dmem.state.verdicts import LifecycleDecision, QualityGateVerdict, ScoredFact

IngestStatus = Literal["formed", "nothing_admitted", "no_facts", "duplicate", "pending_retry"]
Route = Literal["system1", "deliberation", "no_memory"]


# Ingestion ----------------------------------------------------------------------------------
class IngestInput(TypedDict, total=False):
    """What a caller passes to the ingestion graph: one exchange of new messages."""

    messages: list[Message]
    """The current exchange (usually a user message and its reply), in order."""
    user_id: str
    """Namespace facts go to when no speaker mapping applies."""
    speaker_namespaces: dict[str, str]
    """Optional speaker -> namespace map (a two-person conversation stores each side apart)."""


class PlannedOperation(TypedDict):
    """A lifecycle decision for one fact, with the background it was made against."""

    index: int
    """Position of the fact in ``facts``."""
    decision: LifecycleDecision
    """The ADD/UPDATE/DELETE/NOOP verdict."""
    background: list[MemoryRecord]
    """Memories the decision's integer ids point into."""


class IngestOutput(TypedDict, total=False):
    """What the ingestion graph reports."""

    status: IngestStatus
    """How the exchange ended: formed facts, nothing admitted, duplicate, or kept for retry."""
    admissions: list[AdmissionDecision]
    """Every admission decision with its reason (empty with the formation layer off)."""
    facts: list[Fact]
    """Facts formed (after grounding, enrichment and normalization)."""
    operations: list[AppliedOperation]
    """Operations applied to the store."""
    usage: Annotated[list[Usage], operator.add]
    """Model work per step."""
    error: str | None
    """Why formation failed, when the exchange was kept for retry."""


class IngestState(IngestInput, IngestOutput, total=False):
    """Working state of the ingestion graph."""

    exchange: list[Message]
    """Messages of the exchange that are sources of new facts."""
    history: list[Message]
    """Reference history: earlier messages, context only (resolves 'he', 'there')."""
    background: list[MemoryRecord]
    """Existing memories most similar to the exchange (Mem0* extraction context)."""
    enriched: Annotated[list[FactTask], operator.add]
    """Facts returned by enrichment workers, with their positions."""
    plans: Annotated[list[PlannedOperation], operator.add]
    """Lifecycle decisions returned by per-fact workers."""
    failures: Annotated[list[str], operator.add]
    """Errors raised by per-fact workers; any failure keeps the exchange for retry."""


class FactTask(TypedDict):
    """Payload of one per-fact worker (enrichment or lifecycle)."""

    index: int
    fact: Fact


# Query --------------------------------------------------------------------------------------
class QueryInput(TypedDict, total=False):
    """A question and whose memories to answer it from."""

    question: str
    """The question."""
    namespaces: list[str]
    """Namespaces asked about (LoCoMo asks about two speakers)."""


class GateVerdict(TypedDict, total=False):
    """Why the gate routed the way it did."""

    policy: str
    passed: bool
    reasons: list[str]
    quality: QualityGateVerdict | None
    samples: list[str]
    groups: list[list[int]]


class QueryOutput(TypedDict, total=False):
    """What the query graph reports."""

    answer: str
    """The final answer."""
    route: Route
    """system1 (memories sufficed), deliberation (Full Deliberation ran) or no_memory."""
    gate: GateVerdict
    """The gate's verdict and reasons."""
    memory_ids: list[str]
    """Memories System 1 answered from (after the optional filter)."""
    memories: list[MemoryRecord]
    """Every memory retrieved (top-K per namespace), best first."""
    scores: list[float]
    """Retrieval score of each retrieved memory: fused rank score (hybrid) or cosine (dense)."""
    facts_used: list[ScoredFact]
    """Facts (with source turn ids) Full Deliberation answered from."""
    evidence_turn_ids: list[str]
    """Turns behind the answer: the memories' source turns, or the deliberation facts' turns."""
    read_share: float
    """Share of the full scan's transcript tokens deliberation read (0 when it did not run)."""
    skipped_chunks: list[SkippedChunk]
    """Chunks deliberation could not read (model call failed after retries): their turns are unread."""
    usage: Annotated[list[Usage], operator.add]
    """Model work per stage."""


class QueryState(QueryInput, QueryOutput, total=False):
    """Working state of the query graph."""

    context: list[str]
    """Rendered memories the answer is generated from (after the optional filter)."""
    system1_answer: str
    """System 1's initial answer."""
    deliberation_answer: str
    """Full Deliberation's answer, when it ran."""


# Full Deliberation ------------------------------------------------------------------------
class DeliberationInput(TypedDict, total=False):
    """Input of the Full Deliberation subgraph."""

    question: str
    """The question."""
    namespaces: list[str]
    """Namespaces whose transcript is read."""
    memories: list[MemoryRecord]
    """System 1's memories: their source turns seed focused reading (retrieved here when absent)."""


class DeliberationOutput(TypedDict, total=False):
    """Output of the Full Deliberation subgraph."""

    deliberation_answer: str
    """Answer generated from the selected facts."""
    facts_used: list[ScoredFact]
    """The facts the answer was generated from, as one dated timeline."""
    evidence_turn_ids: list[str]
    """Turns of the facts the answer was generated from."""
    read_share: float
    """Share of the full scan's transcript tokens the reading plan sends."""
    skipped_chunks: list[SkippedChunk]
    """Chunks whose worker failed after retries, with their unread turns."""
    usage: Annotated[list[Usage], operator.add]


class DeliberationState(DeliberationInput, DeliberationOutput, total=False):
    """Working state of Full Deliberation."""

    chunks: list[ChunkTask]
    """The reading plan: chunks of the transcript (all of it, or focused windows), each with its
    read-only preceding messages."""
    chunk_facts: Annotated[list[ScoredFact], operator.add]
    """Facts returned by every chunk worker (scores >= chunk_min_score)."""
    failed_chunks: Annotated[list[SkippedChunk], operator.add]
    """Chunks whose worker failed after retries (written by the workers)."""
    kept: list[ScoredFact]
    """The ledger: facts above fact_min_score, duplicates collapsed, in event-time order."""


class ChunkTask(TypedDict):
    """Payload of one Full Deliberation worker."""

    question: str
    index: int
    chunk: list[Message]
    preceding: list[Message]

