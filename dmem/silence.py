"""A silence in a conversation: the gap before a line that opens the chat again.

Friends in a chat go quiet for hours or days and come back with what happened. The first line after such a
silence answers nobody and takes nothing up: the speaker chose to say it. Admission (offline rules and the
model's prompt) reads that as evidence the line is the speaker's news (``decisions.offline.opening``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from dmem.state.schemas import Message

# The shortest gap that ends a conversation: longer than a working morning, shorter than a night's sleep. Lines of
# one chat session come seconds to an hour apart (the invented batches' longest in-session gap is under an hour;
# their sessions are days apart), so any value from a few hours to a day reads the same there. Not tuned.
SESSION_GAP = timedelta(hours=6)


def silence_before(message: Message, prior: Sequence[Message]) -> timedelta | None:
    """The silence the message ends, when it is at least ``SESSION_GAP``: the gap before the turn just before it.

    None when it follows a line sooner, or either time is unknown (no clock, no silence), or nothing came before
    (a chat's first line opens no silence anyone saw).
    """
    return silence_between(prior[-1], message) if prior else None


def silence_between(earlier: Message, later: Message) -> timedelta | None:
    """The gap from ``earlier`` to ``later`` when it is at least ``SESSION_GAP``, else None.

    None also when either time is unknown. Lines with such a silence between them belong to two talks.
    """
    if earlier.timestamp is None or later.timestamp is None:
        return None
    gap = later.timestamp - earlier.timestamp
    return gap if gap >= SESSION_GAP else None


def spoken(silence: timedelta) -> str:
    """A silence as a reader says it: '3 days', '7 hours'."""
    days, hours = silence.days, silence.seconds // 3600
    return f"{days} day{'s' * (days != 1)}" if days else f"{hours} hour{'s' * (hours != 1)}"
