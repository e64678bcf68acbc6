"""The ``dmem[torch]`` extra: the fp32 PyTorch model, its agreement with the ONNX default, and its store.

CI installs the extra in a second step and runs this module alone (``-m torch``); the light
install's run leaves it out, so it never skips in CI.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sentence_transformers", reason="needs the dmem[torch] extra (pip install 'dmem[torch]')")

from dmem.api import Memory  # noqa: E402
from dmem.errors import EmbeddingMismatchError  # noqa: E402
from dmem.models.embeddings import embedding_name, make_embeddings  # noqa: E402
from dmem.models.embeddings_local import ONNX_INT8, TORCH_FP32  # noqa: E402

pytestmark = [pytest.mark.torch, pytest.mark.slow]
REFERENCE = json.loads((Path(__file__).parent / "fixtures" / "minilm_reference.json").read_text())


@pytest.fixture(scope="module")
def torch_vectors() -> np.ndarray:
    return np.asarray(make_embeddings("torch:all-MiniLM-L6-v2").embed_documents(REFERENCE["sentences"]))


def test_the_fixture_is_what_the_torch_model_says(torch_vectors: np.ndarray) -> None:
    np.testing.assert_allclose(torch_vectors, np.asarray(REFERENCE["vectors"]), atol=1e-4)


def test_onnx_and_torch_agree(torch_vectors: np.ndarray) -> None:
    onnx = np.asarray(make_embeddings(ONNX_INT8).embed_documents(REFERENCE["sentences"]))
    assert (onnx * torch_vectors).sum(axis=1).min() > 0.995


def test_a_torch_store_refuses_the_default_model(tmp_path: Path) -> None:
    with Memory(store_dir=str(tmp_path / "s"), embeddings="torch") as mem:
        assert embedding_name(mem.services.embeddings) == TORCH_FP32
        mem.add("I keep bees on the roof.", user_id="ines")
        assert mem.store.info().extra["embedding"] == TORCH_FP32
    with pytest.raises(EmbeddingMismatchError, match=f"--embeddings {TORCH_FP32}"):
        Memory(store_dir=str(tmp_path / "s")).search("bees", user_id="ines")


def test_cli_on_a_torch_store_adopts_it_and_keeps_stderr_json(tmp_path: Path) -> None:
    store = str(tmp_path / "s")
    with Memory(store_dir=store, embeddings="torch") as mem:
        mem.add("I keep bees on the roof.", user_id="ines")
    out = subprocess.run([sys.executable, "-m", "dmem", "--json", "--store", store, "search", "bees",
                          "--user-id", "ines"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "bees" in json.loads(out.stdout)[0]["memory"]["text"]
    assert all(json.loads(line) for line in out.stderr.splitlines())  # no 'Loading weights' bar
