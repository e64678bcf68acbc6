"""Transcript rows back into messages, for the transcript and the turn statuses alike."""

from __future__ import annotations

from datetime import datetime

from dmem.state.schemas import Message
from dmem.store.sql import Row


def message_from_row(row: Row) -> Message:
    """Rebuild a Message from its transcript row."""
    stamp = row["timestamp"]
    return Message(
        conversation_id=row["conversation_id"],
        turn_id=row["turn_id"],
        speaker=row["speaker"],
        text=row["text"],
        timestamp=datetime.fromisoformat(stamp) if stamp else None,
        image_caption=row["image_caption"],
        seq=row["seq"],
    )
