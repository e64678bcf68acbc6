"""Commands that only read a store: ask, search, get, memories, history, users, export.

They open the store read-only (never waiting for a writer, never creating a store). A memory id
may be abbreviated to a prefix unique in its namespace, as the tables print it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dmem.cli.base import add_command, console, emit, open_memory, open_reader, parse_metadata, scope_of, scope_options
from dmem.cli.namespaces import hint_unknown, namespace_counts
from dmem.errors import DataError
from dmem.scopes import scope, scopes
from dmem.state.gate_policy import GATE_POLICIES
from dmem.store import SearchFilter

if TYPE_CHECKING:
    from dmem.api import Memory

def resolve_id(mem: Memory, memory_id: str, namespace: str) -> str:
    """The full id of a live memory of the namespace from a unique prefix (an unknown id stays as given)."""
    if mem.store.vectors.get(namespace, memory_id) is not None:
        return memory_id
    found = [r.id for r in mem.store.vectors.list(namespace) if r.id.startswith(memory_id)]
    if len(found) > 1:
        raise DataError(f"memory id prefix {memory_id!r} matches {len(found)} memories of {namespace!r}; "
                        "give more characters")
    return found[0] if found else memory_id


def filter_options(p: argparse.ArgumentParser) -> None:
    """--category, --scope, --speaker and --metadata: which memories to keep."""
    p.add_argument("--category", action="append", help="keep memories of this category, e.g. preference "
                   "(repeatable: any of them)")
    p.add_argument("--scope", action="append", help="keep memories of this scope: GENERIC, USER_PII or EXTERNAL "
                   "(repeatable)")
    p.add_argument("--speaker", help="keep memories of what this speaker said")
    p.add_argument("--metadata", action="append", metavar="KEY=VALUE",
                   help="keep memories whose metadata has this value (repeatable: all must match)")


def filter_of(args: argparse.Namespace) -> SearchFilter | None:
    """The SearchFilter the filter options describe, or None."""
    cats = frozenset(c.strip().lower() for c in args.category) if args.category else None
    scopes_ = frozenset(s.strip().upper() for s in args.scope) if args.scope else None
    base = SearchFilter(categories=cats, scopes=scopes_, speaker=args.speaker)
    metadata = parse_metadata(args.metadata)
    if metadata is not None:
        base = SearchFilter.with_metadata(metadata, base)
    return None if base == SearchFilter() else base


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question from memory."""
    from dmem.cli.render import print_answer

    overrides = {"gate_policy": args.policy} if args.policy else {}
    if args.deliberation:
        overrides["deliberation_mode"] = args.deliberation
    with open_memory(args, read_only=True) as mem:
        names = scopes(args.user_id, "default", args.agent_id, args.run_id)
        hint_unknown(args, mem.store, names)
        ans = mem.ask(args.question, user_ids=names, metadata=parse_metadata(args.metadata), **overrides)
    emit(ans.model_dump(mode="json")) if args.json else print_answer(console, ans)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    """The memories most similar to a query."""
    from dmem.cli.render import print_memories

    with open_memory(args, read_only=True) as mem:
        hint_unknown(args, mem.store, [scope(**scope_of(args))])
        hits = mem.search(args.query, limit=args.limit, where=filter_of(args), **scope_of(args))
    if args.json:
        emit([h.model_dump(mode="json") for h in hits])
    else:
        print_memories(console, [h.memory for h in hits], scores=[h.score for h in hits])
    return 0


def cmd_get(args: argparse.Namespace) -> int:
    """One memory by id."""
    from dmem.cli.render import print_memory

    with open_memory(args, read_only=True) as mem:
        record = mem.get(resolve_id(mem, args.memory_id, scope(**scope_of(args))), **scope_of(args))
    emit(record.model_dump(mode="json")) if args.json else print_memory(console, record)
    return 0


def cmd_memories(args: argparse.Namespace) -> int:
    """A namespace's memories, filtered and limited."""
    from dmem.cli.render import print_memories

    if args.limit is not None and args.limit < 1:
        raise DataError(f"--limit must be at least 1, got {args.limit}")
    with open_memory(args, read_only=True) as mem:
        hint_unknown(args, mem.store, [scope(**scope_of(args))])
        records = mem.get_all(where=filter_of(args), **scope_of(args))
    shown = records[:args.limit] if args.limit is not None else records
    if args.json:
        emit([r.model_dump(mode="json") for r in shown])
    else:
        print_memories(console, shown, total=len(records))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    """The operation history of one memory."""
    from dmem.cli.render import print_history

    with open_memory(args, read_only=True) as mem:
        rows = mem.history(resolve_id(mem, args.memory_id, scope(**scope_of(args))), **scope_of(args))
    emit([r.model_dump(mode="json") for r in rows]) if args.json else print_history(console, rows)
    return 0


def cmd_users(args: argparse.Namespace) -> int:
    """The namespaces a store holds, with their memory and turn counts."""
    from dmem.cli.render import print_users

    with open_reader(args) as store:
        rows = namespace_counts(store, args.prefix)
    emit([r.as_json() for r in rows]) if args.json else print_users(console, rows)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write namespaces' memories, vectors, history and transcript to a JSON or JSON Lines file."""
    with open_memory(args, read_only=True) as mem:
        names = scopes(args.user_id, "default", args.agent_id, args.run_id)
        hint_unknown(args, mem.store, names)
        data = mem.export(args.path, user_ids=names)
    written = data["counts"]["memories"] if "counts" in data else len(data["memories"])  # JSON Lines: counts only
    summary: dict[str, Any] = {"path": str(Path(args.path)), "memories": written, "namespaces": data["namespaces"]}
    if args.json:
        emit(summary)
    else:
        console.print(f"exported {summary['memories']} memories of {', '.join(names)} to {summary['path']}",
                      markup=False, highlight=False)
    return 0


def register(sub: Any, common: list[argparse.ArgumentParser]) -> None:
    """Add the reading commands to the ``dmem`` parser."""
    a = add_command(sub, "ask", common, "answer a question from memory (the gate may read the transcript)",
                    ['dmem ask "Where does Maya work?" --user-id maya',
                     'dmem --json ask "What did Maya adopt?" --user-id maya --policy always',
                     'dmem ask "What did Maya say about work?" --user-id maya --metadata source=chat'], cmd_ask)
    a.add_argument("question", help="the question, in plain words (quote it)")
    scope_options(a, repeat=True)
    a.add_argument("--policy", choices=GATE_POLICIES,
                   help="gate policy for this question: quality (default), majority, "
                   "consensus, never (memories only) or always (always read the transcript)")
    a.add_argument("--deliberation", choices=["focused", "full"],
                   help="what deliberation reads: windows around the evidence (default) or the whole transcript "
                   "(the papers)")
    a.add_argument("--metadata", action="append", metavar="KEY=VALUE",
                   help="answer only from memories and transcript turns labelled with this value (repeatable: "
                   "all must match; 'ingest --metadata' sets labels)")

    s = add_command(sub, "search", common, "list the memories most similar to a query",
                    ['dmem search "dog" --user-id maya', 'dmem --json search "work" --category persona --limit 3'],
                    cmd_search)
    s.add_argument("query", help="text to compare the memories with")
    scope_options(s)
    s.add_argument("--limit", type=int, default=10, help="most memories to return (default: 10)")
    filter_options(s)

    g = add_command(sub, "get", common, "show one memory by id (or a unique id prefix)",
                    ["dmem get 3f2a9c1e --user-id maya", "dmem --json get 3f2a9c1e-0b7d-4c55-9a57-2f0c1d9e8b41"],
                    cmd_get)
    g.add_argument("memory_id", help="id of the memory, or the start of it as 'memories' prints it")
    scope_options(g)

    m = add_command(sub, "memories", common, "list a namespace's memories, oldest first",
                    ["dmem memories --user-id maya --limit 20", "dmem memories --category preference --speaker Maya"],
                    cmd_memories)
    scope_options(m)
    m.add_argument("--limit", type=int, help="show at most N memories (default: all)")
    filter_options(m)

    h = add_command(sub, "history", common, "show every operation on one memory (kept after deletion)",
                    ["dmem history 3f2a9c1e --user-id maya", "dmem --json history 3f2a9c1e"], cmd_history)
    h.add_argument("memory_id", help="id of the memory, or a unique prefix of a live one")
    scope_options(h)

    u = add_command(sub, "users", common, "list the namespaces a store holds, with memory and turn counts",
                    ["dmem users", "dmem --json users --prefix conv-1/"], cmd_users)
    u.add_argument("--prefix", help="only namespaces starting with this text")

    e = add_command(sub, "export", common, "write namespaces' memories, vectors, history and transcript to a file",
                    ["dmem export maya.json --user-id maya", "dmem export team.jsonl --user-id maya --user-id oskar"],
                    cmd_export)
    e.add_argument("path", help="file to write (overwritten, mode 0600): JSON, or JSON Lines written row by row "
                   "for a .jsonl path")
    scope_options(e, repeat=True)
