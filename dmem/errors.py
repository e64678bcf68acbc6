"""dmem's exception types: each carries a message a user can act on.

Each type also derives from the built-in exception that says what kind of failure it is
(``ValueError`` for bad input or settings, ``RuntimeError`` for a store or model that failed
while running, ``TimeoutError`` for a wait that ran out, ``KeyError`` for an unknown id). Servers
such as the LangGraph API server pass those kinds' messages through to clients and mask others,
so a client reads the class name and the one-line message (messages never carry secrets).
"""

from __future__ import annotations

from typing import Any


class DmemError(Exception):
    """Base class of every error dmem raises on purpose."""


class ConfigError(DmemError, ValueError):
    """A setting is unknown or has a bad value (a ValueError, so servers show its message)."""


class ModelError(DmemError, RuntimeError):
    """A chat or embedding model could not be built or called.

    ``usage`` is what the failed call cost (every attempt sent, a ``dmem.state.schemas.Usage``), when it
    got as far as sending; typed ``Any`` so the ground floor imports nothing of dmem.
    """

    def __init__(self, message: str = "", *, usage: Any = None) -> None:
        super().__init__(message)
        self.usage = usage


class ProviderError(ModelError):
    """A model endpoint kept failing (timeout, refused connection, HTTP 429/5xx, ...) after dmem's retries.

    The message is one line naming the endpoint and the cause; ``fault`` is the classified cause.
    """

    def __init__(self, message: str, *, fault: Any = None, usage: Any = None) -> None:
        super().__init__(message, usage=usage)
        self.fault = fault


class StructuredOutputError(ModelError):
    """A model reply still failed schema validation after every retry and repair."""

    def __init__(self, schema: str, detail: str, raw: str | None = None, *, usage: Any = None) -> None:
        super().__init__(f"model reply for {schema} failed validation: {detail}", usage=usage)
        self.schema = schema
        self.detail = detail
        self.raw = raw


class StoreError(DmemError, RuntimeError):
    """The memory store is unreadable, unwritable (disk full, read-only), inconsistent or misused."""


class StoreLockedError(StoreError, TimeoutError):
    """Other writers kept the store (its write lock, rows or every connection) longer than allowed."""


class StoreUnavailableError(StoreError):
    """The store's database server cannot be reached (down, restarting, wrong address): retry once it is back."""


class DataError(DmemError, ValueError):
    """Input (a message, a file, a dataset, an export) is malformed; the message says where."""


class NotFoundError(DmemError, KeyError):
    """No such memory for this user (an id of another namespace gets the same answer)."""

    def __str__(self) -> str:
        return Exception.__str__(self)  # the message as given, not KeyError's quoted repr


class InputError(DataError):
    """The input of a graph run or API call is malformed; the message names the field."""


class EmbeddingMismatchError(ConfigError, StoreError):
    """A store was opened with another embedding model than the one that made its vectors."""
