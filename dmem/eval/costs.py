"""The dry run's estimator: model calls and tokens a run would spend, computed without calling anything.

Prompts are rendered as they would be sent; memories, which do not exist before ingestion, are
typical-length stand-ins, and output lengths are assumed per kind of call. Gated methods get a
range: from no question falling back to every question falling back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from langchain_core.messages import BaseMessage

from dmem.datasets.datasets import Conversation
from dmem.eval.ingest import exchange_count, ingest_label
from dmem.eval.judge import judge_prompt
from dmem.eval.methods import RAG_TOP_K, RAG_WINDOW, Method
from dmem.eval.runner import RunPlan
from dmem.evidence.focus import budget_tokens
from dmem.models.structured import estimate_tokens
from dmem.nodes.deliberation import make_chunks
from dmem.nodes.retrieval import top_k
from dmem.prompts import (
    admission_prompt,
    answer_prompt,
    extraction_prompt,
    group_prompt,
    lifecycle_batch_prompt,
    lifecycle_prompt,
    quality_gate_prompt,
    read_chunk_prompt,
    scope_prompt,
    split_prompt,
)
from dmem.state.context import Context
from dmem.state.schemas import Fact

_LINE = "[2024-03-04] Maya moved to Lisbon for a new job at Atlas Robotics and rides her Vespa up its hills."
"""A typical memory line, standing in for memories that do not exist before ingestion."""
_OUT = {"answer": 40, "quality_gate": 150, "group": 60, "chunk": 150, "select": 30, "judge": 50, "admit": 40,
        "split": 60, "scope": 40, "lifecycle": 50}
"""Assumed output tokens per call of each kind."""


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

    def merge(self, other: Cost) -> None:
        """Add another estimate to this one."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


@dataclass
class EstimateRow:
    """One line of the dry run's table: a method, an ingestion still to do, or the total."""

    name: str
    questions: str
    cached: str
    to_ask: str
    cost: Cost


def _tok(messages: list[BaseMessage]) -> int:
    return estimate_tokens("\n".join(str(m.content) for m in messages))


_CHUNK_TOKENS: dict[tuple[str, int, int], list[int]] = {}


def _deliberation(cost: Cost, question: str, conv: Conversation, ctx: Context, maybe: bool) -> None:
    key = (conv.conversation_id, ctx.chunk_size, ctx.chunk_history)
    if key not in _CHUNK_TOKENS:  # prompt size without the question, once per conversation
        chunks = make_chunks("", conv.messages, ctx.chunk_size, ctx.chunk_history)
        _CHUNK_TOKENS[key] = [_tok(read_chunk_prompt("", c["chunk"], c["preceding"])) for c in chunks]
    sizes = _CHUNK_TOKENS[key]
    if ctx.deliberation_mode == "focused":  # reads about its budget's share of the full scan
        full = sum(sizes)
        share = budget_tokens(ctx.deliberation_budget, full, len(conv.messages), ctx.chunk_size) / max(1, full)
        sizes = sizes[: max(1, math.ceil(min(1.0, share) * len(sizes)))]
    for tokens in sizes:
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
    retrieved = min(top_k(ctx, question) * max(1, len(conv.speakers)), len(conv.messages))
    if ctx.retrieval_mode == "hybrid":  # the best ones' episode neighbours come after them (evidence.episodes)
        retrieved += min(ctx.episode_neighbours, max(0, len(conv.messages) - retrieved))
    lines = [_LINE] * retrieved
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
        cost.add(_tok(quality_gate_prompt(question, "an answer", lines)), "quality_gate")
    if method.gated:
        _deliberation(cost, question, conv, ctx, maybe=True)
    return cost


def ingestion_cost(conv: Conversation, formation: bool, ctx: Context) -> Cost:
    """Estimated calls and tokens to ingest a conversation (assumes one fact per message).

    Lifecycle calls are a range: a fact is asked about only when a similar memory is stored.
    """
    cost, msgs = Cost(), conv.messages
    fact = Fact(text=_LINE, namespace="n")
    lifecycle_in = _tok(lifecycle_prompt(fact, []))
    for i in range(0, len(msgs), 2):
        exchange, history = msgs[i:i + 2], msgs[max(0, i - ctx.history_messages):i]
        memories = min(ctx.extraction_top_k, i) * estimate_tokens(_LINE)
        if formation:
            cost.add(_tok(admission_prompt(exchange, history)), "admit")
            cost.add(_tok(split_prompt(exchange, history, [])) + memories, "split")
            cost.add(_tok(scope_prompt([fact] * len(exchange))), "scope")
        else:
            cost.add(_tok(extraction_prompt(exchange, history, [])) + memories, "split")
        # Only facts with a similar stored memory are asked about: none at best, all at worst.
        if ctx.lifecycle_mode == "batch":
            cost.add(_tok(lifecycle_batch_prompt([fact] * len(exchange), [])), "lifecycle", maybe=True)
        else:
            cost.add(lifecycle_in, "lifecycle", len(exchange), maybe=True)
    return cost


def estimate(methods: list[Method], plan: RunPlan, ctx: Context, judged: bool) -> list[EstimateRow]:
    """A row per method (its questions still to ask), per ingestion still to do, and the total."""
    rows, grand = [], Cost()
    for method in methods:
        tasks = [t for t in plan.pending if t.method is method]
        total = Cost()
        for t in tasks:
            total.merge(question_cost(method, t.qa.question, t.conversation, ctx))
            if judged:
                total.add(_tok(judge_prompt(t.qa.question, t.qa.answer, "an answer")), "judge")
        n_all = sum(t.method is method for t in plan.tasks)
        rows.append(EstimateRow(method.name, str(n_all), str(n_all - len(tasks)), str(len(tasks)), total))
    for formation, conv in plan.to_ingest:
        cost = ingestion_cost(conv, formation, ctx)
        rows.append(EstimateRow(ingest_label(formation, conv), "-", "-",
                                f"{exchange_count(len(conv.messages))} exch.", cost))
    for row in rows:
        grand.merge(row.cost)
    rows.append(EstimateRow("total", str(len(plan.tasks)), str(len(plan.cached)), str(len(plan.pending)), grand))
    return rows
