"""mem0's ``reset`` on ``Memory``: erase one namespace, or the whole store, for good, once confirmed.

A reset is a deliberate, loud operation, so it takes a confirmation that repeats what it erases:
``reset(user_id="maya", confirm="maya")`` for one namespace, ``reset(confirm="everything")`` for
the store. Unlike ``delete``/``delete_all`` (soft: the memory leaves retrieval, its history keeps
the text, the transcript stays for Full Deliberation) a reset deletes every row of the namespace:
memories and their vectors, history, admissions, transcript turns with their labels and claims.
Nothing of it can be searched, listed, exported or deliberated over afterwards, and it cannot be
undone (see ``MemoryStore.purge``).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from dmem.api_core import MemoryCore
from dmem.errors import DataError
from dmem.scopes import scope

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
              run_id: str | None = None) -> int:
        """Erase a namespace (``user_id``, scoped as usual) or, with no user named, every namespace.

        ``confirm`` must repeat the namespace (``"maya"``, ``"maya/agent:planner"``) or be
        ``"everything"`` when no user is named. Only that exact namespace goes (``"maya"`` leaves
        ``"maya/agent:planner"``); other namespaces are untouched. One transaction; returns how many
        live memories went. The namespace can be used again afterwards, from nothing.
        """
        if user_id is None and (agent_id is not None or run_id is not None):
            raise DataError("reset with agent_id or run_id needs the user_id they belong to")
        target = None if user_id is None else scope(user_id, agent_id, run_id)
        wanted = EVERYTHING if target is None else target
        if confirm != wanted:
            what = "the whole store" if target is None else target
            raise DataError(f"reset needs confirm={wanted!r} to erase {what}; got {confirm!r}")
        removed = self.store.purge(target)
        self.resources.forget(target)  # nor may this process's caches keep what was erased
        return removed

    async def areset(self: _Resettable, **kwargs: Any) -> int:
        """Async ``reset``."""
        return await asyncio.to_thread(self.reset, **kwargs)
