"""The evaluation protocol: ingest each conversation once per configuration, then ask, score and cache.

Stores are laid out and ingested by :mod:`dmem.eval.ingest`; answers are cached by
:mod:`dmem.eval.cache`, so a rerun asks only what is missing. Seconds per question are each
question's own wall time: the embedding model is loaded before the first question, and each
method reads through caches of its own (see :mod:`dmem.eval.engines`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from dmem.datasets.datasets import Conversation, QAItem, load_dataset
from dmem.errors import DmemError
from dmem.eval.cache import ANSWERS_FILE, INGEST_KEYS, QUERY_KEYS, AnswerCache, Record, cache_key, fingerprint
from dmem.eval.engines import Models
from dmem.eval.ingest import Stores
from dmem.eval.judge import build_record, judge_answer, judge_scores, model_label
from dmem.eval.methods import (
    RAG_TOP_K,
    RAG_WINDOW,
    Method,
    MethodAnswer,
    QuestionTask,
    RagChunk,
    answer_full_context,
    answer_memory,
    answer_rag,
    rag_chunks,
    select_conversations,
    select_questions,
    speaker_namespaces,
)
from dmem.eval.settings import split_judge_settings
from dmem.models.embeddings_base import langchain_embeddings
from dmem.pool import Progress, run_parallel
from dmem.state.context import Context, build_context

__all__ = ["ANSWERS_FILE", "EvalConfig", "EvalError", "EvalRunner", "Progress", "RunOutcome", "RunPlan"]
log = logging.getLogger(__name__)


class EvalError(DmemError):
    """An evaluation run could not complete (the message says how to resume)."""


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
    """Any dmem settings, and the judge's (``dmem.eval.settings``); they beat DMEM_* variables and the TOML
    ``config_file``."""
    config_file: str | Path | None = None


@dataclass
class RunPlan:
    """The selected tasks, what the cache already holds, and the stores still to ingest."""

    tasks: list[QuestionTask]
    cached: dict[str, Record]
    to_ingest: list[tuple[bool, Conversation]]

    @property
    def pending(self) -> list[QuestionTask]:
        """Tasks without a cached answer."""
        return [t for t in self.tasks if t.key not in self.cached]


@dataclass
class RunOutcome:
    """Records of every selected question that has an answer, and what failed."""

    records: list[Record]
    failures: list[str]
    ingestion: list[dict[str, Any]]


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
        self.judge_settings, settings = split_judge_settings(cfg.settings, cfg.config_file)
        """The judge's model and endpoint: the harness's settings, never the product's ``Context``."""
        self.ctx: Context = build_context(config_file=cfg.config_file, **{**settings, **extra})
        self.dataset = load_dataset(cfg.kind, cfg.path)
        self.conversations = select_conversations(self.dataset, cfg.conversations)
        self.cache = AnswerCache(cfg.out / ANSWERS_FILE)
        self.stores = Stores(cfg.out / "stores", self.ctx, self.ingest_key, lambda: self.models)
        self._lock = threading.Lock()
        self._models: Models | None = None
        self._chunks: dict[str, list[RagChunk]] = {}

    # Identity ------------------------------------------------------------------------------
    @property
    def model_label(self) -> str:
        """The chat model under test ('offline' for the offline engine)."""
        return model_label(self.cfg.llm if isinstance(self.cfg.llm, BaseChatModel) else self.ctx.chat_model)

    def _embedding_label(self) -> str:
        emb = self.cfg.embeddings
        return type(emb).__name__ if isinstance(emb, langchain_embeddings()) else self.ctx.embedding_model

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

    def _cached(self, stored: dict[str, Record], task: QuestionTask) -> Record | None:
        return stored.get(cache_key(self.answer_key(task.method), task.key))

    @property
    def models(self) -> Models:
        """The run's models, built on first use."""
        with self._lock:
            if self._models is None:
                cfg = self.cfg
                self._models = Models.build(cfg.llm, cfg.embeddings, cfg.judge, self.ctx, self.judge_settings)
            return self._models

    # Planning ------------------------------------------------------------------------------
    def plan(self) -> RunPlan:
        """Select tasks, match them against the cache, and list the stores still to ingest."""
        # Conversation-major order: a conversation's stores are opened, used and closed together.
        tasks = [QuestionTask(m, c, i, qa) for c in self.conversations for m in self.cfg.methods
                 for i, qa in select_questions(c, self.cfg.include_adversarial, self.cfg.limit)]
        stored = self.cache.load()
        cached = {t.key: rec for t in tasks if (rec := self._cached(stored, t))}
        need = {(bool(t.method.formation), t.conversation.conversation_id)
                for t in tasks if t.method.needs_store and t.key not in cached}
        to_ingest = [(f, c) for f in (True, False) for c in self.conversations
                     if (f, c.conversation_id) in need and not self.stores.marker(f, c).exists()]
        return RunPlan(tasks, cached, to_ingest)

    # Running -------------------------------------------------------------------------------
    def run(self, plan: RunPlan | None = None) -> RunOutcome:
        """Ingest what is missing, answer what is not cached, and return every selected record."""
        plan = plan or self.plan()
        if plan.to_ingest or plan.pending:
            self.models.warm_up()
        try:
            errors = self.stores.ingest(plan.to_ingest, self.progress, self.cfg.concurrency)
            if errors:
                raise EvalError(f"ingestion failed: {errors[0]}; rerun the same command to resume it")
            failures = self.ask(plan)
        finally:
            self.stores.close()
        stored = self.cache.load()
        records = [rec for t in plan.tasks if (rec := self._cached(stored, t))]
        formations = sorted({bool(m.formation) for m in self.cfg.methods if m.needs_store})
        return RunOutcome(records, failures, self.stores.finished(formations, self.conversations))

    def ask(self, plan: RunPlan) -> list[str]:
        """Answer and score the pending tasks (and judge cached answers never judged); returns failures."""
        jobs: dict[str, Callable[[], Record]] = {t.key: partial(self._answer, t) for t in plan.pending}
        self.stores.expect(plan.pending)
        unjudged = [r for r in plan.cached.values() if r["category"] != 5 and r["scores"].get("judge") is None]
        if unjudged and self.models.judge.available:
            jobs.update({f"judge {r['key']}": partial(self._judged, dict(r)) for r in unjudged})
        self.progress.start("questions", len(jobs), "questions")
        return run_parallel(jobs, self.cache.append, self._question_workers() if plan.pending else 1,
                            on_done=lambda: self.progress.advance("questions"))

    def _question_workers(self) -> int:
        """Questions asked at once: the offline engine is CPU-bound, so it asks one at a time.

        Overlapping offline questions only share the CPU: each one's seconds would include the
        others' work, and concurrent first deliberations would each embed the same transcript.
        """
        if self.models.chat is None and self.cfg.concurrency > 1:
            log.info("offline engine: asking one question at a time, so each one's seconds are its own")
            return 1
        return self.cfg.concurrency

    def _answer(self, task: QuestionTask) -> Record:
        return self._judged(build_record(task, self._method_answer(task), self.answer_key(task.method)))

    def _method_answer(self, task: QuestionTask) -> MethodAnswer:
        conv, question, method = task.conversation, task.qa.question, task.method
        if method.needs_store:
            try:
                memory = self.stores.memory(method, conv)
                return answer_memory(memory, question, list(speaker_namespaces(conv).values()), method)
            finally:
                self.stores.release(method, conv)
        own = self.models.for_method(method.name)
        if method.kind == "full_context":
            return answer_full_context(own.decider, question, conv.messages)
        with self._lock:
            if conv.conversation_id not in self._chunks:
                self._chunks[conv.conversation_id] = rag_chunks(conv.messages)
        return answer_rag(own.decider, own.embeddings, question, self._chunks[conv.conversation_id])

    def _judged(self, record: Record) -> Record:
        """Add the judge's verdict to a record (None when no judge model is available)."""
        qa = QAItem(question=record["question"], answer=record["gold"], category=record["category"])
        result = judge_answer(self.models.judge, record["answer"], qa)
        record["scores"] = {**record["scores"], **judge_scores(result)}
        record["judge_model"] = self.models.judge.name
        record["judge_usage"] = result.usage.model_dump() if result.usage else None
        return record
