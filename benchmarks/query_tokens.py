"""Tokens one question costs under each gate policy, when the gate passes and when it fails.

Ingests one LoCoMo conversation with a fake model (replies derived from the prompts), then asks the
conversation's first questions under every policy. Token counts are estimates of the real prompt
sizes (4 characters a token). Usage: python benchmarks/query_tokens.py [conv-26] [--questions 5]
"""

from __future__ import annotations

import statistics
import sys
import tempfile

from _fake_world import fake_world, need_data

from dmem.api import Memory
from dmem.datasets.datasets import load_locomo

POLICIES = ["never", "quality", "majority", "consensus", "always"]


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n_q = int(sys.argv[sys.argv.index("--questions") + 1]) if "--questions" in sys.argv else 5
    dataset = load_locomo(need_data())
    conv = next(c for c in dataset.conversations if c.conversation_id == (args[0] if args else "conv-26"))
    questions = [q for q in conv.qa if q.category in (1, 2, 3, 4)][:n_q]
    namespaces = [f"{conv.conversation_id}/{s}" for s in conv.speakers]
    with tempfile.TemporaryDirectory() as d:
        with Memory(d, llm=fake_world(), embeddings="hash") as mem:
            mem.add(conv.messages, user_id=conv.conversation_id, conversation_id=conv.conversation_id,
                    speaker_namespaces=dict(zip(conv.speakers, namespaces, strict=True)))
        print(f"{conv.conversation_id}: {len(conv.messages)} messages -> "
              f"{-(-len(conv.messages) // 60)} Full Deliberation chunks; mean over {len(questions)} questions")
        print(f"{'policy':<11}{'gate':<7}{'route':<14}{'calls':>7}{'in tokens':>11}{'out tokens':>12}{'total':>9}")
        for policy in POLICIES:
            for passes in (True, False):
                if policy in ("never", "always") and not passes:
                    continue
                row(d, policy, passes, questions, namespaces)


def row(store: str, policy: str, passes: bool, questions: list, namespaces: list[str]) -> None:
    with Memory(store, llm=fake_world(gate_passes=passes), embeddings="hash", gate_policy=policy) as mem:
        answers = [mem.ask(q.question, user_ids=namespaces) for q in questions]
    t = [a.usage["total"] for a in answers]
    gate = "-" if policy in ("never", "always") else ("pass" if passes else "fail")
    routes = sorted({a.route for a in answers})
    print(f"{policy:<11}{gate:<7}{','.join(routes):<14}{statistics.mean(u.calls for u in t):>7.1f}"
          f"{statistics.mean(u.input_tokens for u in t):>11.0f}{statistics.mean(u.output_tokens for u in t):>12.0f}"
          f"{statistics.mean(u.input_tokens + u.output_tokens for u in t):>9.0f}")


if __name__ == "__main__":
    main()
