"""How dmem names a PostgreSQL failure: one actionable line, typed as an outage, contention or a refusal.

Shared by the sync pool (``db``) and the async pools (``aio``), so both paths map an error alike.
"""

from __future__ import annotations

import psycopg
from psycopg_pool import PoolTimeout

from dmem.errors import StoreError, StoreLockedError, StoreUnavailableError


def redact_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://(unparsable url)"
    host, port, db = info.get("host", "localhost"), info.get("port", "5432"), info.get("dbname", "")
    user = f"{info['user']}@" if info.get("user") else ""
    return f"postgresql://{user}{host}:{port}/{db}"


def store_error(exc: BaseException, where: str, doing: str, *, reachable: bool = True) -> StoreError:
    """One actionable line for a PostgreSQL failure.

    ``reachable=False`` says a probe found the server down: a pool that timed out then waited for
    a connection that could not be made (an outage), not for one that other callers held.
    """
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, PoolTimeout) and not reachable:
        return StoreUnavailableError(f"cannot {doing} store {where}: the database server is unreachable ({text}); "
                                     "check that it is running and reachable, then retry")
    if isinstance(exc, PoolTimeout):
        return StoreLockedError(f"cannot {doing} store {where}: every database connection stayed busy with other "
                                f"runs ({text}); retry, or raise pool_size if this happens under normal load")
    if isinstance(exc, psycopg.errors.DeadlockDetected | psycopg.errors.LockNotAvailable):
        return StoreLockedError(f"cannot {doing} store {where}: another writer held the same rows ({text}); "
                                "try again")
    if isinstance(exc, psycopg.OperationalError):
        return StoreUnavailableError(f"cannot {doing} store {where}: the database server is unreachable or "
                                     f"refused us ({text}); check store_url and that the server is running, "
                                     "then retry")
    if isinstance(exc, psycopg.errors.ReadOnlySqlTransaction | psycopg.errors.InsufficientPrivilege):
        return StoreError(f"cannot {doing} store {where}: the database refuses writes for this user ({text})")
    return StoreError(f"cannot {doing} store {where}: {text}")
