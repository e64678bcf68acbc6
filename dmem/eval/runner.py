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
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from dmem.api import Memory
from dmem.decisions.base import Decider
from dmem.errors import DmemError
from dmem.eval.datasets import Conversation, QAItem, load_dataset
from dmem.eval.judge import Judge, build_record, judge_answer, judge_scores, make_judge, model_label
from dmem.eval.methods import (
    RAG_TOP_K,
    RAG_WINDOW,
    Method,
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
from dmem.eval.report import AnswerCache
from dmem.models.chat import make_chat_model
from dmem.models.embeddings import CachedEmbeddings, make_embeddings
from dmem.services import make_decider
from dmem.state.context import Context, build_context, setting_names

log = logging.getLogger(__name__)
T = TypeVar("T")
ANSWERS_FILE = "answers.jsonl"
QUERY_KEYS = ("base_url", "temperature", "structured_output", "retrieval_top_k", "answer_style",
              "vote_samples", "vote_temperature", "chunk_size", "chunk_history", "chunk_min_score",
              "fact_min_score", "select_above")
"""Settings that shape answers (with the method's own settings and the model's name)."""
INGEST_KEYS = ("base_url", "temperature", "structured_output", "extraction_top_k", "history_messages",
               "update_top_k", "update_min_similarity", "enrichment", "external_knowledge", "location")
"""Settings that shape a store (with the formation flag and the model and embedding names)."""


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
    """Any dmem settings; they beat DMEM_* variables and the TOML ``config_file``."""
    config_file: str | Path | None = None


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


@dataclass
class Models:
    """What calls models, built when a run starts (planning and dry runs build nothing)."""

    chat: BaseChatModel | None
    embeddings: CachedEmbeddings
    judge: Judge
    decider: Decider

    @classmethod
    def build(cls, cfg: EvalConfig, ctx: Context) -> Models:
        """The model under test (None: offline engine), shared embeddings, the judge, the baselines' decider."""
        chat = cfg.llm if isinstance(cfg.llm, BaseChatModel) else None
        if chat is None and ctx.chat_model is not None:
            chat = make_chat_model(ctx.chat_model, base_url=ctx.base_url, api_key=ctx.api_key,
                                   temperature=ctx.temperature, timeout=ctx.request_timeout)
        spec = cfg.embeddings if isinstance(cfg.embeddings, Embeddings) else ctx.embedding_model
        emb = make_embeddings(spec, base_url=ctx.base_url, api_key=ctx.api_key)
        return cls(chat, emb, make_judge(cfg.judge, chat, ctx), make_decider(ctx, emb, chat))


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
        self.ctx: Context = build_context(config_file=cfg.config_file, **{**cfg.settings, **extra})
        self.dataset = load_dataset(cfg.kind, cfg.path)
        self.conversations = select_conversations(self.dataset, cfg.conversations)
        self.cache = AnswerCache(cfg.out / ANSWERS_FILE)
        self._lock = threading.RLock()
        self._models: Models | None = None
        self._chunks: dict[str, list[RagChunk]] = {}
        self._memories: dict[tuple[bool, str], Memory] = {}
        self._open: Counter[tuple[bool, str]] = Counter()

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

    @property
    def models(self) -> Models:
        """The run's models, built on first use."""
        with self._lock:
            if self._models is None:
                self._models = Models.build(self.cfg, self.ctx)
            return self._models

    # Planning ------------------------------------------------------------------------------
    def plan(self) -> RunPlan:
        """Select tasks, match them against the cache, and list the stores still to ingest."""
        # Conversation-major order: a conversation's stores are opened, used and closed together.
        tasks = [QuestionTask(m, c, i, qa) for c in self.conversations for m in self.cfg.methods
                 for i, qa in select_questions(c, self.cfg.include_adversarial, self.cfg.limit)]
        stored = self.cache.load()
        cached = {t.key: rec for t in tasks if (rec := stored.get(f"{self.answer_key(t.method)}|{t.key}"))}
        need = {(bool(t.method.formation), t.conversation.conversation_id)
                for t in tasks if t.method.needs_store and t.key not in cached}
        to_ingest = [(f, c) for f in (True, False) for c in self.conversations
                     if (f, c.conversation_id) in need and not self.marker(f, c).exists()]
        return RunPlan(tasks, cached, to_ingest)

    def _settings(self, **changes: Any) -> dict[str, Any]:
        base = {n: getattr(self.ctx, n) for n in setting_names() if n not in ("store_dir", "embedding_model")}
        return {**base, **changes}

    def _memory(self, formation: bool, conv: Conversation) -> Memory:
        """A read-only Memory over a conversation's store, shared by the methods reading it."""
        key = (formation, conv.conversation_id)
        with self._lock:
            if key not in self._memories:
                self._memories[key] = Memory(self.store_dir(formation, conv), llm=self.models.chat,
                                             embeddings=self.models.embeddings, read_only=True,
                                             **self._settings(formation=formation))
            return self._memories[key]

    # Ingestion -----------------------------------------------------------------------------
    def ingest(self, items: list[tuple[bool, Conversation]]) -> None:
        """Ingest the stores still missing; conversations in parallel, each one in order."""
        if not items:
            return
        total = sum(math.ceil(len(c.messages) / 2) for _, c in items)
        self.progress.start("ingest", total, "ingestion (exchanges)")
        jobs = {f"ingest {c.conversation_id} (formation {'on' if f else 'off'})": partial(self._ingest_one, f, c)
                for f, c in items}
        errors = self._parallel(jobs, lambda _: None)
        if errors:
            raise EvalError(f"ingestion failed: {errors[0]}; rerun the same command to resume it")

    def _ingest_one(self, formation: bool, conv: Conversation) -> dict[str, Any]:
        """Ingest the turns not yet formed (all of them the first time), then write the marker."""
        cid, store = conv.conversation_id, self.store_dir(formation, conv)
        # Memory.add treats seq 0 as "unset": shift by one so the first turn keeps its place on resume.
        messages = [m.model_copy(update={"seq": m.seq + 1}) for m in conv.messages]
        namespaces = speaker_namespaces(conv)
        with Memory(store, llm=self.models.chat, embeddings=self.models.embeddings,
                    **self._settings(formation=formation)) as mem:
            todo = [m for m in messages if not mem.store.transcript.is_processed(cid, m.turn_id)]
            self.progress.advance("ingest", math.ceil(len(messages) / 2) - math.ceil(len(todo) / 2))
            seen = [0]

            def step(done: int, total: int) -> None:
                self.progress.advance("ingest", done - seen[0])
                seen[0] = done

            result = mem.add(todo, user_id=cid, conversation_id=cid, speaker_namespaces=namespaces,
                             retry=True, progress=step)
            pending = len(mem.store.transcript.pending(cid))
            memories = {ns: len(mem.get_all(user_id=ns)) for ns in namespaces.values()}
        info = {"conversation_id": cid, "formation": formation, "store": str(store), "messages": len(messages),
                "formed_now": len(todo), "pending": pending, "memories": memories,
                "usage": result.usage()["total"].model_dump(), "seconds": result.seconds,
                "finished_at": datetime.now(UTC).isoformat()}
        if pending:
            log.warning("%s: %d turn(s) kept for retry after malformed replies; a rerun retries them", cid, pending)
        else:
            self.marker(formation, conv).write_text(json.dumps(info, indent=2), encoding="utf-8")
        return info

    # Questions -----------------------------------------------------------------------------
    def run(self, plan: RunPlan | None = None) -> RunOutcome:
        """Ingest what is missing, answer what is not cached, and return every selected record."""
        plan = plan or self.plan()
        try:
            self.ingest(plan.to_ingest)
            failures = self.ask(plan)
        finally:
            self.close()
        stored = self.cache.load()
        records = [rec for t in plan.tasks if (rec := stored.get(f"{self.answer_key(t.method)}|{t.key}"))]
        markers = [self.marker(f, c) for f in sorted({bool(m.formation) for m in self.cfg.methods if m.needs_store})
                   for c in self.conversations]
        ingestion = [json.loads(p.read_text(encoding="utf-8")) for p in markers if p.exists()]
        return RunOutcome(records, failures, ingestion)

    def ask(self, plan: RunPlan) -> list[str]:
        """Answer and score the pending tasks (and judge cached answers never judged); returns failures."""
        jobs: dict[str, Callable[[], dict[str, Any]]] = {t.key: partial(self._answer, t) for t in plan.pending}
        self._open = Counter((bool(t.method.formation), t.conversation.conversation_id) for t in plan.pending
                             if t.method.needs_store)
        unjudged = [r for r in plan.cached.values() if r["category"] != 5 and r["scores"].get("judge") is None]
        if unjudged and self.models.judge.available:
            jobs.update({f"judge {r['key']}": partial(self._judged, dict(r)) for r in unjudged})
        self.progress.start("questions", len(jobs), "questions")
        return self._parallel(jobs, self.cache.append, phase="questions")

    def _answer(self, task: QuestionTask) -> dict[str, Any]:
        conv, question = task.conversation, task.qa.question
        if task.method.needs_store:
            key = (bool(task.method.formation), conv.conversation_id)
            try:
                memory = self._memory(key[0], conv)
                out = answer_memory(memory, question, list(speaker_namespaces(conv).values()), task.method)
            finally:
                self._release(key)
        elif task.method.kind == "full_context":
            out = answer_full_context(self.models.decider, question, conv.messages)
        else:
            chunks = self._chunks.setdefault(conv.conversation_id, rag_chunks(conv.messages))
            out = answer_rag(self.models.decider, self.models.embeddings, question, chunks)
        return self._judged(build_record(task, out, self.answer_key(task.method)))

    def _judged(self, record: dict[str, Any]) -> dict[str, Any]:
        """Add the judge's verdict to a record (None when no judge model is available)."""
        qa = QAItem(question=record["question"], answer=record["gold"], category=record["category"])
        result = judge_answer(self.models.judge, record["answer"], qa)
        record["scores"] = {**record["scores"], **judge_scores(result)}
        record["judge_model"] = self.models.judge.name
        record["judge_usage"] = result.usage.model_dump() if result.usage else None
        return record

    def _parallel(self, jobs: Mapping[str, Callable[[], T]], on_result: Callable[[T], None],
                  phase: str | None = None) -> list[str]:
        """Run jobs on the bounded pool; failures are logged and returned, never fatal to the others."""
        errors: list[str] = []
        pool = ThreadPoolExecutor(max_workers=max(1, self.cfg.concurrency), thread_name_prefix="dmem-eval")
        try:
            futures: dict[Future[T], str] = {pool.submit(job): name for name, job in jobs.items()}
            for fut in as_completed(futures):
                try:
                    on_result(fut.result())
                except Exception as exc:
                    log.error("%s failed: %s: %s", futures[fut], type(exc).__name__, exc)
                    errors.append(f"{futures[fut]}: {type(exc).__name__}: {exc}")
                if phase:
                    self.progress.advance(phase)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return errors

    def _release(self, key: tuple[bool, str]) -> None:
        """One question on a store is done; close the store after its last one."""
        with self._lock:
            self._open[key] -= 1
            if self._open[key] <= 0 and key in self._memories:
                self._memories.pop(key).close()

    def close(self) -> None:
        """Close every store opened for questions."""
        with self._lock:
            for memory in self._memories.values():
                memory.close()
            self._memories.clear()
