"""Build the decider a run's settings call for: model-backed with a chat model, else the offline engine."""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.language_models import BaseChatModel

from dmem.decisions.base import Decider
from dmem.models.embeddings import CachedEmbeddings
from dmem.models.endpoints import Endpoints
from dmem.prompts.instructions import STAGE_SETTING
from dmem.state.context import Context, api_key_from_env

log = logging.getLogger(__name__)


def decider_settings(ctx: Context) -> dict[str, Any]:
    """The settings a decider is built from: runs that differ only elsewhere share one decider."""
    return {"chat_model": ctx.chat_model, "base_url": ctx.base_url, "temperature": ctx.temperature,
            "timeout": ctx.request_timeout, "method": ctx.structured_output, "max_retries": ctx.max_retries,
            "max_concurrency": ctx.max_concurrency, "answer_style": ctx.answer_style,
            "provider_retries": ctx.provider_retries, "retry_backoff": ctx.retry_backoff,
            "call_deadline": ctx.call_deadline, "endpoint_concurrency": ctx.endpoint_concurrency,
            "output_caps": ctx.output_caps, "instructions": tuple(sorted(stage_instructions(ctx).items()))}


def stage_instructions(ctx: Context) -> dict[str, str]:
    """The deployment's rules per instructions setting, the empty ones left out."""
    return {name: getattr(ctx, name) for name in set(STAGE_SETTING.values()) if getattr(ctx, name).strip()}


def make_decider(ctx: Context, embeddings: CachedEmbeddings, chat_model: BaseChatModel | None,
                 api_key: str | None = None, endpoints: Endpoints | None = None) -> Decider:
    """The model-backed decider when a chat model is configured, else the offline one.

    Deciders given the same ``endpoints`` share each server's concurrency slots and learnt formats.
    """
    s = decider_settings(ctx)
    if chat_model is None and s["chat_model"] is None:
        from dmem.decisions.offline import OfflineDecider

        log.info("no chat model configured: using the offline decision engine")
        return OfflineDecider(embeddings)
    from dmem.decisions.model import ModelDecider
    from dmem.models.chat import make_chat_model

    model = chat_model or make_chat_model(
        s["chat_model"] or "", base_url=s["base_url"], api_key=api_key or api_key_from_env(),
        temperature=s["temperature"], timeout=s["timeout"],
    )
    return ModelDecider.from_context(model, ctx, endpoints)
