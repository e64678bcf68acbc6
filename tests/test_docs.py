"""The docs run: every python block and every `dmem ...` line of the bash blocks of README.md and docs/*.md.

A block whose first line starts with ``# not run:`` is skipped (the rest of the line says why);
see docs/writing-docs.md. The generated parts of the site (settings tables, graph diagrams) are
checked against the code here too.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from dmem.cli import main
from dmem.graphs import served_resources
from dmem.state.context import Context, build_context
from tools.docs_gen import GRAPHS, graph_mermaid, render, settings_markdown

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
NOT_RUN = "# not run:"


def blocks(page: Path) -> list[tuple[str, str]]:
    """The page's fenced blocks as (language, code)."""
    return FENCE.findall(page.read_text(encoding="utf-8"))


def runnable(page: Path, kind: str) -> list[str]:
    """The page's blocks of one language that are not marked ``# not run:``."""
    return [code for lang, code in blocks(page) if lang == kind and not code.lstrip().startswith(NOT_RUN)]


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DMEM_EMBEDDING_MODEL", "hash")  # the examples' logic, not the model: MiniLM is the slow lane's
    (tmp_path / "conversation.json").write_text(json.dumps([
        {"speaker": "Maya", "text": "I started a new job at Atlas Robotics.", "turn_id": "1",
         "timestamp": "2024-03-04T09:12:00"},
        {"speaker": "assistant", "text": "Congratulations!", "turn_id": "2", "timestamp": "2024-03-04T09:13:00"},
    ]))
    yield tmp_path
    served_resources.close()


def test_the_readme_and_the_pages_have_examples():
    assert len(runnable(ROOT / "README.md", "python")) >= 1 and len(runnable(ROOT / "README.md", "bash")) >= 2
    assert sum(len(runnable(p, "python")) for p in PAGES) >= 8


def test_every_skipped_block_says_why():
    for page in PAGES:
        for _, code in blocks(page):
            first = code.lstrip().splitlines()[0] if code.strip() else ""
            if first.startswith(NOT_RUN):
                assert len(first[len(NOT_RUN):].strip()) >= 8, f"{page.name}: '# not run:' without a reason"


@pytest.mark.parametrize("page", [p for p in PAGES if runnable(p, "python")], ids=lambda p: p.name)
def test_python_blocks_run(page, in_tmp):
    from dmem import Memory

    opened: list[Memory] = []
    try:
        for code in runnable(page, "python"):
            scope: dict[str, object] = {"__name__": "docs"}
            exec(compile(code, str(page.relative_to(ROOT)), "exec"), scope)
            opened += [v for v in scope.values() if isinstance(v, Memory)]
    finally:  # a page's example may leave its Memory open, as a reader's script would until it exits
        for mem in opened:
            mem.close()


@pytest.mark.parametrize("page", [p for p in PAGES if runnable(p, "bash")], ids=lambda p: p.name)
def test_cli_lines_run(page, in_tmp):
    lines = [ln.split("  #")[0].strip() for code in runnable(page, "bash") for ln in code.splitlines()]
    for line in (ln for ln in lines if ln.startswith("dmem ")):
        assert run_cli(shlex.split(line)[1:]) == 0, f"{page.name}: {line}"


def run_cli(argv: list[str]) -> int:
    """The CLI's exit code, also for options that exit from the parser (``--version``, ``--help``)."""
    try:
        return main(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)


def test_settings_page_lists_every_setting_with_a_working_variable():
    table = settings_markdown()
    for name, field in Context.model_fields.items():
        row = next(ln for ln in table.splitlines() if ln.startswith(f"| `{name}` |"))
        assert f"`DMEM_{name.upper()}`" in row and field.description
        assert " ".join(field.description.split()).replace("|", "\\|")[:40] in row, name
    variable = {"DMEM_RETRIEVAL_TOP_K": "7", "DMEM_GATE_POLICY": "never", "DMEM_STORE_DIR": "elsewhere"}
    ctx = build_context(environ=variable)
    assert (ctx.retrieval_top_k, ctx.gate_policy, ctx.store_dir) == (7, "never", "elsewhere")


def test_graph_markers_draw_the_compiled_graphs():
    for name in GRAPHS:
        assert render(f"<!-- dmem:graph {name} -->") == graph_mermaid(name)
    assert "quality_gate" in graph_mermaid("query") and "deliberate_chunk" in graph_mermaid("query")
    assert "admit" in graph_mermaid("ingestion") and "apply_operations" in graph_mermaid("ingestion")
    with pytest.raises(ValueError, match="no graph"):
        graph_mermaid("nope")


def test_pages_that_need_generated_parts_have_their_markers():
    assert "<!-- dmem:settings -->" in (ROOT / "docs" / "configuration.md").read_text()
    concepts = (ROOT / "docs" / "concepts.md").read_text()
    assert all(f"<!-- dmem:graph {name} -->" in concepts for name in GRAPHS)
