"""The ``dmem`` command: one module per group of subcommands, registered in ``COMMAND_GROUPS``.

Reading commands (ask, search, get, memories, history, users, export) open the store read-only:
they never wait for a writer and never create a store. Every command takes ``--json``; errors
are one line on stderr (JSON with ``--json``) and exit with code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import dmem
from dmem.cli import reading, stores, tools, writing
from dmem.cli.base import EXIT_ERROR, EXIT_INTERRUPTED, Parser, error_kind, report_error
from dmem.cli.terminal import safe_json
from dmem.errors import DmemError
from dmem.progress import DEFAULT_INTERVAL

__all__ = ["COMMAND_GROUPS", "build_parser", "main"]

Register = Callable[[Any, list[argparse.ArgumentParser]], None]
COMMAND_GROUPS: list[Register] = [tools.register, writing.register, reading.register, stores.register]
"""Each adds its subcommands: ``register(subparsers, parents)``. A new group (e.g. ``dmem store``) goes here."""

log = logging.getLogger(__name__)


def _global_options(p: argparse.ArgumentParser, default: Any) -> None:
    p.add_argument("--store", default=default, help="store directory (default: DMEM_STORE_DIR or ./.dmem)")
    p.add_argument("--store-url", default=default,
                   help="a postgresql:// store instead of a directory (default: DMEM_STORE_URL)")
    p.add_argument("--config", default=default, help="TOML settings file (default: DMEM_CONFIG)")
    p.add_argument("--llm", default=default,
                   help="chat model, 'provider:model' (default: DMEM_CHAT_MODEL, else the offline engine)")
    p.add_argument("--base-url", default=default,
                   help="OpenAI-compatible server for --llm, e.g. http://localhost:8080/v1 (default: DMEM_BASE_URL)")
    p.add_argument("--embeddings", default=default,
                   help="embedding model (default: DMEM_EMBEDDING_MODEL, else the one the store records, else "
                        "local:all-MiniLM-L6-v2, int8 ONNX); torch:all-MiniLM-L6-v2 needs dmem[torch]")
    p.add_argument("--json", action="store_true", default=False if default is None else default,
                   help="print results as JSON on stdout, errors as JSON on stderr")
    p.add_argument("--progress-every", type=float, metavar="SECONDS",
                   default=DEFAULT_INTERVAL if default is None else default,
                   help=f"when output is piped, a progress line at most this often (default: {DEFAULT_INTERVAL:g})")


class _Version(argparse.Action):
    """``--version``: argparse's own action would read the version (package metadata) on every command."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"dmem {dmem.__version__}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    p = Parser(prog="dmem", description="Dual-process long-term memory for LLM agents.",
               epilog="examples:\n  dmem demo\n  dmem ingest chat.jsonl --user-id maya && dmem ask "
                      '"Where does Maya work?" --user-id maya\n\n"dmem <command> --help" describes each command.',
               formatter_class=argparse.RawDescriptionHelpFormatter)
    _global_options(p, None)
    p.add_argument("-v", "--verbose", action="store_true", help="log what happens (and show tracebacks)")
    p.add_argument("--version", action=_Version, nargs=0,
                   help="print dmem's version (the installed package's) and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="<command>")
    # The same options are accepted after the subcommand too ('dmem demo --store X').
    common = argparse.ArgumentParser(add_help=False)
    _global_options(common, argparse.SUPPRESS)
    for register in COMMAND_GROUPS:
        register(sub, [common])
    from dmem.eval.cli import add_eval_parser

    add_eval_parser(sub)
    return p


class _JsonLines(logging.Formatter):
    """Log records as JSON objects, so that with ``--json`` every line on stderr is JSON."""

    def format(self, record: logging.LogRecord) -> str:
        data = {"log": record.levelname.lower(), "logger": record.name, "message": record.getMessage()}
        if record.exc_info:
            data["traceback"] = self.formatException(record.exc_info)
        return safe_json(json.dumps(data, ensure_ascii=False))


class _Stderr(logging.StreamHandler[TextIO]):
    """Writes each record to ``sys.stderr`` as it is then (as ``logging.lastResort`` does), not as it was at set-up.

    A caller that runs ``main`` in-process with ``sys.stderr`` swapped for a while (a test's capture,
    ``contextlib.redirect_stderr``) and then closes that stream leaves no handler writing to a closed file.
    """

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _: TextIO) -> None:
        """``StreamHandler`` sets its stream; this one is always the current ``sys.stderr``."""


def _configure_logging(verbose: bool, as_json: bool) -> None:
    handler = _Stderr()
    handler.setFormatter(_JsonLines() if as_json else logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, handlers=[handler], force=True)
    logging.captureWarnings(True)  # Python warnings too go through the handler (JSON with --json)
    for noisy in ("httpx", "sentence_transformers", "transformers", "dmem"):
        logging.getLogger(noisy).setLevel(logging.NOTSET if verbose else logging.ERROR)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: one readable line (JSON with ``--json``) and a non-zero exit on errors, never a traceback."""
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json, verbose = "--json" in argv, "-v" in argv or "--verbose" in argv
    try:
        args = build_parser().parse_args(argv)
        _configure_logging(args.verbose, args.json)
        return int(args.func(args) or 0)
    except DmemError as exc:
        report_error(str(exc), error_kind(exc), as_json)
        return EXIT_ERROR
    except KeyboardInterrupt:
        report_error("interrupted", "interrupted", as_json)
        return EXIT_INTERRUPTED
    except Exception as exc:  # a bug: still one line, the traceback only with --verbose
        if verbose:
            log.exception("unexpected error")
        report_error(f"unexpected {type(exc).__name__}: {exc} (run with -v for the traceback; please report it)",
                     "internal", as_json)
        return 1
