"""``dmem eval``: run the benchmark protocol with a rich progress bar, or estimate its cost first.

The main CLI calls :func:`add_eval_parser` and then ``args.func(args)``; errors are ``DmemError``
subclasses, which it prints as one line.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as RichBar
from rich.table import Table

from dmem.errors import ConfigError
from dmem.eval.datasets import Conversation
from dmem.eval.judge import JUDGE_OFF, judge_prompt, model_label
from dmem.eval.methods import RAG_TOP_K, RAG_WINDOW, Method, resolve_methods
from dmem.eval.report import summarize, write_reports
from dmem.eval.runner import EvalConfig, EvalError, EvalRunner, Progress, RunOutcome, RunPlan
from dmem.models.structured import estimate_tokens
from dmem.nodes.deliberation import make_chunks
from dmem.prompts import (
    admission_prompt,
    answer_prompt,
    audit_prompt,
    extraction_prompt,
    group_prompt,
    lifecycle_prompt,
    read_chunk_prompt,
    scope_prompt,
    split_prompt,
)
from dmem.state.context import Context
from dmem.state.schemas import Fact

_LINE = "[2023-05-08] Caroline went to an LGBTQ support group and met people who shared their stories."
"""A typical memory line, standing in for memories that do not exist before ingestion."""
_OUT = {"answer": 40, "audit": 150, "group": 60, "chunk": 150, "select": 30, "judge": 50, "admit": 40,
        "split": 60, "scope": 40, "lifecycle": 50}
"""Assumed output tokens per call of each kind."""


def add_eval_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``eval {locomo,realtalk} PATH [options]`` on the main CLI's subparsers."""
    p = subparsers.add_parser("eval", help="evaluate methods on LoCoMo or RealTalk (resumable)",
                              description="Ingest each conversation once, ask its questions with every "
                              "method, score them, and write results.json, table.md and tradeoff.png.")
    p.add_argument("dataset", choices=["locomo", "realtalk"], help="benchmark format")
    p.add_argument("path", type=Path, help="LoCoMo JSON file, or a RealTalk Chat_*.json file or folder")
    p.add_argument("--methods", default="paper", help="comma list (default 'paper': the D-Mem Table 3 rows; "
                   "'all' adds the '-noformation' variants)")
    p.add_argument("--conversations", help="comma list of conversation ids (default: all)")
    p.add_argument("--limit", type=int, help="questions per conversation (default: all)")
    p.add_argument("--out", type=Path, default=Path("dmem-eval"), help="output folder (default: dmem-eval)")
    p.add_argument("--concurrency", type=int, default=4, help="questions answered at once (default: 4)")
    p.add_argument("--include-adversarial", action="store_true", help="also ask category 5 questions")
    p.add_argument("--dry-run", action="store_true", help="print the estimated calls and tokens, call nothing")
    p.add_argument("--judge-model", default=argparse.SUPPRESS, help="'provider:model' of the judge "
                   "(default: judge_model setting, else the model under test, else none; 'none' switches judging off)")
    p.add_argument("--llm", default=argparse.SUPPRESS, help="chat model under test, 'provider:model'")
    p.add_argument("--embeddings", default=argparse.SUPPRESS, help="embedding model")
    p.add_argument("--set", dest="eval_settings", action="append", default=[], metavar="KEY=VALUE",
                   help="any dmem setting, e.g. --set retrieval_top_k=10 (repeatable)")
    p.set_defaults(func=run_eval_command)
    return p


def config_from_args(args: argparse.Namespace) -> EvalConfig:
    """Check the options and turn them into an EvalConfig."""
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
    ids = [c.strip() for c in args.conversations.split(",") if c.strip()] if args.conversations else None
    return EvalConfig(kind=args.dataset, path=args.path, out=args.out, methods=resolve_methods(args.methods),
                      conversations=ids, limit=args.limit, concurrency=args.concurrency,
                      include_adversarial=args.include_adversarial, llm=getattr(args, "llm", None),
                      judge=getattr(args, "judge_model", None), embeddings=getattr(args, "embeddings", None),
                      settings=settings, config_file=getattr(args, "config", None))


def run_eval_command(args: argparse.Namespace) -> int:
    """Entry point of ``dmem eval``; returns the exit code."""
    return execute(config_from_args(args), Console(), dry_run=args.dry_run)


class _RichProgress(Progress):
    """Run phases drawn as rich progress bars."""

    def __init__(self, bar: RichBar) -> None:
        self.bar = bar
        self.tasks: dict[str, Any] = {}

    def start(self, name: str, total: int, description: str) -> None:
        self.tasks[name] = self.bar.add_task(description, total=total)

    def advance(self, name: str, amount: int = 1) -> None:
        if name in self.tasks and amount:
            self.bar.advance(self.tasks[name], amount)


def execute(cfg: EvalConfig, console: Console, *, dry_run: bool = False) -> int:
    """Plan; then either print the estimate, or run with progress bars and write the reports."""
    runner = EvalRunner(cfg)
    plan = runner.plan()
    if dry_run:
        print_estimate(console, runner, plan)
        return 0
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with RichBar(*columns, console=console, transient=False) as bar:
        runner.progress = _RichProgress(bar)
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
    table = Table(title="dmem eval (F1 = mem0 token-set F1, x100)")
    for head in ("method", "answers", "F1", "judge", "tokens/q", "s/q", "fallback"):
        table.add_column(head, justify="left" if head == "method" else "right")
    methods = list(dict.fromkeys(r["method"] for r in outcome.records))
    for name, s in summarize(outcome.records, methods).items():
        eff, fb, ov = s["efficiency"], s["fallback"], s["overall"]
        table.add_row(name, str(ov["n"]), _fmt(ov["f1_mem0"], 100), _fmt(ov["judge"], 100),
                      _fmt(eff["total_tokens"], 1, 0), _fmt(eff["seconds"], 1, 2),
                      "-" if fb is None else f"{100 * fb['rate']:.1f}%")
    console.print(table)
    console.print(f"results: {out / 'results.json'}, {out / 'table.md'}, {out / 'tradeoff.png'}")


def _fmt(value: float | None, scale: float, digits: int = 1) -> str:
    return "n/a" if value is None else f"{value * scale:,.{digits}f}"


# --- Dry run: estimated calls and tokens -------------------------------------------------------


@dataclass
class Cost:
    """Estimated calls and tokens; 'high' adds the calls a gate may trigger (every fallback taken)."""

    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    calls_high: int = 0
    tokens_in_high: int = 0
    tokens_out_high: int = 0

    def add(self, tokens_in: int, kind: str, calls: int = 1, *, maybe: bool = False) -> None:
        """Add ``calls`` calls of ``tokens_in`` input tokens each; ``maybe`` counts them only as 'high'."""
        if not maybe:
            self.calls += calls
            self.tokens_in += tokens_in * calls
            self.tokens_out += _OUT[kind] * calls
        self.calls_high += calls
        self.tokens_in_high += tokens_in * calls
        self.tokens_out_high += _OUT[kind] * calls


def _tok(messages: list[BaseMessage]) -> int:
    return estimate_tokens("\n".join(str(m.content) for m in messages))


_CHUNK_TOKENS: dict[tuple[str, int, int], list[int]] = {}


def _deliberation(cost: Cost, question: str, conv: Conversation, ctx: Context, maybe: bool) -> None:
    key = (conv.conversation_id, ctx.chunk_size, ctx.chunk_history)
    if key not in _CHUNK_TOKENS:  # prompt size without the question, once per conversation
        chunks = make_chunks("", conv.messages, ctx.chunk_size, ctx.chunk_history)
        _CHUNK_TOKENS[key] = [_tok(read_chunk_prompt("", c["chunk"], c["preceding"])) for c in chunks]
    for tokens in _CHUNK_TOKENS[key]:
        cost.add(tokens + estimate_tokens(question), "chunk", maybe=maybe)
    facts_in = _tok(answer_prompt(question, [_LINE] * ctx.select_above))
    cost.add(facts_in + 200, "select", maybe=maybe)
    cost.add(facts_in, "answer", maybe=maybe)


def question_cost(method: Method, question: str, conv: Conversation, ctx: Context) -> Cost:
    """Estimated model calls and tokens of one question (memory lines are typical-length stand-ins)."""
    cost = Cost()
    if method.kind == "full_context":
        cost.add(_tok(answer_prompt(question, [m.render() for m in conv.messages])), "answer")
        return cost
    if method.kind == "rag":
        lines = ["\n".join(m.render() for m in conv.messages[:RAG_WINDOW])] * RAG_TOP_K
        cost.add(_tok(answer_prompt(question, lines)), "answer")
        return cost
    lines = [_LINE] * min(ctx.retrieval_top_k * max(1, len(conv.speakers)), len(conv.messages))
    policy, answer_in = method.gate_policy, _tok(answer_prompt(question, lines))
    if method.overrides.get("use_filter"):
        cost.add(answer_in, "select")
    if policy == "always":
        _deliberation(cost, question, conv, ctx, maybe=False)
        return cost
    cost.add(answer_in, "answer", ctx.vote_samples if policy in ("majority", "consensus") else 1)
    if policy in ("majority", "consensus"):
        cost.add(_tok(group_prompt(question, ["an answer"] * ctx.vote_samples)), "group")
    elif policy == "quality":
        cost.add(_tok(audit_prompt(question, "an answer", lines)), "audit")
    if method.gated:
        _deliberation(cost, question, conv, ctx, maybe=True)
    return cost


def ingestion_cost(conv: Conversation, formation: bool, ctx: Context) -> Cost:
    """Estimated calls and tokens to ingest a conversation (assumes one fact per message)."""
    cost, msgs = Cost(), conv.messages
    fact = Fact(text=_LINE, namespace="n")
    lifecycle_in = _tok(lifecycle_prompt(fact, []))
    for i in range(0, len(msgs), 2):
        exchange, history = msgs[i:i + 2], msgs[max(0, i - ctx.history_messages):i]
        memories = min(ctx.extraction_top_k, i) * estimate_tokens(_LINE)
        if formation:
            cost.add(_tok(admission_prompt(exchange, history, [])) + memories, "admit")
            cost.add(_tok(split_prompt(exchange, history, [])) + memories, "split")
            cost.add(_tok(scope_prompt([fact] * len(exchange))), "scope")
        else:
            cost.add(_tok(extraction_prompt(exchange, history, [])) + memories, "split")
        cost.add(lifecycle_in, "lifecycle", len(exchange))
    return cost


def print_estimate(console: Console, runner: EvalRunner, plan: RunPlan) -> None:
    """The dry run's table: questions, calls and tokens per method, ingestion still to do, and the total."""
    ctx, cfg = runner.ctx, runner.cfg
    spec = cfg.judge or ctx.judge_model
    off = isinstance(spec, str) and spec.strip().lower() in JUDGE_OFF
    judged = not off and bool(spec or cfg.llm or ctx.chat_model)
    table = Table(title=f"dry run: {cfg.kind} {cfg.path} (model {runner.model_label}; nothing was called)")
    for head in ("method", "questions", "cached", "to ask", "calls", "input tokens", "output tokens"):
        table.add_column(head, justify="left" if head == "method" else "right")
    grand = Cost()
    for method in cfg.methods:
        tasks = [t for t in plan.pending if t.method is method]
        total = Cost()
        for t in tasks:
            part = question_cost(method, t.qa.question, t.conversation, ctx)
            if judged:
                part.add(_tok(judge_prompt(t.qa.question, t.qa.answer, "an answer")), "judge")
            _merge(total, part)
        n_all = sum(t.method is method for t in plan.tasks)
        table.add_row(method.name, str(n_all), str(n_all - len(tasks)), str(len(tasks)), *_ranges(total))
        _merge(grand, total)
    for formation, conv in plan.to_ingest:
        name = f"ingest {conv.conversation_id} (formation {'on' if formation else 'off'})"
        cost = ingestion_cost(conv, formation, ctx)
        table.add_row(name, "-", "-", f"{math.ceil(len(conv.messages) / 2)} exch.", *_ranges(cost))
        _merge(grand, cost)
    table.add_row("total", str(len(plan.tasks)), str(len(plan.cached)), str(len(plan.pending)), *_ranges(grand),
                  style="bold")
    console.print(table)
    judge = "off" if off else model_label(spec) if spec else "the model under test" if judged else "none"
    console.print("Tokens are estimates (about 4 characters a token); gated methods show the range from no "
                  f"fallback to every question falling back. Judge: {judge}"
                  f"{' (one call per question, included)' if judged else ' (judge scores n/a)'}.")


def _merge(total: Cost, part: Cost) -> None:
    for name in vars(total):
        setattr(total, name, getattr(total, name) + getattr(part, name))


def _ranges(cost: Cost) -> list[str]:
    def rng(low: int, high: int) -> str:
        return f"{low:,}" if low == high else f"{low:,}-{high:,}"

    return [rng(cost.calls, cost.calls_high), rng(cost.tokens_in, cost.tokens_in_high),
            rng(cost.tokens_out, cost.tokens_out_high)]
