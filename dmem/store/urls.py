"""Which backend a store location names."""

from __future__ import annotations


def is_postgres_url(value: object) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL."""
    return isinstance(value, str) and value.startswith(("postgresql://", "postgres://"))
