"""The methods an evaluation compares: D-Mem's gate policies (formation layer on or off) and two baselines.

Memory methods answer through ``Memory.ask`` over a store ingested once per conversation; their
``settings`` are the Context values the method implies. ``full_context`` gives the whole
transcript to one answer call; ``rag`` retrieves raw-turn windows by cosine similarity.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import numpy as np
from langchain_core.embeddings import Embeddings

from dmem.api import Memory
from dmem.datasets.datasets import Conversation, Dataset, QAItem
from dmem.decisions.base import Decider
from dmem.errors import ConfigError, DataError, StructuredOutputError
from dmem.state.gate_policy import GatePolicy, route_of
from dmem.state.schemas import Message, Usage, summarize_usage
from dmem.state.verdicts import NO_INFO

log = logging.getLogger(__name__)
MethodKind = Literal["memory", "full_context", "rag"]
RAG_WINDOW = 3
"""Consecutive turns per RAG chunk."""
RAG_TOP_K = 10
"""Chunks the RAG baseline retrieves per question."""

_POLICIES: list[tuple[str, str, dict[str, Any]]] = [
    ("mem0", "Mem0*: System 1 only", {"gate_policy": "never"}),
    ("filter", "Mem0* with the Filter step", {"gate_policy": "never", "use_filter": True}),
    ("majority", "Majority Voting gate", {"gate_policy": "majority"}),
    ("consensus", "Consensus gate", {"gate_policy": "consensus"}),
    ("quality", "Quality Gating (D-Mem)", {"gate_policy": "quality"}),
    ("full_deliberation", "Full Deliberation always (full scan)", {"gate_policy": "always",
                                                                    "deliberation_mode": "full"}),
    ("focused_deliberation", "Focused Deliberation always", {"gate_policy": "always",
                                                             "deliberation_mode": "focused"}),
]


@dataclass(frozen=True)
class Method:
    """One evaluated method: how it answers and which ingestion (if any) it needs."""

    name: str
    kind: MethodKind
    description: str
    settings: tuple[tuple[str, Any], ...] = ()
    """Context settings the method implies (query side), as sorted pairs."""
    formation: bool | None = None
    """Formation layer of the store it reads; None for baselines, which need no store."""

    @property
    def overrides(self) -> dict[str, Any]:
        """The method's settings as a dict."""
        return dict(self.settings)

    @property
    def needs_store(self) -> bool:
        """Memory methods read an ingested store; baselines do not."""
        return self.kind == "memory"

    @property
    def gate_policy(self) -> str | None:
        """The gate policy of a memory method."""
        return self.overrides.get("gate_policy")

    @property
    def gated(self) -> bool:
        """Methods whose gate may fall back to Full Deliberation (D-Mem Table 2)."""
        policy = self.gate_policy
        return policy is not None and route_of(cast(GatePolicy, policy)).gated


def _build_table() -> dict[str, Method]:
    table: dict[str, Method] = {}
    for name, text, settings in _POLICIES:
        pairs = tuple(sorted(settings.items()))
        table[name] = Method(name, "memory", f"{text}, formation layer on", pairs, formation=True)
        off = f"{name}-noformation"
        table[off] = Method(off, "memory", f"{text}, plain Mem0* extraction", pairs, formation=False)
    table["full_context"] = Method("full_context", "full_context", "whole transcript in one answer call")
    table["rag"] = Method("rag", "rag", f"top-{RAG_TOP_K} windows of {RAG_WINDOW} raw turns by cosine")
    return table


METHODS: dict[str, Method] = _build_table()
"""Every method by name."""
PAPER_METHODS = ["mem0", "filter", "majority", "consensus", "quality", "full_deliberation", "full_context", "rag"]
"""The rows of the D-Mem paper's Table 3, in its order (the default selection; focused_deliberation is
selected by name or with 'all')."""


def resolve_methods(spec: str | Sequence[str] | None) -> list[Method]:
    """Methods named in a comma list ('all' = every method, 'paper' = the paper's rows); checked."""
    names = spec.split(",") if isinstance(spec, str) else list(spec or ["paper"])
    out: list[Method] = []
    for raw in (n.strip() for n in names):
        expanded = list(METHODS) if raw == "all" else PAPER_METHODS if raw == "paper" else [raw]
        for name in expanded:
            if name not in METHODS:
                known = ", ".join(METHODS)
                raise ConfigError(f"unknown method {name!r}; choose from: {known} (or 'all', 'paper')")
            if METHODS[name] not in out:
                out.append(METHODS[name])
    if not out:
        raise ConfigError("no method selected; pass --methods, e.g. --methods mem0,quality")
    return out


# --- What gets asked ---------------------------------------------------------------------------


@dataclass(frozen=True)
class QuestionTask:
    """One (method, conversation, question) to answer."""

    method: Method
    conversation: Conversation
    index: int
    qa: QAItem

    @property
    def key(self) -> str:
        """Cache key: method, conversation and question index."""
        return f"{self.method.name}|{self.conversation.conversation_id}|{self.index}"


def select_conversations(dataset: Dataset, ids: list[str] | None) -> list[Conversation]:
    """The conversations asked for (all by default); an unknown id is a DataError."""
    if not ids:
        return list(dataset.conversations)
    by_id = {c.conversation_id: c for c in dataset.conversations}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise DataError(f"no conversation {', '.join(missing)} in {dataset.name}; have: {', '.join(by_id)}")
    return [by_id[i] for i in ids]


def select_questions(conv: Conversation, include_adversarial: bool, limit: int | None) -> list[tuple[int, QAItem]]:
    """Questions of categories 1-4 (and 5 when asked), with their index in the dataset, up to ``limit``."""
    allowed = {1, 2, 3, 4, 5} if include_adversarial else {1, 2, 3, 4}
    chosen = [(i, qa) for i, qa in enumerate(conv.qa) if qa.category in allowed]
    return chosen if limit is None else chosen[:limit]


def speaker_namespaces(conv: Conversation) -> dict[str, str]:
    """Each speaker's namespace, ``<conversation_id>/<speaker>``."""
    speakers = list(dict.fromkeys([*conv.speakers, *(m.speaker for m in conv.messages)]))
    return {s: f"{conv.conversation_id}/{s}" for s in speakers}


# --- Answering ---------------------------------------------------------------------------------


@dataclass
class MethodAnswer:
    """One method's answer to one question, what it cost, and the turns behind its context."""

    answer: str
    usage: dict[str, Usage]
    seconds: float
    route: str
    """'system1', 'deliberation' or 'no_memory' for memory methods; the method name for baselines."""
    gate_passed: bool | None = None
    gate_reasons: list[str] = field(default_factory=list)
    memory_ids: list[str] = field(default_factory=list)
    retrieved_turn_ids: list[str] = field(default_factory=list)
    """Source turns of the memories System 1 retrieved (RAG: of its chunks)."""
    facts_turn_ids: list[str] | None = None
    """Turns of Full Deliberation's facts, when it ran."""
    evidence_turn_ids: list[str] = field(default_factory=list)
    """The answer's evidence trace: its memories' source turns, or its deliberation facts' turns."""
    read_share: float | None = None
    """Share of the full scan's transcript tokens deliberation read, when it ran."""
    unread_turn_ids: list[str] = field(default_factory=list)
    """Turns of chunks deliberation could not read (their model call failed)."""
    engine: str = "model"
    context: list[str] = field(default_factory=list)
    """The lines System 1's answerer read: its memories (``memory_ids``) rendered, in order."""
    asked: str = ""
    """The question as System 1's answerer read it (a speaker's other name written as their label); empty: as
    asked."""


def answer_memory(memory: Memory, question: str, namespaces: list[str], method: Method) -> MethodAnswer:
    """Ask through D-Mem with the method's settings; collect the source turns of what it used."""
    ans = memory.ask(question, user_ids=namespaces, **method.overrides)
    retrieved = {r.memory.id: r.memory for r in ans.retrieved}
    turns = [t for memory_id in ans.memory_ids if memory_id in retrieved
             for t in retrieved[memory_id].source_turn_ids]
    deliberated = ans.route == "deliberation"
    facts = [t for f in ans.facts_used for t in f.turn_ids] if deliberated else None
    return MethodAnswer(ans.answer, ans.usage, ans.seconds, ans.route, ans.gate_passed, ans.gate_reasons,
                        ans.memory_ids, list(dict.fromkeys(turns)), facts, ans.evidence_turn_ids,
                        ans.read_share if deliberated else None,
                        [t for skip in ans.skipped_chunks for t in skip.turn_ids], ans.engine,
                        [retrieved[m].render() for m in ans.memory_ids if m in retrieved], ans.asked)


@dataclass(frozen=True)
class RagChunk:
    """A window of consecutive raw turns, rendered as one retrievable text."""

    text: str
    turn_ids: tuple[str, ...]


def rag_chunks(messages: Sequence[Message], window: int = RAG_WINDOW) -> list[RagChunk]:
    """Cut the transcript into non-overlapping windows of ``window`` turns."""
    return [
        RagChunk("\n".join(m.render() for m in messages[i:i + window]),
                 tuple(m.turn_id for m in messages[i:i + window]))
        for i in range(0, len(messages), max(1, window))
    ]


def rag_retrieve(question: str, chunks: Sequence[RagChunk], embeddings: Embeddings,
                 k: int = RAG_TOP_K) -> list[RagChunk]:
    """The ``k`` chunks most similar (cosine) to the question, best first."""
    if not chunks:
        return []
    matrix = np.asarray(embeddings.embed_documents([c.text for c in chunks]), dtype=float)
    query = np.asarray(embeddings.embed_query(question), dtype=float)
    norms = np.linalg.norm(matrix, axis=1) * (np.linalg.norm(query) or 1.0)
    scores = matrix @ query / np.where(norms == 0, 1.0, norms)
    order = np.argsort(-scores, kind="stable")[:k]
    return [chunks[i] for i in order]


def _answer_once(decider: Decider, question: str, lines: list[str], route: str,
                 turn_ids: list[str]) -> MethodAnswer:
    """One answer call over context lines; a reply that stays malformed answers no information."""
    started = time.perf_counter()
    try:
        out = decider.answer(question, lines)
    except StructuredOutputError as exc:
        log.warning("%s: answer unusable, recorded as no information: %s", route, exc)
        return MethodAnswer(NO_INFO, summarize_usage([]), time.perf_counter() - started, route,
                            retrieved_turn_ids=turn_ids, engine=decider.name)
    return MethodAnswer(out.value.answer, summarize_usage([out.usage]), time.perf_counter() - started,
                        route, retrieved_turn_ids=turn_ids, engine=decider.name)


def answer_full_context(decider: Decider, question: str, messages: Sequence[Message]) -> MethodAnswer:
    """Full Context baseline: every rendered transcript line in one answer call."""
    return _answer_once(decider, question, [m.render() for m in messages], "full_context", [])


def answer_rag(decider: Decider, embeddings: Embeddings, question: str,
               chunks: Sequence[RagChunk], k: int = RAG_TOP_K) -> MethodAnswer:
    """RAG baseline: the top-k raw-turn windows as context for one answer call."""
    hits = rag_retrieve(question, chunks, embeddings, k)
    turn_ids = [t for c in hits for t in c.turn_ids]
    return _answer_once(decider, question, [c.text for c in hits], "rag", turn_ids)
