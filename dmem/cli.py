"""The ``dmem`` command: ingest, retry, ask, search, memories, history, graph, eval, demo.

Reading commands (ask, search, memories, history) open the store read-only: they never wait for
a writer, so they work while an ingest (or a ``langgraph dev`` server) writes the same store.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from dmem.errors import DmemError

console = Console()
err_console = Console(stderr=True)


def _memory(args: argparse.Namespace, **extra: Any) -> Any:
    from dmem.api import Memory

    settings: dict[str, Any] = dict(extra)
    if args.store:
        settings["store_dir"] = args.store
    if getattr(args, "store_url", None):
        settings["store_url"] = args.store_url
    if args.base_url:
        settings["base_url"] = args.base_url
    return Memory(llm=args.llm, embeddings=args.embeddings, config_file=args.config, **settings)


def _emit(args: argparse.Namespace, data: Any) -> None:
    console.print_json(json.dumps(data, default=str, ensure_ascii=False))


# Commands ---------------------------------------------------------------------------------------
def cmd_demo(args: argparse.Namespace) -> int:
    """Run the demo offline (or with the configured model) and print what happened."""
    from dmem.cli_render import print_demo
    from dmem.demo import run_demo

    settings: dict[str, Any] = {"llm": args.llm, "embeddings": args.embeddings, "config_file": args.config}
    if args.base_url:
        settings["base_url"] = args.base_url
    with console.status("dmem demo: ingesting a three-session conversation..."):
        run = run_demo(args.store, **settings)
    if args.json:
        _emit(args, {"engine": run.engine, "ingest": run.ingest.model_dump(mode="json"),
                     "answers": [a.model_dump(mode="json") for a in run.answers]})
    else:
        print_demo(console, run)
    return 0


def cmd_ingest(args: argparse.Namespace) -> int:
    """Ingest a file of messages or a LoCoMo/RealTalk dataset."""
    from dmem.cli_render import ingest_file, print_ingest

    with _memory(args) as mem:
        results = ingest_file(mem, Path(args.file), user_id=args.user_id, console=console, quiet=args.json)
    if args.json:
        _emit(args, [r.model_dump(mode="json") for r in results])
    else:
        print_ingest(console, results)
    return 0


def cmd_retry(args: argparse.Namespace) -> int:
    """Form the turns of a namespace that are not formed yet (after provider errors or a crash)."""
    from dmem.cli_render import print_ingest

    with _memory(args) as mem:
        result = mem.retry_pending(user_id=args.user_id)
    if args.json:
        _emit(args, result.model_dump(mode="json"))
    else:
        print_ingest(console, [result])
    return 0


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question from memory (read-only: works while an ingest writes)."""
    from dmem.cli_render import print_answer

    overrides = {"gate_policy": args.policy} if args.policy else {}
    if args.deliberation:
        overrides["deliberation_mode"] = args.deliberation
    with _memory(args, read_only=True) as mem:
        ans = mem.ask(args.question, user_ids=args.user_id or ["default"], **overrides)
    if args.json:
        _emit(args, ans.model_dump(mode="json"))
    else:
        print_answer(console, ans)
    return 0


def cmd_memories(args: argparse.Namespace) -> int:
    """List a namespace's memories."""
    from dmem.cli_render import print_memories

    with _memory(args, read_only=True) as mem:
        records = mem.get_all(user_id=args.user_id)
    if args.json:
        _emit(args, [r.model_dump(mode="json") for r in records])
    else:
        print_memories(console, records)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    """List the memories of a namespace most similar to a query."""
    from dmem.cli_render import print_memories

    with _memory(args, read_only=True) as mem:
        hits = mem.search(args.query, user_id=args.user_id, limit=args.limit)
    if args.json:
        _emit(args, [h.model_dump(mode="json") for h in hits])
    else:
        print_memories(console, [h.memory for h in hits])
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    """Print the operation history of one of a namespace's memories."""
    from dmem.cli_render import print_history

    with _memory(args, read_only=True) as mem:
        rows = mem.history(args.memory_id, user_id=args.user_id)
    if args.json:
        _emit(args, [r.model_dump(mode="json") for r in rows])
    else:
        print_history(console, rows)
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    """Print the graphs as Mermaid."""
    from dmem.graphs import deliberation_graph, ingestion_graph, query_graph

    graphs: dict[str, Any] = {"ingestion": ingestion_graph, "query": query_graph, "deliberation": deliberation_graph}
    names = list(graphs) if args.which == "all" else [args.which]
    for name in names:
        mermaid = graphs[name].get_graph(xray=args.which != "all").draw_mermaid()
        console.print(f"%% {name} graph", markup=False, highlight=False, soft_wrap=True)
        console.print(mermaid, markup=False, highlight=False, soft_wrap=True)
    return 0


# Parser -----------------------------------------------------------------------------------------
def _global_options(p: argparse.ArgumentParser, default: Any) -> None:
    p.add_argument("--store", default=default, help="store directory (default: DMEM_STORE_DIR or ./.dmem)")
    p.add_argument("--store-url", default=default, help="postgresql:// store instead (default: DMEM_STORE_URL)")
    p.add_argument("--config", default=default, help="TOML settings file (default: DMEM_CONFIG)")
    p.add_argument("--llm", default=default,
                   help="chat model, 'provider:model' (default: DMEM_CHAT_MODEL, else offline)")
    p.add_argument("--base-url", default=default,
                   help="OpenAI-compatible server for --llm, e.g. http://localhost:8080/v1 (default: DMEM_BASE_URL)")
    p.add_argument("--embeddings", default=default, help="embedding model (default: local:all-MiniLM-L6-v2)")
    p.add_argument("--json", action="store_true", default=False if default is None else default,
                   help="print JSON for scripts")


def _reading_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    """The commands that only read the store (they open it read-only)."""
    a = sub.add_parser("ask", parents=[common], help="answer a question from memory")
    a.add_argument("question")
    a.add_argument("--user-id", action="append", help="namespace to ask about (repeatable)")
    a.add_argument("--policy", choices=["quality", "majority", "consensus", "never", "always"])
    a.add_argument("--deliberation", choices=["focused", "full"],
                   help="what deliberation reads: windows around the evidence, or the whole transcript (the papers)")
    a.set_defaults(func=cmd_ask)

    m = sub.add_parser("memories", parents=[common], help="list the memories of a namespace")
    m.add_argument("--user-id", default="default")
    m.set_defaults(func=cmd_memories)

    se = sub.add_parser("search", parents=[common], help="memories of a namespace most similar to a query")
    se.add_argument("query")
    se.add_argument("--user-id", default="default")
    se.add_argument("--limit", type=int, default=10)
    se.set_defaults(func=cmd_search)

    h = sub.add_parser("history", parents=[common], help="the audit trail of one memory")
    h.add_argument("memory_id")
    h.add_argument("--user-id", default="default", help="namespace the memory belongs to")
    h.set_defaults(func=cmd_history)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    p = argparse.ArgumentParser(prog="dmem", description="Dual-process long-term memory for LLM agents.")
    _global_options(p, None)
    p.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    sub = p.add_subparsers(dest="command", required=True)
    # The same options are accepted after the subcommand too ('dmem demo --store X').
    common = argparse.ArgumentParser(add_help=False)
    _global_options(common, argparse.SUPPRESS)

    d = sub.add_parser("demo", parents=[common],
                       help="ingest a sample conversation and answer questions (works offline)")
    d.set_defaults(func=cmd_demo)

    i = sub.add_parser("ingest", parents=[common],
                       help="ingest a JSON/JSONL file of messages, or a LoCoMo/RealTalk file")
    i.add_argument("file")
    i.add_argument("--user-id", default=None,
                   help="namespace of the messages (default: 'default'); for a LoCoMo/RealTalk file, the prefix "
                        "of the per-speaker namespaces (<user-id>/<conversation>/<speaker>)")
    i.set_defaults(func=cmd_ingest)

    r = sub.add_parser("retry", parents=[common], help="form the turns kept for retry (pending or never formed)")
    r.add_argument("--user-id", default="default")
    r.set_defaults(func=cmd_retry)

    _reading_commands(sub, common)
    from dmem.store.copying import add_store_parser

    add_store_parser(sub)

    g = sub.add_parser("graph", parents=[common], help="print the graphs as Mermaid")
    g.add_argument("which", nargs="?", default="all", choices=["all", "ingestion", "query", "deliberation"])
    g.set_defaults(func=cmd_graph)

    try:
        from dmem.eval.cli import add_eval_parser
    except ImportError:  # pragma: no cover - eval is part of the package
        pass
    else:
        add_eval_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: one readable line and a non-zero exit on errors, never a traceback."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    if not args.verbose:
        for noisy in ("httpx", "sentence_transformers", "transformers", "dmem"):
            logging.getLogger(noisy).setLevel(logging.ERROR)
    try:
        return int(args.func(args) or 0)
    except DmemError as exc:
        err_console.print(f"dmem: error: {exc}", markup=False, highlight=False, soft_wrap=True)
        return 2
    except KeyboardInterrupt:
        err_console.print("dmem: interrupted", markup=False)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
