"""Unit vectors, as both backends store them (cosine is then a dot product)."""

from __future__ import annotations

import numpy as np

from dmem.errors import StoreError


def normalize(vector: object, dim: int) -> np.ndarray:
    """Return a float32 unit vector of length ``dim``; raise StoreError saying what is wrong otherwise."""
    arr = np.asarray(vector, dtype=np.float32).reshape(-1)
    if arr.shape[0] != dim:
        raise StoreError(f"vector has {arr.shape[0]} dimensions but the store uses {dim}")
    if not np.all(np.isfinite(arr)):
        raise StoreError("vector contains NaN or infinite values; check the embedding model output")
    norm = float(np.linalg.norm(arr))
    if norm == 0.0:
        raise StoreError("vector is all zeros, so it has no direction to compare by cosine")
    return arr / norm


def query_unit(vector: object, dim: int) -> np.ndarray | None:
    """``normalize`` for a search query; None for an all-zero one, which is similar to nothing.

    An all-zero query comes from text with nothing an embedding can see (a lone symbol under hash
    embeddings): the search finds no hit instead of failing the turn or question that asked.
    """
    arr = np.asarray(vector, dtype=np.float32).reshape(-1)
    if arr.shape[0] == dim and np.all(np.isfinite(arr)) and not np.any(arr):
        return None
    return normalize(arr, dim)
