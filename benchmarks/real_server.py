"""One LoCoMo session and 10 questions against a live OpenAI-compatible server: calls, tokens, retries, seconds.

Requests go through a counting proxy on loopback, so the tokens the server reported for every
request it answered (including attempts dmem gave up on) are printed beside dmem's own count.
Questions: those whose evidence lies in the session first, then the conversation's next ones.

Usage (the server from ../shared/tools/llm-server.sh):
    ../shared/tools/llm-server.sh start 8091
    python benchmarks/real_server.py http://127.0.0.1:8091/v1 [--conversation conv-26] [--session 1]
    ../shared/tools/llm-server.sh stop
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time
from dataclasses import dataclass

from _fake_world import need_data

from dmem.api import Memory, iter_exchanges
from dmem.datasets.datasets import QAItem, load_locomo
from dmem.state.schemas import Usage
from dmem.testing_http import ChatServer, ServerCount, proxy


@dataclass
class Row:
    """One measured step: an exchange or a question."""

    what: str
    usage: Usage
    server_in: int
    server_out: int
    server_requests: int
    seconds: float


def measure(count: ServerCount, what: str, work: object) -> tuple[Row, object]:
    """Run ``work()`` and what it cost, by dmem's count and by the server's."""
    before = (count.requests, count.input_tokens, count.output_tokens)
    started = time.perf_counter()
    result, usage = work()  # type: ignore[operator]
    seconds = time.perf_counter() - started
    return Row(what, usage, count.input_tokens - before[1], count.output_tokens - before[2],
               count.requests - before[0], seconds), result


def questions(qa: list[QAItem], session: int, n: int) -> list[QAItem]:
    """Questions answerable from the session first, then the next ones (adversarial ones left out)."""
    tag = f"D{session}:"
    scored = [q for q in qa if q.category != 5]
    inside = [q for q in scored if q.evidence and all(e.startswith(tag) for e in q.evidence)]
    return (inside + [q for q in scored if q not in inside])[:n]


def show(title: str, rows: list[Row], per: int) -> None:
    """A table of rows and its totals (per turn for ingestion: ``per`` turns each row)."""
    print(f"\n{title}")
    print(f"{'step':<34}{'calls':>6}{'retries':>8}{'dmem in':>9}{'dmem out':>9}{'srv req':>8}{'srv in':>8}"
          f"{'srv out':>8}{'seconds':>9}")
    for r in rows:
        u = r.usage
        print(f"{r.what[:33]:<34}{u.calls:>6}{u.retries:>8}{u.input_tokens:>9}{u.output_tokens:>9}"
              f"{r.server_requests:>8}{r.server_in:>8}{r.server_out:>8}{r.seconds:>9.1f}")
    n = sum(per for _ in rows) or 1
    calls, retries = sum(r.usage.calls for r in rows), sum(r.usage.retries for r in rows)
    d_in, d_out = sum(r.usage.input_tokens for r in rows), sum(r.usage.output_tokens for r in rows)
    s_in, s_out = sum(r.server_in for r in rows), sum(r.server_out for r in rows)
    secs = sum(r.seconds for r in rows)
    unit = "turn" if per == 2 else "question"
    print(f"per {unit}: {calls / n:.2f} calls, {retries / n:.2f} retries, dmem {d_in / n:.0f} in / {d_out / n:.0f} "
          f"out tokens, server {s_in / n:.0f} in / {s_out / n:.0f} out tokens, {secs / n:.1f} s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("base_url")
    p.add_argument("--conversation", default="conv-26")
    p.add_argument("--session", type=int, default=1)
    p.add_argument("--questions", type=int, default=10)
    p.add_argument("--policy", default="quality")
    args = p.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    conv = next(c for c in load_locomo(need_data()).conversations if c.conversation_id == args.conversation)
    turns = [m for m in conv.messages if m.turn_id.startswith(f"D{args.session}:")]
    names = {s: f"{conv.conversation_id}/{s}" for s in conv.speakers}
    count = ServerCount()
    with ChatServer(proxy(args.base_url, count=count)) as server, tempfile.TemporaryDirectory() as d, \
            Memory(d, llm="openai-compatible:qwen2.5-0.5b-instruct", base_url=server.url, gate_policy=args.policy,
                   request_timeout=900.0, call_deadline=1800.0) as mem:
        ingest: list[Row] = []
        for exchange in iter_exchanges(turns):
            def add(ex=exchange):  # noqa: ANN001, ANN202 - a closure per exchange
                res = mem.add(ex, user_id=conv.conversation_id, conversation_id=conv.conversation_id,
                              speaker_namespaces=names)
                return res, res.usage()["total"]
            row, res = measure(count, " ".join(m.turn_id for m in exchange), add)
            row.what += f" {res.exchanges[0].status}"  # type: ignore[attr-defined]
            ingest.append(row)
            print(f"  {row.what}: {row.usage.calls} calls, {row.seconds:.0f}s", flush=True)
        asked: list[Row] = []
        for qa in questions(conv.qa, args.session, args.questions):
            def ask(q=qa):  # noqa: ANN001, ANN202
                ans = mem.ask(q.question, user_ids=list(names.values()))
                return ans, ans.usage["total"]
            row, ans = measure(count, qa.question, ask)
            asked.append(row)
            print(f"  {qa.question!r} -> {ans.answer!r} (gold {qa.answer!r}; {ans.route}"  # type: ignore[attr-defined]
                  f"{', unaudited' if ans.unaudited else ''}; {row.seconds:.0f}s)", flush=True)  # type: ignore[attr-defined]
    print(f"\n{conv.conversation_id} session {args.session}: {len(turns)} turns; policy {args.policy}; "
          f"model qwen2.5-0.5b-instruct at {args.base_url}")
    show("ingestion, per exchange", ingest, 2)
    show(f"questions ({args.policy})", asked, 1)


if __name__ == "__main__":
    main()
