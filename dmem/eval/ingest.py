"""The stores of a run: one per conversation and ingestion configuration, ingested once, then read.

Stores live in ``<out>/stores/<ingest-hash>/<conversation_id>`` with per-speaker namespaces
``<conversation_id>/<speaker>``; ``<conversation_id>.done.json`` beside a store marks a finished
ingestion (an interrupted one resumes: the transcript is idempotent on turn ids). Questions read a
store through read-only Memories, one per method, closed after the method's last question on it.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from dmem.api import Memory
from dmem.datasets.datasets import Conversation
from dmem.errors import ModelError
from dmem.eval.engines import Models
from dmem.eval.methods import Method, QuestionTask, speaker_namespaces
from dmem.pool import Progress, run_parallel
from dmem.state.context import Context, setting_names

log = logging.getLogger(__name__)


def exchange_count(messages: int) -> int:
    """Exchanges (message pairs) that ``messages`` messages are ingested as."""
    return math.ceil(messages / 2)


def ingest_label(formation: bool, conv: Conversation) -> str:
    """How progress, errors and the dry run name one conversation's ingestion."""
    return f"ingest {conv.conversation_id} (formation {'on' if formation else 'off'})"


class Stores:
    """Where each store lives, ingesting the missing ones, and the read-only Memories over them."""

    def __init__(self, root: Path, ctx: Context, key: Callable[[bool], str], models: Callable[[], Models]) -> None:
        self.root = root
        self.ctx = ctx
        self.key = key
        """Fingerprint of an ingestion configuration (formation on or off): the stores' folder name."""
        self.models = models
        self._lock = threading.Lock()
        self._memories: dict[tuple[str, str], Memory] = {}
        self._open: Counter[tuple[str, str]] = Counter()

    def store_dir(self, formation: bool, conv: Conversation) -> Path:
        """Store folder of one conversation under one ingestion configuration."""
        return self.root / self.key(formation) / conv.conversation_id

    def marker(self, formation: bool, conv: Conversation) -> Path:
        """File whose presence means the conversation's ingestion finished."""
        return self.store_dir(formation, conv).with_name(f"{conv.conversation_id}.done.json")

    def finished(self, formations: Iterable[bool], conversations: Iterable[Conversation]) -> list[dict[str, Any]]:
        """What the markers of these stores say about their ingestion (unfinished ones left out)."""
        markers = [self.marker(f, c) for f in formations for c in conversations]
        return [json.loads(p.read_text(encoding="utf-8")) for p in markers if p.exists()]

    def settings(self, formation: bool) -> dict[str, Any]:
        """The run's settings for a Memory over a store (its folder and embeddings are passed apart)."""
        base = {n: getattr(self.ctx, n) for n in setting_names() if n not in ("store_dir", "embedding_model")}
        return {**base, "formation": formation}

    # Ingestion -----------------------------------------------------------------------------
    def ingest(self, items: list[tuple[bool, Conversation]], progress: Progress, workers: int) -> list[str]:
        """Ingest the stores still missing, conversations in parallel, each in order; returns the failures."""
        if not items:
            return []
        progress.start("ingest", sum(exchange_count(len(c.messages)) for _, c in items), "ingestion (exchanges)")
        jobs = {ingest_label(f, c): partial(self.ingest_one, f, c, progress) for f, c in items}
        return run_parallel(jobs, lambda _: None, workers)

    def ingest_one(self, formation: bool, conv: Conversation, progress: Progress) -> dict[str, Any]:
        """Ingest the turns not yet formed (all of them the first time), then write the marker."""
        cid, store, models = conv.conversation_id, self.store_dir(formation, conv), self.models()
        # Memory.add treats seq 0 as "unset": shift by one so the first turn keeps its place on resume.
        messages = [m.model_copy(update={"seq": m.seq + 1}) for m in conv.messages]
        namespaces = speaker_namespaces(conv)
        with Memory(store, llm=models.chat, embeddings=models.embeddings, endpoints=models.endpoints,
                    **self.settings(formation)) as mem:
            todo = [m for m in messages if not mem.store.transcript.is_processed(cid, cid, m.turn_id)]
            progress.advance("ingest", exchange_count(len(messages)) - exchange_count(len(todo)))
            seen = [0]

            def step(done: int, total: int) -> None:
                progress.advance("ingest", done - seen[0])
                seen[0] = done

            result = mem.add(todo, user_id=cid, conversation_id=cid, speaker_namespaces=namespaces,
                             progress=step)
            pending = len(mem.store.transcript.pending(cid, cid))
            memories = {ns: len(mem.get_all(user_id=ns)) for ns in namespaces.values()}
        info = {"conversation_id": cid, "formation": formation, "store": str(store), "messages": len(messages),
                "formed_now": len(todo), "pending": pending, "memories": memories,
                "usage": result.usage()["total"].model_dump(), "seconds": result.seconds,
                "finished_at": datetime.now(UTC).isoformat()}
        if pending:  # questions must not be answered (and cached) from an incomplete store
            why = result.pending_turns[0].reason if result.pending_turns else "an earlier failure"
            raise ModelError(f"{cid}: {pending} turn(s) could not be formed ({why})")
        self.marker(formation, conv).write_text(json.dumps(info, indent=2), encoding="utf-8")
        return info

    # Reading -------------------------------------------------------------------------------
    def expect(self, tasks: Iterable[QuestionTask]) -> None:
        """Count the questions each method will ask of each store, to close it after the last."""
        with self._lock:
            self._open = Counter((t.method.name, t.conversation.conversation_id) for t in tasks
                                 if t.method.needs_store)

    def memory(self, method: Method, conv: Conversation) -> Memory:
        """The method's read-only Memory over the conversation's store, over the method's own caches."""
        key = (method.name, conv.conversation_id)
        with self._lock:
            if key not in self._memories:
                models, formation = self.models(), bool(method.formation)
                self._memories[key] = Memory(self.store_dir(formation, conv), llm=models.chat,
                                             embeddings=models.for_method(method.name).embeddings,
                                             endpoints=models.endpoints,
                                             read_only=True, **self.settings(formation))
            return self._memories[key]

    def release(self, method: Method, conv: Conversation) -> None:
        """One question of a method on a store is done; close the method's Memory after its last one."""
        key = (method.name, conv.conversation_id)
        with self._lock:
            self._open[key] -= 1
            if self._open[key] <= 0 and key in self._memories:
                self._memories.pop(key).close()

    def close(self) -> None:
        """Close every Memory opened for questions."""
        with self._lock:
            for memory in self._memories.values():
                memory.close()
            self._memories.clear()
