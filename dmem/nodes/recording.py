"""Ingestion bookends: record raw messages first, build the window, and finish or keep for retry."""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from dmem.services import services_for
from dmem.state.context import Context
from dmem.state.graphs import IngestState
from dmem.state.schemas import Message

log = logging.getLogger(__name__)


def namespace_for(state: IngestState, speaker: str | None) -> str:
    """Namespace a speaker's facts go to: the speaker map, else the user id, else 'default'."""
    mapping = {k.lower(): v for k, v in (state.get("speaker_namespaces") or {}).items()}
    if speaker and speaker.lower() in mapping:
        return mapping[speaker.lower()]
    return state.get("user_id") or "default"


def exchange_namespaces(state: IngestState) -> list[str]:
    """Every namespace the exchange may write to (its speakers' and the user's)."""
    names = {namespace_for(state, m.speaker) for m in state.get("turns") or []}
    names.update((state.get("speaker_namespaces") or {}).values())
    return sorted(names)


def record(state: IngestState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Append the raw messages to the transcript before anything else can fail."""
    svc = services_for(runtime.context)
    messages: list[Message] = list(state.get("turns") or [])
    svc.store.transcript.append(messages, exchange_namespaces(state))
    # New turns, and turns recorded earlier but never formed (a crash, or kept for retry).
    exchange = [m for m in messages if not svc.store.transcript.is_processed(m.conversation_id, m.turn_id)]
    return {"exchange": exchange, "status": "duplicate" if not exchange else "formed",
            "admissions": [], "facts": [], "operations": [], "error": None}


def build_window(state: IngestState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Reference history (last N earlier messages) and the top existing memories for the exchange."""
    svc = services_for(runtime.context)
    ctx = svc.context
    exchange = state["exchange"]
    first = exchange[0]
    history = svc.store.transcript.before(first.conversation_id, first.seq, ctx.history_messages)
    query = " ".join(m.text for m in exchange if m.text) or first.text
    hits = []
    if query.strip():
        vector = svc.embed([query])[0]
        hits = svc.store.vectors.search(exchange_namespaces(state), vector, ctx.extraction_top_k)
    return {"history": history, "background": [h.record for h in hits]}


def keep_for_retry(state: IngestState, runtime: Runtime[Context]) -> dict[str, Any]:
    """A model reply stayed malformed: keep the turns in the transcript, flagged for retry."""
    svc = services_for(runtime.context)
    error = state.get("error") or "; ".join(state.get("failures") or []) or "unknown failure"
    for conv, turn_ids in _turns_by_conversation(state).items():
        svc.store.transcript.mark_pending(conv, turn_ids, error)
    log.warning("formation failed, turns kept for retry: %s", error)
    return {"status": "pending_retry", "error": error, "operations": []}


def mark_processed(state: IngestState, runtime: Runtime[Context]) -> None:
    """Flag the exchange's turns as formed."""
    svc = services_for(runtime.context)
    for conv, turn_ids in _turns_by_conversation(state).items():
        svc.store.transcript.mark_processed(conv, turn_ids)


def _turns_by_conversation(state: IngestState) -> dict[str, list[str]]:
    """The exchange's turn ids, grouped by conversation."""
    by_conv: dict[str, list[str]] = {}
    for m in state.get("exchange") or []:
        by_conv.setdefault(m.conversation_id, []).append(m.turn_id)
    return by_conv
