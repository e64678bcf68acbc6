"""A fake model whose replies are derived from the prompts, so benchmarks measure real prompt sizes."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from dmem.testing import FakeChatModel

ROOT = Path(__file__).resolve().parents[1]
# The shared data sits beside the checkout (../shared), or two levels up from a worktree.
_CANDIDATES = [p / "shared" / "data" / "locomo" / "locomo-dev6.json" for p in (ROOT.parent, ROOT.parent.parent)]
LOCOMO = next((p for p in _CANDIDATES if p.is_file()), _CANDIDATES[0])


def need_data() -> Path:
    """The LoCoMo dev file, or a clean exit when ../shared is absent."""
    if not LOCOMO.is_file():
        print(f"skipped: {LOCOMO} not found (benchmarks read ../shared/data)")
        sys.exit(0)
    return LOCOMO


def _section(messages: list[BaseMessage], tag: str) -> str:
    text = "\n".join(str(m.content) for m in messages)
    found = re.findall(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return found[-1] if found else ""


def _lines(messages: list[BaseMessage], tag: str) -> list[tuple[str, str, str]]:
    out = []
    for line in _section(messages, tag).splitlines():
        m = re.match(r"^\[([^\]]+)\] (?:\[[^\]]+\] )?([^:]+): (.*)$", line)
        if m:
            out.append((m.group(1), m.group(2), m.group(3)))
    return out


def _admit(msgs: list[BaseMessage]) -> dict[str, Any]:
    return {"verdicts": [{"turn_id": t, "reason": "reusable personal fact", "admit": len(text.split()) > 5}
                         for t, _, text in _lines(msgs, "current_exchange")]}


def _split(msgs: list[BaseMessage]) -> dict[str, Any]:
    return {"facts": [{"text": f"{s} said that {text[:120]}", "speaker": s, "source_turn_ids": [t],
                       "categories": ["event"], "provenance": "stated"}
                      for t, s, text in _lines(msgs, "current_exchange")]}


def _scope(msgs: list[BaseMessage]) -> dict[str, Any]:
    n = len(re.findall(r"^\d+\. ", _section(msgs, "facts"), re.MULTILINE)) or 1
    return {"labels": [{"index": i, "reason": "generic", "scope": "GENERIC", "enrich": False}
                       for i in range(1, n + 1)]}


def _chunk(msgs: list[BaseMessage]) -> dict[str, Any]:
    rows = _lines(msgs, "chunk")[:3]
    return {"facts": [{"fact": f"On that day {s} said {text[:80]}", "score": 9 - i, "turn_ids": [t]}
                      for i, (t, s, text) in enumerate(rows)]}


def _add_each(msgs: list[BaseMessage]) -> dict[str, Any]:
    n = len(re.findall(r"^\d+\. ", _section(msgs, "new_facts"), re.MULTILINE))
    return {"decisions": [{"fact": i, "reason": "new information", "operation": "ADD"} for i in range(1, n + 1)]}


def fake_world(gate_passes: bool = True) -> FakeChatModel:
    """Replies for every schema; the audit passes or fails as asked."""
    verdict = {"reason": "checked against the memories", "passed": gate_passes}
    return FakeChatModel(script={
        "AdmissionVerdicts": _admit,
        "FactDrafts": _split,
        "ScopeLabels": _scope,
        "LifecycleDecision": [{"reason": "new information", "operation": "ADD"}],
        "LifecycleDecisions": _add_each,
        "Enrichment": [{"reason": "none", "attributes": {}}],
        "AnswerDraft": [{"reasoning": "memory 1 states it", "answer": "7 May 2023"}],
        "QualityGateVerdict": [{"relevance": verdict, "faithfulness": verdict, "completeness": verdict}],
        "AnswerGroups": [{"reason": "same date", "groups": [[1, 2, 3]] if gate_passes else [[1], [2], [3]],
                          "best": [1] if gate_passes else [1, 2, 3]}],
        "ChunkFacts": _chunk,
        "MemorySelection": [{"reason": "needed", "keep": [1, 2, 3]}],
    })
