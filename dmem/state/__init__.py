"""Settings, schemas, verdicts and graph states."""

from dmem.state.context import Context, build_context

__all__ = ["Context", "build_context"]
