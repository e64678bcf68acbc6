"""A compiled graph bound to its ``Resources`` through its config, and what a running node reads from it."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_config

from dmem.errors import ConfigError
from dmem.services.resources import Resources
from dmem.services.run import Services
from dmem.state.context import Context

RESOURCES_KEY = "__dmem_resources"
"""Key of the owning ``Resources`` in a bound graph's ``configurable`` ('__' keeps it out of metadata)."""


def bind_resources(config: RunnableConfig | None, resources: Resources) -> RunnableConfig:
    """A config that binds a graph to its owner (pass to ``compile(...).with_config``)."""
    merged: dict[str, Any] = dict(config or {})
    merged["configurable"] = {**merged.get("configurable", {}), RESOURCES_KEY: resources}
    return merged  # type: ignore[return-value]


def bound_resources() -> Resources:
    """The owner of the graph running now, from the run's config."""
    try:
        configurable = get_config().get("configurable", {})
    except RuntimeError:
        raise ConfigError("dmem services are only available inside a run of a dmem graph") from None
    resources = configurable.get(RESOURCES_KEY)
    if not isinstance(resources, Resources):
        raise ConfigError("this dmem graph has no resources: compile it with compile_*_graph(resources=...), "
                          "or use Memory(...).query_graph / dmem.graphs.query_graph")
    return resources


def services_for(runtime_context: Any) -> Services:
    """The services of the running graph's owner for this run's context."""
    return bound_resources().services(runtime_context)


def context_of(runtime_context: Any) -> Context:
    """The running graph's settings for this run (the owner's, changed by the run's context)."""
    return bound_resources().settings_for(runtime_context)
