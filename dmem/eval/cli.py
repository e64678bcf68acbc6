"""``dmem eval``: run the benchmark protocol with a rich progress bar, or estimate its cost first.

The main CLI calls :func:`add_eval_parser` and then ``args.func(args)``; errors are ``DmemError``
subclasses, which it prints as one line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from dmem.errors import ConfigError
from dmem.progress import DEFAULT_INTERVAL, progress_for

if TYPE_CHECKING:  # the runner pulls in nltk and scipy: import it when eval runs, not for every `dmem` command
    from dmem.eval.costs import Cost
    from dmem.eval.runner import EvalConfig, EvalRunner, RunOutcome, RunPlan


def add_eval_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``eval {locomo,realtalk} PATH [options]`` on the main CLI's subparsers."""
    p = subparsers.add_parser("eval", help="evaluate methods on LoCoMo or RealTalk (resumable)",
                              description="Ingest each conversation once, ask its questions with every "
                              "method, score them, and write results.json, table.md and tradeoff.png.",
                              epilog="examples:\n  dmem eval locomo locomo10.json --dry-run\n"
                                     "  dmem eval locomo locomo10.json --conversations conv-a --limit 20 --out runs/a",
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", choices=["locomo", "realtalk"], help="benchmark format")
    p.add_argument("path", type=Path,
                   help="LoCoMo JSON file, or a RealTalk chat file or folder (its Chat_*.json, else its chat files)")
    p.add_argument("--methods", default="paper", help="comma list (default 'paper': the D-Mem Table 3 rows; "
                   "'all' adds the '-noformation' variants)")
    p.add_argument("--conversations", help="comma list of conversation ids (default: all)")
    p.add_argument("--limit", type=int, help="questions per conversation (default: all)")
    p.add_argument("--out", type=Path, default=Path("dmem-eval"), help="output folder (default: dmem-eval)")
    p.add_argument("--concurrency", type=int, default=4, help="questions answered at once with a chat model "
                   "(default: 4; the offline engine, CPU-bound, answers one at a time)")
    p.add_argument("--include-adversarial", action="store_true", help="also ask category 5 questions")
    p.add_argument("--dry-run", action="store_true", help="print the estimated calls and tokens, call nothing")
    p.add_argument("--judge-model", default=argparse.SUPPRESS, help="'provider:model' of the judge "
                   "(default: DMEM_JUDGE_MODEL, else the model under test, else none; 'none' switches judging off)")
    p.add_argument("--judge-base-url", default=argparse.SUPPRESS, help="the judge's own OpenAI-compatible "
                   "endpoint (default: DMEM_JUDGE_BASE_URL; its key in DMEM_JUDGE_API_KEY)")
    p.add_argument("--llm", default=argparse.SUPPRESS, help="chat model under test, 'provider:model'")
    p.add_argument("--embeddings", default=argparse.SUPPRESS, help="embedding model")
    p.add_argument("--set", dest="eval_settings", action="append", default=[], metavar="KEY=VALUE",
                   help="any dmem setting, e.g. --set retrieval_top_k=10 (repeatable)")
    p.set_defaults(func=run_eval_command)
    return p


def config_from_args(args: argparse.Namespace) -> EvalConfig:
    """Check the options and turn them into an EvalConfig."""
    from dmem.eval.methods import resolve_methods
    from dmem.eval.runner import EvalConfig

    if args.limit is not None and args.limit < 1:
        raise ConfigError("--limit must be 1 or more")
    if args.concurrency < 1:
        raise ConfigError("--concurrency must be 1 or more")
    settings: dict[str, Any] = {}
    for item in args.eval_settings:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {item!r} must look like KEY=VALUE, e.g. retrieval_top_k=10")
        settings[key.strip()] = value.strip()
    if getattr(args, "judge_base_url", None):
        settings["judge_base_url"] = args.judge_base_url
    if getattr(args, "base_url", None):  # the global --base-url option
        settings.setdefault("base_url", args.base_url)
    ids = [c.strip() for c in args.conversations.split(",") if c.strip()] if args.conversations else None
    return EvalConfig(kind=args.dataset, path=args.path, out=args.out, methods=resolve_methods(args.methods),
                      conversations=ids, limit=args.limit, concurrency=args.concurrency,
                      include_adversarial=args.include_adversarial, llm=getattr(args, "llm", None),
                      judge=getattr(args, "judge_model", None), embeddings=getattr(args, "embeddings", None),
                      settings=settings, config_file=getattr(args, "config", None))


def run_eval_command(args: argparse.Namespace) -> int:
    """Entry point of ``dmem eval``; returns the exit code."""
    return execute(config_from_args(args), Console(), dry_run=args.dry_run,
                   interval=getattr(args, "progress_every", DEFAULT_INTERVAL))


def execute(cfg: EvalConfig, console: Console, *, dry_run: bool = False, interval: float = DEFAULT_INTERVAL) -> int:
    """Plan; then either print the estimate, or run with progress bars and write the reports."""
    from dmem.eval.report import write_reports
    from dmem.eval.runner import EvalError, EvalRunner

    runner = EvalRunner(cfg)
    plan = runner.plan()
    if dry_run:
        print_estimate(console, runner, plan)
        return 0
    with progress_for(Console(stderr=True), sys.stderr, interval, transient=False) as bar:
        runner.progress = bar  # bars with ETA in a terminal, a line every few seconds when piped
        outcome = runner.run(plan)
    paths = write_reports(cfg.out, outcome.records, [m.name for m in cfg.methods], _meta(runner, outcome))
    print_summary(console, paths["results"].parent, outcome)
    if outcome.failures:
        raise EvalError(f"{len(outcome.failures)} question(s) failed (first: {outcome.failures[0]}); the "
                        f"others are saved in {cfg.out}; rerun the same command to retry the failed ones")
    return 0


def _meta(runner: EvalRunner, outcome: RunOutcome) -> dict[str, Any]:
    cfg = runner.cfg
    settings = {k: v for k, v in vars(runner.ctx).items() if k not in ("api_key", "resources")}
    return {"dataset": cfg.kind, "path": str(cfg.path), "methods": [m.name for m in cfg.methods],
            "conversations": [c.conversation_id for c in runner.conversations], "limit": cfg.limit,
            "include_adversarial": cfg.include_adversarial, "model": runner.model_label,
            "judge_model": runner.models.judge.name, "questions": len(outcome.records),
            "failures": outcome.failures, "ingestion": outcome.ingestion, "settings": settings,
            "generated_at": datetime.now(UTC).isoformat()}


def print_summary(console: Console, out: Path, outcome: RunOutcome) -> None:
    """One line per method: answers, F1 (mem0), judge, tokens and seconds per question."""
    from dmem.eval.report import summarize
    from dmem.eval.tables import fmt

    table = _table("dmem eval (F1 = mem0 token-set F1, x100)",
                   ("method", "answers", "F1", "judge", "tokens/q", "s/q", "fallback"))
    methods = list(dict.fromkeys(r["method"] for r in outcome.records))
    for name, s in summarize(outcome.records, methods).items():
        eff, fb, ov = s["efficiency"], s["fallback"], s["overall"]
        table.add_row(name, str(ov["n"]), fmt(ov["f1_mem0"], 100), fmt(ov["judge"], 100),
                      fmt(eff["total_tokens"], digits=0), fmt(eff["seconds"], digits=2),
                      "-" if fb is None else f"{fmt(fb['rate'], 100)}%")
    console.print(table)
    console.print(f"results: {out / 'results.json'}, {out / 'table.md'}, {out / 'tradeoff.png'}")


def _table(title: str, heads: Sequence[str]) -> Table:
    """A rich table whose first column (the row's name) is left-aligned and the figures right-aligned."""
    table = Table(title=title)
    for head in heads:
        table.add_column(head, justify="left" if head == heads[0] else "right")
    return table


def print_estimate(console: Console, runner: EvalRunner, plan: RunPlan) -> None:
    """The dry run's table: questions, calls and tokens per method, ingestion still to do, and the total."""
    from dmem.eval.costs import estimate
    from dmem.eval.judge import judge_spec, judging_off, model_label

    ctx, cfg = runner.ctx, runner.cfg
    spec = judge_spec(cfg.judge, runner.judge_settings)
    off = judging_off(spec)
    judged = not off and bool(spec or cfg.llm or ctx.chat_model)
    table = _table(f"dry run: {cfg.kind} {cfg.path} (model {runner.model_label}; nothing was called)",
                   ("method", "questions", "cached", "to ask", "calls", "input tokens", "output tokens"))
    for row in estimate(cfg.methods, plan, ctx, judged):
        table.add_row(row.name, row.questions, row.cached, row.to_ask, *_ranges(row.cost),
                      style="bold" if row.name == "total" else None)
    console.print(table)
    judge = "off" if off else model_label(spec) if spec else "the model under test" if judged else "none"
    console.print("Tokens are estimates (about 4 characters a token); gated methods show the range from no "
                  f"fallback to every question falling back. Judge: {judge}"
                  f"{' (one call per question, included)' if judged else ' (judge scores n/a)'}.")


def _ranges(cost: Cost) -> list[str]:
    def rng(low: int, high: int) -> str:
        return f"{low:,}" if low == high else f"{low:,}-{high:,}"

    return [rng(cost.calls, cost.calls_high), rng(cost.tokens_in, cost.tokens_in_high),
            rng(cost.tokens_out, cost.tokens_out_high)]
