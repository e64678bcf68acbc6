"""Per-endpoint state shared by every caller of one server: a concurrency limit and what it rejects.

A local server answers one request at a time; requests beyond the limit wait here, in dmem, so a
request's timeout measures only the time after it was sent. What the endpoint refused (a
structured-output method) is learnt once and remembered. The registry has an explicit lifetime:
one per ``Memory`` (its services) or per evaluation run, handed to every decider built in it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from urllib.parse import urlparse

from langchain_core.language_models import BaseChatModel

from dmem.models.client import endpoint_url, model_name

log = logging.getLogger(__name__)
_LOOPBACK = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


def is_local(url: str | None) -> bool:
    """Whether a URL points at this machine (a local server usually runs one request at a time)."""
    if not url:
        return False
    host = urlparse(url).hostname or ""
    return host in _LOOPBACK or host.startswith("127.")


def resolve_concurrency(setting: int, url: str | None, fallback: int) -> int:
    """The ``endpoint_concurrency`` setting; 0 means 1 for a local server, else ``fallback``."""
    if setting > 0:
        return setting
    return 1 if is_local(url) else max(1, fallback)


class Endpoint:
    """One server as dmem sees it: its request slots and the structured-output methods it refused."""

    def __init__(self, key: str, url: str | None, name: str, limit: int) -> None:
        self.key = key
        self.url = url
        self.name = name
        self.limit = limit
        self.slots = threading.BoundedSemaphore(limit)
        """Request slots of threads (the sync path)."""
        self._async_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary())
        self._rejected: set[str] = set()
        self._lock = threading.Lock()

    def async_slots(self) -> asyncio.Semaphore:
        """Request slots of the running event loop (the async path): ``limit`` per loop.

        Threads and an event loop each get ``limit`` slots: a process that calls one server both
        from threads and from a loop may have up to twice ``limit`` requests in flight.
        """
        loop = asyncio.get_running_loop()
        with self._lock:
            found = self._async_slots.get(loop)
            if found is None:
                found = self._async_slots[loop] = asyncio.Semaphore(self.limit)
            return found

    @property
    def where(self) -> str:
        """How messages name it: the model and, when known, its URL."""
        return f"{self.name} at {self.url}" if self.url else self.name

    def rejected(self) -> frozenset[str]:
        """Structured-output methods this endpoint refused so far."""
        with self._lock:
            return frozenset(self._rejected)

    def reject(self, method: str) -> bool:
        """Remember a refused method; True the first time (so it is logged once)."""
        with self._lock:
            new = method not in self._rejected
            self._rejected.add(method)
            return new


class Endpoints:
    """The endpoints of one ``Memory`` or evaluation run, one ``Endpoint`` per server."""

    def __init__(self) -> None:
        self._by_key: dict[str, Endpoint] = {}
        self._lock = threading.Lock()

    def for_model(self, model: BaseChatModel, concurrency: int, fallback: int = 4) -> Endpoint:
        """The endpoint a model talks to (created on first use, with its concurrency limit)."""
        url = endpoint_url(model)
        # Without a URL, the model object itself is the connection.
        key = url or f"{type(model).__name__}:{model_name(model)}@{id(model)}"
        with self._lock:
            found = self._by_key.get(key)
            if found is None:
                limit = resolve_concurrency(concurrency, url, fallback)
                found = self._by_key[key] = Endpoint(key, url, model_name(model), limit)
                log.info("endpoint %s: at most %d request(s) in flight", found.where, limit)
            return found
