"""The notebooks run offline, top to bottom, in a kernel on this venv's Python, and match their generator."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed (pip install -e .[dev])")
nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed (pip install -e .[dev])")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
KERNEL = "dmem-test-venv"
EXPECTED = {
    "quickstart": ["decision engine: offline", "reject Alice: lol ok", "route: system1", "route: deliberation",
                   "Riverside", "UPDATE : Alice lives in Boston -> Alice lives in Seattle now"],
    "embedding": ["[dmem route: no_memory]", "[dmem route: system1]", "recall: read_question -> retrieve",
                  "remember: read_input -> record", "beagle named Rex",
                  "['HumanMessage', 'AIMessage', 'HumanMessage', 'SystemMessage', 'AIMessage']"],
}


@pytest.fixture(scope="module")
def kernel_name(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A kernelspec for this interpreter in a temporary JUPYTER_PATH, so the kernel sees dmem."""
    pytest.importorskip("ipykernel", reason="ipykernel is not installed, so no Jupyter kernel can start")
    from jupyter_client.kernelspec import KernelSpecManager

    root = tmp_path_factory.mktemp("jupyter")
    spec = root / "kernels" / KERNEL
    spec.mkdir(parents=True)
    spec.joinpath("kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "dmem (test venv)", "language": "python"}), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", str(root))
        assert KERNEL in KernelSpecManager().find_kernel_specs()
        yield KERNEL


def outputs(nb: nbformat.NotebookNode) -> str:
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            texts.append(out.get("text") or out.get("data", {}).get("text/plain", ""))
    return "".join(texts)


@pytest.mark.slow  # starts a Jupyter kernel and executes every cell
@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_notebook_runs_offline(stem: str, kernel_name: str) -> None:
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name=kernel_name, timeout=120,
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError, with the cell and traceback, if any cell fails
    text = outputs(nb)
    missing = [s for s in EXPECTED[stem] if s not in text]
    assert not missing, f"{stem}.ipynb output lacks {missing}:\n{text}"


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_committed_notebook_matches_generator_and_has_no_outputs(stem: str) -> None:
    spec = importlib.util.spec_from_file_location("make_notebooks", NOTEBOOKS / "make_notebooks.py")
    assert spec is not None and spec.loader is not None
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    cells = {"quickstart": make.QUICKSTART, "embedding": make.EMBEDDING}[stem]
    committed = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    assert committed == make.build(cells, stem), "regenerate: .venv/bin/python notebooks/make_notebooks.py"
    assert all(not c.get("outputs") and c.get("execution_count") is None
               for c in committed.cells if c.cell_type == "code")
