"""dmem's one retry policy for provider errors: exponential backoff with jitter, Retry-After, a deadline.

The client libraries' own retries are switched off (see :mod:`dmem.models.client`), so this is the
only place a request is re-sent. The clock, the sleeper and the random source are injectable so
tests check the delays without waiting.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

MAX_BACKOFF = 60.0
"""Longest computed backoff between two attempts, in seconds (a longer Retry-After is still honoured)."""


@dataclass
class RetryPolicy:
    """How often and how long to wait before re-sending a request that failed with a provider error."""

    retries: int = 4
    """Re-sends after the first attempt."""
    backoff: float = 1.0
    """Base delay in seconds; attempt n waits about backoff * 2**n, half of it random."""
    deadline: float = 600.0
    """Seconds from the first attempt after which no new attempt starts."""
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    rng: random.Random = field(default_factory=random.Random)

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds to wait before re-send number ``retry`` (0-based): equal jitter, at least Retry-After."""
        ceiling = min(MAX_BACKOFF, self.backoff * (2 ** retry))
        wait = ceiling / 2 + self.rng.uniform(0, ceiling / 2)
        return max(wait, retry_after or 0.0)

    def start(self) -> Deadline:
        """A deadline that starts now."""
        return Deadline(self.clock() + self.deadline, self.clock)


@dataclass
class Deadline:
    """The moment after which a call starts no new attempt."""

    at: float
    clock: Callable[[], float]

    def remaining(self) -> float:
        """Seconds left (0 when passed)."""
        return max(0.0, self.at - self.clock())

    def allows(self, wait: float) -> bool:
        """Whether waiting ``wait`` seconds still leaves the deadline ahead."""
        return self.clock() + wait < self.at
