"""Who is forming a turn: worker tokens, and how a claim left by a dead worker is recognised.

A worker claims turns before forming them, so two threads or processes never form one turn
twice. A claim names its worker (host, pid, process start time and a random part) and carries a
lease. It is stale, and may be taken over, once its lease has run out or, on the same host, as
soon as its process is gone (killed, crashed): nothing stays stuck behind a dead worker.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from functools import cache


@cache
def _host() -> str:
    return socket.gethostname().replace(":", "_") or "localhost"


def _start_ticks(pid: int) -> str:
    """When a process started (Linux clock ticks since boot); '' where /proc is unavailable."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return fields[19]
    except (OSError, IndexError):
        return ""


def new_worker() -> str:
    """A fresh worker token for one formation run: ``host:pid:start:random``."""
    pid = os.getpid()
    return f"{_host()}:{pid}:{_start_ticks(pid)}:{uuid.uuid4().hex[:12]}"


def _process_alive(pid: int, start: str) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    except OSError:
        return True
    return not start or _start_ticks(pid) in ("", start)  # a reused pid has another start time


def is_stale(worker: str | None, expires: float | None, now: float | None = None) -> bool:
    """True when a claim may be taken over: no worker, lease over, or its process is gone."""
    if not worker:
        return True
    if expires is not None and expires <= (time.time() if now is None else now):
        return True
    parts = worker.split(":")
    if len(parts) != 4 or parts[0] != _host() or not parts[1].isdigit():
        return False  # another host: only its lease can tell
    return not _process_alive(int(parts[1]), parts[2])
