"""Soak a served graph: ingesting and querying clients on `langgraph dev`, a server kill, a PostgreSQL restart.

Runs ``langgraph dev`` (offline decision engine, hash embeddings) on the local store or on a private
PostgreSQL (pgserver) for ``--seconds``; ingesting clients send invented two-turn exchanges with an
idempotency key and resend a failed send with the same key until it succeeds; querying clients ask
about the users. The exchanges (``--text``, ``_soak_text.py``) are by default invented chat over a
fixed vocabulary of 143 words, every send unique; ``--text unique`` sends the texts used until
2026-12-02, a never-repeated word and the idempotency key in every send (the vocabulary grows without end).
Each run is stateless (a temporary thread, deleted when the run ends), as a server's clients should
send them. ``--kill-at`` SIGKILLs the server at those seconds (it is restarted at once);
``--pg-restart-at`` stops PostgreSQL for ``--pg-down`` seconds. Printed: runs and errors by class,
p50/p95 per run type, server RSS over time, and at the end turns sent / recorded / formed / pending /
duplicated / lost, before and after one ``retry_pending()``. ``--host-only`` is the control: the same
clients against graphs that only wait (``_soak_host/graphs.py``), so the RSS shows what `langgraph dev`
itself keeps per run, apart from dmem.

Usage:
    python benchmarks/soak.py --backend local --seconds 180 --kill-at 60
    python benchmarks/soak.py --backend postgres --seconds 180 --kill-at 60 --pg-restart-at 120
    python benchmarks/soak.py --host-only --seconds 600 --kill-at 300 --users 60
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil
from langgraph_sdk import get_sync_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _soak_text import TextKind, exchange  # noqa: E402

from tests.postgres_server import StoppablePostgres  # noqa: E402
from tests.test_langgraph_server import dev_command  # noqa: E402


@dataclass
class Tally:
    """What the clients saw, shared by their threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    runs: Counter[str] = field(default_factory=Counter)
    errors: Counter[tuple[str, str]] = field(default_factory=Counter)
    seconds: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[str] = field(default_factory=Counter)
    sent: dict[str, list[str]] = field(default_factory=dict)
    """Idempotency key -> the texts of its turns, for every send a client saw succeed."""
    unreadable: list[str] = field(default_factory=list)
    examples: dict[str, str] = field(default_factory=dict)

    def error(self, kind: str, exc: BaseException) -> None:
        text = str(exc)
        found = re.match(r"^([A-Za-z_]\w*): ", text) if type(exc) is Exception else None
        name = found.group(1) if found else type(exc).__name__
        with self.lock:
            self.errors[(kind, name)] += 1
            self.examples.setdefault(name, text[:200])
            if "An internal error occurred" in text:
                self.unreadable.append(name)


class Served:
    """A `langgraph dev` process group that can be killed and restarted."""

    def __init__(self, env: dict[str, str], workdir: Path, port: int, config: Path = ROOT / "langgraph.json") -> None:
        self.env, self.workdir, self.port, self.config = env, workdir, port, config
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / "server.log"

    def start(self) -> float:
        cmd = dev_command(self.port, config=self.config, jobs=4)
        started = time.monotonic()
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, cwd=self.workdir, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        with httpx.Client(timeout=2.0, trust_env=False) as http:
            while time.monotonic() - started < 300:
                if self.proc.poll() is not None:
                    raise SystemExit(f"langgraph dev exited:\n{self.log.read_text()[-3000:]}")
                try:
                    if http.get(f"{self.url}/ok").status_code == 200:
                        return time.monotonic() - started
                except httpx.TransportError:
                    pass
                time.sleep(0.25)
        raise SystemExit("langgraph dev did not answer in 300 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def rss_mb(self) -> float:
        if self.proc is None or self.proc.poll() is not None:
            return 0.0
        try:
            root = psutil.Process(self.proc.pid)
            procs = [root, *root.children(recursive=True)]
            return sum(p.memory_info().rss for p in procs if p.is_running()) / 2**20
        except psutil.Error:
            return 0.0


def ingester(name: str, served: Served, tally: Tally, stop: threading.Event, users: list[str],
             new_until: float | None = None, text: TextKind = "chat", place: tuple[int, int] = (0, 1)) -> None:
    """Send exchanges with an idempotency key; resend a failed send (same key) until it succeeds.

    After ``new_until`` seconds (monotonic clock), send the earlier exchanges again in turn (same keys):
    the runs go on, the stored data stops growing. ``place`` is (this ingester's number, how many there
    are): send n's text is number ``n * how many + number``, so no two ingesters send the same text.
    """
    client = get_sync_client(url=served.url, timeout=httpx.Timeout(60.0))
    count, fresh = 0, 0
    while not stop.is_set():
        count += 1
        if new_until is None or time.monotonic() < new_until or not fresh:
            fresh = count
        n = count if fresh == count else count % fresh + 1
        user = users[n % len(users)]
        key = f"{name}-{n}"
        texts = list(exchange(text, n * place[1] + place[0], name, key))
        send = {"messages": [{"role": "user", "content": texts[0]}, {"role": "assistant", "content": texts[1]}],
                "user_id": user, "idempotency_key": key}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                out = client.runs.wait(None, "ingestion", input=send, raise_error=True)
            except Exception as exc:  # noqa: BLE001 - counted by class, then resent
                tally.error("ingest", exc)
                time.sleep(1.0)
                continue
            with tally.lock:
                tally.runs["ingest"] += 1
                tally.seconds["ingest"].append(time.perf_counter() - started)
                tally.statuses[out.get("status", "?") if isinstance(out, dict) else "?"] += 1
                tally.sent[key] = texts
            break


def querier(name: str, served: Served, tally: Tally, stop: threading.Event, users: list[str]) -> None:
    """Ask about the users in turn (a user's first question may come before any memory)."""
    client = get_sync_client(url=served.url, timeout=httpx.Timeout(60.0))
    n = 0
    while not stop.is_set():
        n += 1
        user = users[(n * 3 + len(name)) % len(users)]
        started = time.perf_counter()
        try:
            client.runs.wait(None, "query", input={"question": f"What did {user} talk about lately?",
                                                   "namespaces": [user]}, raise_error=True)
        except Exception as exc:  # noqa: BLE001 - counted by class
            tally.error("query", exc)
            time.sleep(1.0)
            continue
        with tally.lock:
            tally.runs["query"] += 1
            tally.seconds["query"].append(time.perf_counter() - started)


def final_figures(settings: dict[str, Any], users: list[str], tally: Tally) -> dict[str, int]:
    """Turns sent / recorded / formed / pending / duplicated / lost, before and after one retry_pending()."""
    from dmem.api import Memory

    figures: dict[str, int] = {"sent": 2 * len(tally.sent)}
    with Memory(embeddings="hash", **settings) as mem:
        def count() -> tuple[int, int, int, int, int]:
            texts = Counter(m.text for u in users for m in mem.transcript(user_id=u))
            unformed = sum(len(mem.store.transcript.unformed(u)) for u in users)
            pending = sum(len(mem.pending(user_id=u)) for u in users)
            sent = {t for pair in tally.sent.values() for t in pair}
            return (sum(texts.values()), sum(texts.values()) - unformed, pending,
                    sum(c - 1 for c in texts.values() if c > 1), len(sent - set(texts)))
        for label, values in (("before", count()),):
            figures.update(zip([f"{x}_{label}" for x in ("recorded", "formed", "pending", "duplicated", "lost")],
                               values, strict=True))
        mem.retry_pending(user_ids=users)
        figures.update(zip([f"{x}_after_retry" for x in ("recorded", "formed", "pending", "duplicated", "lost")],
                           count(), strict=True))
    return figures


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def slope_mb_per_min(rss: list[tuple[float, float]]) -> float:
    """Least-squares slope of RSS over the last third of the run (MB per minute; 0 with fewer than 2 samples)."""
    third = [(t, m) for t, m in rss if t >= rss[-1][0] * 2 / 3 and m > 0]
    if len(third) < 2:
        return 0.0
    mt, mm = statistics.fmean(t for t, _ in third), statistics.fmean(m for _, m in third)
    var = sum((t - mt) ** 2 for t, _ in third)
    return 60 * sum((t - mt) * (m - mm) for t, m in third) / var if var else 0.0


FLAT_MB = 2.0
"""Growth over the last third still called flat: two steps of the allocator's heap growth (about 1 MB each)."""
FLAT_SHARE = 0.01
"""...or 1 % of the median RSS, when that is larger."""


def flatness(rss: list[tuple[float, float]]) -> str:
    """The verdict on the last third: flat when the fitted growth over it is within the stated tolerance."""
    third = [(t, m) for t, m in rss if t >= rss[-1][0] * 2 / 3 and m > 0]
    if len(third) < 3:
        return "flat: unknown (fewer than 3 samples in the last third)"
    minutes = (third[-1][0] - third[0][0]) / 60
    slope = slope_mb_per_min(rss)
    growth = slope * minutes
    median = statistics.median(m for _, m in third)
    tolerance = max(FLAT_MB, FLAT_SHARE * median)
    mt, mm = statistics.fmean(t for t, _ in third), statistics.fmean(m for _, m in third)
    scatter = statistics.pstdev(m - mm - slope * (t - mt) / 60 for t, m in third)
    verdict = "yes" if growth <= tolerance else "no"
    return (f"flat: {verdict} (criterion: the least-squares growth over the last third, slope x its "
            f"{minutes:.1f} min, at most max({FLAT_MB:.0f} MB, {FLAT_SHARE:.0%} of the median RSS) = "
            f"{tolerance:.1f} MB; measured {growth:+.1f} MB = {slope:+.2f} MB/min, {growth / median:+.1%} of "
            f"{median:.0f} MB; samples scatter {scatter:.1f} MB around the fit; at this slope "
            f"{60 * slope:+.0f} MB an hour)")


def kept_by_server(served: Served) -> str:
    """Threads and runs the server's in-memory runtime still holds (stateless runs should leave none)."""
    client = get_sync_client(url=served.url, timeout=httpx.Timeout(30.0))
    try:
        threads = client.threads.search(limit=1000)
        runs = sum(len(client.runs.list(t["thread_id"], limit=1000)) for t in threads)
    except Exception as exc:  # noqa: BLE001 - a figure, not a failure
        return f"unknown ({type(exc).__name__})"
    return f"{len(threads)} threads, {runs} runs"


def report(tally: Tally, rss: list[tuple[float, float]], events: list[str], figures: dict[str, int]) -> None:
    print("\nruns (successful):", dict(tally.runs), " ingest statuses:", dict(tally.statuses))
    print("errors by class:")
    for (kind, name), n in sorted(tally.errors.items()):
        print(f"  {kind:7s} {name:28s} {n:5d}   e.g. {tally.examples.get(name, '')[:110]}")
    print(f"unreadable errors ('An internal error occurred'): {dict(Counter(tally.unreadable)) or 0}")
    for kind, values in sorted(tally.seconds.items()):
        p50, p95 = pct(values, 0.5) * 1000, pct(values, 0.95) * 1000
        print(f"{kind:7s} n={len(values):5d}  p50 {p50:7.0f} ms  p95 {p95:7.0f} ms")
    print("events:", "; ".join(events) or "none")
    print("server RSS (MB) over time:", " ".join(f"{t:.0f}s:{m:.0f}" for t, m in rss))
    if rss:
        third = [m for t, m in rss if t >= rss[-1][0] * 2 / 3]
        print(f"RSS last third: min {min(third):.0f} MB, max {max(third):.0f} MB, "
              f"median {statistics.median(third):.0f} MB, slope {slope_mb_per_min(rss):+.2f} MB/min")
        print(flatness(rss))
    print("turns:", " ".join(f"{k}={v}" for k, v in figures.items()))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", choices=["local", "postgres"], default="local")
    p.add_argument("--seconds", type=float, default=180.0)
    p.add_argument("--ingesters", type=int, default=2)
    p.add_argument("--queriers", type=int, default=2)
    p.add_argument("--users", type=int, default=6)
    p.add_argument("--kill-at", type=float, action="append", default=[], help="seconds; may repeat")
    p.add_argument("--pg-restart-at", type=float, action="append", default=[], help="seconds; may repeat")
    p.add_argument("--pg-down", type=float, default=5.0, help="seconds PostgreSQL stays stopped")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--new-data-until", type=float, default=None,
                   help="seconds; after it ingesters resend earlier exchanges (same keys), so the data stops growing")
    p.add_argument("--text", choices=["chat", "unique"], default="chat",
                   help="chat: invented chat over a fixed vocabulary (default); unique: a never-repeated word and "
                        "the idempotency key in every send, the texts used until 2026-12-02")
    p.add_argument("--trace-server", default="", metavar="FROM,TO",
                   help="trace each server process's Python heap (tracemalloc, slows it) and print its growth "
                        "between these seconds of its life, by allocation line (_server_trace/sitecustomize.py)")
    p.add_argument("--host-only", action="store_true",
                   help="the control: serve graphs named like dmem's that only wait (_soak_host/graphs.py), so the "
                        "same clients measure what langgraph dev itself keeps per run; local, no turns counted")
    p.add_argument("--host-seconds", type=float, default=1.0,
                   help="with --host-only: how long each run waits (about a soak's p50 per run)")
    p.add_argument("--memray-server", default="", metavar="FROM,TO",
                   help="record each server process's allocations with native stacks (memray, installed apart and on "
                        "PYTHONPATH) between these seconds of its life into --memray-dir; read with native_owners.py")
    p.add_argument("--memray-dir", default=".", help="folder for --memray-server's captures (server-memray.<pid>.bin)")
    p.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE",
                   help="a dmem setting for the server (as DMEM_NAME); may repeat, e.g. index_documents=2000")
    args = p.parse_args()
    if any("=" not in s for s in args.setting):
        p.error("--setting takes NAME=VALUE")
    if args.host_only and args.backend != "local":
        p.error("--host-only serves no store: use it with --backend local")
    if args.pg_restart_at and args.backend != "postgres":
        p.error("--pg-restart-at needs --backend postgres")

    tmp = Path(tempfile.mkdtemp(prefix="dmem-soak-"))
    pg = StoppablePostgres(str(tmp / "pg")) if args.backend == "postgres" else None
    settings = {"store_url": pg.url} if pg else {"store_dir": str(tmp / "store")}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DMEM_", "LANGSMITH_", "LANGCHAIN_"))}
    env.update(DMEM_EMBEDDING_MODEL="hash", LANGGRAPH_CLI_NO_ANALYTICS="1", LANGGRAPH_NO_VERSION_CHECK="1",
               **({"DMEM_STORE_URL": pg.url} if pg else {"DMEM_STORE_DIR": settings["store_dir"]}))
    env.update({f"DMEM_{name.strip().upper()}": value for name, _, value in (s.partition("=") for s in args.setting)})
    if args.trace_server:
        start, _, end = args.trace_server.partition(",")
        env.update(SOAK_SERVER_TRACE=str(tmp / "server-trace"), SOAK_SERVER_TRACE_FROM=start, SOAK_SERVER_TRACE_TO=end)
    if args.memray_server:
        start, _, end = args.memray_server.partition(",")
        env.update(SOAK_SERVER_MEMRAY=str(Path(args.memray_dir).resolve() / "server-memray"),
                   SOAK_SERVER_MEMRAY_FROM=start, SOAK_SERVER_MEMRAY_TO=end)
    if args.trace_server or args.memray_server:
        env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parent / "_server_trace"),
                                             *filter(None, [env.get("PYTHONPATH")])])
    port = args.port or _free_port()
    config = ROOT / "langgraph.json"
    if args.host_only:
        config = host_config(tmp)
        env["SOAK_HOST_SECONDS"] = str(args.host_seconds)
    served = Served(env, tmp, port, config)
    print(f"soak: {args.backend}, {args.seconds:.0f} s, {args.ingesters} ingesting and {args.queriers} querying "
          f"clients, {args.users} users, text {args.text}, settings {' '.join(args.setting) or 'defaults'}", flush=True)
    events = [f"server ready in {served.start():.1f} s"]
    users = [f"soak-user-{i}" for i in range(args.users)]
    tally, stop, rss = Tally(), threading.Event(), []
    t0 = time.monotonic()
    new_until = t0 + args.new_data_until if args.new_data_until is not None else None
    clients = [threading.Thread(target=ingester, args=(f"ing{i}", served, tally, stop, users, new_until, args.text,
                                                       (i, args.ingesters)))
               for i in range(args.ingesters)]
    clients += [threading.Thread(target=querier, args=(f"ask{i}", served, tally, stop, users))
                for i in range(args.queriers)]
    plan = sorted([(t, "kill") for t in args.kill_at] + [(t, "pg") for t in args.pg_restart_at])
    for c in clients:
        c.start()
    try:
        while (now := time.monotonic() - t0) < args.seconds:
            if plan and now >= plan[0][0]:
                _, what = plan.pop(0)
                if what == "kill":
                    served.kill()
                    events.append(f"{now:.0f}s: server SIGKILLed, answered again in {served.start():.1f} s")
                elif pg is not None:
                    pg.stop()
                    time.sleep(args.pg_down)
                    pg.start()
                    events.append(f"{now:.0f}s: PostgreSQL stopped for {args.pg_down:.0f} s, started again")
            rss.append((now, served.rss_mb()))
            time.sleep(5.0)
        stop.set()
        for c in clients:
            c.join(timeout=180)
        events.append(f"kept by the server at the end: {kept_by_server(served)}")
    finally:
        stop.set()
        served.stop()
    figures = {} if args.host_only else final_figures(settings, users, tally)
    report(tally, rss, events, figures)
    for trace in sorted(tmp.glob("server-trace.*")):
        print(f"\nserver process {trace.suffix[1:]} (traced):\n{trace.read_text()}")
    if pg is not None:
        pg.server.cleanup()
    shutil.rmtree(tmp, ignore_errors=True)


def host_config(folder: Path) -> Path:
    """A langgraph.json serving the control graphs (``--host-only``) under dmem's graph names."""
    graphs = Path(__file__).resolve().parent / "_soak_host" / "graphs.py"
    config = folder / "host-langgraph.json"
    config.write_text(json.dumps({"dependencies": ["."], "graphs": {
        name: f"{graphs}:{name}_graph" for name in ("ingestion", "query")}}))
    return config


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


if __name__ == "__main__":
    main()
