"""State of the ingestion, query and deliberation graphs, with reducers for parallel writes.

TypedDicts come from ``typing_extensions`` and carry their field docstrings into the JSON schemas a
LangGraph server and Studio show (``documented``); required input fields are marked ``Required``.
"""

from __future__ import annotations

import operator
from typing import Annotated, Literal, NotRequired, Required

from langchain_core.messages import AnyMessage
from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

from dmem.state.schemas import (
    AdmissionDecision,
    AppliedOperation,
    Fact,
    MemoryRecord,
    Message,
    MetadataValue,
    SkippedChunk,
    Usage,
)
from dmem.state.verdicts import AdmissionVerdicts, LifecycleDecision, QualityGateVerdict, ScoredFact

IngestStatus = Literal["formed", "nothing_admitted", "no_facts", "duplicate", "pending_retry", "claimed"]
Route = Literal["system1", "deliberation", "no_memory"]
documented = with_config(ConfigDict(use_attribute_docstrings=True))
"""Class decorator: the field docstrings below become the descriptions of the JSON schema."""


# Ingestion ----------------------------------------------------------------------------------
@documented
class IngestInput(TypedDict, total=False):
    """One exchange to remember: chat messages (``messages``) or dmem transcript turns (``turns``)."""

    messages: list[AnyMessage]
    """Chat messages, as LangChain messages or their JSON ({"role": "user", "content": "..."}): the key and
    type of a host's MessagesState. Human turns are spoken by 'user' (or the message's name), AI turns by
    'assistant'; the message id is the turn id. Tool and system messages are skipped."""
    turns: list[Message]
    """dmem transcript turns (speaker, text, timestamp, turn id), e.g. from Memory.add or a data set;
    give either these or messages."""
    user_id: str
    """Whose memory this is: the namespace facts go to. Default: the host context's or the config's
    'user_id', else 'default'."""
    conversation_id: str
    """Conversation the chat messages belong to. Default: the config's 'thread_id', else the user id."""
    speaker_namespaces: dict[str, str]
    """Optional speaker -> namespace map (a two-person conversation stores each side apart)."""
    metadata: dict[str, MetadataValue]
    """Optional labels (name -> string, number or boolean) for every memory the exchange's turns create
    or update, as ``Memory.add(metadata=...)``: kept with the turns, written with their memories."""
    idempotency_key: str
    """Optional key naming this send: a resend with the same key (on any thread, at any time) records
    nothing new and forms what is still unformed. Without one, a resend of the same messages within the
    resend_window setting is recognised by their content."""


@documented
class PlannedOperation(TypedDict):
    """A lifecycle decision for one fact, with the background it was made against."""

    index: int
    """Position of the fact in ``facts``."""
    decision: LifecycleDecision
    """The ADD/UPDATE/DELETE/NOOP verdict."""
    background: list[MemoryRecord]
    """Memories the decision's integer ids point into."""


@documented
class IngestOutput(TypedDict, total=False):
    """What the ingestion graph reports."""

    status: IngestStatus
    """How the exchange ended: formed facts, nothing admitted, duplicate, kept for retry, or claimed
    (another worker is forming these turns)."""
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


@documented
class IngestState(IngestInput, IngestOutput, total=False):
    """Working state of the ingestion graph (``turns`` holds the validated exchange after ``read_input``)."""

    exchange: list[Message]
    """Messages of the exchange that are sources of new facts."""
    history: list[Message]
    """Reference history: earlier messages, context only (resolves 'he', 'there')."""
    background: list[MemoryRecord]
    """Existing memories most similar to the exchange (Mem0* extraction context)."""
    admitted_by: AdmissionVerdicts | None
    """The decider's admission verdicts of this exchange, handed to its split: the reading of the turns they hold
    (the offline engine's clause cuts) is never serialized, and the key is emptied once split has read it."""
    enriched: Annotated[list[FactTask], operator.add]
    """Facts returned by enrichment workers, with their positions."""
    plans: Annotated[list[PlannedOperation], operator.add]
    """Lifecycle decisions returned by per-fact workers."""
    failures: Annotated[list[str], operator.add]
    """Errors raised by per-fact workers; any failure keeps the exchange for retry."""
    claim_token: str
    """The worker token under which this run claimed the exchange's turns."""


@documented
class FactTask(TypedDict):
    """Payload of one per-fact worker (enrichment or lifecycle)."""

    index: int
    """Position of the fact in ``facts``."""
    fact: Fact
    """The fact to work on."""
    claim_token: NotRequired[str]
    """The run's worker token, so a worker that fails releases the run's claimed turns."""


# Query --------------------------------------------------------------------------------------
@documented
class QueryInput(TypedDict, total=False):
    """A question and whose memories to answer it from."""

    question: Required[str]
    """The question, in plain words; from ``retrieve`` on, with another name a speaker goes by in the
    chat written as the speaker's label ('Alex' -> 'Sasha', see ``dmem.text.aliases``)."""
    namespaces: list[str]
    """Whose memories to read (one or more user ids). Default: the host context's or the config's
    'user_id', else 'default'."""
    metadata: dict[str, MetadataValue]
    """Optional label filter (name -> string, number or boolean): answer only from memories and
    transcript turns recorded with every one of these labels (``Memory.ask(metadata=...)``).
    Unlabelled turns and memories do not match; absent or empty reads everything."""


@documented
class GateVerdict(TypedDict, total=False):
    """Why the gate routed the way it did."""

    policy: str
    """The gate policy that ran (quality, majority, consensus, never or always)."""
    passed: bool
    """True when System 1's answer was kept."""
    reasons: list[str]
    """Why it passed or failed, one line per criterion or vote."""
    quality: QualityGateVerdict | None
    """The quality gate's verdict per criterion, when the quality policy ran."""
    samples: list[str]
    """Sampled answers, when a voting policy ran."""
    groups: list[list[int]]
    """Samples grouped by meaning (1-based), when a voting policy ran."""
    unaudited: bool
    """True when the gate could not run (its model kept failing): System 1's answer stands, unchecked."""


@documented
class QueryOutput(TypedDict, total=False):
    """What the query graph reports."""

    answer: str
    """The final answer."""
    asked: str
    """The question as it was answered: the input's, with another name a speaker goes by in the chat written as
    the speaker's label ('Alex' -> 'Sasha'); the input's own words when it names no one by another name."""
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
    """Share of the full scan's transcript tokens deliberation read (0 when it did not run); with a
    label filter, of the filtered transcript's full scan."""
    skipped_chunks: list[SkippedChunk]
    """Chunks deliberation could not read (model call failed after retries): their turns are unread."""
    empty_map: bool
    """True when deliberation read chunks with content and every one returned no facts (a model
    replying ``{}`` to every chunk reads nothing): the answer rests on nothing read."""
    usage: Annotated[list[Usage], operator.add]
    """Model work per stage."""


@documented
class QueryState(QueryInput, QueryOutput, total=False):
    """Working state of the query graph."""

    context: list[str]
    """Rendered memories the answer is generated from (after the optional filter)."""
    core_memories: int
    """How many of the first context lines are the memories of the same K every question gets; a wide question's
    wider share follows them (``nodes.retrieval.same_k_first``). All of them after the optional filter."""
    has_transcript: bool
    """Whether the transcript read (under the label filter) holds a turn: looked up by ``retrieve`` when no
    memory matched (a memory implies one), so the router after it reads state only."""
    system1_answer: str
    """System 1's initial answer."""
    system1_evidence_turn_ids: list[str]
    """The turns System 1's answer drew on: its evidence again when that answer stands after deliberation."""
    system1_may_stand: bool
    """The quality gate failed System 1's answer only as incomplete and the engine keeps such an answer should
    Full Deliberation find nothing (``Decider.partial_stands``); reset by each run."""
    deliberation_answer: str
    """Full Deliberation's answer, when it ran."""


# Full Deliberation ------------------------------------------------------------------------
@documented
class DeliberationInput(TypedDict, total=False):
    """Input of Full Deliberation: a question and whose transcript to read."""

    question: Required[str]
    """The question, in plain words."""
    namespaces: list[str]
    """Whose transcript to read (one or more user ids). Default: the host context's or the config's
    'user_id', else 'default'."""
    metadata: dict[str, MetadataValue]
    """Optional label filter: read only the turns recorded with every one of these labels (the query
    graph's ``metadata``). Absent or empty reads the whole transcript."""


@documented
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
    empty_map: bool
    """True when every chunk read returned no facts although the chunks had content."""
    usage: Annotated[list[Usage], operator.add]
    """Model work per stage."""


@documented
class DeliberationState(DeliberationInput, DeliberationOutput, total=False):
    """Working state of Full Deliberation."""

    chunks: list[ChunkTask]
    """The reading plan: chunks of the transcript (all of it, or focused windows), each with its
    read-only preceding messages."""
    chunk_facts: Annotated[list[ScoredFact], operator.add]
    """Facts returned by every chunk worker (scores >= chunk_min_score)."""
    failed_chunks: Annotated[list[SkippedChunk], operator.add]
    """Chunks whose worker failed after retries (written by the workers)."""
    empty_chunks: Annotated[list[int], operator.add]
    """Indexes of the chunks whose worker returned no facts at all (before any score cut)."""
    kept: list[ScoredFact]
    """The ledger: facts above fact_min_score, duplicates collapsed, in event-time order."""


@documented
class ChunkTask(TypedDict):
    """Payload of one Full Deliberation worker."""

    question: str
    """The question the worker reads for."""
    index: int
    """Position of the chunk in the transcript."""
    chunk: list[Message]
    """The messages to read."""
    preceding: list[Message]
    """Earlier messages shown read-only, for context."""

