"""Checks of the API's arguments: every bad value is one ``InputError`` or ``ConfigError`` naming it.

They run before anything is recorded, so a bad call stores nothing. Types are checked as given: a
string is not a number, a float is not a count, a bool is not an int.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from dmem.errors import ConfigError, DataError, InputError
from dmem.state.namespaces import check_text

MAX_LIMIT = 10_000
"""Most results one search may ask for."""


def text_value(value: object, what: str, *, max_chars: int | None = None) -> str:
    """Non-empty, valid Unicode text without NUL characters."""
    if not isinstance(value, str):
        raise InputError(f"{what} must be text, got {type(value).__name__}")
    if not value.strip():
        raise InputError(f"{what} is empty: it must be non-empty text")
    try:
        check_text(value, what)  # the store's own rule: no NUL, valid UTF-8
    except DataError as exc:
        raise InputError(str(exc)) from None
    if max_chars is not None and len(value) > max_chars:
        raise InputError(f"{what} has {len(value)} characters; at most {max_chars} are allowed")
    return value


def count(value: object, what: str, *, minimum: int = 1, maximum: int | None = None) -> int:
    """A whole number (not a bool, a float or a string) within bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number, got {type(value).__name__} {value!r:.40}")
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"from {minimum} to {maximum}" if maximum is not None else f"{minimum} or more"
        raise InputError(f"{what} must be {bound}; got {value}")
    return value


def search_filter(where: object, what: str = "where") -> Any:
    """None or a ``SearchFilter`` (build one with ``SearchFilter(...)`` or ``metadata={...}``)."""
    from dmem.store import SearchFilter

    if where is not None and not isinstance(where, SearchFilter):
        raise InputError(f"{what} must be a dmem SearchFilter or None, got {type(where).__name__}; "
                         "filter on labels with metadata={...}")
    return where


def callback(value: object, what: str) -> Callable[..., Any] | None:
    """None or something callable."""
    if value is not None and not callable(value):
        raise InputError(f"{what} must be a function (done, total) or None, got {type(value).__name__}")
    return value


def run_config(value: object) -> Any:
    """None or a mapping (a LangChain RunnableConfig: callbacks, tags, metadata, run_name)."""
    if value is not None and not isinstance(value, Mapping):
        raise InputError(f"config must be a RunnableConfig dict or None, got {type(value).__name__}")
    return value


def chat_model(llm: object) -> None:
    """None, a 'provider:model' string or a LangChain chat model: nothing else runs the offline engine quietly."""
    if llm is not None and not isinstance(llm, str | BaseChatModel):
        raise ConfigError(f"llm must be a 'provider:model' string or a LangChain chat model, got "
                          f"{type(llm).__name__}; leave it out (None) for the offline engine")


def embedding_model(embeddings: object) -> None:
    """None, a model name or LangChain ``Embeddings``."""
    if embeddings is not None and not isinstance(embeddings, str | Embeddings):
        raise ConfigError(f"embeddings must be a model name (e.g. 'local:all-MiniLM-L6-v2') or LangChain "
                          f"Embeddings, got {type(embeddings).__name__}")


def store_path(path: object) -> Path | None:
    """None or a filesystem path (a str or os.PathLike); a number is not a folder name."""
    if path is None:
        return None
    if not isinstance(path, str | os.PathLike) or isinstance(path, bytes):
        raise ConfigError(f"the store path must be a folder path (str or Path), got {type(path).__name__} {path!r:.40}")
    text = os.fspath(path)
    if not isinstance(text, str) or not text.strip() or "\x00" in text:
        raise ConfigError(f"the store path {text!r:.60} is not a usable folder path")
    return Path(text)


def output_file(path: object) -> Path:
    """A file path whose folder exists."""
    if not isinstance(path, str | os.PathLike) or isinstance(path, bytes):
        raise InputError(f"path must be a file path (str or Path), got {type(path).__name__}")
    out = Path(os.fspath(path))  # type: ignore[arg-type]
    if not out.parent.is_dir():
        raise InputError(f"cannot write {str(out)!r}: folder {str(out.parent)!r} does not exist")
    if out.is_dir():
        raise InputError(f"cannot write {str(out)!r}: it is a folder; name a file inside it")
    return out


def add_arguments(exchange_size: object, progress: object, config: object) -> None:
    """The arguments of ``add``/``aadd`` besides the messages, checked before any turn is recorded."""
    count(exchange_size, "exchange_size")
    callback(progress, "progress")
    run_config(config)


def search_arguments(query: object, limit: object, where: object) -> None:
    """The arguments of ``search``/``asearch``."""
    text_value(query, "the search query")
    count(limit, "limit", maximum=MAX_LIMIT)
    search_filter(where)


def threshold(value: object) -> float | None:
    """A search's score threshold: None, or a finite cosine similarity from -1 to 1."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not -1.0 <= value <= 1.0:
        raise DataError(f"threshold must be a similarity from -1 to 1, got {value!r}")
    return float(value)
