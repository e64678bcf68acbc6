"""The answer cache: an append-only JSONL of records, keyed by a fingerprint of what shaped them.

Every answer is appended to ``<out>/answers.jsonl`` under its method, conversation, question
index and a fingerprint of the settings, so a rerun asks only what is missing and a changed
setting is never served from the cache.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)
Record = dict[str, Any]
ANSWERS_FILE = "answers.jsonl"
QUERY_KEYS = ("base_url", "temperature", "structured_output", "retrieval_top_k", "wide_retrieval_factor",
              "episode_neighbours",
              "answer_style", "vote_samples", "vote_temperature", "chunk_size", "chunk_history", "chunk_min_score",
              "fact_min_score", "select_above", "retrieval_mode", "deliberation_mode", "deliberation_budget",
              "ledger_limit")
"""Settings that shape answers (with the method's own settings and the model's name)."""
INGEST_KEYS = ("base_url", "temperature", "structured_output", "extraction_top_k", "history_messages",
               "update_top_k", "update_min_similarity", "enrichment", "external_knowledge", "location")
"""Settings that shape a store (with the formation flag and the model and embedding names)."""


def fingerprint(data: dict[str, Any]) -> str:
    """Short stable hash of JSON-ready settings."""
    return hashlib.sha1(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:12]


def cache_key(config: str, key: str) -> str:
    """Where a record lives in the cache: its settings fingerprint and its task key."""
    return f"{config}|{key}"


class AnswerCache:
    """Append-only JSONL of answer records; the last record of a (config, key) wins."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def load(self) -> dict[str, Record]:
        """Records by ``config|key``; unreadable lines (an interrupted write) are skipped."""
        out: dict[str, Record] = {}
        if not self.path.exists():
            return out
        bad = 0
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
                out[cache_key(rec["config"], rec["key"])] = rec
            except (json.JSONDecodeError, KeyError, TypeError):
                bad += int(bool(line.strip()))
        if bad:
            log.warning("%s: skipped %d unreadable line(s)", self.path, bad)
        return out

    def append(self, record: Record) -> None:
        """Add one record durably (one line, flushed)."""
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a+b") as handle:
                handle.seek(0, 2)
                if handle.tell():  # a crash may have cut the last line short: never append to it
                    handle.seek(-1, 2)
                    if handle.read(1) != b"\n":
                        handle.write(b"\n")
                handle.write((json.dumps(record, ensure_ascii=False, default=str) + "\n").encode("utf-8"))
                handle.flush()
