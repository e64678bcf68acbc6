"""The bundled all-MiniLM-L6-v2 behind one interface: its names, loading once, length-sorted batches."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from dmem.models.embeddings_base import EmbeddingsBase

MODEL = "all-MiniLM-L6-v2"
ONNX_INT8 = f"onnx:{MODEL}:int8"
"""The default: the int8 ONNX export run by onnxruntime (no PyTorch)."""
TORCH_FP32 = f"torch:{MODEL}:fp32"
"""The fp32 PyTorch model of sentence-transformers (the ``dmem[torch]`` extra)."""
MAX_TOKENS = 256
"""Longest input in tokens, as sentence-transformers truncates this model (the rest is cut)."""


def length_sorted_batches(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indexes of the texts in batches of similar length (longest first), so padding stays small."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    return [order[i:i + batch_size] for i in range(0, len(order), batch_size)]


class LocalMiniLMEmbeddings(EmbeddingsBase, ABC):
    """all-MiniLM-L6-v2 on this machine: loads on first use (or ``load()``), never downloads.

    ``name`` is what a store records about the vectors: the model and its quantisation.
    """

    name: str = ""
    dim = 384

    def __init__(self, batch_size: int = 32) -> None:
        self.batch_size = batch_size
        self._lock = threading.Lock()
        self._model: Any = None

    def load(self) -> Any:
        """The loaded model, loading it once (thread-safe)."""
        with self._lock:
            if self._model is None:
                self._model = self._load()
            return self._model

    @abstractmethod
    def _load(self) -> Any:
        """Load the model from files installed with dmem (ModelError when they are missing)."""

    @abstractmethod
    def _encode(self, model: Any, texts: list[str]) -> list[list[float]]:
        """Unit-length embeddings of ``texts``, in order."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return self._encode(self.load(), list(texts))

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


Encode = Callable[[list[int]], list[list[float]]]


def in_batches(lengths: Sequence[int], batch_size: int, encode: Encode,
               mapper: Callable[[Encode, list[list[int]]], Iterable[list[list[float]]]] = map) -> list[list[float]]:
    """Encode texts batch by batch in length order (``encode`` gets indexes) and return them in input order.

    ``mapper`` applies ``encode`` to the batches, in order: ``map``, or an executor's ``map`` to run them at once.
    """
    out: list[list[float]] = [[] for _ in lengths]
    batches = length_sorted_batches(lengths, batch_size)
    for batch, vectors in zip(batches, mapper(encode, batches), strict=True):
        for i, vec in zip(batch, vectors, strict=True):
            out[i] = vec
    return out
