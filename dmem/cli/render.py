"""What the CLI prints: rich tables in a terminal, one tab-separated record per line when piped."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from dmem.cli.terminal import cell, safe
from dmem.state.results import AddResult, Answer
from dmem.state.schemas import HistoryEntry, MemoryRecord

if TYPE_CHECKING:
    from dmem.cli.namespaces import NamespaceCounts
    from dmem.demo import DemoRun


def _line(console: Console, *fields: object) -> None:
    """One record as tab-separated fields (tabs and newlines inside a field become spaces)."""
    text = "\t".join(" ".join(safe(f).split()) if f is not None else "" for f in fields)
    console.file.write(text + "\n")  # not console.print: rich would expand the tabs


def print_ingest(console: Console, results: list[AddResult]) -> None:
    """Totals of an ingest: exchanges, admitted/rejected, operations, usage."""
    ops: dict[str, int] = {}
    for res in results:
        for op in res.operations:
            ops[str(op.operation)] = ops.get(str(op.operation), 0) + 1
    exchanges = sum(len(r.exchanges) for r in results)
    admitted = sum(len(r.admitted) for r in results)
    rejected = sum(len(r.rejected) for r in results)
    pending = sum(len(r.pending) for r in results)
    busy = sum(1 for r in results for ex in r.exchanges if ex.status == "claimed")
    console.print(f"{exchanges} exchanges: {admitted} utterances admitted, {rejected} rejected, "
                  f"{pending} kept for retry" + (f", {busy} being formed by another worker" if busy else ""))
    for turn in [t for r in results for t in r.pending_turns][:5]:
        console.print(safe(f"  pending {turn.conversation_id}/{turn.turn_id}: {turn.reason}"), markup=False,
                      highlight=False)
    console.print("operations: " + (", ".join(f"{k} {v}" for k, v in sorted(ops.items())) or "none"))


def print_answer(console: Console, ans: Answer) -> None:
    """The answer, its route and the gate's reasons, and what it cost."""
    whole = ans.read_share >= 1.0
    route = {"system1": "System 1 (memories)", "no_memory": "no memory",
             "deliberation": "Full Deliberation (transcript)" if whole else
             f"Focused Deliberation (read {ans.read_share:.0%} of the transcript)"}.get(ans.route, ans.route)
    console.print(Text(safe(ans.answer), style="bold"))
    console.print(f"  route: {route}{' (unaudited: the gate could not run)' if ans.unaudited else ''}",
                  highlight=False)
    for reason in ans.gate_reasons:
        console.print(f"  gate: {safe(reason)}", markup=False, highlight=False)
    if ans.evidence_turn_ids:
        console.print(f"  evidence: turns {_turn_list(ans.evidence_turn_ids)}", markup=False, highlight=False)
    for skip in ans.skipped_chunks:
        console.print(f"  not read: chunk {skip.index + 1} (turns {_turn_list(skip.turn_ids)}): {skip.reason}",
                      markup=False, highlight=False)
    total = ans.usage.get("total")
    if total and total.calls:
        retried = f" ({total.retries} failed or repeated)" if total.retries else ""
        console.print(f"  cost: {total.calls} model calls{retried}, {total.input_tokens} in / "
                      f"{total.output_tokens} out tokens, {ans.seconds:.2f}s", highlight=False)


def _turn_list(turn_ids: list[str], shown: int = 12) -> str:
    """Turn ids, the first few of a long list and how many more."""
    more = f" and {len(turn_ids) - shown} more" if len(turn_ids) > shown else ""
    return ", ".join(turn_ids[:shown]) + more


def print_memories(console: Console, records: Sequence[MemoryRecord], total: int | None = None,
                   scores: Sequence[float] | None = None) -> None:
    """Memories as a table in a terminal, else one line each: id, date, scope, categories, speaker, text."""
    when = [f"{r.event_time:%Y-%m-%d}" if r.event_time else "" for r in records]
    if not console.is_terminal:
        for i, r in enumerate(records):
            score = [f"{scores[i]:.3f}"] if scores is not None else []
            _line(console, r.id, *score, when[i], r.scope, ",".join(map(str, r.categories)), r.speaker, r.text)
        return
    table = Table("id", *(["score"] if scores is not None else []), "memory", "when", "categories", "scope",
                  "speaker")
    for i, r in enumerate(records):
        score = [f"{scores[i]:.2f}"] if scores is not None else []
        table.add_row(cell(r.id[:8]), *score, cell(r.text), when[i], ", ".join(map(str, r.categories)), str(r.scope),
                      cell(r.speaker or ""))
    console.print(table)
    if total is not None and total > len(records):
        console.print(f"{len(records)} of {total} memories shown (--limit)", highlight=False)


def print_memory(console: Console, r: MemoryRecord) -> None:
    """Every field of one memory, one 'name: value' per line."""
    for name, value in r.model_dump(mode="json").items():
        if value not in (None, [], {}):
            shown = ", ".join(map(str, value)) if isinstance(value, list) else value
            console.print(f"{name}: {safe(shown)}", markup=False, highlight=False, soft_wrap=True)


def print_users(console: Console, rows: Sequence[NamespaceCounts]) -> None:
    """The namespaces of a store with their memory and turn counts."""
    if not console.is_terminal:
        for row in rows:
            _line(console, row.namespace, row.memories, row.turns)
        return
    table = Table("namespace", "memories", "turns")
    for row in rows:
        table.add_row(cell(row.namespace), str(row.memories), str(row.turns))
    console.print(table)
    console.print(f"{len(rows)} namespace(s)", highlight=False)


def print_history(console: Console, rows: Sequence[HistoryEntry]) -> None:
    """The operation history of one memory."""
    if not console.is_terminal:
        for h in rows:
            _line(console, f"{h.at:%Y-%m-%dT%H:%M:%S}", h.operation, h.old_text, h.new_text, h.reason)
        return
    table = Table("when", "operation", "old", "new", "reason")
    for h in rows:
        table.add_row(f"{h.at:%Y-%m-%d %H:%M:%S}", str(h.operation), cell(h.old_text or ""), cell(h.new_text or ""),
                      cell(h.reason))
    console.print(table)


def print_demo(console: Console, run: DemoRun) -> None:
    """The demo's formation audit trail and its answers."""
    engine = ("offline decision engine (no chat model configured)" if run.engine == "offline"
              else "configured chat model")
    console.rule("dmem demo")
    console.print(f"engine: {engine}; store: {run.store_dir}", highlight=False)
    console.rule("formation: what was admitted and rejected")
    for d in [d for ex in run.ingest.exchanges for d in ex.admissions]:
        mark = "[green]admit [/green]" if d.admitted else "[red]reject[/red]"
        console.print(f"{mark} {escape(safe(d.speaker))}: {escape(safe(d.utterance))}", highlight=False)
        console.print(f"       {safe(d.reason)}", markup=False, highlight=False)
    console.rule("memories formed")
    for f in run.ingest.facts:
        cats = ",".join(map(str, f.categories)) or "-"
        console.print(f"- {escape(safe(f.text))}  [dim]({cats}; {f.scope}; {f.provenance})[/dim]", highlight=False)
    console.rule("questions")
    for ans in run.answers:
        console.print(f"[cyan]Q:[/cyan] {escape(safe(ans.question))}", highlight=False)
        print_answer(console, ans)
