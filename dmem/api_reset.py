"""mem0's ``reset`` on ``Memory``: clear one namespace's memories, or the whole store's, once confirmed.

A reset is a deliberate, loud operation, so it takes a confirmation that repeats what it clears:
``reset(user_id="maya", confirm="maya")`` for one namespace, ``reset(confirm="everything")`` for
the store. Every memory removed gets a DELETE row in history (reason 'reset'). History and the
transcript stay, for audit; Full Deliberation can still read the transcript, so a reset clears
what System 1 recalls, not what was said.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from dmem.api_core import MemoryCore
from dmem.errors import DataError
from dmem.scopes import scope
from dmem.state.schemas import Operation

EVERYTHING = "everything"
"""The confirmation of a whole-store reset."""


class _Resettable(Protocol):
    """What ``areset`` needs: the sync ``reset`` (kept out of ``MemoryCore``, whose members are not mixin methods)."""

    def reset(self, *args: Any, **kwargs: Any) -> int:
        """Clear a namespace's memories, or the store's, once confirmed."""
        ...


class ResetMethods:
    """``reset`` and ``areset`` (mixed into ``Memory``)."""

    def reset(self: MemoryCore, *, confirm: str, user_id: str | None = None, agent_id: str | None = None,
              run_id: str | None = None, reason: str = "reset") -> int:
        """Remove every live memory of a namespace (``user_id``, scoped as usual) or of every namespace.

        ``confirm`` must repeat the namespace (``"maya"``, ``"maya/agent:planner"``) or be
        ``"everything"`` when no user is named. One transaction; returns how many memories went.
        """
        if user_id is None and (agent_id is not None or run_id is not None):
            raise DataError("reset with agent_id or run_id needs the user_id they belong to")
        target = None if user_id is None else scope(user_id, agent_id, run_id)
        wanted = EVERYTHING if target is None else target
        if confirm != wanted:
            what = "the whole store" if target is None else target
            raise DataError(f"reset needs confirm={wanted!r} to clear {what}; got {confirm!r}")
        removed = 0
        with self.store.transaction():
            for ns in [target] if target is not None else self.store.vectors.namespaces():
                for record in self.store.vectors.list(ns):
                    self.store.vectors.delete(ns, record.id)
                    self.store.history.append(ns, record.id, Operation.DELETE, record.text, None, reason)
                    removed += 1
        return removed

    async def areset(self: _Resettable, **kwargs: Any) -> int:
        """Async ``reset``."""
        return await asyncio.to_thread(self.reset, **kwargs)
