"""Copies of a chat model with dmem's request settings, sharing the original's connection.

dmem owns the retry policy, so the client's own retries are switched off; per-call settings
(request timeout, output-token cap, temperature) become a shallow copy of the model, whose HTTP
client is the same object. OpenAI-compatible clients (``ChatOpenAI``) are handled exactly; other
LangChain chat models get the same settings through their usual fields where they have them.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel

OPENAI_URL = "https://api.openai.com/v1"
_CAP_FIELDS = ("max_tokens", "max_output_tokens", "num_predict", "max_new_tokens")
_TIMEOUT_FIELDS = ("request_timeout", "timeout", "default_request_timeout")


def endpoint_url(model: BaseChatModel) -> str | None:
    """The base URL a model sends requests to (None for clients that do not say)."""
    for name in ("openai_api_base", "base_url", "api_base", "endpoint"):
        value = getattr(model, name, None)
        if isinstance(value, str) and value:
            return value.rstrip("/")
    if type(model).__name__ in ("ChatOpenAI", "AzureChatOpenAI"):
        return OPENAI_URL
    return None


def model_name(model: BaseChatModel) -> str:
    """The model's name as its provider knows it, else the class name."""
    for name in ("model_name", "model", "model_id"):
        value = getattr(model, name, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__


def _fields(model: BaseChatModel) -> dict[str, Any]:
    return type(model).model_fields


def _openai_clients(model: BaseChatModel, **options: Any) -> dict[str, Any]:
    """New OpenAI client objects with ``options`` over the same HTTP connection pool."""
    update: dict[str, Any] = {}
    root = getattr(model, "root_client", None)
    if root is not None and hasattr(root, "with_options"):
        update["root_client"] = root.with_options(**options)
        update["client"] = update["root_client"].chat.completions
    aroot = getattr(model, "root_async_client", None)
    if aroot is not None and hasattr(aroot, "with_options"):
        update["root_async_client"] = aroot.with_options(**options)
        update["async_client"] = update["root_async_client"].chat.completions
    return update


def without_client_retries(model: BaseChatModel) -> BaseChatModel:
    """A copy whose client never re-sends a request by itself (dmem's policy does)."""
    update = _openai_clients(model, max_retries=0)
    if "max_retries" in _fields(model):
        update["max_retries"] = 0
    return model.model_copy(update=update) if update else model


def with_request_timeout(model: BaseChatModel, seconds: float) -> BaseChatModel:
    """A copy whose requests time out after ``seconds`` once sent."""
    update = _openai_clients(model, timeout=seconds)
    for name in _TIMEOUT_FIELDS:
        if name in _fields(model):
            update[name] = seconds
            break
    return model.model_copy(update=update) if update else model


def with_output_cap(model: BaseChatModel, tokens: int | None) -> BaseChatModel:
    """A copy that stops a reply after ``tokens`` output tokens (None: no cap).

    ``ChatOpenAI`` sends the cap as ``max_completion_tokens``, which some OpenAI-compatible
    servers (llama.cpp's Python server) ignore; for a server other than OpenAI's own, the
    classic ``max_tokens`` is sent too, through ``extra_body``.
    """
    if not tokens:
        return model
    fields = _fields(model)
    update: dict[str, Any] = {}
    name = next((n for n in _CAP_FIELDS if n in fields), None)
    if name is not None:
        update[name] = tokens
    url = endpoint_url(model)
    if "extra_body" in fields and url and url != OPENAI_URL:
        update["extra_body"] = {**(getattr(model, "extra_body", None) or {}), "max_tokens": tokens}
    return model.model_copy(update=update) if update else model


def with_temperature(model: BaseChatModel, temperature: float | None) -> BaseChatModel:
    """A copy at another temperature when the model has that field."""
    if temperature is None or "temperature" not in _fields(model):
        return model
    if getattr(model, "temperature", None) == temperature:
        return model
    return model.model_copy(update={"temperature": temperature})
