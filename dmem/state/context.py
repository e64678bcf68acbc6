"""Runtime settings read by every node through ``Runtime[Context]``, with the papers' defaults.

``Context`` holds settings only: JSON values a server, Studio or a TOML file can send. Live objects
(models, embeddings, the open store) belong to ``dmem.services.Resources``, and the one secret
(``DMEM_API_KEY``) is read from the environment, so neither is part of the graphs' context schema.
"""

from __future__ import annotations

import os
import typing
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_serializer, model_validator

from dmem.errors import ConfigError, DataError
from dmem.state.caps import parse_caps
from dmem.state.gate_policy import GatePolicy
from dmem.state.hnsw import HnswSettings
from dmem.state.namespaces import validate_namespace
from dmem.state.privacy_terms import vocabulary
from dmem.state.setting_values import check_keys, coerce, masked_url
from dmem.state.sources import ENV_PREFIX, api_key_from_env, product_settings, read_env, read_toml

__all__ = ["ENV_PREFIX", "Context", "api_key_from_env", "build_context", "read_env", "read_toml",
           "setting_names"]

_HNSW = HnswSettings()
RetrievalMode = Literal["hybrid", "dense"]
DeliberationMode = Literal["focused", "full"]
StructuredMethod = Literal["auto", "json_schema", "function_calling", "json_mode", "prompt"]
TraceRedaction = Literal["off", "pii", "all"]


class Context(BaseModel):
    """Every setting of dmem. Defaults follow D-Mem (000) and Gated Memory (001).

    Fields are grouped by the stage they govern: models, formation, lifecycle, retrieval and answer,
    gate, deliberation, store, privacy, tracing. Values are checked when a Context is built (directly,
    from a run's ``context={...}`` or from ``build_context``); a bad value raises ``ConfigError``
    naming the setting. A run's context changes only the settings it sets; the others come from the
    graph's owner (``Memory`` or the ``DMEM_*`` settings of the served graphs), see ``layered_on``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    # Models
    chat_model: str | None = None
    """'provider:model' (e.g. 'openai:gpt-4o-mini'); None runs the offline decision engine."""
    embedding_model: str = "local:all-MiniLM-L6-v2"
    """'local:all-MiniLM-L6-v2' (bundled int8 ONNX), 'torch:all-MiniLM-L6-v2' (dmem[torch]), 'hash', 'openai:<m>'."""
    base_url: str | None = None
    """Base URL of an OpenAI-compatible server (Ollama, vLLM, llama.cpp)."""
    temperature: float = 0.0
    """Temperature of every call except Majority Voting samples."""
    structured_output: StructuredMethod = "auto"
    """How structured replies are requested; 'auto' tries function calling, then JSON in the prompt."""
    max_retries: int = 2
    """Retries after a malformed model reply (once only after a reply cut off by its cap), before the typed error."""
    request_timeout: float = 120.0
    """Seconds a model request may take once sent (waiting for a free slot in dmem does not count)."""
    max_concurrency: int = 4
    """Model calls in flight at once (chunk workers, per-fact work)."""
    provider_retries: int = 4
    """Re-sends after a provider error (timeout, refused connection, HTTP 429 or 5xx), with backoff."""
    retry_backoff: float = 1.0
    """First backoff in seconds; it doubles per retry (half of it random, at most 60 s); Retry-After wins."""
    call_deadline: float = 600.0
    """Seconds one model call may spend retrying provider errors, from its first request; no retry starts later."""
    endpoint_concurrency: int = 0
    """Requests in flight at once per model endpoint, the rest wait in dmem; 0: 1 for a server on this
    machine (localhost), else max_concurrency."""
    output_caps: str = ""
    """Output-token caps per stage over the built-in ones, 'stage=tokens,...' (e.g. 'split_intents=1500'); 0: no cap."""

    # Formation
    formation: bool = True
    """Run the admission-controlled formation layer; False gives plain Mem0* extraction."""
    extraction_top_k: int = 10
    """Existing memories shown to extraction as background (paper: top-10)."""
    history_messages: int = 8
    """Previous messages given as reference history (paper: last 8)."""
    enrichment: bool = True
    """Enrich flagged facts where the scope allows it."""
    external_knowledge: bool = False
    """Allow EXTERNAL facts to consult the pluggable external knowledge source."""
    enrichment_max_chars: int = 1000
    """Most characters of knowledge-source reply lines attached to one fact (whole lines, first first)."""
    location: str | None = None
    """Request-context location used to ground 'here'/'there' (never sent outside for USER_PII)."""
    admission_instructions: str = ""
    """Extra rules for the admission gate (what to keep or drop), e.g. 'Never keep talk about work.'"""
    extraction_instructions: str = ""
    """Extra rules for fact extraction (the split into intents, and Mem0* extraction)."""

    # Lifecycle
    update_top_k: int = 5
    """Similar memories fetched per new fact in the update phase (paper: top-5)."""
    update_min_similarity: float = 0.8
    """Cosine above which a memory joins a fact's update background (paper: 0.8)."""
    lifecycle_mode: Literal["batch", "per_fact"] = "batch"
    """'batch' decides all new facts of an exchange in one call (as mem0 does); 'per_fact' one call per fact."""
    lifecycle_instructions: str = ""
    """Extra rules for ADD/UPDATE/DELETE/NOOP decisions."""

    # Retrieval and answer
    retrieval_top_k: int = 30
    """Memories retrieved per namespace asked about (paper: top-30)."""
    wide_retrieval_factor: float = 1.5
    """retrieval_top_k times this for a list, count or both-speaker question ('How many...', 'What do A and B
    share?'), whose evidence is many turns (rounded half up; 1.5: 45 of 30), the same-K memories first; dmem's
    choice over the papers' same K for all, which 1 gives."""
    episode_neighbours: int = 3
    """Memories at most added after the retrieved ones (hybrid retrieval): those said in the turns right next to
    the best ones' (``dmem.evidence.episodes``), where an episode's other members are; 0: none, the papers'."""
    retrieval_mode: RetrievalMode = "hybrid"
    """'hybrid' fuses dense, BM25 (memory, source-turn text, event day), name and time-cue ranks;
    'dense' is the papers' embedding-only top-K."""
    use_filter: bool = False
    """Run the paper's 'Filter' step: keep only memories strictly needed."""
    answer_style: Literal["short", "sentence"] = "short"
    """'short' answers in a few words (benchmark style); 'sentence' in one sentence."""
    answer_instructions: str = ""
    """Extra rules for the answer, e.g. 'Answer in Portuguese.' (System 1 and deliberation both)."""

    # Gate
    gate_policy: GatePolicy = "quality"
    """quality | majority | consensus | never (Mem0* only) | always (Full Deliberation only)."""
    vote_samples: int = 3
    """Answers sampled by Majority Voting and Consensus."""
    vote_temperature: float = 0.7
    """Temperature of the voting samples."""
    gate_instructions: str = ""
    """Extra rules for the quality gate that decides whether Full Deliberation runs."""

    # Deliberation
    deliberation_mode: DeliberationMode = "focused"
    """'focused' reads windows around the turns a hybrid raw-turn search points at, within
    deliberation_budget; 'full' reads the whole transcript (the papers' Full Deliberation)."""
    deliberation_budget: float = 0.3
    """What focused deliberation may send: a share of the full scan's transcript tokens (0 < x <= 1),
    or a number of tokens (x > 1)."""
    chunk_size: int = 60
    """Messages per chunk (paper: 60)."""
    chunk_history: int = 4
    """Preceding messages shown read-only with each chunk (paper: 4)."""
    chunk_min_score: int = 5
    """A chunk worker keeps facts scoring at least this (paper: >= 5)."""
    fact_min_score: int = 6
    """The reduce step keeps facts scoring above this (paper: > 6)."""
    select_above: int = 6
    """More facts than this left after reduce triggers the selection call (paper: 6)."""
    ledger_limit: int = 40
    """Most facts the answer sees for a list, count or ordering question, which skips the selection
    call so that no instance is dropped (best-scored kept, shown in time order)."""

    # Store
    user_id: str | None = None
    """Whose memory a graph run reads and writes when its input names none (ingestion's user_id, the query's
    namespaces): a run's context={'user_id': ...} in-process and served alike. None: 'default'."""
    store_dir: str = ".dmem"
    """Directory of the memory store (vectors, history, transcript)."""
    store_url: str | None = None
    """'postgresql://user:pass@host:5432/db': keep memories in PostgreSQL + pgvector, shared by many
    workers and machines (needs ``pip install 'dmem[postgres]'``); None keeps the local store_dir."""
    lock_timeout: float = 10.0
    """Seconds a write waits for another process's write transaction on the store before failing."""
    vector_cache: int = 250_000
    """Local store: vectors one process keeps in memory (the FAISS indexes of the namespaces it searched
    most recently, about 2 KB each at 384 dims); beyond it the least recently searched namespaces are
    dropped and reloaded from disk when searched again. 0: no bound. Fixed when the store opens."""
    embedding_cache: int = 2_048
    """Texts whose embeddings one process keeps for reuse (a float32 row and its text: about 1.7 KB each
    at 384 dims, about 3.5 MB at the default); beyond it the least recently used are dropped and
    embedded again when needed. 0: none kept (a call still embeds each of its texts once)."""
    index_documents: int = 100_000
    """Documents (memories and transcript turns) one process keeps in the lexical indexes of the
    namespaces asked about most recently (about 3 KB each: a turn's terms and days, the turn itself and
    its float32 embedding row of 1.5 KB at 384 dims; about 300 MB at the default); beyond it the least
    recently asked are dropped and rebuilt when asked again. 0: no bound (at most 64 indexes, each as
    large as its namespace's data)."""
    claim_lease_seconds: float = 600.0
    """Seconds a worker's claim on the turns it forms stays valid; a dead worker's claim lapses at once."""
    resend_window: float = 3600.0
    """Seconds during which an add without an idempotency key or conversation id whose turns (same ids,
    speakers and texts) are all recorded already, in any conversation of the user, is taken as a resend
    and records nothing new. 0: only an idempotency key recognises a resend."""
    hnsw_threshold: int = _HNSW.threshold
    """PostgreSQL: live memories from which a namespace gets its own HNSW index (built at that write)."""
    hnsw_m: int = _HNSW.m
    """PostgreSQL: graph links per vector of a new HNSW index (2-100); an existing index keeps its own."""
    hnsw_ef_construction: int = _HNSW.ef_construction
    """PostgreSQL: candidates kept while building a new HNSW index (2 * hnsw_m to 1000)."""
    hnsw_build_memory: str = _HNSW.build_memory
    """PostgreSQL: maintenance_work_mem of an index build, e.g. '512MB' or '2GB' (the graph must fit)."""
    hnsw_ef_search: int = _HNSW.ef_search
    """PostgreSQL: candidates an HNSW search keeps (1-1000, at least the k asked for); per run."""

    # Privacy
    privacy_terms: tuple[str, ...] = ()
    """A deployment's own personal terms (a clinic, a project name): matched as whole words, any case, by
    every detection (scope, enrichment rules, trace redaction). A list, or ';'-separated text (DMEM_PRIVACY_TERMS)."""
    privacy_patterns: tuple[str, ...] = ()
    """A deployment's own personal-data shapes as regular expressions (an employee number: 'EMP-\\d{6}').
    A list, or ';'-separated text (DMEM_PRIVACY_PATTERNS)."""

    # Tracing
    trace_redaction: TraceRedaction = "pii"
    """What LangSmith traces may carry: 'off' (everything), 'pii' (no detected personal data and no
    USER_PII memory text in any run), 'all' (no conversation text: inputs and outputs hidden)."""
    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:  # our checks raise ConfigError, which pydantic wraps
            first = exc.errors()[0]
            cause = (first.get("ctx") or {}).get("error")
            if isinstance(cause, ConfigError):
                raise cause from None
            name = ".".join(str(p) for p in first["loc"]) or "context"
            raise ConfigError(f"setting {name!r}: {first['msg']}; got {first.get('input')!r}") from None

    @model_validator(mode="before")
    @classmethod
    def _check_values(cls, data: Any) -> Any:
        """Unknown names and bad values are ``ConfigError``s on every path, not only in build_context."""
        if not isinstance(data, dict):
            return data
        check_keys("context", data, set(Context.model_fields))
        return {name: coerce(name, value, Context.model_fields[name].annotation) for name, value in data.items()}

    @model_validator(mode="after")
    def _check_ranges(self) -> Context:
        _validate(self)
        return self

    def __repr_args__(self) -> Any:
        """``repr`` and ``str`` show settings, never the store password."""
        for name, value in super().__repr_args__():
            yield name, masked_url(value) if name == "store_url" and isinstance(value, str) else value

    @field_serializer("store_url")
    def _dump_store_url(self, url: str | None) -> str | None:
        """``model_dump`` and JSON show the store URL without its password (the setting itself keeps it)."""
        return masked_url(url) if url else url

    def hnsw(self) -> HnswSettings:
        """The HNSW settings of a PostgreSQL store opened (and searched) with these settings."""
        return HnswSettings(threshold=self.hnsw_threshold, m=self.hnsw_m, ef_construction=self.hnsw_ef_construction,
                            ef_search=self.hnsw_ef_search, build_memory=self.hnsw_build_memory)

    def with_overrides(self, **changes: Any) -> Context:
        """A copy with some settings changed, validated like any other input."""
        return build_context(base=self, environ={}, **changes)

    def explicit(self) -> dict[str, Any]:
        """The settings this context was given, by name (the rest are defaults)."""
        return {name: getattr(self, name) for name in self.model_fields_set}

    def layered_on(self, base: Context) -> Context:
        """``base`` with the settings this context sets: how a run's context meets its graph's owner."""
        given = self.explicit()
        if not given or all(getattr(base, k) == v for k, v in given.items()):
            return base
        return base.with_overrides(**given)


def setting_names() -> list[str]:
    """Names of every setting, in declaration order."""
    return list(Context.model_fields)


def _validate(ctx: Context) -> None:
    positive = ["extraction_top_k", "update_top_k", "retrieval_top_k", "chunk_size", "vote_samples",
                "max_concurrency", "request_timeout", "call_deadline", "lock_timeout", "claim_lease_seconds",
                "enrichment_max_chars", "deliberation_budget", "ledger_limit"]
    for name in positive:
        if getattr(ctx, name) <= 0:
            raise ConfigError(f"setting {name!r} must be greater than 0; got {getattr(ctx, name)!r}")
    for name in ("history_messages", "chunk_history", "max_retries", "provider_retries", "retry_backoff",
                 "endpoint_concurrency", "vector_cache", "embedding_cache", "index_documents",
                 "resend_window", "episode_neighbours"):
        if getattr(ctx, name) < 0:
            raise ConfigError(f"setting {name!r} must be 0 or more; got {getattr(ctx, name)!r}")
    if ctx.wide_retrieval_factor < 1.0:
        raise ConfigError(f"setting 'wide_retrieval_factor' must be 1 or more (1: the same K for every question); "
                          f"got {ctx.wide_retrieval_factor!r}")
    if not -1.0 <= ctx.update_min_similarity <= 1.0:
        raise ConfigError("setting 'update_min_similarity' is a cosine and must lie in [-1, 1]")
    for name in ("chunk_min_score", "fact_min_score", "select_above"):
        if not 0 <= getattr(ctx, name) <= 10 and name != "select_above":
            raise ConfigError(f"setting {name!r} is a 0-10 score; got {getattr(ctx, name)!r}")
    if ctx.select_above < 0:
        raise ConfigError("setting 'select_above' must be 0 or more")
    if ctx.store_url is not None and not ctx.store_url.startswith(("postgresql://", "postgres://")):
        scheme = ctx.store_url.split(":", 1)[0]
        raise ConfigError(f"setting 'store_url' must be a postgresql:// URL; got one starting {scheme!r}:")
    if ctx.user_id is not None:
        try:
            validate_namespace(ctx.user_id)
        except DataError as exc:
            raise ConfigError(f"setting 'user_id': {exc}") from None
    ctx.hnsw()  # raises ConfigError naming the bad hnsw_* setting
    vocabulary(ctx.privacy_terms, ctx.privacy_patterns)  # raises ConfigError naming a bad pattern
    try:
        parse_caps(ctx.output_caps)
    except ValueError as exc:
        raise ConfigError(f"setting 'output_caps': {exc}") from None
    if ctx.chat_model is not None and ":" not in ctx.chat_model:
        raise ConfigError(
            f"chat_model {ctx.chat_model!r} must be 'provider:model', e.g. 'openai:gpt-4o-mini'"
        )


def build_context(
    *,
    base: Context | None = None,
    config_file: str | os.PathLike[str] | None = None,
    environ: typing.Mapping[str, str] | None = None,
    use_env: bool = True,
    **overrides: Any,
) -> Context:
    """Build settings: keyword arguments beat DMEM_* variables, which beat the TOML file, which beats ``base``.

    The result remembers which settings were given (by any layer or ``base``), so it can be layered
    on another context later; the rest are the documented defaults.
    """
    env = read_env(environ) if use_env else {}
    file_path = config_file or (os.environ if environ is None else environ).get("DMEM_CONFIG")
    layers: list[tuple[str, dict[str, Any]]] = []
    if file_path:
        layers.append((f"config file {file_path}", product_settings(read_toml(file_path))))
    layers.append(("environment (DMEM_*)", env))
    layers.append(("keyword arguments", {k: v for k, v in overrides.items()}))
    merged: dict[str, Any] = base.explicit() if base else {}
    for source, values in layers:
        check_keys(source, values, set(Context.model_fields))
        for name, value in values.items():
            merged[name] = coerce(name, value, Context.model_fields[name].annotation)
    return Context(**merged)
