"""``table.md``: the D-Mem paper's Table 3 and Table 2 layouts, and evidence recall, in Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
"""Official LoCoMo numbering (also RealTalk's and the D-Mem paper's)."""
_SHORT = {4: "S-H", 1: "M-H", 2: "Temp", 3: "O-D", 5: "Adv"}
_COLUMN_ORDER = [4, 1, 2, 3, 5]  # the paper's column order
Summary = dict[str, dict[str, Any]]
RECALL_KEYS = ("system1", "system1_missing_counted", "deliberation", "answer")
"""Per-question evidence recall figures; only ``system1_missing_counted`` counts gold ids that name no turn."""


def fmt(value: float | None, scale: float = 1.0, digits: int = 1) -> str:
    """``value * scale`` with thousands separators and ``digits`` decimals; 'n/a' for a missing value."""
    return "n/a" if value is None else f"{value * scale:,.{digits}f}"


def _pct(value: float | None) -> str:
    return fmt(value, 100)


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def main_table(summary: Summary, categories: Sequence[int], metrics: Sequence[tuple[str, str]],
               efficiency_columns: bool) -> list[str]:
    """Table 3 layout: each metric per category and overall, then (optionally) efficiency."""
    heads = ["Method"]
    for _, title in metrics:
        heads += [f"{title} {_SHORT[c]}" for c in categories] + [f"{title} Avg"]
    if efficiency_columns:
        heads += ["In tok", "Out tok", "Total tok", "Calls", "Time (s)"]
    lines = [_row(heads), _row(["---"] * len(heads))]
    for name, s in summary.items():
        cells = [name]
        for key, _ in metrics:
            cells += [_pct(s["categories"].get(str(c), {}).get(key)) for c in categories]
            cells.append(_pct(s["overall"][key]))
        if efficiency_columns:
            eff = s["efficiency"]
            cells += [fmt(eff["input_tokens"], digits=0), fmt(eff["output_tokens"], digits=0),
                      fmt(eff["total_tokens"], digits=0), fmt(eff["calls"]), fmt(eff["seconds"], digits=2)]
        lines.append(_row(cells))
    return lines


def fallback_table(summary: Summary) -> list[str]:
    """Table 2 layout: per gated method, the share, scores and tokens without and with fallback."""
    lines = [_row(["Method", "Status", "Rate", "F1", "Judge", "BLEU-1", "Tokens"]), _row(["---"] * 7)]
    for name, s in summary.items():
        split = s["fallback"]
        if split is None:
            continue
        for status, key, rate in (("W/O FB", "not_routed", 1 - split["rate"]), ("W/ FB", "routed", split["rate"])):
            b = split[key]
            lines.append(_row([name, status, f"{_pct(rate)}%", _pct(b["f1_mem0"]), _pct(b["judge"]),
                               _pct(b["bleu1"]), fmt(b["tokens"], digits=0)]))
    return lines if len(lines) > 2 else ["No gated method (majority, consensus, quality) in this run."]


def recall_table(summary: Summary) -> list[str]:
    """Evidence recall of retrieval, deliberation's facts and the answer's trace; the trace's precision; share read.

    The trace's precision is the share of the turns it names that are gold evidence. Retrieval is System 1's
    memories (RAG: its chunks); the share is of the full scan's transcript tokens.
    Recall is over the gold evidence ids that name a turn of the conversation: ids naming no turn are
    not counted, except in the System 1 column that says it counts them (the headers say which).
    """
    heads = ["Method", "System 1 recall (existing ids; missing not counted)", "n",
             "System 1 recall (missing ids counted)", "n", "Deliberation recall (existing ids)", "n",
             "Answer trace recall (existing ids)", "n", "Answer trace precision", "n", "Transcript read", "n"]
    lines = [_row(heads), _row(["---"] * len(heads))]
    for name, s in summary.items():
        rec, share = s["evidence_recall"], s.get("read_share") or {"mean": None, "n": 0}
        cells = [name]
        for key in RECALL_KEYS:
            block = rec.get(key) or {"mean": None, "n": 0}
            cells += [_pct(block["mean"]), str(block["n"])]
        cited = (s.get("evidence_precision") or {}).get("answer") or {"mean": None, "n": 0}
        cells += [_pct(cited["mean"]), str(cited["n"])]
        lines.append(_row([*cells, _pct(share["mean"]), str(share["n"])]))
    return lines


def _missing_note(summary: Summary) -> str:
    """How many gold evidence ids of the run's questions name no turn, and which columns count them."""
    ids = next((s["evidence_ids"] for s in summary.values() if "evidence_ids" in s), None)
    counts = "" if ids is None else (f" ({ids['missing']} of the {ids['existing'] + ids['missing']} gold "
                                     "evidence ids of a method's questions here)")
    return (f"Gold evidence ids that name no turn of the conversation{counts} are left out of every recall "
            "column except \"System 1 recall (missing ids counted)\", where they count as not found.")


def render_markdown(summary: Summary, meta: dict[str, Any]) -> str:
    """The whole ``table.md``."""
    categories = [c for c in _COLUMN_ORDER if any(str(c) in s["categories"] for s in summary.values())]
    judge = meta.get("judge_model") or "n/a (no judge model: judge scores are not available)"
    notes = [
        f"# {meta.get('dataset', 'evaluation')}: {meta.get('questions', 0)} answers, model {meta.get('model')}",
        "",
        "Scores x100, micro-averaged over the questions that have them. **F1** = mem0 / A-Mem token-set F1 "
        "(the D-Mem paper's tables); **F1 (LoCoMo)** = the official LoCoMo scorer (stemmed, multi-hop "
        "comma rule); **BLEU-1** = NLTK sentence BLEU-1 (regex sentence split instead of Punkt); "
        f"**Judge** = LLM-as-judge accuracy (judge: {judge}). Columns: "
        + ", ".join(f"{_SHORT[c]} = {CATEGORY_NAMES[c]} ({c})" for c in categories)
        + (". Adversarial questions (5) get only the official LoCoMo check (1 when the answer declines), "
           "shown as their F1 (LoCoMo)" if 5 in categories else "")
        + ". Tokens, calls and seconds are means per question, answering only.",
        "",
        "## Overall performance (D-Mem Table 3 layout)", "",
        *main_table(summary, categories, [("f1_mem0", "F1"), ("judge", "Judge"), ("bleu1", "BLEU-1")], True), "",
        "## F1 of the official LoCoMo scorer", "",
        *main_table(summary, categories, [("f1_locomo", "F1 (LoCoMo)")], False), "",
        "## Fallback (D-Mem Table 2 layout)", "", *fallback_table(summary), "",
        "## Evidence recall", "",
        "Share of each question's evidence turns among the source turns of what was retrieved "
        "(System 1 memories, or RAG chunks), of deliberation's facts (when it ran) and of the answer's "
        "evidence trace; and the share of the full scan's transcript tokens deliberation read (when it ran, "
        "in %). " + _missing_note(summary), "",
        *recall_table(summary), "",
    ]
    return "\n".join(notes)
