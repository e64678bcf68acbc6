"""Reports of a run: per-method aggregates, and the files built from them.

``results.json`` holds every question's record and the aggregates; ``table.md`` lays them out as
the D-Mem paper's Table 3 (plus the Table 2 fallback split, see :mod:`dmem.eval.tables`);
``tradeoff.png`` plots score against tokens per question. Scores are micro-averages over the
questions that have the score.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from dmem.eval.cache import Record
from dmem.eval.tables import RECALL_KEYS, Summary, render_markdown

log = logging.getLogger(__name__)
SCORES = ("f1_mem0", "f1_locomo", "bleu1", "judge")


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
    # Failed and repeated attempts, included above and shown apart (absent from older records).
    retries = [r["usage"].get("retries") or {} for r in records]
    out["retry_calls"] = _mean(x.get("calls") for x in retries)
    out["retry_tokens"] = _mean(x.get("input_tokens", 0) + x.get("output_tokens", 0) if x else None
                                for x in retries)
    return out


def fallback_split(records: Sequence[Record]) -> dict[str, Any] | None:
    """Table 2 of D-Mem: fallback rate, and scores and tokens with / without fallback."""
    gated = [r for r in records if r.get("fallback") is not None]
    if not gated:
        return None
    routed = [r for r in gated if r["fallback"]]
    kept = [r for r in gated if not r["fallback"]]
    return {"rate": len(routed) / len(gated), "routed": _with_tokens(routed), "not_routed": _with_tokens(kept)}


def _with_tokens(records: Sequence[Record]) -> dict[str, Any]:
    return {**score_block(records), "tokens": _mean(r["usage"]["total_tokens"] for r in records)}


def summarize_method(records: Sequence[Record]) -> dict[str, Any]:
    """Per-category and overall scores, efficiency, fallback split and evidence recall of one method."""
    categories = sorted({r["category"] for r in records})
    recall = {k: [r["evidence_recall"].get(k) for r in records if r["evidence_recall"].get(k) is not None]
              for k in RECALL_KEYS}
    shares = [r["read_share"] for r in records if r.get("read_share") is not None]
    cited = [p for r in records if (p := (r.get("evidence_precision") or {}).get("answer")) is not None]
    return {
        "categories": {str(c): score_block([r for r in records if r["category"] == c]) for c in categories},
        "overall": score_block(records),
        "efficiency": efficiency(records),
        "fallback": fallback_split(records),
        "evidence_recall": {k: {"mean": _mean(v), "n": len(v)} for k, v in recall.items()},
        "evidence_precision": {"answer": {"mean": _mean(cited), "n": len(cited)}},
        "read_share": {"mean": _mean(shares), "n": len(shares)},
        "evidence_ids": {"existing": sum(len(r["evidence"]) for r in records),
                         "missing": sum(len(r.get("missing_evidence") or []) for r in records)},
    }


def summarize(records: Sequence[Record], methods: Sequence[str]) -> Summary:
    """Aggregates per method, in the order given (methods without records are left out)."""
    out = {}
    for name in methods:
        mine = [r for r in records if r["method"] == name]
        if mine:
            out[name] = summarize_method(mine)
    return out


# --- Plot and files -----------------------------------------------------------------------------


def plot_tradeoff(summary: Summary, path: Path) -> None:
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
