"""``Memory``'s async, reset and transfer methods are mixins typed by ``api_core.MemoryCore``, not by ``Memory``."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from typing import Any

import pytest

import dmem
from dmem.errors import DataError

MIXINS = ("api_async.py", "api_reset.py", "api_transfer.py", "api_core.py")


@pytest.mark.parametrize("name", MIXINS)
def test_a_mixin_imports_nothing_of_api_py(name: str) -> None:
    tree = ast.parse((Path(dmem.__file__).parent / name).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert "dmem.api" not in imported


def test_areset_clears_a_namespace_as_reset_does(memory_factory: Any) -> None:
    mem = memory_factory()
    mem.add(["I keep bees on the roof.", "My sister lives in Porto."], user_id="odile", infer=False)
    mem.add(["I collect old maps."], user_id="bram", infer=False)
    with pytest.raises(DataError, match="confirm='odile'"):
        asyncio.run(mem.areset(confirm="everything", user_id="odile"))
    assert asyncio.run(mem.areset(confirm="odile", user_id="odile")) == 2
    assert mem.get_all(user_id="odile") == [] and len(mem.get_all(user_id="bram")) == 1


def test_search_threshold_is_checked_on_both_paths(memory_factory: Any) -> None:
    mem = memory_factory()
    with pytest.raises(DataError, match="threshold must be a similarity"):
        mem.search("bees", user_id="odile", threshold=1.5)
    with pytest.raises(DataError, match="threshold must be a similarity"):
        asyncio.run(mem.asearch("bees", user_id="odile", threshold=float("nan")))
