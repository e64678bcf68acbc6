"""The served entry's allocator trims: one daemon thread, its interval from ``DMEM_MALLOC_TRIM``, off on request."""

from __future__ import annotations

import threading

import pytest

import dmem.allocator as allocator
from dmem.allocator import DEFAULT_TRIM_SECONDS, AllocatorTrim, glibc_trim, trim_interval
from dmem.errors import ConfigError
from dmem.state.context import build_context
from tests.test_gc_heap import run_python


def test_the_interval_is_seconds_the_default_or_off() -> None:
    assert trim_interval({}) == DEFAULT_TRIM_SECONDS
    assert trim_interval({"DMEM_MALLOC_TRIM": " 2.5 "}) == 2.5
    for off in ("0", "0.0", "off", "OFF", "false"):
        assert trim_interval({"DMEM_MALLOC_TRIM": off}) == 0
    for bad in ("-1", "soon", "inf", "nan"):
        with pytest.raises(ConfigError, match="DMEM_MALLOC_TRIM must be seconds between trims"):
            trim_interval({"DMEM_MALLOC_TRIM": bad})


def test_the_switch_is_not_taken_for_an_unknown_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DMEM_MALLOC_TRIM", "30")
    build_context(embedding_model="hash")  # unknown DMEM_* variables are refused; this one is the server's


def test_one_thread_trims_every_interval_until_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    twice = threading.Event()

    def fake_trim(pad: int) -> int:
        calls.append(pad)
        if len(calls) >= 2:
            twice.set()
        return 1

    monkeypatch.setattr(allocator, "glibc_trim", lambda: fake_trim)
    trims = AllocatorTrim()
    assert trims.once({"DMEM_MALLOC_TRIM": "0.001"}) is True
    first = trims.thread
    assert first is not None and first.daemon and first.name == "dmem-malloc-trim"
    assert trims.once({"DMEM_MALLOC_TRIM": "0.001"}) is True and trims.thread is first  # started once
    assert twice.wait(timeout=30)
    trims.stop()
    assert not first.is_alive()
    assert calls[:2] == [0, 0] and trims.trims == len(calls)
    with pytest.raises(ConfigError):  # a bad value is refused on every call, as the freeze switch is
        trims.once({"DMEM_MALLOC_TRIM": "often"})


def test_off_or_without_glibc_no_thread_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allocator, "glibc_trim", lambda: lambda pad: 1)
    off = AllocatorTrim()
    assert off.once({"DMEM_MALLOC_TRIM": "0"}) is False and off.thread is None
    monkeypatch.setattr(allocator, "glibc_trim", lambda: None)
    elsewhere = AllocatorTrim()
    assert elsewhere.once({}) is False and elsewhere.thread is None


@pytest.mark.skipif(glibc_trim() is None, reason="malloc_trim is glibc's")
def test_a_real_trim_runs_and_is_counted() -> None:
    trims = AllocatorTrim()
    trim = glibc_trim()
    assert trim is not None
    trims.trim_now(trim)
    assert trims.trims == 1 and trims.longest >= 0


@pytest.mark.slow
@pytest.mark.skipif(glibc_trim() is None, reason="malloc_trim is glibc's")
def test_the_served_entry_starts_the_thread_and_memory_does_not() -> None:
    code = (
        "import threading, tempfile; from dmem.api import Memory\n"
        "with tempfile.TemporaryDirectory() as tmp, Memory(tmp + '/s', embeddings='hash') as mem:\n"
        "    mem.add([{'role': 'user', 'content': 'I keep bees.'}], user_id='ivo')\n"
        "    print(any(t.name == 'dmem-malloc-trim' for t in threading.enumerate()))\n"
        "from langgraph.store.memory import InMemoryStore\n"
        "from langgraph_sdk.runtime import _ReadRuntime\n"
        "import dmem.server as server\n"
        "runtime = _ReadRuntime(access_context='assistants.read', user=None, store=InMemoryStore())\n"
        "server.query_graph(runtime)\n"
        "server.ingestion_graph(runtime)\n"
        "print(sum(t.name == 'dmem-malloc-trim' for t in threading.enumerate()))\n"
    )
    assert run_python(code, DMEM_EMBEDDING_MODEL="hash", DMEM_MALLOC_TRIM="30").splitlines() == ["False", "1"]
    off = run_python("import threading; from langgraph.store.memory import InMemoryStore\n"
                     "from langgraph_sdk.runtime import _ReadRuntime\nimport dmem.server as server\n"
                     "server.query_graph(_ReadRuntime(access_context='assistants.read', user=None, "
                     "store=InMemoryStore()))\n"
                     "print(sum(t.name == 'dmem-malloc-trim' for t in threading.enumerate()))",
                     DMEM_MALLOC_TRIM="off", DMEM_EMBEDDING_MODEL="hash")
    assert off == "0"
