"""langgraph.json is valid for the LangGraph CLI and every graph it names loads as a compiled graph."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import os
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from langgraph.graph.state import CompiledStateGraph

from dmem.errors import ConfigError

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


def runtime_for(access: str, context: Any = None) -> Any:
    """The runtime the server hands a graph factory (as langgraph-api's build_server_runtime makes it)."""
    from langgraph.store.memory import InMemoryStore
    from langgraph_sdk.runtime import _ExecutionRuntime, _ReadRuntime

    if access == "threads.create_run":
        return _ExecutionRuntime(access_context=access, user=None, store=InMemoryStore(), context=context)
    return _ReadRuntime(access_context=access, user=None, store=InMemoryStore())  # type: ignore[arg-type]


@pytest.mark.parametrize("graph_id", sorted(EXPECTED))
def test_each_graph_path_is_a_factory_the_server_calls_for_a_compiled_graph(graph_id: str) -> None:
    from langgraph_sdk.runtime import ServerRuntime

    factory = load(graph_paths()[graph_id])
    params = list(inspect.signature(factory).parameters)
    assert len(params) == 1 and typing.get_type_hints(factory)[params[0]] is ServerRuntime, \
        "langgraph-api 0.16 passes the ServerRuntime to a one-parameter factory annotated with it"
    for access, context in [("assistants.read", None), ("threads.create_run", {"gate_policy": "never"})]:
        graph = factory(runtime_for(access, context))
        assert isinstance(graph, CompiledStateGraph)
        assert graph.get_name() == EXPECTED[graph_id]
        assert graph.checkpointer is None, "the server supplies persistence; ship graphs without a checkpointer"
    with pytest.raises(ConfigError, match=r"unknown setting\(s\) in context: gate_polcy"):
        factory(runtime_for("threads.create_run", {"gate_polcy": "never"}))


@pytest.mark.slow
def test_importing_dmem_and_its_server_module_opens_and_compiles_nothing() -> None:
    code = ("import dmem, dmem.graphs, dmem.server, dmem.host; from dmem.graphs import served, served_resources;"
            "assert served._graphs == {}, served._graphs; assert served_resources._stores == {};"
            "assert served_resources._settings is None; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={k: v for k, v in os.environ.items() if not k.startswith("DMEM_")})
    assert out.stdout.strip() == "ok", out.stderr[-2000:]
