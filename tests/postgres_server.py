"""A real PostgreSQL + pgvector for the tests: one server per session, one fresh schema per test.

The server comes from the ``pgserver`` wheel (started in a temporary directory, stopped at the end
of the session) unless ``DMEM_TEST_POSTGRES_URL`` names an existing server with pgvector. Each
test gets a URL whose ``search_path`` starts with a schema of its own, so tests never share rows.
If the server cannot start, the tests that need it error: they never skip.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import psycopg

_counter = itertools.count()


class PostgresServer:
    """A running server and the schemas handed out on it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.schemas: list[str] = []
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")

    def fresh_url(self) -> str:
        """The URL of a new, empty schema (pgvector's types stay reachable through ``public``)."""
        name = f"dmem_test_{os.getpid()}_{next(_counter)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        self.schemas.append(name)
        joiner = "&" if "?" in self.url else "?"
        return f"{self.url}{joiner}options={quote(f'-csearch_path={name},public')}"

    def drop(self, url: str) -> None:
        """Drop the schema behind a URL from ``fresh_url``."""
        name = url.rsplit("search_path%3D", 1)[-1].split("%2C", 1)[0]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


@contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """``DMEM_TEST_POSTGRES_URL``'s server, else a pgserver started here and stopped on exit."""
    given = os.environ.get("DMEM_TEST_POSTGRES_URL")
    if given:
        yield PostgresServer(given)
        return
    import pgserver

    directory = tempfile.mkdtemp(prefix="dmem-pg-")
    server = pgserver.get_server(directory, cleanup_mode="stop")
    try:
        yield PostgresServer(server.get_uri())
    finally:
        server.cleanup()
        shutil.rmtree(directory, ignore_errors=True)


class StoppablePostgres:
    """A private pgserver a test (or the soak) may stop and start again, simulating an outage."""

    def __init__(self, directory: str) -> None:
        import pgserver

        self.directory = directory
        self.server = pgserver.get_server(directory, cleanup_mode="stop")
        self.url = self.server.get_uri()
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server now: ``fast`` cuts open connections; ``immediate`` kills every backend at once.

        A fast shutdown ends backends one by one and each releases its locks as it goes, so a
        statement waiting for a lock another backend holds may still get it, finish and commit
        before its own backend ends. ``immediate`` releases nothing: a waiting write never runs.
        """
        from pgserver._commands import pg_ctl

        pg_ctl(["-w", "-m", mode, "stop"], pgdata=self.server.pgdata, user=self.server.system_user)

    def start(self) -> None:
        """Start it again on the same socket; the URL stays valid."""
        self.server.ensure_postgres_running()
        assert self.server.get_uri() == self.url


@contextmanager
def stoppable_postgres() -> Iterator[StoppablePostgres]:
    """A private PostgreSQL + pgvector in a temporary directory, stopped and removed on exit."""
    directory = tempfile.mkdtemp(prefix="dmem-pg-outage-")
    server = StoppablePostgres(directory)
    try:
        yield server
    finally:
        try:
            server.start()  # cleanup expects a running server
        finally:
            server.server.cleanup()
            shutil.rmtree(directory, ignore_errors=True)
