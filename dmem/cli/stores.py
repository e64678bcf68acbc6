"""``dmem store copy SRC DST``: move a store between backends (a directory and a postgresql:// URL)."""

from __future__ import annotations

import argparse
from typing import Any

from dmem.cli.base import add_command, console, context_of, emit


def cmd_store_copy(args: argparse.Namespace) -> int:
    """Copy the store at SRC into the empty store at DST, then verify counts and vectors."""
    from dmem.store.copying import copy_store
    from dmem.store.opening import open_any_store

    hnsw = context_of(args, {}).hnsw()  # a PostgreSQL destination indexes crowded namespaces as it fills
    src = open_any_store(args.src, dim=None, read_only=True, hnsw=hnsw)
    try:
        embedding = src.info().extra.get("embedding")
        dst = open_any_store(args.dst, dim=src.dim, embedding=embedding, hnsw=hnsw)
        try:
            report = copy_store(src, dst)
        finally:
            dst.close()
    finally:
        src.close()
    if args.json:
        emit({"memories": report.memories, "history_rows": report.history_rows, "turns": report.turns,
              "namespaces": list(report.namespaces), "verified": True})
    else:
        console.print(f"copied {report.memories} memories, {report.history_rows} history rows and {report.turns} "
                      f"turns of {len(report.namespaces)} namespaces; counts and vectors verified", markup=False)
    return 0


def register(sub: Any, parents: list[argparse.ArgumentParser]) -> None:
    """Add ``dmem store`` and its ``copy`` subcommand."""
    examples = ["dmem store copy ./.dmem postgresql://dmem:secret@db.internal:5432/dmem",
                "dmem store copy postgresql://dmem:secret@db.internal:5432/dmem ./backup-store"]
    store = add_command(sub, "store", parents, "manage stores: copy one between backends", examples,
                        cmd_store_copy)
    commands = store.add_subparsers(dest="store_command", required=True, metavar="<store command>",
                                    help="copy: copy a store into an empty one and verify it")
    copy = add_command(commands, "copy", parents, "copy a store (directory or postgresql:// URL) into an empty one",
                       examples, cmd_store_copy)
    copy.add_argument("src", help="source store: a directory or a postgresql:// URL")
    copy.add_argument("dst", help="destination store, empty or new: a directory or a postgresql:// URL")
