"""``Resources``: the owner of the live objects a graph's runs share, opened on first use and closed together."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from dmem.decisions.base import Decider
from dmem.decisions.factory import decider_settings, make_decider
from dmem.errors import ConfigError
from dmem.evidence.indexes import MAX_DOCUMENTS, EvidenceIndexes
from dmem.models.client import with_request_timeout
from dmem.models.embeddings import (
    DEFAULT_CACHE_ITEMS,
    CachedEmbeddings,
    embedding_dim,
    embedding_name,
    make_embeddings,
)
from dmem.models.embeddings_base import langchain_embeddings
from dmem.models.endpoints import Endpoints
from dmem.services.run import Services, dmem_context
from dmem.state.context import Context, api_key_from_env, build_context
from dmem.store.base import MemoryStore
from dmem.store.knowledge import KnowledgeSource

log = logging.getLogger(__name__)
langchain_embeddings()  # dmem's embedding classes are LangChain Embeddings from here on, whatever came first

_MAX_DECIDERS = 16
_MAX_LAYERED = 64
T = TypeVar("T")


class Resources:
    """Owner of the live objects runs share: stores, embeddings, chat models and deciders.

    ``settings`` are the defaults of every run (None: ``DMEM_*`` and ``DMEM_CONFIG``, read on first
    use). Objects handed in are used as given and stay the caller's to close; stores this owner
    opens are closed by ``close()``, after which the next run opens them again.
    """

    def __init__(self, settings: Context | None = None, *, chat_model: BaseChatModel | None = None,
                 embeddings: Embeddings | None = None, store: MemoryStore | None = None,
                 knowledge: KnowledgeSource | None = None, decider: Decider | None = None,
                 api_key: str | None = None, read_only: bool = False, endpoints: Endpoints | None = None) -> None:
        self._given_settings = settings
        self._settings = settings
        self.chat_model = chat_model
        self.knowledge = knowledge
        """The knowledge source enrichment may consult (None: no external source)."""
        self.decider = decider
        self.read_only = read_only
        self.endpoints = endpoints or Endpoints()
        """Model endpoints of this owner: every decider talking to one server shares its slots and learnt formats."""
        self._api_key = api_key
        self._given_embeddings = None if embeddings is None else make_embeddings(
            embeddings, cache_items=settings.embedding_cache if settings is not None else DEFAULT_CACHE_ITEMS)
        self._lock = threading.RLock()
        self._stores: dict[Hashable, MemoryStore] = {}
        self._opened: list[MemoryStore] = []
        self._embeddings: dict[Hashable, CachedEmbeddings] = {}
        self._indexes: dict[int, EvidenceIndexes] = {}
        self._deciders: OrderedDict[Hashable, Decider] = OrderedDict()
        self._layered: OrderedDict[Hashable, Context] = OrderedDict()
        self._services: OrderedDict[int, tuple[Context, Services]] = OrderedDict()
        """Services built per run settings (by the settings object's identity), so a node finds them without I/O."""
        self._paths: dict[str, Path] = {}
        self._index_builds: dict[Hashable, dict[str, int | str]] = {}
        """The HNSW build settings each PostgreSQL store this owner opened was opened with."""
        if store is not None:
            self._stores[self._handed_key(store)] = store

    # Settings -----------------------------------------------------------------------------
    @property
    def settings(self) -> Context:
        """The owner's settings: given at construction, or read from ``DMEM_*`` on first use."""
        with self._lock:
            if self._settings is None:
                self._settings = build_context()
                log.info("dmem settings from the environment (DMEM_*): store_dir=%s", self._settings.store_dir)
            return self._settings

    def settings_for(self, runtime_context: Any = None) -> Context:
        """One run's settings: the owner's, changed by what the run's (or host's) context sets."""
        run = dmem_context(runtime_context)
        if run is None:
            return self.settings
        key = (run, frozenset(run.model_fields_set))  # equal values but other explicit names layer differently
        with self._lock:
            found = self._layered.get(key)
            if found is None:
                found = self._layered[key] = run.layered_on(self.settings)
                if len(self._layered) > _MAX_LAYERED:
                    self._layered.popitem(last=False)
            return found

    # Live objects -------------------------------------------------------------------------
    def services(self, runtime_context: Any = None) -> Services:
        """The decider, store, embeddings and knowledge source for one run's settings (the store opens on first use)."""
        ctx = self.settings_for(runtime_context)
        found = self._known(ctx)
        if found is not None:
            return found
        embeddings = self.embeddings_for(ctx)
        store = self.store_for(ctx)
        svc = Services(context=ctx, decider=self.decider_for(ctx, embeddings),
                       store=store.searching(ctx.hnsw_ef_search), embeddings=embeddings,
                       knowledge=self.knowledge, indexes=self.indexes_for(store, ctx.index_documents))
        with self._lock:
            self._services[id(ctx)] = (ctx, svc)
            if len(self._services) > _MAX_LAYERED:
                self._services.popitem(last=False)
        return svc

    def known_services(self, runtime_context: Any = None) -> Services | None:
        """``services`` when they were built already for these settings (no I/O: safe on an event loop), else None."""
        return self._known(self.settings_for(runtime_context))

    def _known(self, ctx: Context) -> Services | None:
        with self._lock:
            found = self._services.get(id(ctx))
        if found is None or found[0] is not ctx:
            return None
        svc = found[1]  # still current when a caller set another knowledge source or decider since
        fresh = svc.knowledge is self.knowledge and (self.decider is None or svc.decider is self.decider)
        return svc if fresh else None

    def embeddings_for(self, ctx: Context) -> CachedEmbeddings:
        """Embeddings handed in, else one cached instance per embedding model."""
        if self._given_embeddings is not None:
            return self._given_embeddings
        key = (ctx.embedding_model, ctx.base_url, ctx.embedding_cache)
        return self._cached(self._embeddings, key, lambda: make_embeddings(
            ctx.embedding_model, base_url=ctx.base_url, api_key=self.api_key, cache_items=ctx.embedding_cache))

    def _handed_key(self, store: MemoryStore) -> Hashable:
        """Where runs find a store handed in: the place the owner's settings name, which must be it.

        Otherwise a run naming the settings' store would open another one beside it, and memories
        would go there: a PostgreSQL store needs the settings' ``store_url`` (compared without its
        password), a local one the settings' ``store_dir``.
        """
        from dmem.store.postgres.db import redact_url
        from dmem.store.urls import is_postgres_url

        settings = self.settings
        if is_postgres_url(store.path):
            named = redact_url(settings.store_url) if settings.store_url else "no store_url"
            if named != store.path:
                raise ConfigError(f"the store handed in is {store.path}, but the settings name {named}: "
                                  "set store_url to the store's URL")
            return settings.store_url
        if settings.store_url:
            raise ConfigError(f"the store handed in is the local store in {store.path}, but the settings name "
                              f"store_url {redact_url(settings.store_url)}: leave store_url unset")
        key = self._paths.setdefault(settings.store_dir, _store_key(settings.store_dir))
        if key != _store_key(store.path):
            raise ConfigError(f"the store handed in is in {store.path}, but the settings name store_dir "
                              f"{settings.store_dir}: set store_dir to the store's directory")
        return key

    def store_for(self, ctx: Context) -> MemoryStore:
        """The store at ``ctx.store_url`` (else in ``ctx.store_dir``): the one handed in, or opened once."""
        with self._lock:
            key: Hashable = ctx.store_url or self._paths.get(ctx.store_dir) or self._paths.setdefault(
                ctx.store_dir, _store_key(ctx.store_dir))
            if key not in self._stores:
                self._stores[key] = self._open_store(ctx, key)
            elif key in self._index_builds and self._index_builds[key] != ctx.hnsw().build_settings():
                raise ConfigError(f"hnsw_threshold, hnsw_m, hnsw_ef_construction and hnsw_build_memory are fixed "
                                  f"when the store opens ({self._stores[key].path}): set them on "
                                  "its owner (Memory(...), DMEM_HNSW_*), not in a run's context; hnsw_ef_search "
                                  "may change per run")
            return self._stores[key]

    def _open_store(self, ctx: Context, key: Hashable) -> MemoryStore:
        """Open the store ``ctx`` names (PostgreSQL with ``ctx``'s HNSW settings); this owner closes it."""
        from dmem import store as stores

        emb = self.embeddings_for(ctx)
        options: dict[str, Any] = {"dim": embedding_dim(emb), "read_only": self.read_only,
                                   "embedding": embedding_name(emb), "lock_timeout": ctx.lock_timeout}
        if ctx.store_url:
            store = stores.open_any_store(ctx.store_url, hnsw=ctx.hnsw(), **options)
            self._index_builds[key] = ctx.hnsw().build_settings()
        else:
            store = stores.open_store(self._paths[ctx.store_dir], vector_cache=ctx.vector_cache, **options)
        log.info("dmem opened the store in %s (%s)", store.path,
                 "read-only" if self.read_only else "writer")
        self._opened.append(store)
        return store

    def indexes_for(self, store: MemoryStore, max_documents: int = MAX_DOCUMENTS) -> EvidenceIndexes:
        """The lexical indexes of one of this owner's stores, kept until ``close()``.

        ``max_documents`` (setting ``index_documents``) is fixed by the first run that asks.
        """
        with self._lock:
            found = self._indexes.get(id(store))
            if found is None or found.store is not store:  # a closed store's id may be reused
                found = self._indexes[id(store)] = EvidenceIndexes(store, max_documents=max_documents)
            return found

    def decider_for(self, ctx: Context, embeddings: CachedEmbeddings) -> Decider:
        """The decider handed in, else one per combination of the settings a decider is built from."""
        if self.decider is not None:
            return self.decider
        key = (id(embeddings), *sorted(decider_settings(ctx).items()))
        with self._lock:
            if key in self._deciders:
                self._deciders.move_to_end(key)
                return self._deciders[key]
            chat = self.chat_model
            if chat is not None and ctx.request_timeout != self.settings.request_timeout:
                chat = with_request_timeout(chat, ctx.request_timeout)  # a run's own timeout on the given model
            decider = make_decider(ctx, embeddings, chat, api_key=self.api_key, endpoints=self.endpoints)
            self._deciders[key] = decider
            if len(self._deciders) > _MAX_DECIDERS:
                self._deciders.popitem(last=False)
            return decider

    @property
    def api_key(self) -> str | None:
        """The key for ``base_url`` servers: given, else ``DMEM_API_KEY``."""
        return self._api_key or api_key_from_env()

    @property
    def store(self) -> MemoryStore:
        """The store of the owner's own settings (opened on first use)."""
        return self.store_for(self.settings)

    def _cached(self, cache: dict[Hashable, T], key: Hashable, make: Callable[[], T]) -> T:
        with self._lock:
            if key not in cache:
                cache[key] = make()
            return cache[key]

    def forget(self, namespace: str | None = None) -> None:
        """Drop what this owner keeps in memory of ``namespace`` (of every namespace when None).

        After a reset: the lexical indexes holding it, and every embedding cache (a cache is keyed by
        text, not by namespace, so all of it goes; texts are embedded again when next needed).
        """
        with self._lock:
            caches = [*self._embeddings.values(), *([self._given_embeddings] if self._given_embeddings else [])]
            indexes = list(self._indexes.values())
        for cache in caches:
            cache.clear()
        for index in indexes:
            index.forget(namespace)

    # Lifetime -----------------------------------------------------------------------------
    def close(self) -> None:
        """Close the stores this owner opened and forget what it built; safe to call twice."""
        with self._lock:
            opened, self._opened = self._opened, []
            self._stores = {k: s for k, s in self._stores.items() if all(s is not o for o in opened)}
            self._embeddings.clear()
            self._indexes.clear()
            self._deciders.clear()
            self._layered.clear()
            self._services.clear()
            self._paths.clear()
            self._index_builds.clear()
            self._settings = self._given_settings
        for store in opened:
            store.close()
            log.info("dmem closed the store in %s", store.path)

    def __enter__(self) -> Resources:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _store_key(store_dir: str | Path) -> Path:
    return Path(store_dir).expanduser().resolve()
