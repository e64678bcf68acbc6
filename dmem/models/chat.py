"""Chat models from 'provider:model' strings, including any OpenAI-compatible server."""

from __future__ import annotations

import os
from typing import Any

from langchain_core.language_models import BaseChatModel

from dmem.errors import ConfigError, ModelError

# Local servers that speak the OpenAI API, with their usual default endpoints.
OPENAI_COMPATIBLE = {
    "ollama": "http://localhost:11434/v1",
    "vllm": "http://localhost:8000/v1",
    "llamacpp": "http://localhost:8080/v1",
    "openai-compatible": None,
}


def make_chat_model(
    spec: str | BaseChatModel,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    temperature: float = 0.0,
    timeout: float = 120.0,
) -> BaseChatModel:
    """Build a chat model without calling it.

    ``spec`` is a ``BaseChatModel`` (returned as is), ``provider:model`` for any provider
    LangChain's ``init_chat_model`` knows, or ``ollama:``/``vllm:``/``llamacpp:``/
    ``openai-compatible:`` for OpenAI-compatible servers (``base_url`` overrides the endpoint).
    """
    if isinstance(spec, BaseChatModel):
        return spec
    provider, sep, model = spec.partition(":")
    if not sep or not provider or not model:
        raise ConfigError(f"chat model {spec!r} must be 'provider:model', e.g. 'openai:gpt-4o-mini'")
    if provider in OPENAI_COMPATIBLE or (provider == "openai" and base_url):
        return _openai_compatible(provider, model, base_url, api_key, temperature, timeout)
    try:
        from langchain.chat_models import init_chat_model
    except ImportError as exc:  # pragma: no cover - langchain is a dependency
        raise ModelError("building chat models from strings needs the 'langchain' package") from exc
    kwargs: dict[str, Any] = {"temperature": temperature, "timeout": timeout}
    if api_key:
        kwargs["api_key"] = api_key
    try:
        return init_chat_model(model, model_provider=provider, **kwargs)
    except ImportError as exc:
        raise ModelError(f"provider {provider!r} needs its LangChain integration package: {exc}") from exc
    except ValueError as exc:
        raise ConfigError(f"cannot build chat model {spec!r}: {exc}") from exc
    except Exception as exc:  # provider clients validate keys and options at construction
        raise ModelError(f"cannot build chat model {spec!r}: {exc}") from exc


def _openai_compatible(
    provider: str, model: str, base_url: str | None, api_key: str | None, temperature: float, timeout: float
) -> BaseChatModel:
    from langchain_openai import ChatOpenAI
    from pydantic import SecretStr

    url = base_url or OPENAI_COMPATIBLE.get(provider)
    if provider == "openai-compatible" and not url:
        raise ConfigError("an 'openai-compatible:' model needs base_url (DMEM_BASE_URL)")
    key = api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
    try:
        # max_retries=0: dmem's own policy (dmem.models.retry) is the only one that re-sends requests.
        return ChatOpenAI(
            model=model, base_url=url, api_key=SecretStr(key), temperature=temperature, timeout=timeout, max_retries=0
        )
    except Exception as exc:
        raise ModelError(f"cannot build chat model {provider}:{model} at {url}: {exc}") from exc
