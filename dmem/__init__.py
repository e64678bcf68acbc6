"""dmem: dual-process long-term memory for LLM agents (D-Mem + Gated Memory) on LangGraph.

Imports are lazy so ``import dmem`` stays fast and never loads torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any


def _installed_version() -> str:
    """The version in the installed package's metadata (pyproject.toml's), so there is one source."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dmem")
    except PackageNotFoundError:  # a bare checkout on sys.path, never installed
        return "unknown (not installed: pip install -e .)"


_EXPORTS = {
    "Memory": "dmem.api",
    "Context": "dmem.state.context",
    "build_context": "dmem.state.context",
    "Message": "dmem.state.schemas",
    "MemoryRecord": "dmem.state.schemas",
    "Answer": "dmem.state.results",
    "AddResult": "dmem.state.results",
    "DmemError": "dmem.errors",
    "build_ingestion_graph": "dmem.graphs",
    "build_query_graph": "dmem.graphs",
    "build_deliberation_graph": "dmem.graphs",
}

if TYPE_CHECKING:
    __version__: str
    from dmem.api import Memory
    from dmem.errors import DmemError
    from dmem.graphs import build_deliberation_graph, build_ingestion_graph, build_query_graph
    from dmem.state.context import Context, build_context
    from dmem.state.results import AddResult, Answer
    from dmem.state.schemas import MemoryRecord, Message

__all__ = [
    "AddResult",
    "Answer",
    "Context",
    "DmemError",
    "Memory",
    "MemoryRecord",
    "Message",
    "build_context",
    "build_deliberation_graph",
    "build_ingestion_graph",
    "build_query_graph",
]


def __getattr__(name: str) -> Any:
    if name == "__version__":  # read on first use: the metadata lookup costs ~50 ms, every command would pay it
        globals()["__version__"] = found = _installed_version()
        return found
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'dmem' has no attribute {name!r}")
