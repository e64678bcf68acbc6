"""Subprocess target for tests/test_store.py: write to a store in a loop until killed.

Usage: python tests/store_writer.py STORE_DIR RUN_TAG DIM

Every transaction writes memory rows and their history rows together (adds, updates, deletes,
some batched), so the parent can check after SIGKILL that each memory matches its history exactly.
Prints "ready" once the first transaction has committed, then "committed" after each later one,
so the parent can kill it after a chosen number of commits without guessing with sleeps.
"""

from __future__ import annotations

import hashlib
import sys
from datetime import UTC, datetime

import numpy as np

from dmem.state.schemas import MemoryRecord, Operation
from dmem.store import open_store


def vector(key: str, dim: int) -> list[float]:
    """Deterministic random vector for a key."""
    seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "little")
    return np.random.default_rng(seed).normal(size=dim).tolist()


def main() -> None:
    path, tag, dim = sys.argv[1], sys.argv[2], int(sys.argv[3])
    store = open_store(path, dim=dim, lock_timeout=5.0)
    live: list[MemoryRecord] = []
    i = 0
    announced = False
    while True:
        with store.transaction():
            for _ in range(1 + i % 3):
                now = datetime.now(UTC)
                rec = MemoryRecord(
                    id=f"{tag}-{i}", namespace=f"ns{i % 2}", text=f"fact {tag} {i}",
                    created_at=now, updated_at=now, enrichment={"i": str(i)},
                )
                store.vectors.add(rec, vector(rec.id, dim))
                store.history.append(rec.namespace, rec.id, Operation.ADD, None, rec.text, "writer")
                live.append(rec)
                i += 1
            if i % 5 == 0 and live:
                old = live[i % len(live)]
                new = old.model_copy(update={"text": f"{old.text} v{i}"})
                store.vectors.update(new, vector(f"{new.id}/{i}", dim))
                store.history.append(new.namespace, new.id, Operation.UPDATE, old.text, new.text, "writer")
                live[i % len(live)] = new
            if i % 7 == 0 and len(live) > 3:
                gone = live.pop(i % len(live))
                store.vectors.delete(gone.namespace, gone.id)
                store.history.append(gone.namespace, gone.id, Operation.DELETE, gone.text, None, "writer")
        print("committed" if announced else "ready", flush=True)
        announced = True


if __name__ == "__main__":
    main()
