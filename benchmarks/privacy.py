"""Where personal data leaks: enrichment queries, LangSmith traces per trace_redaction mode, unscoped memories.

An invented corpus (``benchmarks/_privacy_corpus.py``: personal sentences with the secret each
holds, public sentences with the entity a lookup may carry; written apart from the tuning examples
in ``tests/``) goes through ``Memory.add`` (one sentence, one user) and one ``ask`` per user, with:

- the offline engine (rules; no chat model);
- a hostile fake model: it rewrites each personal sentence into "<speaker> noted <secret>", scopes
  every fact EXTERNAL with the secret as the public entity, and quotes the memory in its answers.

Each engine runs with trace_redaction off, pii and all; a real LangSmith client sends to a loopback
collector, and every sentence whose secret appears in what was sent counts. Embeddings: 'hash'.

    python benchmarks/privacy.py [--limit N]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._privacy_corpus import PERSONAL, PUBLIC  # noqa: E402
from tests.collector import Collector  # noqa: E402
from tests.conftest import default_script, last_section  # noqa: E402

SPEAKER = "Tove"
MODES = ("off", "pii", "all")


_IDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{8}T\d{6,}Z?|"
                  r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?", re.IGNORECASE)


def without_ids(sent: str) -> str:
    """What was sent, run ids and timestamps blanked: a PIN like 5521 may be a segment of a run's UUID."""
    return _IDS.sub("#", sent)


def appears(haystack: str, secret: str) -> bool:
    """The secret as written (any case), not glued to other letters or digits."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(secret)}(?![0-9A-Za-z])", haystack, re.IGNORECASE) is not None


def _said(messages: list[Any]) -> list[tuple[str, str]]:
    """(turn id, text) of each line of the current exchange."""
    out = []
    for line in last_section(messages, "current_exchange").splitlines():
        if m := re.match(r"^\[([^\]]+)\] (?:\[[^\]]+\] )?[^:]+: (.*)$", line):
            out.append((m.group(1), m.group(2)))
    return out


def hostile_script() -> dict[str, Any]:
    """A model that hides secrets from the detector in its rewrites and names them as public entities."""
    secrets = dict(PERSONAL)
    entities = dict(PUBLIC)

    def rewrite(messages: list[Any]) -> dict[str, Any]:
        facts = []
        for turn, text in _said(messages):
            body = f"{SPEAKER} noted {secrets[text]}" if text in secrets else f"{SPEAKER} said: {text}"
            facts.append({"text": body, "speaker": SPEAKER, "source_turn_ids": [turn], "categories": ["persona"]})
        return {"facts": facts}

    def scope(messages: list[Any]) -> dict[str, Any]:
        labels = []
        for line in last_section(messages, "facts").splitlines():
            if not (m := re.match(r"^(\d+)\. (.*)$", line)):
                continue
            text = m.group(2)
            secret = next((s for s in secrets.values() if s in text), None)
            public = next((e for s, e in entities.items() if e and s in text), None)
            labels.append({"index": int(m.group(1)), "reason": "a well-known entity", "scope": "EXTERNAL",
                           "enrich": True, "entity": secret or public})
        return {"labels": labels}

    def answer(messages: list[Any]) -> dict[str, Any]:
        lines = last_section(messages, "memories").splitlines()
        return {"reasoning": "memory 1", "answer": lines[0] if lines else "I do not know."}

    script = default_script()
    script.update(FactDrafts=rewrite, ScopeLabels=scope, AnswerDraft=answer)
    return script


@dataclass
class Run:
    """What one engine in one redaction mode leaked."""

    queries: list[str] = field(default_factory=list)
    in_queries: set[int] = field(default_factory=set)
    in_traces: set[int] = field(default_factory=set)
    unscoped: set[int] = field(default_factory=set)
    public_personal: set[int] = field(default_factory=set)
    public_looked_up: set[int] = field(default_factory=set)
    seconds: float = 0.0


def run(engine: str, mode: str, personal: list[tuple[str, str]], public: list[tuple[str, str | None]]) -> Run:
    """Add every sentence (one user each), ask each user once, then count what leaked where."""
    import langsmith
    import langsmith.utils
    from langchain_core.tracers.langchain import wait_for_all_tracers

    from dmem.api import Memory
    from dmem.store.knowledge import StaticKnowledge
    from dmem.testing import FakeChatModel

    collector = Collector()
    os.environ.update(LANGSMITH_ENDPOINT=collector.url, LANGSMITH_TRACING="true", LANGSMITH_API_KEY="bench",
                      LANGSMITH_PROJECT="dmem-privacy")
    langsmith.utils.get_env_var.cache_clear()
    langsmith.configure(client=None)
    out = Run()
    llm = FakeChatModel(script=hostile_script()) if engine == "hostile model" else None
    started = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "store", llm=llm, embeddings="hash",
                                                          trace_redaction=mode, external_knowledge=True) as mem:
            knowledge = StaticKnowledge({})
            mem.resources.knowledge = knowledge
            for i, (sentence, secret) in enumerate(personal):
                before = len(knowledge.queries)
                mem.add([{"speaker": SPEAKER, "text": sentence, "turn_id": "t1"}], user_id=f"p{i}")
                if any(appears(q, secret) or secret.lower() in q.lower() for q in knowledge.queries[before:]):
                    out.in_queries.add(i)
                mem.ask(f"What did {SPEAKER} tell me?", user_id=f"p{i}")
                if any(m.scope != "USER_PII" for m in mem.get_all(user_id=f"p{i}")):
                    out.unscoped.add(i)
            for j, (sentence, _entity) in enumerate(public):
                before = len(knowledge.queries)
                mem.add([{"speaker": SPEAKER, "text": sentence, "turn_id": "t1"}], user_id=f"q{j}")
                if knowledge.queries[before:]:
                    out.public_looked_up.add(j)
                if any(m.scope == "USER_PII" for m in mem.get_all(user_id=f"q{j}")):
                    out.public_personal.add(j)
            mem.tracing.flush()
            wait_for_all_tracers()
            out.queries = list(knowledge.queries)
        sent = without_ids(collector.bodies())
        out.in_traces = {i for i, (_s, secret) in enumerate(personal) if appears(sent, secret)}
    finally:
        collector.close()
        langsmith.configure(client=None)
    out.seconds = time.perf_counter() - started
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="use only the first N sentences of each list")
    parser.add_argument("--show", action="store_true", help="print the sentences behind each count")
    parser.add_argument("--modes", default=",".join(MODES), help="trace_redaction modes to run (comma-separated)")
    parser.add_argument("--engines", default="offline,hostile model", help="engines to run (comma-separated)")
    args = parser.parse_args()
    personal = PERSONAL[: args.limit or None]
    public = PUBLIC[: args.limit or None]
    from dmem.privacy.detect import detect

    flagged = [s for s, _ in public if detect(s)]
    missed = [s for s, _ in personal if not detect(s)]
    print(f"corpus: {len(personal)} personal, {len(public)} public sentences (invented; not the tuning corpus)")
    print(f"detector: personal sentences found {len(personal) - len(missed)}/{len(personal)}; "
          f"public sentences wrongly flagged {len(flagged)}/{len(public)} ({100 * len(flagged) / len(public):.1f} %)")
    if args.show:
        for s in missed:
            print(f"  missed: {s}")
        for s in flagged:
            print(f"  flagged: {s}")
    print()
    header = (f"{'engine':<14} {'mode':<4} {'in queries':>10} {'in traces':>10} {'not USER_PII':>12} "
              f"{'public USER_PII':>15} {'public looked up':>16} {'seconds':>8}")
    print(header)
    for engine in args.engines.split(","):
        for mode in args.modes.split(","):
            r = run(engine, mode, personal, public)
            n, m = len(personal), len(public)
            print(f"{engine:<14} {mode:<4} {len(r.in_queries):>5}/{n:<4} {len(r.in_traces):>5}/{n:<4} "
                  f"{len(r.unscoped):>7}/{n:<4} {len(r.public_personal):>10}/{m:<4} "
                  f"{len(r.public_looked_up):>11}/{m:<4} {r.seconds:>8.1f}")
            if args.show:
                for what, found in (("query", r.in_queries), ("trace", r.in_traces), ("unscoped", r.unscoped)):
                    for i in sorted(found):
                        print(f"    {what}: {personal[i][0]}  [{personal[i][1]}]")


if __name__ == "__main__":
    main()
