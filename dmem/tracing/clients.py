"""LangSmith clients that apply the ``trace_redaction`` setting, with LangSmith's own mechanisms.

``pii``: the client's ``anonymizer`` is a ``TraceRedactor`` (inputs, outputs, metadata and errors
of every run). ``all``: ``hide_inputs``/``hide_outputs`` drop every payload and the redactor keeps
only structural metadata. Three ways in, one per way of running the graphs:

- ``Memory`` applies its setting to each call through a ``TraceClients`` it owns;
- a host invoking the graphs directly passes ``TraceClients().config(mode, config)``;
- a process (``langgraph dev`` through ``dmem.server``) calls ``configure_tracing()`` once, which
  installs the client with ``langsmith.configure``: every tracer created without a client uses it.
"""

from __future__ import annotations

import threading
from typing import Any

import langsmith
from langchain_core.callbacks import BaseCallbackHandler, BaseCallbackManager
from langchain_core.runnables import RunnableConfig
from langchain_core.tracers.langchain import LangChainTracer
from langsmith.run_helpers import get_tracing_context
from langsmith.utils import tracing_is_enabled

from dmem.privacy.redact import RedactionMode, TraceRedactor
from dmem.state.privacy_terms import NONE, Vocabulary, of_settings


def redacting_client(mode: RedactionMode, *, like: langsmith.Client | None = None,
                     extra: Vocabulary = NONE) -> langsmith.Client:
    """A LangSmith client that applies the mode; connection settings from ``like`` or the environment.

    ``extra``: the deployment's own personal terms and patterns (``privacy_terms``, ``privacy_patterns``).
    """
    conn: dict[str, Any] = {}
    if like is not None:
        conn = {"api_url": like.api_url, "api_key": like.api_key, "workspace_id": like.workspace_id}
    if mode == "all":
        return langsmith.Client(hide_inputs=True, hide_outputs=True, anonymizer=TraceRedactor("all"), **conn)
    if mode == "pii":
        return langsmith.Client(anonymizer=TraceRedactor("pii", extra=extra), **conn)
    return langsmith.Client(**conn)


def configure_tracing(mode: RedactionMode | None = None) -> langsmith.Client | None:
    """Apply a redaction mode process-wide (default: the ``trace_redaction`` setting, e.g. DMEM_TRACE_REDACTION).

    Installs the client with ``langsmith.configure(client=...)``, so LangChain's and LangGraph's
    default tracers (also those of a LangGraph server) send through it. Returns the client, or
    None when tracing is off in this process or the mode is 'off'.
    """
    from dmem.state.context import build_context

    settings = build_context()
    if mode is None:
        mode = settings.trace_redaction
    if mode == "off" or not tracing_is_enabled():
        return None
    client = redacting_client(mode, extra=of_settings(settings))
    langsmith.configure(client=client)
    return client


class TraceClients:
    """The redacting clients one owner (a ``Memory``, a host app) traces through; flush before exit."""

    def __init__(self, extra: Vocabulary = NONE) -> None:
        self.extra = extra
        """The deployment's own personal terms and patterns, redacted like built-in detections."""
        self._clients: dict[tuple[str, str | None, str | None], langsmith.Client] = {}
        self._lock = threading.Lock()

    def client(self, mode: RedactionMode, like: langsmith.Client | None = None) -> langsmith.Client:
        """The client for a mode (and the connection of ``like``), created once."""
        key = (mode, like.api_url if like else None, like.api_key if like else None)
        with self._lock:
            if key not in self._clients:
                self._clients[key] = redacting_client(mode, like=like, extra=self.extra)
            return self._clients[key]

    def config(self, mode: RedactionMode, config: RunnableConfig | None = None) -> RunnableConfig:
        """A run config whose LangSmith tracers apply the mode.

        Tracers passed in the config are replaced by copies that send through a redacting client;
        when tracing is enabled (``LANGSMITH_TRACING``) and none was passed, one is added, so the
        default, unredacted tracer is never created for this run.
        """
        out: RunnableConfig = dict(config or {})  # type: ignore[assignment]
        if mode == "off":
            return out
        callbacks = out.get("callbacks")
        if isinstance(callbacks, BaseCallbackManager):
            manager = callbacks.copy()
            manager.handlers = self._secured(manager.handlers, mode)
            manager.inheritable_handlers = self._secured(manager.inheritable_handlers, mode)
            has_tracer = any(isinstance(h, LangChainTracer) for h in manager.handlers)
            if not has_tracer and tracing_is_enabled():
                manager.add_handler(self._tracer(mode), inherit=True)
            out["callbacks"] = manager
            return out
        handlers = self._secured(list(callbacks or []), mode)
        if not any(isinstance(h, LangChainTracer) for h in handlers) and tracing_is_enabled():
            handlers.append(self._tracer(mode))
        if handlers:
            out["callbacks"] = handlers
        return out

    def flush(self) -> None:
        """Send every queued run now (call before reading what a collector received, or at exit)."""
        with self._lock:
            clients = list(self._clients.values())
        for client in clients:
            client.flush()

    def _tracer(self, mode: RedactionMode) -> LangChainTracer:
        project = get_tracing_context().get("project_name")
        return LangChainTracer(project_name=project, client=self.client(mode))

    def _secured(self, handlers: list[BaseCallbackHandler], mode: RedactionMode) -> list[BaseCallbackHandler]:
        owned = set(map(id, self._clients.values()))
        out: list[BaseCallbackHandler] = []
        for h in handlers:
            if isinstance(h, LangChainTracer) and id(h.client) not in owned:
                h = LangChainTracer(example_id=h.example_id, project_name=h.project_name, address=h.address,
                                    client=self.client(mode, like=h.client), tags=h.tags,
                                    metadata=h.tracing_metadata)
            out.append(h)
        return out
