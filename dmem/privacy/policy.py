"""The enrichment privacy rule, in code: which knowledge source a fact of each scope may consult.

USER_PII never reaches any source; INTERNAL only the user's own memories; EXTERNAL the external
source when one is configured and allowed; GENERIC needs none.
"""

from __future__ import annotations

from dmem.state.schemas import Scope


def permitted_source(scope: Scope, *, external_allowed: bool, has_external: bool) -> str | None:
    """Which source a fact of this scope may consult: 'external', 'internal' or None."""
    if scope == Scope.USER_PII or scope == Scope.GENERIC:
        return None
    if scope == Scope.INTERNAL:
        return "internal"
    if scope == Scope.EXTERNAL and external_allowed and has_external:
        return "external"
    return None
