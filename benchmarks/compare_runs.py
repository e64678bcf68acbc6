"""Two `dmem eval` runs compared question by question: which answers got better, which got worse.

A mean F1 that moves by 0.1 can hide ten answers won and ten lost; a change is judged by both. Given two output
folders of `dmem eval` (or their ``answers.jsonl``), for each method they share this prints, over the questions both
runs answered (matched by the record key: method, conversation, question index):
- the mean token-set F1 (``f1_mem0``, x100, the eval table's column) of each run, and how many questions went up and
  down;
- the mean System 1 evidence recall (existing ids) of each run, and how many questions' recall went up and down;
- the mean precision and recall of the answer's evidence trace (the turns the answer drew on) of each run.
``-v`` lists each question whose F1 changed, with its gold answer and both answers. Questions only one run answered
are counted apart (two runs of different data, limits or methods compare only what they share).

Usage: python benchmarks/compare_runs.py BASE NEW [-v]
(BASE and NEW: `dmem eval --out` folders, or their answers.jsonl files.)
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

Record = dict[str, object]
EPSILON = 1e-9  # a score difference below this is no change (floating-point noise)


def load(path: Path) -> dict[str, Record]:
    """An eval's answer records by key; ``path`` is the `dmem eval --out` folder or its answers.jsonl.

    The file is the eval's answer cache (``dmem.eval.cache``): every run into one folder appends to it, under the
    fingerprint of its settings (``config``, one per method), so a question answered under two fingerprints is
    refused, not mixed.
    """
    file = path / "answers.jsonl" if path.is_dir() else path
    if not file.is_file():
        raise SystemExit(f"no answers.jsonl at {path}: pass a `dmem eval --out` folder or its answers.jsonl")
    records: dict[str, Record] = {}
    for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SystemExit(f"{file}:{n}: not a JSON line ({exc.msg})") from None
        key = str(record["key"])
        if key in records and records[key].get("config") != record.get("config"):
            # the eval's cache keeps every setting's answer to a question: which run is meant is not known
            raise SystemExit(f"{file} holds answers of two settings to {key!r} (runs with other --set or models "
                             f"into one --out folder): give each run its own --out folder")
        records[key] = record
    return records


def _number(record: Record, field: str, name: str) -> float | None:
    """``record[field][name]`` when it is a number, else None (a missing score, a question without evidence)."""
    part = record.get(field)
    value = part.get(name) if isinstance(part, dict) else None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def f1(record: Record) -> float | None:
    """The record's token-set F1 (the eval's ``f1_mem0``)."""
    return _number(record, "scores", "f1_mem0")


def s1_recall(record: Record) -> float | None:
    """The record's System 1 evidence recall over the evidence ids that exist."""
    return _number(record, "evidence_recall", "system1")


def trace_precision(record: Record) -> float | None:
    """Precision of the answer's evidence trace against the gold evidence."""
    return _number(record, "evidence_precision", "answer")


def trace_recall(record: Record) -> float | None:
    """Recall of the answer's evidence trace against the gold evidence."""
    return _number(record, "evidence_recall", "answer")


@dataclass(frozen=True)
class Change:
    """One measure over the questions both runs answered: each run's mean and the questions up and down."""

    n: int
    base: float | None
    new: float | None
    up: tuple[str, ...]
    down: tuple[str, ...]


def change(keys: list[str], base: dict[str, Record], new: dict[str, Record],
           measure: Callable[[Record], float | None]) -> Change:
    """Means over the keys where both records have the measure, and the keys whose value rose or fell."""
    pairs = [(k, a, b) for k in keys if (a := measure(base[k])) is not None and (b := measure(new[k])) is not None]
    if not pairs:
        return Change(0, None, None, (), ())
    return Change(len(pairs), sum(a for _, a, _ in pairs) / len(pairs), sum(b for _, _, b in pairs) / len(pairs),
                  tuple(k for k, a, b in pairs if b > a + EPSILON), tuple(k for k, a, b in pairs if b < a - EPSILON))


def _line(label: str, c: Change, scale: float = 1.0, digits: int = 3) -> str:
    """One measure's line: both means (times ``scale``, to ``digits`` places), the questions up and down."""
    if not c.n or c.base is None or c.new is None:
        return f"  {label}: n/a"
    return (f"  {label}: {c.base * scale:.{digits}f} -> {c.new * scale:.{digits}f} "
            f"({len(c.up)} up / {len(c.down)} down, n={c.n})")


def _short(value: object, width: int) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def report(base: dict[str, Record], new: dict[str, Record], verbose: bool = False) -> str:
    """The comparison, one block per method both runs answered."""
    lines = []
    methods = sorted({str(r["method"]) for r in base.values()} & {str(r["method"]) for r in new.values()})
    if not methods:
        return "the two runs share no method"
    for method in methods:
        in_base = {k for k, r in base.items() if r["method"] == method}
        in_new = {k for k, r in new.items() if r["method"] == method}
        keys = sorted(in_base & in_new)
        only = f"; only in base {len(in_base - in_new)}, only in new {len(in_new - in_base)}" \
            if in_base != in_new else ""
        lines.append(f"{method}: {len(keys)} questions in both{only}")
        scored = change(keys, base, new, f1)
        lines.append(_line("F1 (x100)", scored, scale=100.0, digits=2))
        lines.append(_line("System 1 evidence recall", change(keys, base, new, s1_recall)))
        lines.append(_line("answer trace precision", change(keys, base, new, trace_precision)))
        lines.append(_line("answer trace recall", change(keys, base, new, trace_recall)))
        if verbose:
            for mark, group in (("up", scored.up), ("down", scored.down)):
                for k in group:
                    a, b = base[k], new[k]
                    lines.append(f"    {mark:4} {_short(a.get('question'), 70)!r} gold {_short(a.get('gold'), 40)!r}: "
                                 f"{_short(a.get('answer'), 40)!r} -> {_short(b.get('answer'), 40)!r}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Two `dmem eval` runs compared question by question.")
    parser.add_argument("base", type=Path, help="the first run's --out folder (or its answers.jsonl)")
    parser.add_argument("new", type=Path, help="the second run's --out folder (or its answers.jsonl)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list each question whose F1 changed")
    args = parser.parse_args(argv)
    print(report(load(args.base), load(args.new), args.verbose))


if __name__ == "__main__":
    main()
