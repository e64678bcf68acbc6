"""Typed results returned by the ``Memory`` API."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from dmem.state.schemas import (
    AdmissionDecision,
    AppliedOperation,
    Fact,
    MemoryRecord,
    SkippedChunk,
    Usage,
    summarize_usage,
)
from dmem.state.verdicts import ScoredFact


class PendingTurn(BaseModel):
    """A recorded turn whose formation failed and waits for ``retry_pending``."""

    conversation_id: str
    turn_id: str
    reason: str = Field(description="Why formation failed (the model error or malformed reply).")


class ExchangeResult(BaseModel):
    """What ingesting one exchange did."""

    turn_ids: list[str]
    conversation_id: str | None = None
    status: str = Field(description="formed, nothing_admitted, no_facts, duplicate, pending_retry or claimed "
                                    "(another worker is forming these turns).")
    admissions: list[AdmissionDecision] = Field(default_factory=list)
    facts: list[Fact] = Field(default_factory=list)
    operations: list[AppliedOperation] = Field(default_factory=list)
    error: str | None = None
    usage: list[Usage] = Field(default_factory=list)


class AddResult(BaseModel):
    """What ``Memory.add`` did across all exchanges."""

    exchanges: list[ExchangeResult] = Field(default_factory=list)
    seconds: float = 0.0

    @property
    def operations(self) -> list[AppliedOperation]:
        """Every operation applied, in order."""
        return [op for ex in self.exchanges for op in ex.operations]

    @property
    def admitted(self) -> list[AdmissionDecision]:
        """Admission decisions that admitted an utterance."""
        return [d for ex in self.exchanges for d in ex.admissions if d.admitted]

    @property
    def rejected(self) -> list[AdmissionDecision]:
        """Admission decisions that rejected an utterance, with reasons."""
        return [d for ex in self.exchanges for d in ex.admissions if not d.admitted]

    @property
    def facts(self) -> list[Fact]:
        """Facts formed."""
        return [f for ex in self.exchanges for f in ex.facts]

    @property
    def pending(self) -> list[ExchangeResult]:
        """Exchanges kept for retry after a malformed reply or a model failure."""
        return [ex for ex in self.exchanges if ex.status == "pending_retry"]

    @property
    def pending_turns(self) -> list[PendingTurn]:
        """Every turn kept for retry, with the reason."""
        return [PendingTurn(conversation_id=ex.conversation_id or "", turn_id=t, reason=ex.error or "")
                for ex in self.pending for t in ex.turn_ids]

    def usage(self) -> dict[str, Usage]:
        """Usage per step, plus 'total'."""
        return summarize_usage([u for ex in self.exchanges for u in ex.usage])


class SearchResult(BaseModel):
    """A memory and its similarity to the query."""

    memory: MemoryRecord
    score: float


class Answer(BaseModel):
    """An answer with its route, the gate's reasons, the context used and its cost."""

    question: str
    answer: str
    asked: str = Field(default="", description="The question as it was answered: another name a speaker goes by "
                       "in the chat written as the speaker's label ('Alex' -> 'Sasha'); else the question.")
    route: str = Field(description="system1, deliberation or no_memory.")
    gate_passed: bool | None = None
    gate_reasons: list[str] = Field(default_factory=list)
    unaudited: bool = Field(default=False, description="True when the gate could not run (its model kept "
                            "failing) and System 1's answer was returned without its check.")
    samples: list[str] = Field(default_factory=list, description="Voting samples, for majority/consensus.")
    memory_ids: list[str] = Field(default_factory=list, description="Memories System 1 answered from.")
    retrieved: list[SearchResult] = Field(default_factory=list, description="Every memory retrieved, best first.")
    facts_used: list[ScoredFact] = Field(default_factory=list, description="Full Deliberation's facts.")
    evidence_turn_ids: list[str] = Field(default_factory=list, description="Turns behind the answer: the "
                                         "memories' source turns, or the deliberation facts' turns.")
    read_share: float = Field(default=0.0, description="Share of the full scan's transcript tokens "
                              "deliberation read (0 when it did not run); with a label filter, of the "
                              "filtered transcript's.")
    empty_map: bool = Field(default=False, description="Deliberation read chunks with content and every one "
                            "returned no facts (a model replying {} to each): the answer rests on nothing read.")
    skipped_chunks: list[SkippedChunk] = Field(default_factory=list, description="Chunks deliberation "
                                               "could not read (model call failed): their turns are unread.")
    usage: dict[str, Usage] = Field(default_factory=dict)
    seconds: float = 0.0
    engine: str = Field(default="model", description="'model' or 'offline'.")

    @classmethod
    def from_state(cls, question: str, out: dict[str, Any], seconds: float, engine: str) -> Answer:
        """Build from the query graph's output."""
        gate = out.get("gate") or {}
        return cls(
            question=question, answer=out.get("answer", ""), asked=out.get("asked") or question,
            route=out.get("route", "system1"),
            gate_passed=gate.get("passed"), gate_reasons=list(gate.get("reasons") or []),
            unaudited=bool(gate.get("unaudited")),
            samples=list(gate.get("samples") or []), memory_ids=list(out.get("memory_ids") or []),
            facts_used=list(out.get("facts_used") or []),
            evidence_turn_ids=list(out.get("evidence_turn_ids") or []),
            read_share=float(out.get("read_share") or 0.0),
            skipped_chunks=list(out.get("skipped_chunks") or []),
            empty_map=bool(out.get("empty_map")),
            retrieved=[SearchResult(memory=m, score=sc) for m, sc in
                       zip(out.get("memories") or [], out.get("scores") or [], strict=False)],
            usage=summarize_usage(list(out.get("usage") or [])),
            seconds=seconds, engine=engine,
        )
