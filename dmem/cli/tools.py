"""Commands that show dmem rather than a store's contents: demo and graph."""

from __future__ import annotations

import argparse
from typing import Any

from dmem.cli.base import add_command, console, emit, err_console


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the demo offline (or with the configured model) and print what happened."""
    from dmem.cli.render import print_demo
    from dmem.demo import run_demo

    settings: dict[str, Any] = {"llm": args.llm, "embeddings": args.embeddings, "config_file": args.config}
    if args.base_url:
        settings["base_url"] = args.base_url
    with err_console.status("dmem demo: ingesting a three-session conversation..."):
        run = run_demo(args.store, **settings)
    if args.json:
        emit({"engine": run.engine, "ingest": run.ingest.model_dump(mode="json"),
              "answers": [a.model_dump(mode="json") for a in run.answers]})
    else:
        print_demo(console, run)
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


def register(sub: Any, common: list[argparse.ArgumentParser]) -> None:
    """Add demo and graph to the ``dmem`` parser."""
    add_command(sub, "demo", common, "ingest a sample conversation and answer questions (works offline)",
                ["dmem demo", "dmem --json demo --store ./demo-store"], cmd_demo)
    g = add_command(sub, "graph", common, "print the graphs as Mermaid",
                    ["dmem graph", "dmem graph query > query.mmd"], cmd_graph)
    g.add_argument("which", nargs="?", default="all", choices=["all", "ingestion", "query", "deliberation"],
                   help="which graph to draw; one graph is drawn with its subgraphs (default: all)")
