"""Leave-one-conversation-out check of the formation rules' constants, on the tuning half only.

For each rule constant of issue 26's chain-aware admission, every candidate value is run in the
fast --drafts mode of benchmarks/formation.py (offline admission + split) on each tuning-half
conversation (LoCoMo conv-26/30/41, RealTalk Chat_1-3). For each held-out conversation the value is
chosen on the other two conversations of its dataset (most evidence turns formed, then fewest
drafted facts, then fewest facts linked to a question) and the held-out conversation's figures are
printed for that value and for the rule switched off, so a reader sees whether a value chosen on two
conversations helps the third.
With --unmarked each conversation counts twice, as written and as a copy in chat's bare register: every
message cut into its sentences, each sent as a message of its own without its end mark ('.', '!', '?'), the
pieces keeping their turn's id for the evidence; a rule chosen there holds when the chat drops its marks.
The report half is never read.
Usage: python benchmarks/formation_loco.py [--data DIR] [--rules WORDS (only the rules whose name holds WORDS)]
       [--unmarked]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import formation

from dmem.datasets.datasets import Conversation, load_dataset
from dmem.decisions.offline import chains, clause_rules, clauses, question_facts, replies, telegraphic
from dmem.text import asked, crossed

_SENTENCE_CUT = re.compile(r"(?<=[.!?])\s+|\n+")

OFF = 10_000
RULES: dict[str, tuple[object, str, list[int], int]] = {
    # name: (module, constant, candidates, value that switches the rule off)
    "follows: FOLLOW_MAX_WORDS": (clauses, "FOLLOW_MAX_WORDS", [8, 12, 16, 24], 0),
    "follows: FOLLOW_RUN": (replies, "FOLLOW_RUN", [1, 2, 3], 0),
    "question about the listener's event: ASKS_HOW_MIN_WORDS": (question_facts, "ASKS_HOW_MIN_WORDS", [2, 3], OFF),
    "opinion: OPINION_MIN_WORDS": (clause_rules, "OPINION_MIN_WORDS", [2, 3, 4], OFF),
    # A reply linked to the question it answers (the question's turn a source of its facts), and a fragment
    # reply stated with the question. These add sources, not facts: the tie-break is fewest links.
    # Crossed messages (both people type at once): the asker's own messages after the question and the
    # replier's own before the reply that a link may cross (0: the question right before the reply only).
    "reply to a question across crossed messages: ASKER_AFTER": (crossed, "ASKER_AFTER", [0, 1, 2], 0),
    "reply to a question across crossed messages: REPLIER_BEFORE": (crossed, "REPLIER_BEFORE", [0, 1, 2], 0),
    "reply to a question: REPLY_MAX_WORDS": (asked, "REPLY_MAX_WORDS", [0, 6, 12, 20], 0),
    "fragment stated with its question: FRAGMENT_MAX_WORDS": (chains, "FRAGMENT_MAX_WORDS", [0, 4, 8, 12], 0),
    # Whether "the"/"that" + a word makes a question presuppose a fact (1, as before issue 26's fourth
    # helper) or only a possessive, the asker's own doing or a time word (0).
    "question carrying a fact: ARTICLES_PRESUPPOSE": (question_facts, "ARTICLES_PRESUPPOSE", [0, 1], 1),
    # A sentence with no end mark that opens as a question is one (chat drops the mark): the words it needs.
    "question without its mark: UNMARKED_MIN_WORDS": (asked, "UNMARKED_MIN_WORDS", [2, 3, 4, 5], 0),
    # The other speaker's turns searched for the noun a telegraphic line leaves bare ("The puppy is adorable" after
    # "We adopted a puppy!" is about theirs); 0 = no search, every such line read as the speaker's own.
    "telegraphic: OTHERS_TURNS": (telegraphic, "OTHERS_TURNS", [1, 2, 4], 0),
}


@contextmanager
def constant(module: object, name: str, value: int) -> Iterator[None]:
    old = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, old)


def without_marks(conv: Conversation) -> Conversation:
    """The conversation as bare chat: each sentence its own message with no end mark, ids '<turn>#<k>'."""
    out = []
    for m in conv.messages:
        parts = [p for p in _SENTENCE_CUT.split(m.text or "") if p.strip()] or [m.text or ""]
        for k, part in enumerate(parts):
            out.append(m.model_copy(update={"turn_id": f"{m.turn_id}#{k}", "text": re.sub(r"[.!?]+\s*$", "", part),
                                            "image_caption": m.image_caption if k == len(parts) - 1 else None,
                                            "seq": len(out)}))
    return conv.model_copy(update={"messages": out})


def unmarked_figures(conv: Conversation) -> tuple[int, int, int, int]:
    """``figures`` of the bare copy: an evidence turn is formed when one of its pieces sources a fact."""
    evidence = {e for q in conv.qa if q.category in formation.CATEGORIES for e in q.evidence}
    bare = without_marks(conv)
    facts, sources, _ = formation.drafted(bare)
    turns = {t.split("#")[0] for t in sources}
    copy_turns = {m.turn_id: m.speaker for m in bare.messages}
    return len(evidence & turns), len(evidence), len(facts), formation.linked(facts, copy_turns)


def figures(conv: Conversation) -> tuple[int, int, int, int]:
    """(evidence turns formed, evidence turns, drafted facts, facts linked to a question) in --drafts mode."""
    fig = formation.measure_drafts(conv)
    mine = (fig.formed, fig.evidence, fig.memories, fig.linked)
    if not formation.arguments().unmarked:
        return mine
    bare = unmarked_figures(conv)
    return mine[0] + bare[0], mine[1] + bare[1], mine[2] + bare[2], mine[3] + bare[3]


def main() -> None:
    for kind in ("locomo", "realtalk"):
        dataset = load_dataset(kind, formation.SETS[kind])  # type: ignore[arg-type]
        convs = [c for c in dataset.conversations if formation.half_of(kind, c.conversation_id) == "tuning"]
        wanted = formation.option("--rules", "") or ""
        for rule, (module, name, candidates, off) in RULES.items():
            if wanted not in rule:
                continue
            runs = {}
            for value in [off, *candidates]:
                with constant(module, name, value):
                    runs[value] = {c.conversation_id: figures(c) for c in convs}
            print(f"\n{kind}, {rule} (off = {off}); per conversation formed/evidence, facts per turn:")
            for value, by_conv in runs.items():
                print(f"  {value:>5}: " + "  ".join(
                    f"{cid[:8]} {f}/{e} {n / len(next(c for c in convs if c.conversation_id == cid).messages):.3f}"
                    f" L{k}" for cid, (f, e, n, k) in by_conv.items()))
            for held in convs:
                others = [c.conversation_id for c in convs if c is not held]
                chosen = max(candidates, key=lambda v: (sum(runs[v][o][0] for o in others),
                                                        -sum(runs[v][o][2] for o in others),
                                                        -sum(runs[v][o][3] for o in others)))
                f_off, e, n_off, k_off = runs[off][held.conversation_id]
                f_on, _, n_on, k_on = runs[chosen][held.conversation_id]
                print(f"  held out {held.conversation_id[:8]}: chosen on the other two {chosen}; formed "
                      f"{f_off / e:.3f} -> {f_on / e:.3f} ({f_on - f_off:+d} turns), facts {n_off} -> {n_on} "
                      f"({(n_on - n_off) / max(n_off, 1):+.1%}), facts linked to a question {k_off} -> {k_on}")


if __name__ == "__main__":
    main()
