"""A local reset leaves nothing on disk to resurrect: rows zeroed, vector snapshots gone, other processes told."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.errors import StoreError
from dmem.store.local.snapshots import SNAPSHOT_DIR, snapshot_path

ROOT = Path(__file__).resolve().parents[1]
SECRET = "Maya hides the spare key under the blue heron statue."
OTHER = "Theo restores wooden canoes in his garage."


def run(code: str) -> str:
    """Run Python in a new process (a second store user) and return what it printed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def searched(path: Path, user: str, query: str) -> str:
    return (f"from dmem.api import Memory\nwith Memory({str(path)!r}, embeddings='hash') as mem:\n"
            f"    print([r.memory.text for r in mem.search({query!r}, user_id={user!r})])")


def filled(path: Path) -> None:
    with Memory(path, embeddings="hash") as mem:
        mem.add([SECRET], user_id="maya", infer=False)
        mem.add([OTHER], user_id="theo", infer=False)
        assert mem.search("spare key", user_id="maya") and mem.search("canoes", user_id="theo")
    # closing saved both namespaces' vector snapshots
    assert snapshot_path(path, "maya").exists() and snapshot_path(path, "theo").exists()


def test_reset_erases_the_snapshot_and_the_text_from_the_files(tmp_path: Path) -> None:
    path = tmp_path / "store"
    filled(path)
    with Memory(path, embeddings="hash") as mem:
        mem.search("spare key", user_id="maya")  # maya's vectors loaded in this process
        assert mem.reset(user_id="maya", confirm="maya") == 1
        assert not snapshot_path(path, "maya").exists() and snapshot_path(path, "theo").exists()
        assert mem.search("spare key", user_id="maya") == []
    assert not snapshot_path(path, "maya").exists()  # closing saved nothing of it again
    on_disk = b"".join(p.read_bytes() for p in path.rglob("*") if p.is_file())
    assert SECRET.encode() not in on_disk and b"spare key" not in on_disk
    assert OTHER.encode() in on_disk


@pytest.mark.slow
def test_a_new_process_finds_nothing_to_resurrect(tmp_path: Path) -> None:
    path = tmp_path / "store"
    filled(path)
    with Memory(path, embeddings="hash") as mem:
        mem.reset(user_id="maya", confirm="maya")
    assert run(searched(path, "maya", "spare key")) == "[]"
    assert run(searched(path, "theo", "canoes")) == f"[{OTHER!r}]"


@pytest.mark.slow
def test_a_reset_in_another_process_reaches_the_vectors_this_one_holds(tmp_path: Path) -> None:
    path = tmp_path / "store"
    filled(path)
    with Memory(path, embeddings="hash") as mem:
        assert mem.search("spare key", user_id="maya")  # loaded here, before the other process resets
        sync: Any = mem.store._core.vectors.sync  # type: ignore[attr-defined]
        sync._faiss.changed.add("maya")  # as if this process had unsaved changes of maya
        run(f"from dmem.api import Memory\nwith Memory({str(path)!r}, embeddings='hash') as m:\n"
            "    print(m.reset(user_id='maya', confirm='maya'))")
        assert not snapshot_path(path, "maya").exists()
        sync.save(["maya"])  # a save racing the reset (older version) leaves no file behind
        assert not snapshot_path(path, "maya").exists()
        assert mem.search("spare key", user_id="maya") == [] and mem.get_all(user_id="maya") == []
        assert mem.store.vectors.index_size("maya") == 0  # type: ignore[attr-defined]  # not held in memory either
        assert [r.memory.text for r in mem.search("canoes", user_id="theo")] == [OTHER]
        mem.add(["Maya bought a kite."], user_id="maya", infer=False)
        assert [r.memory.text for r in mem.search("kite", user_id="maya")] == ["Maya bought a kite."]
    assert run(searched(path, "maya", "spare key")) == "['Maya bought a kite.']"
    assert sorted(p.name for p in (path / SNAPSHOT_DIR).glob("*.npz")) == sorted(
        [snapshot_path(path, "maya").name, snapshot_path(path, "theo").name])


def test_reset_of_everything_removes_every_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "store"
    filled(path)
    with Memory(path, embeddings="hash") as mem:
        mem.reset(confirm="everything")
        assert list((path / SNAPSHOT_DIR).glob("*.npz")) == []
        assert mem.search("canoes", user_id="theo") == []
    with Memory(path, embeddings="hash") as mem:
        assert mem.search("canoes", user_id="theo") == [] and mem.store.info().memories == {}


class Announcing:
    """The store's lock, announcing when the named thread asks for it (so a test knows it is waiting)."""

    def __init__(self, real: Any, thread: str, asked: threading.Event) -> None:
        self.real, self.thread, self.asked = real, thread, asked

    def __enter__(self) -> Announcing:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.real.release()

    def acquire(self, *args: Any, **kwargs: Any) -> bool:
        if threading.current_thread().name == self.thread:
            self.asked.set()
        return bool(self.real.acquire(*args, **kwargs))

    def release(self) -> None:
        self.real.release()


def test_a_reset_waits_for_another_threads_transaction(tmp_path: Path) -> None:
    with Memory(tmp_path / "store", embeddings="hash") as mem:
        mem.add([SECRET], user_id="maya", infer=False)
        db = mem.store._core.db  # type: ignore[attr-defined]
        asked = threading.Event()
        db.lock = Announcing(db.lock, "resetter", asked)
        inside = threading.Event()
        done: list[object] = []

        def hold() -> None:
            with mem.store.transaction():
                inside.set()
                asked.wait(10)  # the reset is waiting for this transaction (never set: it did not wait)

        def reset() -> None:
            try:
                done.append(mem.reset(user_id="maya", confirm="maya"))
            except StoreError as exc:
                done.append(exc)

        holder = threading.Thread(target=hold)
        holder.start()
        inside.wait(10)
        resetter = threading.Thread(target=reset, name="resetter")
        resetter.start()
        holder.join(20)
        resetter.join(20)
        assert done == [1] and mem.get_all(user_id="maya") == []
