"""Commands that write a store: ingest, retry, update, delete, reset, import.

Only ``ingest`` and ``import`` create a store; the others edit one that exists.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from dmem.cli.base import (
    add_command,
    console,
    emit,
    err_console,
    given_scope,
    open_memory,
    parse_metadata,
    scope_of,
    scope_options,
)
from dmem.cli.reading import resolve_id
from dmem.errors import DataError
from dmem.progress import Phases, progress_for
from dmem.scopes import scope


def _conversations(value: str | None) -> list[str] | None:
    if value is None:
        return None
    names = [c.strip() for c in value.split(",") if c.strip()]
    if not names:
        raise DataError("--conversations needs at least one conversation id, e.g. --conversations a,b")
    return names


def _progress(args: argparse.Namespace) -> AbstractContextManager[Phases]:
    """Bars in a terminal, else a line on stderr at most every ``--progress-every`` seconds."""
    return progress_for(err_console, sys.stderr, args.progress_every, as_json=args.json)


def cmd_ingest(args: argparse.Namespace) -> int:
    """Ingest a file of messages or a LoCoMo/RealTalk dataset."""
    from dmem.cli.files import ingest_file
    from dmem.cli.render import print_ingest

    conversations, metadata = _conversations(args.conversations), parse_metadata(args.metadata)
    with open_memory(args, create=True) as mem, _progress(args) as bar:
        results = ingest_file(mem, Path(args.file), scope=given_scope(args), progress=bar,
                              conversations=conversations, metadata=metadata)
    emit([r.model_dump(mode="json") for r in results]) if args.json else print_ingest(console, results)
    return 0


def cmd_retry(args: argparse.Namespace) -> int:
    """Form the turns not formed yet (after provider errors or a crash)."""
    from dmem.cli.render import print_ingest

    with open_memory(args) as mem, _progress(args) as bar:
        ns = scope(**scope_of(args))
        bar.start("retry", sum(1 for _ in mem.store.transcript.unformed(ns)), f"forming the unformed turns of {ns}")
        result = mem.retry_pending(user_id=ns, progress=lambda done, _total: bar.update("retry", done))
    emit(result.model_dump(mode="json")) if args.json else print_ingest(console, [result])
    return 0


def cmd_update(args: argparse.Namespace) -> int:
    """Change a memory's text or metadata; history records old and new text with the reason."""
    from dmem.cli.render import print_memory

    metadata = parse_metadata(args.metadata)
    with open_memory(args) as mem:
        memory_id = resolve_id(mem, args.memory_id, scope(**scope_of(args)))
        record = mem.update(memory_id, args.text, metadata=metadata, reason=args.reason, **scope_of(args))
    emit(record.model_dump(mode="json")) if args.json else print_memory(console, record)
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    """Delete one memory, or every memory of a namespace with --all --yes."""
    if (args.memory_id is None) == (not args.all):
        raise DataError("name one memory id, or give --all (with --yes) to delete every memory of the namespace")
    if args.all and not args.yes:
        raise DataError(f"--all deletes every memory of {scope(**scope_of(args))!r}; add --yes to confirm")
    with open_memory(args) as mem:
        if args.all:
            count = mem.delete_all(reason=args.reason, **scope_of(args))
            data: Any = {"deleted": count, "namespace": scope(**scope_of(args))}
            text = f"deleted {count} memories of {data['namespace']} (their history stays)"
        else:
            memory_id = resolve_id(mem, args.memory_id, scope(**scope_of(args)))
            data = mem.delete(memory_id, reason=args.reason, **scope_of(args)).model_dump(mode="json")
            text = f"deleted {memory_id}: {data['text']}"
    emit(data) if args.json else console.print(text, markup=False, highlight=False, soft_wrap=True)
    return 0


def cmd_reset(args: argparse.Namespace) -> int:
    """Erase a namespace, or with --everything the whole store, for good (``Memory.reset``)."""
    given = given_scope(args)
    if args.everything == (given["user_id"] is not None):
        raise DataError("name the namespace to erase with --user-id (and --agent-id, --run-id), or give "
                        "--everything for the whole store; not both")
    what = "everything" if args.everything else scope(**scope_of(args))
    with open_memory(args) as mem:
        count = mem.reset(confirm=args.confirm, **({} if args.everything else given))
    data = {"erased": what, "memories": count}
    text = f"erased {what}: {count} memories with their history and transcript (this cannot be undone)"
    emit(data) if args.json else console.print(text, markup=False, highlight=False, soft_wrap=True)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """Load an export file into a namespace, all or nothing."""
    mapping: dict[str, str] = {}
    for pair in args.map or []:
        old, sep, new = pair.partition("=")
        if not sep or not old or not new:
            raise DataError(f"--map takes OLD=NEW namespaces, got {pair!r}")
        mapping[old] = new
    with open_memory(args, create=True) as mem:
        ns = scope(**scope_of(args))
        written = mem.import_(args.path, user_id=ns, namespaces=mapping or None, reembed=args.reembed)
    if args.json:
        emit({"imported": written, "namespace": ns, "path": args.path})
    else:
        where = ", ".join(f"{old} -> {new}" for old, new in mapping.items()) if mapping else f"into {ns}"
        console.print(f"imported {written} memories ({where})", markup=False, highlight=False)
    return 0


def register(sub: Any, common: list[argparse.ArgumentParser]) -> None:
    """Add the writing commands to the ``dmem`` parser."""
    i = add_command(sub, "ingest", common, "ingest a JSON/JSONL file of messages, or a LoCoMo/RealTalk file",
                    ["dmem ingest chat.jsonl --user-id maya --metadata source=chat",
                     "dmem ingest locomo10.json --conversations conv-a,conv-b"], cmd_ingest)
    i.add_argument("file", help="messages as a JSON list, {'messages': [...]} or JSONL; or a benchmark file")
    scope_options(i, what="new memories")
    i.add_argument("--conversations", help="comma list of the conversations of a LoCoMo/RealTalk file to ingest "
                   "(default: all); per-speaker namespaces are <scope>/<conversation>/<speaker> (--user-id required)")
    i.add_argument("--metadata", action="append", metavar="KEY=VALUE",
                   help="label every memory formed (repeatable); 'search --metadata' filters on it")

    r = add_command(sub, "retry", common, "form the turns kept for retry (pending, or never formed after a crash)",
                    ["dmem retry --user-id maya", "dmem --json retry --user-id conv-a/Oskar"], cmd_retry)
    scope_options(r, what="turns")

    u = add_command(sub, "update", common, "change a memory's text or metadata (history keeps both texts)",
                    ['dmem update 3f2a9c1e "Maya works as a nurse in Porto." --user-id maya',
                     'dmem update 3f2a9c1e --metadata verified=true --reason "checked with Maya"'], cmd_update)
    u.add_argument("memory_id", help="id of the memory, or a unique prefix")
    u.add_argument("text", nargs="?", help="the new text (omit to change only metadata)")
    scope_options(u)
    u.add_argument("--metadata", action="append", metavar="KEY=VALUE", help="set a metadata value (repeatable)")
    u.add_argument("--reason", default="updated by the user", help="why, kept in the memory's history")

    d = add_command(sub, "delete", common, "delete one memory, or all memories of a namespace",
                    ["dmem delete 3f2a9c1e --user-id maya", "dmem delete --all --yes --user-id maya"], cmd_delete)
    d.add_argument("memory_id", nargs="?", help="id of the memory, or a unique prefix")
    scope_options(d)
    d.add_argument("--all", action="store_true", help="delete every memory of the namespace (history and the "
                   "transcript stay; 'dmem reset' erases them)")
    d.add_argument("--yes", action="store_true", help="confirm --all")
    d.add_argument("--reason", default="deleted by the user", help="why, kept in the memory's history")

    z = add_command(sub, "reset", common, "erase a namespace, or the whole store, for good: memories, history, "
                    "transcript", ["dmem reset --user-id maya --confirm maya",
                                   "dmem reset --everything --confirm everything"], cmd_reset)
    z.add_argument("--user-id", help="user whose namespace to erase (required unless --everything)")
    z.add_argument("--agent-id", help="erase only the agent scope '<user>/agent:<id>'")
    z.add_argument("--run-id", help="erase only the run scope '.../run:<id>'")
    z.add_argument("--everything", action="store_true", help="erase every namespace of the store")
    z.add_argument("--confirm", required=True, help="repeat what is erased: the namespace (maya, "
                   "maya/agent:planner) or 'everything'")

    m = add_command(sub, "import", common, "load an export file into a namespace, all or nothing",
                    ["dmem import maya.json --user-id maya", "dmem import team.json --map maya=maya-archive --reembed"],
                    cmd_import)
    m.add_argument("path", help="a file written by 'dmem export' (or Memory.export)")
    scope_options(m, what="imported memories")
    m.add_argument("--map", action="append", metavar="OLD=NEW", help="put the export's namespace OLD into NEW "
                   "(repeatable)")
    m.add_argument("--reembed", action="store_true", help="embed the texts again (export made with another model)")
