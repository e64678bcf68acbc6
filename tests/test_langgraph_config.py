"""langgraph.json is valid for the LangGraph CLI and every graph it names loads as a compiled graph."""

from __future__ import annotations

import importlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from langgraph.graph.state import CompiledStateGraph

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "langgraph.json"
EXPECTED = {"ingestion": "dmem_ingestion", "query": "dmem_query", "deliberation": "dmem_full_deliberation"}


def graph_paths() -> dict[str, str]:
    graphs = json.loads(CONFIG.read_text(encoding="utf-8"))["graphs"]
    return {gid: spec if isinstance(spec, str) else spec["path"] for gid, spec in graphs.items()}


def load(path: str) -> Any:
    """Load 'file.py:attr' the way the LangGraph server does (from the file), or 'module:attr'."""
    target, _, attr = path.rpartition(":")
    if target.endswith(".py"):
        spec = importlib.util.spec_from_file_location(f"lg_config_{attr}", ROOT / target)
        assert spec is not None and spec.loader is not None, f"cannot load {target}"
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(target)
    return getattr(module, attr)


def test_config_validates_with_the_langgraph_cli() -> None:
    config_mod = pytest.importorskip("langgraph_cli.config", reason="langgraph-cli is not installed")
    raw = json.loads(CONFIG.read_text(encoding="utf-8"))
    validated = config_mod.validate_config_file(CONFIG)
    assert config_mod.get_unknown_keys(raw) == []
    assert validated["python_version"] == "3.11"
    assert validated["dependencies"] == ["."]
    assert set(validated["graphs"]) == set(EXPECTED)


@pytest.mark.parametrize("graph_id", sorted(EXPECTED))
def test_each_graph_path_is_a_compiled_graph(graph_id: str) -> None:
    path = graph_paths()[graph_id]
    target = path.rpartition(":")[0]
    assert not target.endswith(".py") or (ROOT / target).is_file(), f"{target} does not exist"
    graph = load(path)
    assert isinstance(graph, CompiledStateGraph)
    assert graph.get_name() == EXPECTED[graph_id]
    assert graph.checkpointer is None, "the server supplies persistence; ship graphs without a checkpointer"
