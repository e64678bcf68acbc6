"""The default embeddings: int8 ONNX MiniLM against the PyTorch model's vectors, batching, specs, no torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dmem.errors import ConfigError, ModelError
from dmem.models.embeddings import LOCAL_MINILM, embedding_dim, embedding_name, make_embeddings
from dmem.models.embeddings_local import ONNX_INT8, TORCH_FP32, in_batches, length_sorted_batches
from dmem.models.embeddings_onnx import OnnxMiniLMEmbeddings
from dmem.models.embeddings_torch import TorchMiniLMEmbeddings

REFERENCE = json.loads((Path(__file__).parent / "fixtures" / "minilm_reference.json").read_text())


@pytest.fixture(scope="module")
def onnx() -> OnnxMiniLMEmbeddings:
    return OnnxMiniLMEmbeddings(batch_size=3)


def test_reference_vectors_come_from_the_torch_model() -> None:
    assert REFERENCE["model"] == TORCH_FP32 and len(REFERENCE["vectors"]) == len(REFERENCE["sentences"]) >= 8


def test_onnx_agrees_with_the_torch_reference(onnx: OnnxMiniLMEmbeddings) -> None:
    ours = np.asarray(onnx.embed_documents(REFERENCE["sentences"]))
    ref = np.asarray(REFERENCE["vectors"])
    assert ours.shape == ref.shape == (len(REFERENCE["sentences"]), 384)
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)  # L2-normalised
    agreement = (ours * ref).sum(axis=1)
    assert agreement.min() > 0.995 and agreement.mean() > 0.999, agreement
    # the same nearest neighbours, in the same order
    assert (np.argsort(-(ours @ ours.T), axis=1)[:, :4] == np.argsort(-(ref @ ref.T), axis=1)[:, :4]).all()


def test_length_sorted_batches_equal_one_text_at_a_time(onnx: OnnxMiniLMEmbeddings) -> None:
    texts = REFERENCE["sentences"]
    single = np.asarray([onnx.embed_query(t) for t in texts])
    np.testing.assert_allclose(np.asarray(onnx.embed_documents(texts)), single, atol=1e-5)
    np.testing.assert_allclose(np.asarray(OnnxMiniLMEmbeddings(batch_size=64).embed_documents(texts)), single,
                               atol=1e-5)


class _SpySession:
    """Records the width of every batch the model runs."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.widths = inner, []

    def run(self, names: Any, feeds: dict[str, Any]) -> Any:
        self.widths.append((feeds["input_ids"].shape, int(feeds["attention_mask"].sum(axis=1).max())))
        return self.inner.run(names, feeds)


def test_each_batch_is_padded_to_its_own_longest_text() -> None:
    emb = OnnxMiniLMEmbeddings(batch_size=2)
    tokenizer, session = emb.load()
    spy = _SpySession(session)
    emb._model = (tokenizer, spy)
    texts = ["ok", "yes", "a long sentence about the garden, the shed and the old apple tree by the fence", "no",
             "a middling sentence about lunch"]
    emb.embed_documents(texts)
    widths = sorted(shape[1] for shape, _ in spy.widths)
    assert sorted(longest for _, longest in spy.widths) == widths  # no batch padded beyond its longest text
    assert len(widths) == 3 and widths[0] <= 3  # the short texts together


def test_batches_run_at_once_give_the_vectors_of_one_at_a_time() -> None:
    texts = REFERENCE["sentences"] * 3
    one = OnnxMiniLMEmbeddings(batch_size=2, threads=1)
    many = OnnxMiniLMEmbeddings(batch_size=2, threads=3)
    assert many.embed_documents(texts) == one.embed_documents(texts)


def test_long_texts_are_cut_at_256_tokens(onnx: OnnxMiniLMEmbeddings) -> None:
    tokenizer, _ = onnx.load()
    assert len(tokenizer.encode("word " * 1000).ids) == 256


@given(st.lists(st.integers(min_value=0, max_value=300), max_size=60), st.integers(min_value=1, max_value=9))
def test_length_sorted_batches_cover_each_text_once(lengths: list[int], size: int) -> None:
    batches = length_sorted_batches(lengths, size)
    order = [i for b in batches for i in b]
    assert sorted(order) == list(range(len(lengths)))
    assert all(0 < len(b) <= size for b in batches)
    assert [lengths[i] for i in order] == sorted(lengths, reverse=True)


@given(st.lists(st.integers(min_value=1, max_value=50), max_size=30), st.integers(min_value=1, max_value=7))
def test_in_batches_returns_input_order(lengths: list[int], size: int) -> None:
    out = in_batches(lengths, size, lambda batch: [[float(i)] for i in batch])
    assert out.dtype == np.float32 and out.tolist() == [[float(i)] for i in range(len(lengths))]


@pytest.mark.parametrize("spec", [LOCAL_MINILM, "local", "minilm", "onnx:all-MiniLM-L6-v2", ONNX_INT8])
def test_the_default_spec_is_onnx_int8(spec: str) -> None:
    emb = make_embeddings(spec)
    assert isinstance(emb.inner, OnnxMiniLMEmbeddings)
    assert embedding_name(emb) == ONNX_INT8 and embedding_dim(emb) == 384
    assert emb.inner._model is None  # naming it loads nothing


@pytest.mark.parametrize("spec", ["torch", "torch:all-MiniLM-L6-v2", TORCH_FP32])
def test_torch_specs_name_the_fp32_model(spec: str) -> None:
    emb = make_embeddings(spec)
    assert isinstance(emb.inner, TorchMiniLMEmbeddings) and embedding_name(emb) == TORCH_FP32


def test_unknown_spec_names_the_choices() -> None:
    with pytest.raises(ConfigError, match="torch:all-MiniLM-L6-v2.*dmem\\[torch\\]"):
        make_embeddings("local:all-mpnet")


def test_torch_backend_without_torch_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import fails as if not installed
    with pytest.raises(ModelError, match=r"pip install 'dmem\[torch\]'"):
        TorchMiniLMEmbeddings().embed_query("hello")


def test_the_default_embeddings_import_no_torch() -> None:
    code = ("import sys; from dmem.models.embeddings import make_embeddings; "
            "v = make_embeddings('local:all-MiniLM-L6-v2').embed_query('hello there'); "
            "assert len(v) == 384; "
            "print(sorted(m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stderr
