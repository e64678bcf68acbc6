"""Data records shared by every layer: messages, memories, facts, operations and usage."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

MetadataValue = str | int | float | bool
"""A metadata value: JSON scalars only, so filters compare them exactly."""


class Category(StrEnum):
    """Gated Memory's six formation categories (multi-label)."""

    PERSONA = "persona"
    PREFERENCE = "preference"
    EVENT = "event"
    PROCEDURAL = "procedural"
    USER_RULE = "user_rule"
    ERROR_LEARNING = "error_learning"


class Provenance(StrEnum):
    """Whether the user asserted a fact, said it with a hedge ('probably', 'I think'), or implied it in passing."""

    STATED = "stated"
    HEDGED = "hedged"
    INFERRED = "inferred"


class Scope(StrEnum):
    """Entity scope; decides which knowledge source enrichment may consult."""

    USER_PII = "USER_PII"
    INTERNAL = "INTERNAL"
    EXTERNAL = "EXTERNAL"
    GENERIC = "GENERIC"


class Operation(StrEnum):
    """Mem0-style lifecycle operation."""

    ADD = "ADD"
    UPDATE = "UPDATE"
    DELETE = "DELETE"
    NOOP = "NOOP"


class Message(BaseModel):
    """One raw conversation message, as recorded in the transcript log."""

    model_config = ConfigDict(frozen=True)

    conversation_id: str = Field(default="default", description="Conversation the message belongs to.")
    turn_id: str = Field(description="Stable id of the turn inside its conversation (e.g. 'D1:3').")
    speaker: str = Field(description="Who said it (a user name, 'user' or 'assistant').")
    text: str = Field(default="", description="What was said.")
    timestamp: datetime | None = Field(default=None, description="When it was said, if known.")
    image_caption: str | None = Field(default=None, description="Caption of a shared image, if any.")
    seq: int = Field(default=0, description="Position in the conversation, used to keep order.")

    def render(self, *, timed: bool = True) -> str:
        """One line with time (unless ``timed`` is False), speaker and text (the caption stands in for an image)."""
        when = f"[{self.timestamp:%Y-%m-%d %H:%M}] " if self.timestamp and timed else ""
        body = self.text
        if self.image_caption:
            body = f"{body} [shares a photo: {self.image_caption}]".strip()
        return f"{when}{self.speaker}: {body}"


class MemoryRecord(BaseModel):
    """A stored memory: one atomic fact with its provenance and audit fields."""

    id: str = Field(description="Stable id of the memory (its history keeps it after deletion).")
    namespace: str = Field(description="Owner of the memory (user or agent id).")
    text: str = Field(description="The fact, one sentence with the speaker named.")
    categories: list[Category] = Field(default_factory=list, description="Formation categories (multi-label).")
    provenance: Provenance = Field(default=Provenance.STATED,
                                   description="Stated by the user, said with a hedge, or inferred.")
    scope: Scope = Field(default=Scope.GENERIC, description="Entity scope; decides what enrichment may consult.")
    source_turn_ids: list[str] = Field(default_factory=list, description="Transcript turns the fact came from.")
    speaker: str | None = Field(default=None, description="Who said it, when known.")
    event_time: datetime | None = Field(default=None, description="Absolute time the fact refers to.")
    created_at: datetime = Field(description="When the memory was added.")
    updated_at: datetime = Field(description="When the memory last changed.")
    language: str = Field(default="en", description="Language of the text (ISO 639-1).")
    conversation_id: str | None = Field(default=None, description="Conversation the fact came from.")
    enrichment: dict[str, str] = Field(default_factory=dict, description="Attributes added by enrichment.")
    enrichment_source: str | None = Field(
        default=None, description="Where the enrichment came from and about which entity, "
        "e.g. \"external:wiki about 'Tesla Model 3'\"; None without enrichment.")
    metadata: dict[str, MetadataValue] = Field(
        default_factory=dict, description="The caller's labels (``add(metadata=...)``, the ingestion input's "
        "``metadata``, a host's remember node or tool, ``update``); search filters match them exactly.")

    def render(self) -> str:
        """Text with its event time, as the answerer sees it."""
        when = self.event_time or self.created_at
        return f"[{when:%Y-%m-%d}] {self.text}"


class Fact(BaseModel):
    """A candidate fact moving through formation, before it becomes a memory."""

    text: str = Field(description="The fact, one sentence with the speaker named.")
    namespace: str = Field(description="Namespace the fact will be stored in.")
    speaker: str | None = Field(default=None, description="Who said it, when known.")
    categories: list[Category] = Field(default_factory=list, description="Formation categories (multi-label).")
    provenance: Provenance = Field(default=Provenance.STATED,
                                   description="Stated by the user, said with a hedge, or inferred.")
    scope: Scope = Field(default=Scope.GENERIC, description="Entity scope; decides what enrichment may consult.")
    enrich: bool = Field(default=False, description="Whether enrichment would help this fact.")
    language: str = Field(default="en", description="Language of the text (ISO 639-1).")
    source_turn_ids: list[str] = Field(default_factory=list, description="Transcript turns the fact came from.")
    event_time: datetime | None = Field(default=None, description="Absolute time the fact refers to.")
    conversation_id: str | None = Field(default=None, description="Conversation the fact came from.")
    enrichment: dict[str, str] = Field(default_factory=dict, description="Attributes added by enrichment.")
    entity: str | None = Field(
        default=None, description="The entity the scope step named (a public name for EXTERNAL): the only "
        "text a knowledge lookup may carry; None means no lookup.")
    enrichment_source: str | None = Field(default=None, description="Where the enrichment came from, "
                                          "and about which entity.")
    personal: list[str] = Field(default_factory=list, description="Kinds of personal data found in the fact or "
                                "in the utterances it came from; any makes the fact USER_PII, whatever rewriting "
                                "followed.")
    not_enriched: str | None = Field(default=None, description="Why a fact the scope step flagged for enrichment "
                                     "was not looked up (a privacy rule refused it); None otherwise.")


class AdmissionDecision(BaseModel):
    """The admission gate's verdict on one utterance, kept for the audit trail."""

    turn_id: str = Field(description="The turn judged.")
    speaker: str = Field(description="Who said it.")
    utterance: str = Field(description="What was said.")
    admitted: bool = Field(description="True when the utterance may become memories.")
    reason: str = Field(description="Why it was admitted or rejected.")


class AppliedOperation(BaseModel):
    """A lifecycle operation as applied to the store."""

    operation: Operation = Field(description="ADD, UPDATE, DELETE or NOOP.")
    memory_id: str | None = Field(default=None, description="The memory written, removed or restated.")
    namespace: str = Field(description="Namespace of the memory.")
    old_text: str | None = Field(default=None, description="Text before the operation.")
    new_text: str | None = Field(default=None, description="Text after the operation.")
    reason: str = Field(default="", description="Why the lifecycle decided so.")


class HistoryEntry(BaseModel):
    """One row of the append-only operation history."""

    memory_id: str = Field(description="The memory changed.")
    namespace: str = Field(description="Namespace of the memory.")
    operation: Operation = Field(description="ADD, UPDATE, DELETE, or NOOP (a restatement that added source turns).")
    old_text: str | None = Field(description="Text before the operation.")
    new_text: str | None = Field(description="Text after the operation.")
    reason: str = Field(description="Why it changed.")
    at: datetime = Field(description="When it changed.")


class SkippedChunk(BaseModel):
    """A stretch of the transcript that deliberation meant to read but could not (its model call failed)."""

    index: int = Field(description="Position of the chunk in the reading plan.")
    turn_ids: list[str] = Field(default_factory=list, description="Turns of the chunk that were not read.")
    reason: str = Field(default="", description="Why the chunk was skipped (the error after retries).")


class Usage(BaseModel):
    """Cost of model work in one stage: calls, tokens and wall seconds.

    Every request sent counts, including the ones that failed (provider error, malformed or
    cut-off reply, a refused format) and were retried; the ``retry_*`` fields say how much of the
    total those attempts were, so the cost of retrying can be reported apart.
    """

    stage: str = Field(description="Pipeline stage (admit, answer, read_chunk, ...).")
    calls: int = Field(default=0, description="Requests sent, failed and retried ones included.")
    input_tokens: int = Field(default=0, description="Prompt tokens (reported or estimated).")
    output_tokens: int = Field(default=0, description="Completion tokens (reported or estimated).")
    seconds: float = Field(default=0.0, description="Wall seconds spent.")
    estimated: bool = Field(default=False, description="True when some token counts are offline estimates.")
    retries: int = Field(default=0, description="Of ``calls``, attempts that did not give the result.")
    retry_input_tokens: int = Field(default=0, description="Input tokens of those attempts.")
    retry_output_tokens: int = Field(default=0, description="Output tokens of those attempts.")
    retry_seconds: float = Field(default=0.0, description="Seconds spent in those attempts.")

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            stage=self.stage,
            calls=self.calls + other.calls,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            seconds=self.seconds + other.seconds,
            estimated=self.estimated or other.estimated,
            retries=self.retries + other.retries,
            retry_input_tokens=self.retry_input_tokens + other.retry_input_tokens,
            retry_output_tokens=self.retry_output_tokens + other.retry_output_tokens,
            retry_seconds=self.retry_seconds + other.retry_seconds,
        )

    def as_retry(self) -> Usage:
        """The same cost, counted as a failed or repeated attempt."""
        return self.model_copy(update={"retries": self.calls, "retry_input_tokens": self.input_tokens,
                                       "retry_output_tokens": self.output_tokens,
                                       "retry_seconds": self.seconds})

    def retry_part(self) -> Usage:
        """Only the failed and repeated attempts, as their own usage."""
        return Usage(stage="retries", calls=self.retries, input_tokens=self.retry_input_tokens,
                     output_tokens=self.retry_output_tokens, seconds=self.retry_seconds,
                     estimated=self.estimated and self.retries > 0, retries=self.retries,
                     retry_input_tokens=self.retry_input_tokens, retry_output_tokens=self.retry_output_tokens,
                     retry_seconds=self.retry_seconds)


def summarize_usage(records: list[Usage]) -> dict[str, Usage]:
    """Fold usage records into one total per stage, plus 'total' (everything) and 'retries'.

    'retries' is the part of 'total' spent on failed and repeated attempts (shown apart, not
    added again).
    """
    out: dict[str, Usage] = {}
    for rec in records:
        out[rec.stage] = out[rec.stage] + rec if rec.stage in out else rec.model_copy()
    total = Usage(stage="total")
    for rec in out.values():
        total = total + rec
    out["total"] = total
    out["retries"] = total.retry_part()
    return out
