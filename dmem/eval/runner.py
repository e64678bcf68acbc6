"""The evaluation protocol: ingest each conversation once per configuration, then ask, score and cache.

Stores live in ``<out>/stores/<ingest-hash>/<conversation_id>`` with per-speaker namespaces
``<conversation_id>/<speaker>``; ``<conversation_id>.done.json`` beside a store marks a finished
ingestion (an interrupted one resumes: the transcript is idempotent on turn ids). Every answer is
appended to ``<out>/answers.jsonl`` under its method, conversation, question index and a
fingerprint of the settings, so a rerun asks only what is missing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import threading
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from dmem.api import Memory
from dmem.errors import DataError, DmemError
from dmem.eval.datasets import Conversation, Dataset, QAItem, load_dataset
from dmem.eval.judge import Judge, judge_answer, judge_scores, lexical_scores, make_judge, model_label
from dmem.eval.methods import RAG_TOP_K, RAG_WINDOW, Method, MethodAnswer, answer_full_context, answer_memory
from dmem.eval.methods import answer_rag, rag_chunks
from dmem.eval.metrics import evidence_recall
from dmem.models.chat import make_chat_model
from dmem.models.embeddings import CachedEmbeddings, make_embeddings
from dmem.services import make_decider
from dmem.state.context import Context, build_context, setting_names
from dmem.state.schemas import Usage

log = logging.getLogger(__name__)
ANSWERS_FILE = "answers.jsonl"
QUERY_KEYS = ("temperature", "structured_output", "retrieval_top_k", "answer_style", "vote_samples",
              "vote_temperature", "chunk_size", "chunk_history", "chunk_min_score", "fact_min_score",
              "select_above")
INGEST_KEYS = ("temperature", "structured_output", "extraction_top_k", "history_messages", "update_top_k",
               "update_min_similarity", "enrichment", "external_knowledge", "location")


class EvalError(DmemError):
    """An evaluation run could not complete (the message says how to resume)."""


class Progress:
    """Progress callbacks of a run; the CLI draws them with rich, the default ignores them."""

    def start(self, name: str, total: int, description: str) -> None:
        """A phase of ``total`` steps begins."""

    def advance(self, name: str, amount: int = 1) -> None:
        """``amount`` more steps of a phase are done."""


@dataclass
class EvalConfig:
    """What to evaluate, on which data, with which models, and where results go."""

    kind: Literal["locomo", "realtalk"]
    path: Path
    out: Path
    methods: list[Method]
    conversations: list[str] | None = None
    limit: int | None = None
    """Questions per conversation (after the category filter), in dataset order."""
    concurrency: int = 4
    include_adversarial: bool = False
    llm: str | BaseChatModel | None = None
    judge: str | BaseChatModel | None = None
    embeddings: str | Embeddings | None = None
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class RunPlan:
    """The selected tasks, what the cache already holds, and the stores still to ingest."""

    tasks: list[QuestionTask]
    cached: dict[str, dict[str, Any]]
    to_ingest: list[tuple[bool, Conversation]]

    @property
    def pending(self) -> list[QuestionTask]:
        """Tasks without a cached answer."""
        return [t for t in self.tasks if t.key not in self.cached]


@dataclass
class RunOutcome:
    """Records of every selected question that has an answer, and what failed."""

    records: list[dict[str, Any]]
    failures: list[str]
    ingestion: list[dict[str, Any]]


def fingerprint(data: dict[str, Any]) -> str:
    """Short stable hash of JSON-ready settings."""
    return hashlib.sha1(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:12]


class EvalRunner:
    """Runs one evaluation: plan (no model built), then ingest and ask (models built lazily)."""

    def __init__(self, cfg: EvalConfig, progress: Progress | None = None) -> None:
        self.cfg = cfg
        self.progress = progress or Progress()
        extra: dict[str, Any] = {}
        if isinstance(cfg.llm, str):
            extra["chat_model"] = cfg.llm
        if isinstance(cfg.embeddings, str):
            extra["embedding_model"] = cfg.embeddings
        self.ctx: Context = build_context(**{**cfg.settings, **extra})
        self.dataset = load_dataset(cfg.kind, cfg.path)
        self.conversations = select_conversations(self.dataset, cfg.conversations)
        self.cache = AnswerCache(cfg.out / ANSWERS_FILE)
        self._lock = threading.Lock()
        self._built: dict[str, Any] = {}
        self._memories: dict[tuple[str, str], Memory] = {}

    # Identity ------------------------------------------------------------------------------
    @property
    def model_label(self) -> str:
        """The chat model under test ('offline' for the offline engine)."""
        return model_label(self.cfg.llm if isinstance(self.cfg.llm, BaseChatModel) else self.ctx.chat_model)

    def _embedding_label(self) -> str:
        emb = self.cfg.embeddings
        return type(emb).__name__ if isinstance(emb, Embeddings) else self.ctx.embedding_model

    def ingest_key(self, formation: bool) -> str:
        """Fingerprint of an ingestion configuration (its stores' folder name)."""
        return fingerprint({"v": 1, "model": self.model_label, "embeddings": self._embedding_label(),
                            "formation": formation, **{k: getattr(self.ctx, k) for k in INGEST_KEYS}})

    def answer_key(self, method: Method) -> str:
        """Fingerprint of everything that shapes a method's answers."""
        data: dict[str, Any] = {"method": method.name, "settings": method.settings, "model": self.model_label,
                                "embeddings": self._embedding_label(),
                                "query": {k: getattr(self.ctx, k) for k in QUERY_KEYS}}
        if method.needs_store:
            data["ingest"] = self.ingest_key(bool(method.formation))
        if method.kind == "rag":
            data["rag"] = [RAG_WINDOW, RAG_TOP_K]
        return fingerprint(data)

    def store_dir(self, formation: bool, conv: Conversation) -> Path:
        """Store folder of one conversation under one ingestion configuration."""
        return self.cfg.out / "stores" / self.ingest_key(formation) / conv.conversation_id

    def marker(self, formation: bool, conv: Conversation) -> Path:
        """File whose presence means the conversation's ingestion finished."""
        return self.store_dir(formation, conv).with_name(f"{conv.conversation_id}.done.json")

    # Planning ------------------------------------------------------------------------------
    def plan(self) -> RunPlan:
        """Select tasks, match them against the cache, and list the stores still to ingest."""
        tasks = [QuestionTask(m, c, i, qa) for m in self.cfg.methods for c in self.conversations
                 for i, qa in select_questions(c, self.cfg.include_adversarial, self.cfg.limit)]
        stored = self.cache.load()
        cached = {t.key: rec for t in tasks if (rec := stored.get(f"{self.answer_key(t.method)}|{t.key}"))}
        need = {(bool(t.method.formation), t.conversation.conversation_id)
                for t in tasks if t.method.needs_store and t.key not in cached}
        to_ingest = [(f, c) for f in (True, False) for c in self.conversations
                     if (f, c.conversation_id) in need and not self.marker(f, c).exists()]
        return RunPlan(tasks, cached, to_ingest)

    # Models (built on first use, shared) ---------------------------------------------------------
    def _once(self, name: str, build: Any) -> Any:
        with self._lock:
            if name not in self._built:
                self._built[name] = build()
            return self._built[name]

    @property
    def chat_model(self) -> BaseChatModel | None:
        """The model under test, or None for the offline engine."""
        if isinstance(self.cfg.llm, BaseChatModel):
            return self.cfg.llm
        ctx = self.ctx
        return self._once("chat", lambda: None if ctx.chat_model is None else make_chat_model(
            ctx.chat_model, base_url=ctx.base_url, api_key=ctx.api_key, temperature=ctx.temperature,
            timeout=ctx.request_timeout))

    @property
    def embeddings(self) -> CachedEmbeddings:
        """One embedding cache shared by every store and the RAG baseline."""
        ctx = self.ctx
        spec = self.cfg.embeddings if isinstance(self.cfg.embeddings, Embeddings) else ctx.embedding_model
        return self._once("emb", lambda: make_embeddings(spec, base_url=ctx.base_url, api_key=ctx.api_key))

    @property
    def judge(self) -> Judge:
        """The judge (unavailable without any model)."""
        return self._once("judge", lambda: make_judge(self.cfg.judge, self.chat_model, self.ctx))

    def _settings(self, **changes: Any) -> dict[str, Any]:
        base = {n: getattr(self.ctx, n) for n in setting_names() if n not in ("store_dir", "embedding_model")}
        return {**base, **changes}

    def _memory(self, method: Method, conv: Conversation) -> Memory:
        """A read-only Memory over the conversation's store, with the method's settings built in."""
        key = (method.name, conv.conversation_id)
        with self._lock:
            if key not in self._memories:
                settings = self._settings(**method.overrides, formation=bool(method.formation))
                self._memories[key] = Memory(self.store_dir(bool(method.formation), conv), llm=self.chat_model,
                                             embeddings=self.embeddings, read_only=True, **settings)
            return self._memories[key]
