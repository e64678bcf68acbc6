"""Agent and run scoping beside user scoping: the rule that composes one namespace from them.

A memory lives in exactly one namespace. ``user_id``, ``agent_id`` and ``run_id`` compose it, in
that order, joined by '/': the agent part is ``agent:<agent_id>`` and the run part ``run:<run_id>``.

    user_id="maya"                                   -> "maya"
    user_id="maya", agent_id="planner"               -> "maya/agent:planner"
    user_id="maya", agent_id="planner", run_id="r7"  -> "maya/agent:planner/run:r7"
    agent_id="planner"                               -> "default/agent:planner"
    nothing                                          -> "default"

``user_id`` is always a user id (default 'default'); ``None`` is refused like any bad id, so a
missing user never silently becomes the default one.

The composed string is an ordinary namespace: ``user_id="maya/agent:planner"`` names the same
memories, and ``dmem users`` lists it. Agent and run ids are checked like user ids and may not
contain '/', so a composed namespace reads back unambiguously.
"""

from __future__ import annotations

from collections.abc import Sequence

from dmem.errors import DataError
from dmem.state.namespaces import validate_namespace

DEFAULT_NAMESPACE = "default"


def _part(value: object, what: str, prefix: str) -> str:
    text = validate_namespace(value, what)
    if "/" in text:
        raise DataError(f"{what} {text!r} contains '/': agent and run ids are single path parts")
    return f"{prefix}:{text}"


def scope(user_id: object = DEFAULT_NAMESPACE, agent_id: object = None, run_id: object = None) -> str:
    """The namespace of a user, an agent of that user and a run of that agent, by the rule above."""
    parts = [validate_namespace(user_id)]
    if agent_id is not None:
        parts.append(_part(agent_id, "agent_id", "agent"))
    if run_id is not None:
        parts.append(_part(run_id, "run_id", "run"))
    return "/".join(parts)


def scopes(user_ids: Sequence[str] | None, user_id: object = DEFAULT_NAMESPACE, agent_id: object = None,
           run_id: object = None) -> list[str]:
    """The namespaces a multi-user call names: each of ``user_ids`` (else ``user_id``) scoped alike."""
    if isinstance(user_ids, str):
        raise DataError(f"user_ids must be a list of user ids, not the string {user_ids!r}; use user_id= for one")
    if user_ids is not None and not user_ids:
        raise DataError("user_ids is empty: name at least one user id")
    names = list(user_ids) if user_ids is not None else [user_id]
    return list(dict.fromkeys(scope(name, agent_id, run_id) for name in names))
