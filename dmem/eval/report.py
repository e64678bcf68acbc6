"""Results on disk: the answer cache, and the reports built from it.

``results.json`` holds every question's record and the aggregates; ``table.md`` lays them out as
the D-Mem paper's Table 3 (plus the Table 2 fallback split); ``tradeoff.png`` plots score
against tokens per question. Scores are micro-averages over the questions that have the score.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
"""Official LoCoMo numbering (also RealTalk's and the D-Mem paper's)."""
_SHORT = {4: "S-H", 1: "M-H", 2: "Temp", 3: "O-D", 5: "Adv"}
_COLUMN_ORDER = [4, 1, 2, 3, 5]  # the paper's column order
SCORES = ("f1_mem0", "f1_locomo", "bleu1", "judge")
Record = dict[str, Any]


class AnswerCache:
    """Append-only JSONL of answer records; the last record of a (config, key) wins."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def load(self) -> dict[str, Record]:
        """Records by ``config|key``; unreadable lines (an interrupted write) are skipped."""
        out: dict[str, Record] = {}
        if not self.path.exists():
            return out
        bad = 0
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
                out[f"{rec['config']}|{rec['key']}"] = rec
            except (json.JSONDecodeError, KeyError, TypeError):
                bad += int(bool(line.strip()))
        if bad:
            log.warning("%s: skipped %d unreadable line(s)", self.path, bad)
        return out

    def append(self, record: Record) -> None:
        """Add one record durably (one line, flushed)."""
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a+b") as handle:
                handle.seek(0, 2)
                if handle.tell():  # a crash may have cut the last line short: never append to it
                    handle.seek(-1, 2)
                    if handle.read(1) != b"\n":
                        handle.write(b"\n")
                handle.write((json.dumps(record, ensure_ascii=False, default=str) + "\n").encode("utf-8"))
                handle.flush()


# --- Aggregation -------------------------------------------------------------------------------


def _mean(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def score_block(records: Sequence[Record]) -> dict[str, Any]:
    """Question count and mean of every score (None when no question has it)."""
    block: dict[str, Any] = {"n": len(records)}
    for name in SCORES:
        block[name] = _mean(r["scores"].get(name) for r in records)
    block["judged"] = sum(r["scores"].get("judge") is not None for r in records)
    return block


def efficiency(records: Sequence[Record]) -> dict[str, Any]:
    """Mean tokens, calls and seconds per question (answering only; judge and ingestion excluded)."""
    out: dict[str, Any] = {k: _mean(r["usage"][k] for r in records)
                           for k in ("input_tokens", "output_tokens", "total_tokens", "calls")}
    out["seconds"] = _mean(r["seconds"] for r in records)
    out["estimated"] = any(r["usage"].get("estimated") for r in records)
    return out


def fallback_split(records: Sequence[Record]) -> dict[str, Any] | None:
    """Table 2 of D-Mem: fallback rate, and scores and tokens with / without fallback."""
    gated = [r for r in records if r.get("fallback") is not None]
    if not gated:
        return None
    routed = [r for r in gated if r["fallback"]]
    kept = [r for r in gated if not r["fallback"]]
    return {"rate": len(routed) / len(gated),
            "routed": {**score_block(routed), "tokens": _mean(r["usage"]["total_tokens"] for r in routed)},
            "not_routed": {**score_block(kept), "tokens": _mean(r["usage"]["total_tokens"] for r in kept)}}


def summarize_method(records: Sequence[Record]) -> dict[str, Any]:
    """Per-category and overall scores, efficiency, fallback split and evidence recall of one method."""
    categories = sorted({r["category"] for r in records})
    recall = {k: [r["evidence_recall"][k] for r in records if r["evidence_recall"][k] is not None]
              for k in ("system1", "deliberation")}
    return {
        "categories": {str(c): score_block([r for r in records if r["category"] == c]) for c in categories},
        "overall": score_block(records),
        "efficiency": efficiency(records),
        "fallback": fallback_split(records),
        "evidence_recall": {k: {"mean": _mean(v), "n": len(v)} for k, v in recall.items()},
    }


def summarize(records: Sequence[Record], methods: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Aggregates per method, in the order given (methods without records are left out)."""
    out = {}
    for name in methods:
        mine = [r for r in records if r["method"] == name]
        if mine:
            out[name] = summarize_method(mine)
    return out


# --- Rendering ---------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def _num(value: float | None, digits: int = 0) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def main_table(summary: dict[str, dict[str, Any]], categories: Sequence[int],
               metrics: Sequence[tuple[str, str]], efficiency_columns: bool) -> list[str]:
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
            cells += [_num(eff["input_tokens"]), _num(eff["output_tokens"]), _num(eff["total_tokens"]),
                      _num(eff["calls"], 1), _num(eff["seconds"], 2)]
        lines.append(_row(cells))
    return lines


def fallback_table(summary: dict[str, dict[str, Any]]) -> list[str]:
    """Table 2 layout: per gated method, the share, scores and tokens without and with fallback."""
    lines = [_row(["Method", "Status", "Rate", "F1", "Judge", "BLEU-1", "Tokens"]), _row(["---"] * 7)]
    for name, s in summary.items():
        split = s["fallback"]
        if split is None:
            continue
        for status, key, rate in (("W/O FB", "not_routed", 1 - split["rate"]), ("W/ FB", "routed", split["rate"])):
            b = split[key]
            lines.append(_row([name, status, f"{100 * rate:.1f}%", _pct(b["f1_mem0"]), _pct(b["judge"]),
                               _pct(b["bleu1"]), _num(b["tokens"])]))
    return lines if len(lines) > 2 else ["No gated method (majority, consensus, quality) in this run."]


def recall_table(summary: dict[str, dict[str, Any]]) -> list[str]:
    """Evidence recall of System 1 retrieval (RAG: its chunks) and of Full Deliberation's facts."""
    lines = [_row(["Method", "System 1 recall", "n", "Deliberation recall", "n"]), _row(["---"] * 5)]
    for name, s in summary.items():
        rec = s["evidence_recall"]
        lines.append(_row([name, _pct(rec["system1"]["mean"]), str(rec["system1"]["n"]),
                           _pct(rec["deliberation"]["mean"]), str(rec["deliberation"]["n"])]))
    return lines


def render_markdown(summary: dict[str, dict[str, Any]], meta: dict[str, Any]) -> str:
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
        "(System 1 memories, or RAG chunks) and of Full Deliberation's facts (when it ran).", "",
        *recall_table(summary), "",
    ]
    return "\n".join(notes)


def plot_tradeoff(summary: dict[str, dict[str, Any]], path: Path) -> None:
    """Score against mean tokens per question, one labelled point per method (Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # The offline engine spends no tokens: then cost is wall seconds per question.
    cost_key = "total_tokens" if any(s["efficiency"]["total_tokens"] for s in summary.values()) else "seconds"
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label, marker in (("f1_mem0", "F1 (mem0)", "o"), ("judge", "Judge", "s")):
        points = [(s["efficiency"][cost_key] or 0.0, 100 * s["overall"][key], name)
                  for name, s in summary.items() if s["overall"][key] is not None]
        if not points:
            continue
        ax.scatter([p[0] for p in points], [p[1] for p in points], marker=marker, label=label)
        for x, y, name in points:
            ax.annotate(name, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    xs = [s["efficiency"][cost_key] or 0.0 for s in summary.values()]
    if xs and min(xs) > 0 and max(xs) / min(xs) > 20:
        ax.set_xscale("log")
    ax.set_xlabel("tokens per question (answering)" if cost_key == "total_tokens" else "seconds per question")
    ax.set_ylabel("score x100")
    ax.set_title("Accuracy / cost trade-off")
    ax.grid(True, alpha=0.3)
    if ax.collections:
        ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)


def write_reports(out: Path, records: Sequence[Record], methods: Sequence[str],
                  meta: dict[str, Any]) -> dict[str, Path]:
    """Write results.json, table.md and tradeoff.png into ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    summary = summarize(records, methods)
    paths = {"results": out / "results.json", "table": out / "table.md", "plot": out / "tradeoff.png"}
    data = {"meta": meta, "summary": summary, "records": list(records)}
    paths["results"].write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    paths["table"].write_text(render_markdown(summary, meta), encoding="utf-8")
    plot_tradeoff(summary, paths["plot"])
    log.info("wrote %s", ", ".join(str(p) for p in paths.values()))
    return paths
