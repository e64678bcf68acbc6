"""The bundled all-MiniLM-L6-v2 behind one interface: its names, loading once, length-sorted batches."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dmem.models.embeddings_base import ArrayEmbeddings

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


class LocalMiniLMEmbeddings(ArrayEmbeddings, ABC):
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
    def _encode(self, model: Any, texts: list[str]) -> Any:
        """Unit-length embeddings of ``texts``, in order: a float32 matrix (or rows numpy reads as one)."""

    def embed_array(self, texts: Sequence[str]) -> NDArray[np.float32]:
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        return np.asarray(self._encode(self.load(), list(texts)), dtype=np.float32).reshape(len(texts), -1)


Encode = Callable[[list[int]], Any]
"""Embeds the texts at these indexes: a float32 matrix (or rows numpy reads as one), rows in order."""


def in_batches(lengths: Sequence[int], batch_size: int, encode: Encode,
               mapper: Callable[[Encode, list[list[int]]], Iterable[Any]] = map) -> NDArray[np.float32]:
    """Encode texts batch by batch in length order (``encode`` gets indexes) into one float32 matrix in input order.

    ``mapper`` applies ``encode`` to the batches, in order: ``map``, or an executor's ``map`` to run them at once.
    """
    out: NDArray[np.float32] | None = None
    batches = length_sorted_batches(lengths, batch_size)
    for batch, vectors in zip(batches, mapper(encode, batches), strict=True):
        rows = np.asarray(vectors, dtype=np.float32).reshape(len(batch), -1)
        if out is None:
            out = np.empty((len(lengths), rows.shape[1]), dtype=np.float32)
        out[batch] = rows
    return out if out is not None else np.empty((0, 0), dtype=np.float32)
