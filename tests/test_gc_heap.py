"""What full garbage collections walk: the offline path loads one stemmer, stemming keeps no object per
word, ``Memory`` leaves the collector alone, and the served entry freezes its start-up heap once."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dmem.errors import ConfigError
from dmem.runtime import StartupFreeze, freeze_heap_enabled
from dmem.text.lexical import stem

ROOT = Path(__file__).resolve().parents[1]


def run_python(code: str, **env: str) -> str:
    """Run ``code`` in a fresh interpreter (freezing and module loading are process-wide); its stdout."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DMEM_")}
    clean["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), clean.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**clean, **env}, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.strip()


def test_stemming_new_words_keeps_no_tracked_object_per_word() -> None:
    words = [f"zq{''.join(chr(97 + int(d)) for d in str(i))}ings" for i in range(3000)]
    gc.collect()
    before = len(gc.get_objects())
    stems = [stem(w) for w in words]
    gc.collect()
    assert stems[0].startswith("zq")
    assert len(gc.get_objects()) - before < 100, "a per-word cache of tracked objects lengthens every full collection"


def test_a_bad_freeze_switch_is_refused_with_its_name() -> None:
    assert freeze_heap_enabled({}) is True
    assert freeze_heap_enabled({"DMEM_FREEZE_HEAP": "false"}) is False
    with pytest.raises(ConfigError, match="DMEM_FREEZE_HEAP must be true or false"):
        StartupFreeze().once({"DMEM_FREEZE_HEAP": "sometimes"})


def test_a_disabled_freeze_freezes_nothing() -> None:
    frozen = gc.get_freeze_count()
    freeze = StartupFreeze()
    assert freeze.once({"DMEM_FREEZE_HEAP": "0"}) is None
    assert freeze.once({}) is None, "the switch is read once, on the first call"
    assert gc.get_freeze_count() == frozen


@pytest.mark.slow
def test_the_offline_path_loads_one_stemmer_not_every_language() -> None:
    code = ("import sys, tempfile; from dmem.api import Memory\n"
            "with tempfile.TemporaryDirectory() as tmp, Memory(tmp + '/s', embeddings='hash') as mem:\n"
            "    mem.add([{'role': 'user', 'content': 'I have been running marathons.'}], user_id='ivo')\n"
            "    assert mem.search('runs', user_id='ivo')\n"
            "print(sorted(m for m in sys.modules if m.startswith('snowballstemmer')))")
    assert run_python(code) == "[]", "snowballstemmer builds ~10,000 objects for 37 languages on import"


@pytest.mark.slow
def test_memory_leaves_the_collector_alone_and_the_served_entry_freezes_once() -> None:
    code = (
        "import gc, tempfile; from dmem.api import Memory\n"
        "with tempfile.TemporaryDirectory() as tmp, Memory(tmp + '/s', embeddings='hash') as mem:\n"
        "    mem.add([{'role': 'user', 'content': 'I keep bees.'}], user_id='ivo')\n"
        "    print(gc.get_freeze_count(), gc.isenabled())\n"
        "from langgraph.store.memory import InMemoryStore\n"
        "from langgraph_sdk.runtime import _ReadRuntime\n"
        "import dmem.server as server\n"
        "runtime = _ReadRuntime(access_context='assistants.read', user=None, store=InMemoryStore())\n"
        "server.query_graph(runtime)\n"
        "first = gc.get_freeze_count()\n"
        "server.ingestion_graph(runtime)\n"
        "frozen = server.startup_freeze.frozen\n"
        "print(first > 50_000, abs(first - frozen) < 100, gc.get_freeze_count() <= first, gc.isenabled())\n"
    )
    assert run_python(code, DMEM_EMBEDDING_MODEL="hash").splitlines() == ["0 True", "True True True True"]
    off = run_python("import gc; from langgraph.store.memory import InMemoryStore\n"
                     "from langgraph_sdk.runtime import _ReadRuntime\nimport dmem.server as server\n"
                     "store = InMemoryStore()\n"
                     "server.query_graph(_ReadRuntime(access_context='assistants.read', user=None, store=store))\n"
                     "print(gc.get_freeze_count())", DMEM_FREEZE_HEAP="false", DMEM_EMBEDDING_MODEL="hash")
    assert off == "0"
