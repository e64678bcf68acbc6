"""Every failure class reaches an SDK client of a real ``langgraph dev`` with its class name and its message.

The server runs in a private mount namespace (``unshare``) where a tiny tmpfs is full and a store
directory is bind-mounted read-only, so the disk-full and read-only stores are real file systems,
not mocks. Each run names its own store through its context (``store_dir`` / ``store_url``), so one
server covers every case. No secret (a PostgreSQL password) may reach the client.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient

from dmem.api import Memory
from tests.test_langgraph_server import EXCHANGE, ROOT, free_port, langgraph_dev, server_env

pytestmark = pytest.mark.server
SECRET = "pw-h29-never-shown"


def mounting_shell(full: Path, ro_src: Path, ro: Path) -> list[str]:
    """A shell (in a private mount namespace) that mounts a full tmpfs and a read-only store, then runs "$@"."""
    script = (f'mount -t tmpfs -o size=64k tmpfs "{full}" && (dd if=/dev/zero of="{full}/filler" bs=4k '
              f'2>/dev/null; true) && mount --bind "{ro_src}" "{ro}" && mount -o remount,bind,ro "{ro}" && exec "$@"')
    unshare = shutil.which("unshare")
    assert unshare, "the served error tests need util-linux's unshare"
    return [unshare, "-m" if os.geteuid() == 0 else "-rm", "sh", "-c", script, "sh"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SyncLangGraphClient, Path]]:
    tmp = tmp_path_factory.mktemp("served-errors")
    full, ro_src, ro = tmp / "full", tmp / "ro-src", tmp / "ro"
    full.mkdir()
    ro.mkdir()
    with Memory(ro_src, embeddings="hash") as mem:  # a real store, later mounted read-only
        mem.add(EXCHANGE, user_id="maya")
    with langgraph_dev(tmp, server_env(tmp / "store", "http://127.0.0.1:9"), jobs=2,
                       prefix=mounting_shell(full, ro_src, ro)) as (url, _):
        yield get_sync_client(url=url), tmp


def failure(client: SyncLangGraphClient, graph: str, graph_input: dict[str, Any], context: dict[str, Any]) -> str:
    """The error a client reads from a failed stateless run: 'ClassName: message'."""
    with pytest.raises(Exception) as err:  # noqa: PT011 - the SDK raises a plain Exception carrying the run's error
        client.runs.wait(None, graph, input=graph_input, context=context, raise_error=True)
    text = str(err.value)
    assert "An internal error occurred" not in text, text
    assert SECRET not in text
    return text


def test_a_full_disk_is_a_store_error_saying_so(served: tuple[SyncLangGraphClient, Path]) -> None:
    client, tmp = served
    text = failure(client, "ingestion", {"messages": EXCHANGE, "user_id": "maya"},
                   {"store_dir": str(tmp / "full" / "store")})
    assert text.startswith("StoreError: ") and ("disk is full" in text or "No space left" in text), text


def test_a_store_path_that_cannot_be_created_is_a_store_error(served: tuple[SyncLangGraphClient, Path]) -> None:
    client, tmp = served
    (tmp / "a-file").write_text("not a directory")
    text = failure(client, "query", {"question": "Where do I live?", "namespaces": ["maya"]},
                   {"store_dir": str(tmp / "a-file" / "store")})
    assert text.startswith("StoreError: cannot create store directory") and "Not a directory" in text, text


def test_a_read_only_store_is_a_store_error_saying_so(served: tuple[SyncLangGraphClient, Path]) -> None:
    client, tmp = served
    text = failure(client, "ingestion", {"messages": EXCHANGE, "user_id": "maya", "conversation_id": "again"},
                   {"store_dir": str(tmp / "ro")})
    assert text.startswith("StoreError: ") and ("Read-only file system" in text or "read-only" in text), text


def test_an_unreachable_database_says_so_without_the_password(served: tuple[SyncLangGraphClient, Path]) -> None:
    client, _ = served
    url = f"postgresql://dmem:{SECRET}@127.0.0.1:{free_port()}/dmem"
    text = failure(client, "query", {"question": "Where do I live?", "namespaces": ["maya"]},
                   {"store_url": url, "lock_timeout": 2})
    assert text.startswith("StoreUnavailableError: ") and "unreachable" in text, text
    assert "postgresql://dmem@127.0.0.1" in text


def test_a_lock_held_too_long_is_a_store_locked_error(served: tuple[SyncLangGraphClient, Path]) -> None:
    client, tmp = served
    locked = tmp / "locked"
    with Memory(locked, embeddings="hash") as mem:
        mem.add(EXCHANGE, user_id="maya")
    holder = subprocess.Popen([sys.executable, str(ROOT / "tests" / "store_holder.py"), str(locked), "hold"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        text = failure(client, "ingestion", {"messages": EXCHANGE, "user_id": "maya", "conversation_id": "later"},
                       {"store_dir": str(locked), "lock_timeout": 0.5})
        assert text.startswith("StoreLockedError: ") and "holds its write lock" in text, text
    finally:
        assert holder.stdin is not None
        holder.stdin.write("go\n")
        holder.stdin.close()
        holder.wait(timeout=60)


def test_bad_input_and_bad_settings_keep_their_class(served: tuple[SyncLangGraphClient, Path]) -> None:
    client, _ = served
    text = failure(client, "ingestion", {"messages": [{"q": 1}]}, {})
    assert text.startswith("InputError: ") and "'messages'" in text, text
    text = failure(client, "query", {"question": "x"}, {"gate_policy": "bogus"})
    assert text.startswith("ConfigError: setting 'gate_policy'"), text
