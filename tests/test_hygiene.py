"""The test suite's own rules: slow tests are marked, and pytest's summary line prints."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What makes a test slow: the PyTorch MiniLM (the ONNX default loads in a fraction of a second), the demo,
# a notebook kernel, or `dmem` run as a subprocess.
SLOW_SIGNS = re.compile(r"make_embeddings\([\"']torch|embeddings=[\"']torch|"
                        r"\brun_demo\b|\bmain\(\[\"demo\"|\bNotebookClient\b|\"-m\", \"dmem")
# What starts a `langgraph dev` server: the CLI's `dev` command with its options.
SERVER_SIGNS = re.compile(r'"dev", "--')


def test_addopts_leave_the_summary_line_alone() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-q" not in options.get("addopts", "").split()  # with README's or CI's own -q it would vanish
    for marker in ("slow", "data", "postgres", "server"):
        assert any(m.startswith(f"{marker}:") for m in options["markers"]), marker


def test_tests_that_load_the_model_or_run_the_demo_or_notebooks_are_marked_slow() -> None:
    unmarked = [p.name for p in sorted((ROOT / "tests").glob("test_*.py"))
                if p.name != Path(__file__).name and SLOW_SIGNS.search(p.read_text())
                and "pytest.mark.slow" not in p.read_text()]
    assert unmarked == []


def test_tests_that_start_langgraph_dev_are_marked_server() -> None:
    unmarked = [p.name for p in sorted((ROOT / "tests").glob("test_*.py"))
                if p.name != Path(__file__).name and SERVER_SIGNS.search(p.read_text())
                and "pytest.mark.server" not in p.read_text()]
    assert unmarked == []
