"""No lost and no duplicated turns: provider faults, concurrent adds (threads and processes), killed workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.testing import FakeChatModel, FaultRates, FaultyChatModel, echo_formation_script
from tests.add_worker import turns

ROOT = Path(__file__).resolve().parents[1]


def sources(mem: Memory, user: str) -> Counter[str]:
    """How many memories each turn produced (echo script: one per formed turn)."""
    return Counter(t for m in mem.get_all(user_id=user) for t in m.source_turn_ids)


def assert_each_turn_once(mem: Memory, user: str, n: int) -> None:
    got = sources(mem, user)
    lost = {f"t{i}" for i in range(n)} - set(got)
    duplicated = {t: c for t, c in got.items() if c > 1}
    assert (sorted(lost), duplicated) == ([], {})
    assert mem.store.transcript.unformed(user) == [] and mem.store.transcript.count(user) == n


def test_provider_errors_and_malformed_replies_lose_no_turn(memory_factory: Any) -> None:
    model = FaultyChatModel(script=echo_formation_script(),
                            faults=FaultRates(provider_error=0.2, malformed=0.3, seed=7))
    mem = memory_factory(model, max_retries=0, retry_backoff=0)  # dmem retries provider errors at once
    result = mem.add(turns(100), user_id="u")
    injected = model.injected
    assert injected["malformed"] > 0 and injected["timeout"] + injected["server_error"] + \
        injected["connection_refused"] > 0
    assert mem.store.transcript.count("u") == 100  # every turn recorded, whatever failed
    pending = {p.turn_id: p.reason for p in result.pending_turns}
    assert pending and pending == {p.turn_id: p.reason for p in mem.pending(user_id="u")}
    reasons = " ".join(pending.values())
    assert "timed out" in reasons or "HTTP 503" in reasons or "cannot connect" in reasons  # dmem's one-line errors
    assert len(sources(mem, "u")) == 100 - len(pending)  # the rest were formed once each
    model.heal()
    again = mem.retry_pending(user_id="u")
    assert {t for ex in again.exchanges for t in ex.turn_ids} == set(pending)
    assert all(ex.status == "formed" for ex in again.exchanges)
    assert_each_turn_once(mem, "u", 100)
    assert mem.retry_pending(user_id="u").exchanges == []


def test_missing_tool_calls_are_retried_then_kept(memory_factory: Any) -> None:
    model = FaultyChatModel(script=echo_formation_script(), faults=FaultRates(missing_tool_call=0.5, seed=3))
    mem = memory_factory(model, max_retries=0, retry_backoff=0)  # dmem retries provider errors at once
    mem.add(turns(40), user_id="u")
    assert model.injected["missing_tool_call"] > 0 and mem.store.transcript.count("u") == 40
    model.heal()
    mem.retry_pending(user_id="u")
    assert_each_turn_once(mem, "u", 40)


def test_a_turn_being_formed_elsewhere_is_not_formed_again(memory_factory: Any) -> None:
    """Thread A is inside the model for exchange 1 while thread B adds the same turns."""
    a_inside, b_done = threading.Event(), threading.Event()
    script = echo_formation_script()
    admit = script["AdmissionVerdicts"]
    a_thread: list[int] = []

    def admit_slowly_in_a(messages: list) -> object:
        if threading.get_ident() in a_thread and not a_inside.is_set():
            a_inside.set()
            assert b_done.wait(timeout=60)
        return admit(messages)

    script["AdmissionVerdicts"] = admit_slowly_in_a
    mem = memory_factory(FakeChatModel(script=script))
    results: dict[str, Any] = {}

    def run(name: str) -> None:
        if name == "a":
            a_thread.append(threading.get_ident())
        results[name] = mem.add(turns(8), user_id="u")

    a = threading.Thread(target=run, args=("a",))
    a.start()
    assert a_inside.wait(timeout=60)
    run("b")
    b_done.set()
    a.join()
    assert [ex.status for ex in results["b"].exchanges] == ["claimed", "formed", "formed", "formed"]
    assert [ex.status for ex in results["a"].exchanges] == ["formed", "duplicate", "duplicate", "duplicate"]
    assert_each_turn_once(mem, "u", 8)


def test_threads_adding_the_same_turns_form_each_once(memory_factory: Any, tmp_path: Path) -> None:
    first = memory_factory(FakeChatModel(script=echo_formation_script()))
    others = [Memory(tmp_path / "store", llm=FakeChatModel(script=echo_formation_script()), embeddings="hash")
              for _ in range(2)]  # three Memory objects, one shared store handle
    start = threading.Barrier(4)
    statuses: list[str] = []
    errors: list[BaseException] = []

    def run(mem: Memory) -> None:
        try:
            start.wait(timeout=60)
            statuses.extend(ex.status for ex in mem.add(turns(40), user_id="u").exchanges)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    try:
        threads = [threading.Thread(target=run, args=(m,)) for m in (first, first, *others)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert errors == []
        assert Counter(statuses)["formed"] == 20 and len(statuses) == 80
        assert_each_turn_once(first, "u", 40)
    finally:
        for mem in others:
            mem.close()


def worker(store: Path, user: str, n: int, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "add_worker.py"), str(store), user, str(n), *extra],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line == "ready", proc.stderr.read() if proc.stderr else line
    return proc


def go(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()


@pytest.mark.slow  # starts worker processes
def test_processes_adding_the_same_turns_form_each_once(memory_factory: Any, tmp_path: Path) -> None:
    store = tmp_path / "store"
    memory_factory(FakeChatModel(script=echo_formation_script())).close()  # create the store
    procs = [worker(store, "u", 30) for _ in range(2)]
    for proc in procs:  # both are open and waiting: start them together
        go(proc)
    counts: Counter[str] = Counter()
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        counts.update(json.loads(out.strip().splitlines()[-1]))
    assert counts["formed"] == 15 and sum(counts.values()) == 30
    with Memory(store, embeddings="hash", read_only=True) as mem:
        assert_each_turn_once(mem, "u", 30)


@pytest.mark.slow  # starts and kills worker processes
def test_a_killed_worker_leaves_no_turn_stuck_or_duplicated(memory_factory: Any, tmp_path: Path) -> None:
    store = tmp_path / "store"
    memory_factory(FakeChatModel(script=echo_formation_script())).close()
    proc = worker(store, "u", 20, "--stick-at", "4")
    go(proc)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "stuck"
    proc.send_signal(signal.SIGKILL)  # dies holding the claim on exchange 4
    proc.wait(timeout=30)
    with Memory(store, llm=FakeChatModel(script=echo_formation_script()), embeddings="hash") as mem:
        assert len(sources(mem, "u")) == 6 and mem.store.transcript.count("u") == 20
        result = mem.retry_pending(user_id="u")  # the dead worker's claim lapses at once
        assert [ex.turn_ids[0] for ex in result.exchanges] == [f"t{i}" for i in range(6, 20, 2)]
        assert_each_turn_once(mem, "u", 20)


@pytest.mark.parametrize("rates", [FaultRates(provider_error=1.0, seed=1)])
def test_a_provider_that_never_answers_keeps_every_turn(memory_factory: Any, rates: FaultRates) -> None:
    model = FaultyChatModel(script=echo_formation_script(), faults=rates)
    mem = memory_factory(model, max_retries=0, retry_backoff=0)  # dmem retries provider errors at once
    result = mem.add(turns(6), user_id="u")
    assert [ex.status for ex in result.exchanges] == ["pending_retry"] * 3
    assert mem.store.transcript.count("u") == 6 and mem.get_all(user_id="u") == []
    assert len(mem.pending(user_id="u")) == 6
