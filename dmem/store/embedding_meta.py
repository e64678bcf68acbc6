"""What a store records about the embedding model that made its vectors, and the check on opening it.

The record names the model and its quantisation ('onnx:all-MiniLM-L6-v2:int8', 'hash:384', ...):
vectors of another model, or of the same model at another precision, are not comparable with
the store's, so opening it with one is an error that names the setting to use.
"""

from __future__ import annotations

from dmem.errors import EmbeddingMismatchError

LEGACY_NAMES = {"local:all-MiniLM-L6-v2": "torch:all-MiniLM-L6-v2:fp32"}
"""Names older stores recorded: before the ONNX default, 'local:all-MiniLM-L6-v2' was the PyTorch fp32 model."""


def recorded_embedding(raw: str | None) -> str | None:
    """The embedding model a store's record names, older names read as what they meant."""
    return None if raw is None else LEGACY_NAMES.get(raw, raw)


def check_embedding(where: str, raw: str | None, wanted: str) -> None:
    """Refuse to open the store at ``where`` (recorded model ``raw``) with embedding model ``wanted``."""
    stored = recorded_embedding(raw)
    if stored is None or stored == wanted:
        return
    extra = " (after pip install 'dmem[torch]')" if stored.startswith("torch:") else ""
    raise EmbeddingMismatchError(
        f"store {where} was built with embedding model {stored!r}, not {wanted!r}, and the two do not mix: "
        f"open it with --embeddings {stored}{extra} (setting embedding_model, DMEM_EMBEDDING_MODEL), "
        "or move its memories to a new store with 'dmem export' and 'dmem import --reembed'")
