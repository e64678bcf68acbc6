"""Embedding models from a spec: the bundled MiniLM (ONNX or PyTorch), a hashing model, provider models, a cache."""

from __future__ import annotations

import hashlib
import logging
import math
import re
import threading
from array import array
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from dmem.errors import ConfigError
from dmem.models.embeddings_base import EmbeddingsBase as Embeddings  # LangChain's interface, without LangChain
from dmem.models.embeddings_base import langchain_embeddings
from dmem.models.embeddings_local import MODEL, ONNX_INT8, TORCH_FP32, LocalMiniLMEmbeddings

log = logging.getLogger(__name__)

LOCAL_MINILM = "local:all-MiniLM-L6-v2"
"""The default spec: the bundled MiniLM on the default backend (ONNX, int8)."""
_ONNX_SPECS = {LOCAL_MINILM, "local", "minilm", "local:minilm", "onnx", f"onnx:{MODEL}", ONNX_INT8}
_TORCH_SPECS = {"torch", f"torch:{MODEL}", TORCH_FP32}
_TOKEN = re.compile(r"[\w']+", re.UNICODE)
DEFAULT_CACHE_ITEMS = 2_048
"""Texts whose vectors a ``CachedEmbeddings`` keeps by default (about 3 KB each at 384 dims: about 7 MB)."""


class HashEmbeddings(Embeddings):
    """Deterministic bag-of-words embeddings by feature hashing: no model, no I/O.

    Similar wording gives similar vectors, which is what tests and tiny setups need.
    """

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim

    def _vector(self, text: str) -> list[float]:
        vec = [0.0] * self.dim
        tokens = [t.lower() for t in _TOKEN.findall(text)]
        grams = tokens + [f"{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False)]
        for gram in grams:
            digest = hashlib.blake2b(gram.encode("utf-8"), digest_size=8).digest()
            idx = int.from_bytes(digest[:4], "little") % self.dim
            sign = 1.0 if digest[4] & 1 else -1.0
            vec[idx] += sign * (1.0 if " " not in gram else 0.5)
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


class CachedEmbeddings(Embeddings):
    """Wraps any embeddings so one text is embedded once per call, and recent texts once (LRU, thread-safe).

    At most ``max_items`` texts are kept, least recently used dropped first (0: none kept after the
    call that embedded them), so a long-running server's cache stops growing at that bound.
    Threads asking for a text another thread is embedding wait for it instead of embedding it again.
    Vectors are kept as packed doubles (about 3 KB at 384 dims instead of 12 KB as a list of floats),
    exactly as embedded; each caller gets a list of its own.
    """

    def __init__(self, inner: Embeddings, max_items: int = DEFAULT_CACHE_ITEMS) -> None:
        self.inner = inner
        self.max_items = max_items
        self._cache: OrderedDict[str, array[float]] = OrderedDict()
        self._inflight: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        found: dict[str, list[float]] = {}
        with self._lock:
            mine = [t for t in dict.fromkeys(texts) if t not in self._cache and t not in self._inflight]
            waits = {t: self._inflight[t] for t in dict.fromkeys(texts) if t in self._inflight}
            done = threading.Event()
            for t in mine:
                self._inflight[t] = done
            for t in dict.fromkeys(texts):
                if t in self._cache:
                    self._cache.move_to_end(t)  # least recently used goes first, not oldest
                    found[t] = self._cache[t].tolist()
            self.misses += len(mine)
            self.hits += len(texts) - len(mine)
        if mine:
            try:
                vectors = self.inner.embed_documents(mine)
                found.update(zip(mine, vectors, strict=True))
                with self._lock:
                    self._cache.update((t, array("d", v)) for t, v in zip(mine, vectors, strict=True))
                    while len(self._cache) > self.max_items:
                        self._cache.popitem(last=False)
            finally:
                with self._lock:
                    for t in mine:
                        self._inflight.pop(t, None)
                done.set()
        for t, event in waits.items():
            event.wait()
            with self._lock:
                vec = self._cache.get(t)
            found[t] = vec.tolist() if vec is not None else self.inner.embed_documents([t])[0]
        return [found[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def clear(self) -> None:
        """Forget every kept text and its vector (a reset erased them from the store: none stays here)."""
        with self._lock:
            self._cache.clear()


def embedding_name(emb: Embeddings) -> str:
    """A stable name for an embeddings object, recorded in the store it fills."""
    inner = emb.inner if isinstance(emb, CachedEmbeddings) else emb
    if isinstance(inner, LocalMiniLMEmbeddings):
        return inner.name
    if isinstance(inner, HashEmbeddings):
        return f"hash:{inner.dim}"
    model = getattr(inner, "model", None) or getattr(inner, "model_name", None)
    return f"{type(inner).__name__}:{model}" if model else type(inner).__name__


def spec_of_name(name: str | None) -> str | None:
    """The spec that builds the model a store records as ``name``, or None for a model no spec names."""
    if name is None:
        return None
    if name in _ONNX_SPECS or name in _TORCH_SPECS or re.fullmatch(r"hash:\d+", name):
        return name
    if name.startswith("OpenAIEmbeddings:"):
        return "openai:" + name.split(":", 1)[1]
    return None


def embedding_dim(emb: Embeddings) -> int:
    """Vector size of an embeddings object (asks it once when it does not say)."""
    inner = emb.inner if isinstance(emb, CachedEmbeddings) else emb
    dim = getattr(inner, "dim", None)
    if isinstance(dim, int):
        return dim
    return len(emb.embed_query("dimension probe"))


def make_embeddings(spec: str | Embeddings, *, base_url: str | None = None, api_key: str | None = None,
                    cache_items: int = DEFAULT_CACHE_ITEMS) -> CachedEmbeddings:
    """Embeddings from a spec or an instance, caching at most ``cache_items`` texts.

    Specs: 'local:all-MiniLM-L6-v2' (the default: 'onnx:all-MiniLM-L6-v2:int8'), 'torch:all-MiniLM-L6-v2'
    (fp32 on PyTorch, the ``dmem[torch]`` extra), 'hash' or 'hash:<dim>', 'openai:<model>'.
    """
    if isinstance(spec, CachedEmbeddings):
        return spec
    inner = _inner_embeddings(spec, base_url, api_key)
    return CachedEmbeddings(inner, max_items=cache_items)


def _inner_embeddings(spec: str | Embeddings, base_url: str | None, api_key: str | None) -> Embeddings:
    """The uncached embeddings a spec names (an instance is used as given)."""
    if not isinstance(spec, str):
        if isinstance(spec, langchain_embeddings()):
            return spec
        raise ConfigError(f"embeddings must be a spec string or a LangChain Embeddings instance, "
                          f"not {type(spec).__name__}")
    if spec in _ONNX_SPECS:
        from dmem.models.embeddings_onnx import OnnxMiniLMEmbeddings

        return OnnxMiniLMEmbeddings()
    if spec in _TORCH_SPECS:
        from dmem.models.embeddings_torch import TorchMiniLMEmbeddings

        return TorchMiniLMEmbeddings()
    if spec == "hash" or spec.startswith("hash:"):
        dim = int(spec.split(":", 1)[1]) if ":" in spec else 384
        return HashEmbeddings(dim)
    provider, _, model = spec.partition(":")
    if provider == "openai" and model:
        from langchain_openai import OpenAIEmbeddings

        kwargs: dict[str, Any] = {"model": model}
        if base_url:
            kwargs["base_url"] = base_url
        if api_key:
            kwargs["api_key"] = api_key
        return OpenAIEmbeddings(**kwargs)
    raise ConfigError(
        f"embedding_model {spec!r} is not known: use 'local:all-MiniLM-L6-v2' (ONNX int8, the default), "
        "'torch:all-MiniLM-L6-v2' (needs dmem[torch]), 'hash', 'openai:<model>', or pass a LangChain "
        "Embeddings instance"
    )


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
