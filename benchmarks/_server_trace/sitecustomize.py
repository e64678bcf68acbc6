"""`soak.py --trace-server`: what the `langgraph dev` process's heap gains between two moments of its life.

Imported by Python at start-up when this directory is on ``PYTHONPATH``; does nothing unless
``SOAK_SERVER_TRACE`` is set and the process is the ``langgraph`` server. Then it traces the Python heap
(tracemalloc, one frame) and every 10 s appends to ``$SOAK_SERVER_TRACE.<pid>``: RSS, the traced heap,
what the C allocator has handed out (glibc's ``mallinfo2``) and SQLite's own heap. Between
``SOAK_SERVER_TRACE_FROM`` and ``SOAK_SERVER_TRACE_TO`` seconds of the process's life it writes the heap's
growth by allocation line, and the object types whose count grew. Tracing slows the server and adds to
its RSS: a traced soak attributes growth, an untraced one measures it. ``soak.py --memray-server`` (the
block at the end) records native allocations with memray instead.
"""

from __future__ import annotations

import os
import sys

if os.environ.get("SOAK_SERVER_TRACE") and os.path.basename(sys.argv[0] if sys.argv else "") == "langgraph":
    import ctypes
    import ctypes.util
    import gc
    import threading
    import time
    import tracemalloc
    from collections import Counter
    from typing import Any

    class _MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                        "fsmblks", "uordblks", "fordblks", "keepcost")]

    def _native() -> tuple[Any, Any]:
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            libc.mallinfo2.restype = _MallInfo2
        except (OSError, AttributeError):
            libc = None
        try:
            sqlite = ctypes.CDLL("libsqlite3.so.0")
            sqlite.sqlite3_memory_used.restype = ctypes.c_int64
        except OSError:
            sqlite = None
        return libc, sqlite

    def _rss_mb() -> float:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def _types() -> Counter[str]:
        return Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects())

    def _watch(path: str, start: float, end: float) -> None:
        libc, sqlite = _native()
        began, first, types, first_at = time.monotonic(), None, Counter[str](), 0.0
        with open(f"{path}.{os.getpid()}", "w", buffering=1) as out:
            while True:
                time.sleep(10)
                now = time.monotonic() - began
                traced = tracemalloc.get_traced_memory()[0] / 2**20
                line = f"{now:5.0f} s  RSS {_rss_mb():6.1f} MB  traced {traced:6.2f} MB"
                if libc is not None:
                    info = libc.mallinfo2()
                    line += f"  malloc in use {(info.uordblks + info.hblkhd) / 2**20:6.2f} MB"
                if sqlite is not None:
                    line += f"  SQLite {sqlite.sqlite3_memory_used() / 2**20:5.2f} MB"
                out.write(line + "\n")
                if first is None and now >= start:
                    gc.collect()
                    first, types, first_at = tracemalloc.take_snapshot(), _types(), now
                elif first is not None and now >= end:
                    gc.collect()
                    snapshot, grown = tracemalloc.take_snapshot(), _types()
                    out.write(f"heap growth {first_at:.0f} s -> {now:.0f} s by line (KB, blocks):\n")
                    for stat in snapshot.compare_to(first, "lineno")[:40]:
                        out.write(f"{stat.size_diff / 1024:+9.1f} {stat.count_diff:+7d}  {stat.traceback[0]}\n")
                    out.write("object types whose count grew:\n")
                    for name, n in sorted(((k, grown[k] - types[k]) for k in grown), key=lambda kv: -kv[1])[:25]:
                        out.write(f"{n:+7d}  {name}\n")
                    return

    tracemalloc.start(1)
    threading.Thread(target=_watch, name="dmem-soak-trace", daemon=True,
                     args=(os.environ["SOAK_SERVER_TRACE"], float(os.environ.get("SOAK_SERVER_TRACE_FROM", "100")),
                           float(os.environ.get("SOAK_SERVER_TRACE_TO", "280")))).start()

if os.environ.get("SOAK_SERVER_MEMRAY") and os.path.basename(sys.argv[0] if sys.argv else "") == "langgraph":
    # `soak.py --memray-server FROM,TO`: every C and Python allocation with native stacks (memray, installed
    # apart and on PYTHONPATH) between those seconds of the process's life, to `$SOAK_SERVER_MEMRAY.<pid>.bin`;
    # what is still allocated at TO was allocated and kept in the window (benchmarks/native_owners.py).
    import threading
    import time

    def _capture(path: str, start: float, end: float) -> None:
        import memray

        time.sleep(start)
        tracker = memray.Tracker(f"{path}.{os.getpid()}.bin", native_traces=True,
                                 file_format=memray.FileFormat.AGGREGATED_ALLOCATIONS)
        tracker.__enter__()
        time.sleep(end - start)
        tracker.__exit__(None, None, None)

    threading.Thread(target=_capture, name="dmem-soak-memray", daemon=True,
                     args=(os.environ["SOAK_SERVER_MEMRAY"], float(os.environ.get("SOAK_SERVER_MEMRAY_FROM", "100")),
                           float(os.environ.get("SOAK_SERVER_MEMRAY_TO", "280")))).start()
