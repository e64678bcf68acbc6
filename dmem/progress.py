"""Progress of long commands: rich bars with an ETA in a terminal, plain lines on stderr when piped.

Both reporters implement the eval runner's ``Progress`` (named phases that ``start`` and
``advance``), so ``ingest``, ``retry`` and ``eval`` report the same way. When piped, a phase
prints a line at most every ``interval`` seconds while it runs, and one when it ends: logs show
that work goes on, without a line per step (a command that fails at once prints only its error).
With ``--json`` the lines are JSON objects, so stderr stays machine-readable.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as RichBar

from dmem.pool import Progress

DEFAULT_INTERVAL = 5.0
"""Seconds between two progress lines of one phase when output is piped (``--progress-every``)."""


class Phases(Progress):
    """The eval runner's ``Progress`` plus ``update``: set how many steps of a phase are done."""

    def update(self, name: str, completed: int) -> None:
        """Set how many steps of a phase are done."""


@dataclass
class _Phase:
    description: str
    total: int
    started: float
    done: int = 0
    printed: float = 0.0


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 else \
        f"{seconds // 60}:{seconds % 60:02d}"


class LineProgress(Phases):
    """Plain progress lines ('dmem: <phase>: 12/40 (30%), 0:07 elapsed, ETA 0:16') on a stream."""

    def __init__(self, stream: IO[str], interval: float = DEFAULT_INTERVAL,
                 clock: Callable[[], float] = time.monotonic, *, as_json: bool = False) -> None:
        self.stream = stream
        self.as_json = as_json
        self.interval = interval
        self.clock = clock
        self._phases: dict[str, _Phase] = {}
        self._lock = threading.Lock()  # eval advances phases from worker threads

    def start(self, name: str, total: int, description: str) -> None:
        with self._lock:
            now = self.clock()
            self._phases[name] = _Phase(description, max(0, total), now, printed=now)

    def advance(self, name: str, amount: int = 1) -> None:
        with self._lock:
            phase = self._phases.get(name)
            if phase is not None:
                self._step(phase, phase.done + amount)

    def update(self, name: str, completed: int) -> None:
        """Set how many steps of a phase are done."""
        with self._lock:
            phase = self._phases.get(name)
            if phase is not None:
                self._step(phase, completed)

    def _step(self, phase: _Phase, done: int) -> None:
        now = self.clock()
        finished = phase.done < phase.total <= done
        phase.done = done
        if finished or now - phase.printed >= self.interval:
            phase.printed = now
            self._write(phase, now)

    def _write(self, phase: _Phase, now: float) -> None:
        elapsed = now - phase.started
        running = 0 < phase.done < phase.total
        eta = elapsed / phase.done * (phase.total - phase.done) if running else None
        if self.as_json:
            line = json.dumps({"progress": phase.description, "done": phase.done, "total": phase.total,
                               "elapsed_s": round(elapsed, 1), "eta_s": None if eta is None else round(eta, 1)})
        else:
            line = f"dmem: {phase.description}: {phase.done}/{phase.total}"
            if phase.total:
                line += f" ({100 * phase.done // phase.total}%)"
            line += f", {_clock(elapsed)} elapsed"
            line += f", ETA {_clock(eta)}" if eta is not None else (", done" if phase.done >= phase.total else "")
        self.stream.write(line + "\n")
        self.stream.flush()


class BarProgress(Phases):
    """Rich bars with elapsed time and ETA, one per phase."""

    def __init__(self, bar: RichBar) -> None:
        self.bar = bar
        self._tasks: dict[str, object] = {}

    def start(self, name: str, total: int, description: str) -> None:
        self._tasks[name] = self.bar.add_task(description, total=total)

    def advance(self, name: str, amount: int = 1) -> None:
        if name in self._tasks and amount:
            self.bar.advance(self._tasks[name], amount)  # type: ignore[arg-type]

    def update(self, name: str, completed: int) -> None:
        """Set how many steps of a phase are done."""
        if name in self._tasks:
            self.bar.update(self._tasks[name], completed=completed)  # type: ignore[arg-type]


@contextmanager
def progress_for(console: Console, stream: IO[str], interval: float = DEFAULT_INTERVAL, *,
                 transient: bool = True, as_json: bool = False) -> Iterator[Phases]:
    """Bars on ``console`` when it is a terminal, else lines (JSON with ``as_json``) on ``stream`` (stderr)."""
    if not console.is_terminal:
        yield LineProgress(stream, interval, as_json=as_json)
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("ETA"), TimeRemainingColumn())
    with RichBar(*columns, console=console, transient=transient) as bar:
        yield BarProgress(bar)
