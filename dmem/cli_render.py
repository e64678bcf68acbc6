"""What the CLI prints (rich tables) and how it reads files to ingest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from dmem.errors import DataError
from dmem.state.results import AddResult, Answer
from dmem.state.schemas import HistoryEntry, MemoryRecord
from dmem.store.namespaces import validate_namespace

if TYPE_CHECKING:
    from dmem.api import Memory
    from dmem.demo import DemoRun


def _progress(console: Console, quiet: bool) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, disable=quiet, transient=True)


def _advancer(progress: Progress, task: Any) -> Any:
    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done)

    return advance


def read_messages(path: Path) -> list[Any]:
    """Messages from a JSON list (or {'messages': [...]}) or a JSONL file (one object per line)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path} is not UTF-8 text (byte {exc.start} cannot be decoded); is it a binary file?"
                        ) from None
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None
    if path.suffix == ".jsonl":
        return [_json_line(path, number, line) for number, line in enumerate(text.splitlines(), start=1)
                if line.strip()]
    data = _json(path, text)
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        data = data["messages"]
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a list of messages or {{'messages': [...]}}")
    return data


def _json(path: Path, text: str, where: str = "") -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise DataError(f"{path}{where}: JSON nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        line = f"line {exc.lineno} column {exc.colno}" if not where else f"column {exc.colno}"
        raise DataError(f"{path}{where}: not valid JSON ({line}: {exc.msg})") from None


def _json_line(path: Path, number: int, line: str) -> Any:
    data = _json(path, line, f" line {number}")
    if not isinstance(data, dict):
        raise DataError(f"{path} line {number}: expected a JSON object (one message), got {type(data).__name__}")
    return data


def ingest_file(mem: Memory, path: Path, *, user_id: str | None, console: Console, quiet: bool) -> list[AddResult]:
    """Ingest a LoCoMo/RealTalk dataset (per-speaker namespaces) or a plain message file.

    A plain file goes to ``user_id`` (default 'default') as conversation ``<file stem>``. A dataset
    stores each speaker of each conversation in ``<conversation>/<speaker>``, prefixed by
    ``<user_id>/`` when one is given.
    """
    from dmem.eval.datasets import detect_kind, load_dataset

    if not path.is_file():
        raise DataError(f"file {str(path)!r} does not exist")
    if user_id is not None:
        validate_namespace(user_id)
    kind = detect_kind(path) if path.suffix == ".json" else None
    results = []
    with _progress(console, quiet) as progress:
        if kind is None:
            msgs = read_messages(path)
            task = progress.add_task(f"ingesting {path.name}", total=max(1, (len(msgs) + 1) // 2))
            results.append(mem.add(msgs, user_id="default" if user_id is None else user_id,
                                   conversation_id=path.stem,
                                   progress=_advancer(progress, task)))
            return results
        dataset = load_dataset(kind, path)  # type: ignore[arg-type]
        prefix = "" if user_id is None else f"{user_id}/"
        for conv in dataset.conversations:
            names = {s: f"{prefix}{conv.conversation_id}/{s}" for s in conv.speakers}
            task = progress.add_task(f"{conv.conversation_id}", total=max(1, (len(conv.messages) + 1) // 2))
            results.append(mem.add(conv.messages, user_id=f"{prefix}{conv.conversation_id}",
                                   conversation_id=conv.conversation_id, speaker_namespaces=names,
                                   progress=_advancer(progress, task)))
    return results


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
        console.print(f"  pending {turn.conversation_id}/{turn.turn_id}: {turn.reason}", markup=False,
                      highlight=False)
    console.print("operations: " + (", ".join(f"{k} {v}" for k, v in sorted(ops.items())) or "none"))


def print_answer(console: Console, ans: Answer) -> None:
    """The answer, its route and the gate's reasons, and what it cost."""
    whole = ans.read_share >= 1.0
    route = {"system1": "System 1 (memories)", "no_memory": "no memory",
             "deliberation": "Full Deliberation (transcript)" if whole else
             f"Focused Deliberation (read {ans.read_share:.0%} of the transcript)"}.get(ans.route, ans.route)
    console.print(f"[bold]{ans.answer}[/bold]")
    console.print(f"  route: {route}{' (unaudited: the gate could not run)' if ans.unaudited else ''}",
                  highlight=False)
    for reason in ans.gate_reasons:
        console.print(f"  gate: {reason}", markup=False, highlight=False)
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


def print_memories(console: Console, records: list[MemoryRecord]) -> None:
    """A table of memories with their categories, scope and provenance."""
    table = Table("id", "memory", "when", "categories", "scope", "provenance", show_lines=False)
    for r in records:
        when = f"{r.event_time:%Y-%m-%d}" if r.event_time else ""
        table.add_row(r.id[:8], r.text, when, ", ".join(map(str, r.categories)), str(r.scope), str(r.provenance))
    console.print(table)


def print_history(console: Console, rows: list[HistoryEntry]) -> None:
    """The operation history of one memory."""
    table = Table("when", "operation", "old", "new", "reason")
    for h in rows:
        table.add_row(f"{h.at:%Y-%m-%d %H:%M:%S}", str(h.operation), h.old_text or "", h.new_text or "", h.reason)
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
        console.print(f"{mark} {d.speaker}: {d.utterance}", highlight=False)
        console.print(f"       {d.reason}", markup=False, highlight=False)
    console.rule("memories formed")
    for f in run.ingest.facts:
        cats = ",".join(map(str, f.categories)) or "-"
        console.print(f"- {f.text}  [dim]({cats}; {f.scope}; {f.provenance})[/dim]", highlight=False)
    console.rule("questions")
    for ans in run.answers:
        console.print(f"[cyan]Q:[/cyan] {ans.question}", highlight=False)
        print_answer(console, ans)
