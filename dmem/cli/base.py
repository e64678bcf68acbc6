"""What every command shares: global options, opening the store, printing results and errors.

Errors are one line on stderr ('dmem: error: ...'), or with ``--json`` one JSON object
(``{"error": ..., "kind": ...}``); the exit code is the same either way (2; 130 when interrupted).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from dmem.cli.terminal import safe, safe_json
from dmem.errors import DataError, DmemError, StoreError

if TYPE_CHECKING:
    from dmem.api import Memory
    from dmem.state.context import Context
    from dmem.store import MemoryStore

class _Console(Console):
    """A rich console that wraps lines only in a terminal: piped output keeps one record per line."""

    def print(self, *objects: Any, soft_wrap: bool | None = None, **kwargs: Any) -> None:  # type: ignore[override]
        super().print(*objects, soft_wrap=not self.is_terminal if soft_wrap is None else soft_wrap, **kwargs)


console = _Console()
err_console = _Console(stderr=True)

EXIT_ERROR = 2
EXIT_INTERRUPTED = 130


class UsageError(DmemError):
    """A command line argparse refused (unknown option, missing argument, bad choice)."""


class Parser(argparse.ArgumentParser):
    """argparse that raises ``UsageError`` instead of exiting, so ``main`` reports it like any error."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")


def add_command(sub: Any, name: str, parents: list[argparse.ArgumentParser], summary: str,
                examples: list[str], func: Any) -> argparse.ArgumentParser:
    """A subcommand with its one-line summary and examples shown by ``--help``."""
    epilog = "examples:\n" + "\n".join(f"  {line}" for line in examples)
    p = sub.add_parser(name, parents=parents, help=summary, description=summary[:1].upper() + summary[1:] + ".",
                       epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(func=func)
    return p


def scope_options(p: argparse.ArgumentParser, *, repeat: bool = False, what: str = "memories") -> None:
    """--user-id (repeatable for ``ask``), --agent-id and --run-id: the namespace a command acts in."""
    if repeat:
        p.add_argument("--user-id", action="append", help=f"user whose {what} to use (repeatable; default: 'default')")
    else:
        p.add_argument("--user-id", help=f"user whose {what} to use (default: 'default')")
    p.add_argument("--agent-id", help="agent scope inside the user: namespace '<user>/agent:<id>'")
    p.add_argument("--run-id", help="run scope after user and agent: namespace '.../run:<id>'")


def scope_of(args: argparse.Namespace) -> dict[str, Any]:
    """The scoping keywords of a ``Memory`` call from the parsed options."""
    return {"user_id": getattr(args, "user_id", None) or "default", "agent_id": getattr(args, "agent_id", None),
            "run_id": getattr(args, "run_id", None)}


def given_scope(args: argparse.Namespace) -> dict[str, Any]:
    """The scoping options as given on the command line (None when absent)."""
    return {"user_id": args.user_id, "agent_id": args.agent_id, "run_id": args.run_id}


def parse_metadata(pairs: list[str] | None) -> dict[str, Any] | None:
    """``KEY=VALUE`` options as metadata: numbers and true/false as JSON scalars, the rest as text."""
    if not pairs:
        return None
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise DataError(f"--metadata takes KEY=VALUE, got {pair!r}")
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        out[key.strip()] = value if isinstance(value, int | float | bool) else raw
    return out


def store_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The store the global options name: ``--store`` (a directory) and ``--store-url`` (PostgreSQL)."""
    settings: dict[str, Any] = {}
    if args.store:
        settings["store_dir"] = args.store
    if getattr(args, "store_url", None):
        settings["store_url"] = args.store_url
    return settings


def context_of(args: argparse.Namespace, settings: dict[str, Any]) -> Context:
    """The command's settings: ``settings`` over ``DMEM_*`` over the ``--config`` file."""
    from dmem.state.context import build_context

    return build_context(config_file=args.config, **settings)


def store_dir(args: argparse.Namespace, settings: dict[str, Any], *, create: bool) -> Path | str:
    """Where the store lives: its postgresql:// URL, or its directory, which unless ``create`` must hold a store."""
    from dmem.store.local.sqlite import DB_FILE

    ctx = context_of(args, settings)
    if ctx.store_url:  # a server: opening it checks it (and its schema) with a clear error
        return ctx.store_url
    directory = Path(ctx.store_dir)
    if not create and not (directory / DB_FILE).is_file():  # a typo must not answer from an empty new store
        raise StoreError(f"no store at {directory}: nothing was ingested there (check --store or "
                         "DMEM_STORE_DIR; 'dmem ingest' creates a store)")
    return directory


@contextmanager
def open_memory(args: argparse.Namespace, *, read_only: bool = False, create: bool = False,
                **extra: Any) -> Iterator[Memory]:
    """The command's ``Memory``; unless ``create``, a store directory that does not exist is an error."""
    from dmem.api import Memory

    settings: dict[str, Any] = {**extra, **store_settings(args)}
    if args.base_url:
        settings["base_url"] = args.base_url
    where = store_dir(args, settings, create=create)
    embeddings = args.embeddings or adopted_embeddings(context_of(args, settings), where)
    with Memory(llm=args.llm, embeddings=embeddings, config_file=args.config, read_only=read_only,
                **settings) as mem:
        yield mem


def adopted_embeddings(ctx: Context, where: Path | str) -> str | None:
    """The embedding model the store records, when no setting names one (None: the settings decide)."""
    if "embedding_model" in ctx.explicit():  # DMEM_EMBEDDING_MODEL or the --config file
        return None
    from dmem.models.embeddings import spec_of_name
    from dmem.store.opening import stored_embedding

    return spec_of_name(stored_embedding(where))


@contextmanager
def open_reader(args: argparse.Namespace) -> Iterator[MemoryStore]:
    """The store alone, read-only, for commands that need no models (``users``)."""
    from dmem.store.opening import open_any_store

    settings = store_settings(args)
    store = open_any_store(store_dir(args, settings, create=False), dim=None, read_only=True,
                           hnsw=context_of(args, settings).hnsw())
    try:
        yield store
    finally:
        store.close()


def emit(data: Any) -> None:
    """Print a result as JSON on stdout."""
    console.print_json(safe_json(json.dumps(data, default=str, ensure_ascii=False)))


def error_kind(exc: BaseException) -> str:
    """'not_found' for NotFoundError, 'store_locked' for StoreLockedError, ...: the class in snake case."""
    name = type(exc).__name__.removesuffix("Error") or "error"
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def report_error(message: str, kind: str, as_json: bool) -> None:
    """One line on stderr: plain, or a JSON object with ``--json``."""
    if as_json:
        sys.stderr.write(safe_json(json.dumps({"error": message, "kind": kind}, ensure_ascii=False)) + "\n")
    else:
        err_console.print(f"dmem: error: {safe(message)}", markup=False, highlight=False, soft_wrap=True)


def note(args: argparse.Namespace, message: str, **data: Any) -> None:
    """A hint on stderr that does not change the result (JSON with ``--json``)."""
    if getattr(args, "json", False):
        sys.stderr.write(safe_json(json.dumps({"note": message, **data}, ensure_ascii=False)) + "\n")
    else:
        err_console.print(f"dmem: note: {safe(message)}", markup=False, highlight=False, soft_wrap=True)
