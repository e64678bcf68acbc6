"""Ingestion bookends: record and claim the turns first, build the window, finish or keep for retry.

The exchange's turns are recorded in every namespace it feeds (the caller's ``user_id`` and each
namespace of the speaker map), then claimed: only the worker holding a turn's claim forms it,
and it marks the turn formed in the same transaction that writes the memories, where it also
reads the caller's labels kept with the turns (``ExchangeLabels``) to write them onto the memories.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from langgraph.config import get_config

from dmem.services import Services
from dmem.state.graphs import IngestState
from dmem.state.schemas import Fact, MetadataValue
from dmem.store.claims import new_worker
from dmem.store.namespaces import Routing, TurnKey, turn_keys

log = logging.getLogger(__name__)

CLAIM_KEY = "dmem_worker"
"""``configurable`` key a caller (``Memory.add``) sets to name the worker that claims the turns."""
RECORDED_KEY = "dmem_recorded"
"""``configurable`` key a caller sets when it recorded the turns itself (``record`` then only claims them)."""


def routing_of(state: IngestState) -> Routing:
    """The validated routing of the exchange: its user id (default 'default') and speaker map."""
    return Routing.of(state.get("user_id", "default"), state.get("speaker_namespaces"))


def namespace_for(state: IngestState, speaker: str | None) -> str:
    """Namespace a speaker's facts go to: the speaker map, else the user id."""
    return routing_of(state).namespace_for(speaker)


def exchange_namespaces(state: IngestState) -> list[str]:
    """Every namespace the exchange feeds (its turns are recorded in each)."""
    return routing_of(state).namespaces()


def exchange_turns(state: IngestState) -> list[TurnKey]:
    """The (conversation_id, turn_id) keys of the turns this run forms."""
    return turn_keys(list(state.get("exchange") or []))


def record(state: IngestState, svc: Services) -> dict[str, Any]:
    """Append the raw messages, with the input's labels, before anything else can fail; then claim them.

    A caller that recorded them already (``Memory.add``, ``retry_pending``) says so, and they are not appended twice.
    """
    routing = routing_of(state)
    configurable = get_config().get("configurable") or {}
    turns = list(state.get("turns") or [])
    recorded = configurable.get(RECORDED_KEY)
    stored = turns if recorded else svc.store.transcript.append(routing, turns, state.get("metadata"))
    worker = configurable.get(CLAIM_KEY) or new_worker()
    claim = svc.store.transcript.claim(routing.namespaces(), turn_keys(stored), worker,
                                       svc.context.claim_lease_seconds)
    mine = set(claim.claimed)
    exchange = list({(m.conversation_id, m.turn_id): m for m in stored
                     if (m.conversation_id, m.turn_id) in mine}.values())
    held = f"turns {[t for _, t in claim.held]} are being formed by another worker" if claim.held else None
    status = "formed" if exchange else ("claimed" if claim.held else "duplicate")
    return {"exchange": exchange, "claim_token": worker, "status": status, "admissions": [], "facts": [],
            "operations": [], "error": None if exchange else held}


def build_window(state: IngestState, svc: Services) -> dict[str, Any]:
    """Reference history (last N earlier messages) and the top existing memories for the exchange."""
    ctx = svc.context
    routing = routing_of(state)
    exchange = state["exchange"]
    first = exchange[0]
    history = svc.store.transcript.before(routing.origin, first.conversation_id, first.seq, ctx.history_messages)
    query = " ".join(m.text for m in exchange if m.text) or first.text
    hits = []
    if query.strip():
        vector = svc.embed([query])[0]
        hits = svc.store.vectors.search(routing.namespaces(), vector, ctx.extraction_top_k)
    return {"history": history, "background": [h.record for h in hits]}


def keep_for_retry(state: IngestState, svc: Services) -> dict[str, Any]:
    """Formation failed (a malformed reply or a provider error): keep the turns, flagged for retry."""
    error = state.get("error") or "; ".join(state.get("failures") or []) or "unknown failure"
    svc.store.transcript.mark_pending(exchange_namespaces(state), exchange_turns(state), error,
                                      worker=state.get("claim_token"))
    log.warning("formation failed, turns kept for retry: %s", error)
    return {"status": "pending_retry", "error": error, "operations": []}


def still_claimed(state: IngestState, svc: Services) -> bool:
    """Tell, inside the commit, whether this run still holds its turns (no other worker took them over)."""
    worker = state.get("claim_token")
    return bool(worker) and svc.store.transcript.holds(exchange_namespaces(state), exchange_turns(state),
                                                       str(worker))


def mark_processed(state: IngestState, svc: Services) -> None:
    """Flag the exchange's turns as formed (inside the commit that writes their memories)."""
    svc.store.transcript.mark_processed(exchange_namespaces(state), exchange_turns(state))


@dataclass(frozen=True)
class ExchangeLabels:
    """The caller's labels of an exchange's turns, as recorded in each namespace the exchange feeds."""

    turns: list[TurnKey]
    """The exchange's turns, in order."""
    found: dict[tuple[str, str, str], dict[str, MetadataValue]]
    """Labels per (namespace, conversation_id, turn_id); unlabelled turns are left out."""

    def of(self, fact: Fact, namespace: str) -> dict[str, MetadataValue]:
        """Labels of a memory of ``namespace`` formed from ``fact``: its source turns', else the exchange's.

        Later turns' keys win, so one ``add``'s labels reach every memory it forms, and an exchange
        that joins turns of two calls (a retry) labels each memory from the turns it came from.
        """
        sources = [t for t in self.turns if t[1] in fact.source_turn_ids] or self.turns
        out: dict[str, MetadataValue] = {}
        for conv, turn in sources:
            out.update(self.found.get((namespace, conv, turn), {}))
        return out


def exchange_labels(state: IngestState, svc: Services) -> ExchangeLabels:
    """Read the caller's labels of the exchange's turns (inside the commit that writes their memories)."""
    turns = exchange_turns(state)
    return ExchangeLabels(turns=turns, found=svc.store.transcript.labels(exchange_namespaces(state), turns))
