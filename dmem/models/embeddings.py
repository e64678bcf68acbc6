"""Embedding models from a spec: the bundled MiniLM (ONNX or PyTorch), a hashing model, provider models, a cache."""

from __future__ import annotations

import hashlib
import logging
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dmem.errors import ConfigError
from dmem.models.embeddings_base import ArrayEmbeddings, as_matrix, langchain_embeddings
from dmem.models.embeddings_base import EmbeddingsBase as Embeddings  # LangChain's interface, without LangChain
from dmem.models.embeddings_local import MODEL, ONNX_INT8, TORCH_FP32, LocalMiniLMEmbeddings

log = logging.getLogger(__name__)

LOCAL_MINILM = "local:all-MiniLM-L6-v2"
"""The default spec: the bundled MiniLM on the default backend (ONNX, int8)."""
_ONNX_SPECS = {LOCAL_MINILM, "local", "minilm", "local:minilm", "onnx", f"onnx:{MODEL}", ONNX_INT8}
_TORCH_SPECS = {"torch", f"torch:{MODEL}", TORCH_FP32}
_TOKEN = re.compile(r"[\w']+", re.UNICODE)
DEFAULT_CACHE_ITEMS = 2_048
"""Texts whose vectors a ``CachedEmbeddings`` keeps by default (1.5 KB a vector at 384 dims, plus its text)."""


class HashEmbeddings(ArrayEmbeddings):
    """Deterministic bag-of-words embeddings by feature hashing: no model, no I/O.

    Similar wording gives similar vectors, which is what tests and tiny setups need. Summed and
    normalised in float64, kept as float32 like every dmem vector.
    """

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim

    def _vector(self, text: str, out: NDArray[np.float32]) -> None:
        """Write the unit vector of ``text`` into ``out`` (one zeroed row): the few hashed dimensions only."""
        vec: dict[int, float] = {}
        tokens = [t.lower() for t in _TOKEN.findall(text)]
        grams = tokens + [f"{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False)]
        for gram in grams:
            digest = hashlib.blake2b(gram.encode("utf-8"), digest_size=8).digest()
            idx = int.from_bytes(digest[:4], "little") % self.dim
            sign = 1.0 if digest[4] & 1 else -1.0
            vec[idx] = vec.get(idx, 0.0) + sign * (1.0 if " " not in gram else 0.5)
        norm = math.sqrt(sum(vec[i] * vec[i] for i in sorted(vec))) or 1.0
        for i, v in vec.items():
            out[i] = v / norm

    def embed_array(self, texts: Sequence[str]) -> NDArray[np.float32]:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            self._vector(text, out[row])
        return out


class CachedEmbeddings(ArrayEmbeddings):
    """Wraps any embeddings so one text is embedded once per call, and recent texts once (LRU, thread-safe).

    At most ``max_items`` texts are kept, least recently used dropped first (0: none kept after the
    call that embedded them), so a long-running server's cache stops growing at that bound.
    Threads asking for a text another thread is embedding wait for it instead of embedding it again.
    Vectors are kept as rows of one float32 matrix of ``max_items`` rows, allocated on first use and
    filled row by row (``4 * dim`` bytes a text, 1.5 KB at 384 dims, plus the text as its key):
    no Python float per dimension, and a freed row is reused rather than left to the allocator.
    float32 is what the bundled models compute and what both stores keep, so nothing is lost.
    """

    def __init__(self, inner: Embeddings, max_items: int = DEFAULT_CACHE_ITEMS) -> None:
        self.inner = inner
        self.max_items = max_items
        self._cache: OrderedDict[str, int] = OrderedDict()
        """Each kept text's row in ``_rows``, least recently used first."""
        self._rows: NDArray[np.float32] | None = None
        self._inflight: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def held_bytes(self) -> int:
        """Bytes of the kept vectors (the rows in use; the matrix's untouched rows take no memory)."""
        with self._lock:
            return 0 if self._rows is None else len(self._cache) * self._rows.shape[1] * self._rows.itemsize

    def embed_array(self, texts: Sequence[str]) -> NDArray[np.float32]:
        unique = list(dict.fromkeys(texts))
        found: dict[str, NDArray[np.float32]] = {}
        with self._lock:
            mine = [t for t in unique if t not in self._cache and t not in self._inflight]
            waits = {t: self._inflight[t] for t in unique if t in self._inflight}
            done = threading.Event()
            for t in mine:
                self._inflight[t] = done
            kept = [t for t in unique if t in self._cache]
            if kept:
                found.update(zip(kept, self._take(kept), strict=True))
            self.misses += len(mine)
            self.hits += len(texts) - len(mine)
        if mine:
            try:
                fresh = as_matrix(self.inner, mine)
                found.update(zip(mine, fresh, strict=True))
                with self._lock:
                    self._keep(mine, fresh)
            finally:
                with self._lock:
                    for t in mine:
                        self._inflight.pop(t, None)
                done.set()
        for t, event in waits.items():
            event.wait()
            with self._lock:
                row = self._take([t]) if t in self._cache else None
            found[t] = row[0] if row is not None else as_matrix(self.inner, [t])[0]
        if not texts:
            return np.empty((0, self._rows.shape[1] if self._rows is not None else 0), dtype=np.float32)
        return np.stack([found[t] for t in texts])

    def _take(self, texts: list[str]) -> NDArray[np.float32]:
        """A copy of the kept rows of ``texts``, marking them most recently used (lock held)."""
        assert self._rows is not None
        for t in texts:
            self._cache.move_to_end(t)  # least recently used goes first, not oldest
        return self._rows[[self._cache[t] for t in texts]]

    def _keep(self, texts: list[str], vectors: NDArray[np.float32]) -> None:
        """Keep new rows, reusing the least recently used one's row beyond ``max_items`` (lock held)."""
        if not self.max_items:
            return
        if self._rows is None or self._rows.shape[1] != vectors.shape[1]:
            self._cache.clear()
            self._rows = np.empty((self.max_items, vectors.shape[1]), dtype=np.float32)
        for text, vector in zip(texts, vectors, strict=True):
            if text in self._cache:
                slot = self._cache[text]
                self._cache.move_to_end(text)
            elif len(self._cache) < self.max_items:
                slot = len(self._cache)  # rows are only freed by a clear(), so 0..len-1 are the ones in use
            else:
                _, slot = self._cache.popitem(last=False)
            self._cache[text] = slot
            self._rows[slot] = vector

    def clear(self) -> None:
        """Forget every kept text and its vector (a reset erased them from the store: none stays here)."""
        with self._lock:
            self._cache.clear()
            self._rows = None


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
