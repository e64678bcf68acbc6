"""What a store records about its embedding model, and how it refuses another."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmem.api import Memory
from dmem.errors import ConfigError, EmbeddingMismatchError, StoreError
from dmem.models.embeddings_local import ONNX_INT8, TORCH_FP32
from dmem.store import open_store
from dmem.store.embedding_meta import check_embedding, recorded_embedding
from dmem.store.local.sqlite import Database


def test_a_new_store_records_model_and_quantisation(tmp_path: Path) -> None:
    with Memory(store_dir=str(tmp_path / "s")) as mem:
        assert mem.store.info().extra["embedding"] == ONNX_INT8 == "onnx:all-MiniLM-L6-v2:int8"


def test_another_model_is_a_config_error_naming_the_flag(tmp_path: Path) -> None:
    with open_store(tmp_path / "s", embedding=ONNX_INT8):
        pass
    with pytest.raises(ConfigError, match=f"built with embedding model '{ONNX_INT8}', not '{TORCH_FP32}'.*"
                                          f"--embeddings {ONNX_INT8} .*embedding_model.*--reembed") as err:
        open_store(tmp_path / "s", embedding=TORCH_FP32)
    assert isinstance(err.value, StoreError)  # also a store error, as before
    with open_store(tmp_path / "s", embedding=ONNX_INT8, read_only=True) as store:
        assert store.info().extra["embedding"] == ONNX_INT8


def test_memory_on_a_hash_store_with_the_default_model_is_refused(tmp_path: Path) -> None:
    with Memory(store_dir=str(tmp_path / "s"), embeddings="hash") as mem:
        mem.add("I keep bees on the roof.", user_id="ines")
    with pytest.raises(EmbeddingMismatchError, match="--embeddings hash:384"):
        Memory(store_dir=str(tmp_path / "s")).search("bees", user_id="ines")


def test_stores_of_older_versions_meant_the_torch_model(tmp_path: Path) -> None:
    with open_store(tmp_path / "s", embedding="hash:384"):
        pass
    db = Database(tmp_path / "s", read_only=False)
    db.set_meta("embedding", "local:all-MiniLM-L6-v2")  # what dmem recorded before the ONNX default
    db.close()
    with pytest.raises(EmbeddingMismatchError, match=rf"'{TORCH_FP32}'.*pip install 'dmem\[torch\]'"):
        open_store(tmp_path / "s", embedding=ONNX_INT8)
    with open_store(tmp_path / "s", embedding=TORCH_FP32) as store:
        assert store.info().extra["embedding"] == TORCH_FP32


def test_recorded_names() -> None:
    assert recorded_embedding(None) is None and recorded_embedding("hash:16") == "hash:16"
    assert recorded_embedding("local:all-MiniLM-L6-v2") == TORCH_FP32
    check_embedding("s", None, ONNX_INT8)  # nothing recorded yet: nothing to refuse
    check_embedding("s", "local:all-MiniLM-L6-v2", TORCH_FP32)
    with pytest.raises(EmbeddingMismatchError):
        check_embedding("s", "hash:384", "hash:16")
