"""dmem's exception types: each carries a message a user can act on."""

from __future__ import annotations

from typing import Any


class DmemError(Exception):
    """Base class of every error dmem raises on purpose."""


class ConfigError(DmemError, ValueError):
    """A setting is unknown or has a bad value (a ValueError, so servers show its message)."""


class ModelError(DmemError):
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


class StoreError(DmemError):
    """The memory store is unreadable, inconsistent or misused."""


class StoreLockedError(StoreError):
    """Another writer held the store's write lock longer than ``lock_timeout`` allowed."""


class DataError(DmemError, ValueError):
    """Input (a message, a file, a dataset, an export) is malformed; the message says where."""


class NotFoundError(DmemError):
    """No such memory for this user (an id of another namespace gets the same answer)."""


class InputError(DataError):
    """The input of a graph run or API call is malformed; the message names the field."""
