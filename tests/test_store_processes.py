"""Several processes on one local store: writers take turns per transaction, readers are never blocked.

Every test runs a real second process (tests/store_holder.py or the dmem CLI) on loopback-free
local files; they synchronise on lines printed and read, never on sleeps.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dmem.errors import StoreLockedError
from dmem.state.schemas import MemoryRecord
from dmem.store import open_store
from tests.holders import ENV, say, start

pytestmark = pytest.mark.slow  # every test starts writer and reader processes

DIM = 384
CHAT = [{"speaker": "Ines", "text": "I adopted a grey cat named Pixel.", "turn_id": "t0",
         "timestamp": "2024-03-04T09:00:00"},
        {"speaker": "assistant", "text": "Pixel is a great name.", "turn_id": "t1", "timestamp": "2024-03-04T09:01:00"}]


NEW = {"speaker": "Ines", "text": "I work as a nurse at the city hospital.", "turn_id": "t2"}


def rec(mid: str, text: str) -> MemoryRecord:
    now = datetime.now(UTC)
    return MemoryRecord(id=mid, namespace="default", text=text, created_at=now, updated_at=now)


def unit(i: int) -> list[float]:
    v = [0.0] * DIM
    v[i] = 1.0
    return v


def finish(proc: subprocess.Popen[str], line: str = "quit") -> None:
    assert proc.stdin is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    proc.communicate(timeout=60)
    assert proc.returncode == 0


def cli(store: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dmem.cli", "--store", str(store), "--embeddings", "hash", *args],
                          capture_output=True, text=True, env={**ENV, **env}, timeout=300)


@pytest.fixture
def store_dir(tmp_path: Path) -> Iterator[Path]:
    store = tmp_path / "store"
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps(CHAT), encoding="utf-8")
    done = cli(store, "--json", "ingest", str(chat))
    assert done.returncode == 0, done.stderr
    yield store


def test_a_writer_mid_transaction_blocks_writers_a_bounded_time_and_readers_never(store_dir: Path) -> None:
    holder = start(store_dir, "hold")
    try:
        with open_store(store_dir, dim=None, read_only=True) as reader:  # readers: no wait
            assert reader.vectors.get("default", "held") is None  # not committed yet
            assert reader.vectors.count("default") >= 1
        with open_store(store_dir, dim=None, lock_timeout=0.3) as writer:  # opening needs no lock
            held = rf"process {holder.pid} \(store_holder.py .*\) since [0-9:]+ holds its write lock"
            with pytest.raises(StoreLockedError, match=held):
                writer.vectors.add(rec("mine", "written after waiting"), unit(1))
            assert say(holder, "commit") == "released"
            writer.vectors.add(rec("mine", "written after waiting"), unit(1))
            assert [h.record.id for h in writer.vectors.search(["default"], unit(0), 1)] == ["held"]
    finally:
        holder.kill()
        holder.communicate(timeout=60)


def test_read_only_cli_commands_work_while_an_ingest_holds_the_write_lock(store_dir: Path, tmp_path: Path) -> None:
    memories = json.loads(cli(store_dir, "--json", "memories").stdout)
    holder = start(store_dir, "hold")
    try:
        for args in (("ask", "What is the cat called?"), ("memories",), ("search", "cat"),
                     ("history", memories[0]["id"])):
            done = cli(store_dir, "--json", *args)
            assert done.returncode == 0, (args, done.stderr)
        more = tmp_path / "more.json"
        more.write_text(json.dumps([NEW]), encoding="utf-8")
        blocked = cli(store_dir, "--json", "ingest", str(more), DMEM_LOCK_TIMEOUT="0.5")
        assert blocked.returncode == 2 and "Traceback" not in blocked.stderr
        error = json.loads(blocked.stderr)  # --json: errors are JSON too
        assert error["kind"] == "store_locked"
        assert error["error"].startswith(f"store {store_dir.resolve()} is busy: process {holder.pid}")
        assert "gave up after waiting 0.5 s" in blocked.stderr and len(blocked.stderr.strip().splitlines()) == 1
    finally:
        finish(holder, "commit")


def test_an_open_idle_process_does_not_stop_ingest_and_sees_its_memories(store_dir: Path, tmp_path: Path) -> None:
    server = start(store_dir, "idle")  # like `langgraph dev` between runs
    try:
        before = json.loads(say(server, "count default"))
        more = tmp_path / "more.json"
        more.write_text(json.dumps([NEW]), encoding="utf-8")
        done = cli(store_dir, "--json", "ingest", str(more))
        assert done.returncode == 0, done.stderr
        after = json.loads(say(server, "count default"))
        assert len(after) > len(before) and any("nurse" in text for text in after)
        with open_store(store_dir, dim=None) as here:  # a delete here reaches the other process's index
            gone = next(m for m in here.vectors.list("default") if "nurse" in m.text)
            here.vectors.delete("default", gone.id)
        assert not any("nurse" in text for text in json.loads(say(server, "count default")))
    finally:
        finish(server)
