"""Driving ``tests/store_holder.py`` from a test: a second process with the same store open."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**{k: v for k, v in os.environ.items() if not k.startswith("DMEM_")}, "PYTHONPATH": str(ROOT)}


def start(store: Path, mode: str, ready: tuple[str, ...] = ("holding", "ready")) -> subprocess.Popen[str]:
    """Start a holder process on ``store`` in ``mode``; its first line must be one of ``ready``."""
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "store_holder.py"), str(store), mode],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line in ready, proc.stderr.read() if proc.stderr else line
    return proc


def say(proc: subprocess.Popen[str], line: str) -> str:
    """Send the holder one command and return its one-line reply."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return proc.stdout.readline().strip()
