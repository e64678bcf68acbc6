"""Subprocess target for tests/test_store_processes.py: another process with the store open.

Usage: python tests/store_holder.py STORE_DIR hold|idle

``hold`` writes a memory inside a write transaction, prints "holding" and keeps the transaction
(and the write lock) open until a line arrives on stdin, then commits and prints "released".
``idle`` keeps a handle open like a server between runs: each "count NAMESPACE" line prints the
namespace's searchable memories as JSON (the in-memory index catches up with other processes),
"add NAMESPACE ID" writes a memory (text "written by ID") and prints "added", "delete NAMESPACE ID"
prints "deleted", "loaded" prints the namespaces whose vectors this process holds as JSON, and
"quit" ends it.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime

from dmem.state.schemas import MemoryRecord
from dmem.store import open_store


def main() -> None:
    path, mode = sys.argv[1], sys.argv[2]
    store = open_store(path, dim=None)
    if mode == "hold":
        now = datetime.now(UTC)
        with store.transaction():
            store.vectors.add(MemoryRecord(id="held", namespace="default", text="written while holding",
                                           created_at=now, updated_at=now), [1.0] + [0.0] * (store.dim - 1))
            print("holding", flush=True)
            sys.stdin.readline()
        print("released", flush=True)
    else:
        print("ready", flush=True)
        for line in sys.stdin:
            if line.startswith("count"):
                ns = line.split()[1]
                hits = store.vectors.search([ns], [1.0] * store.dim, 1000)
                print(json.dumps(sorted(h.record.text for h in hits)), flush=True)
            elif line.startswith("add"):
                _, ns, mid = line.split()
                now = datetime.now(UTC)
                store.vectors.add(MemoryRecord(id=mid, namespace=ns, text=f"written by {mid}", created_at=now,
                                               updated_at=now), [1.0] * store.dim)
                print("added", flush=True)
            elif line.startswith("delete"):
                _, ns, mid = line.split()
                store.vectors.delete(ns, mid)
                print("deleted", flush=True)
            elif line.startswith("loaded"):
                print(json.dumps(store._vectors.loaded_namespaces()), flush=True)
            elif line.startswith("quit"):
                break
    store.close()


if __name__ == "__main__":
    main()
