"""Loading the default embeddings imports neither LangChain nor package metadata, and dmem's embedding
classes still are LangChain ``Embeddings`` wherever LangChain is used, whatever was imported first."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from langchain_core.embeddings import Embeddings

from dmem.models.embeddings import CachedEmbeddings, HashEmbeddings, make_embeddings
from dmem.models.embeddings_onnx import OnnxMiniLMEmbeddings


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_loading_the_default_model_imports_no_langchain_and_reads_no_metadata() -> None:
    code = ("import sys; from dmem.models.embeddings import make_embeddings; "
            "assert len(make_embeddings('local:all-MiniLM-L6-v2').embed_query('hello there')) == 384; "
            "print(sorted(m for m in ('langchain_core', 'langgraph', 'importlib.metadata', 'torch') "
            "if m in sys.modules))")
    assert _run(code) == "[]"


@pytest.mark.slow
def test_dmem_embeddings_made_before_langchain_was_imported_are_langchain_embeddings() -> None:
    code = ("import sys; from dmem.models.embeddings import make_embeddings; e = make_embeddings('hash'); "
            "assert 'langchain_core' not in sys.modules; "
            "from dmem import Memory; from langchain_core.embeddings import Embeddings; "
            "import tempfile; m = Memory(tempfile.mkdtemp(), embeddings=e); "
            "print(isinstance(e, Embeddings), isinstance(e.inner, Embeddings), "
            "m.resources.embeddings_for(m.context) is e); m.close()")
    assert _run(code) == "True True True"


def test_dmem_embeddings_are_langchain_embeddings_with_its_async_methods() -> None:
    for emb in (HashEmbeddings(), make_embeddings("hash"), OnnxMiniLMEmbeddings()):
        assert isinstance(emb, Embeddings)
    emb = make_embeddings("hash")
    assert asyncio.run(emb.aembed_documents(["a red kite", "tea"])) == emb.embed_documents(["a red kite", "tea"])
    assert asyncio.run(emb.aembed_query("a red kite")) == emb.embed_query("a red kite")


def test_a_langchain_embeddings_instance_is_wrapped_and_anything_else_refused() -> None:
    class Words(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[float(len(t.split()))] for t in texts]

        def embed_query(self, text: str) -> list[float]:
            return [float(len(text.split()))]

    wrapped = make_embeddings(Words())
    assert isinstance(wrapped, CachedEmbeddings) and wrapped.embed_query("two words") == [2.0]
    try:
        make_embeddings(object())  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001 - the type is asserted below
        assert type(exc).__name__ == "ConfigError" and "LangChain Embeddings" in str(exc)
    else:
        raise AssertionError("an object that is no Embeddings was accepted")
