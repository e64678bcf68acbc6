"""Evidence turns that are questions and formed nothing, counted by shape (issue #26, stop 49, h49e).

Over the gold evidence turns of questions in categories 1-4 that ask something (``asks``, or the verdict
'question without a first-person fact') and source no
memory, per set: by default the live memories of the stores formation.py ingested (full mode; --work and
--source as formation.py: a missing store is ingested), with --drafts the drafted facts (admission + split):
- by the admission verdict family ('question without a first-person fact' or another);
- by SHAPE, what the question would have to be stored as (``shape``): an offer or plan; an elliptical check
  (dmem's ``elliptical_check``, no auxiliary first: "the blue one? from the market?"), which the reply's yes or
  echo confirms; a question about the listener that takes something as known (wh-/how-was); a yes/no question
  about the listener; a question about the asker; a question about nobody in the chat; or, for a turn the
  verdict read as a question though ``asks`` does not ("Which would mean a raise."), no question mark;
- by the REPLY: whether the other speaker's next turn formed a fact, and whether a fact sourced on that
  reply also names the question turn (formation.py's 'linked'); by construction an unformed question is
  never linked, so 'reply formed, not linked' is the count a question-to-reply link could form.
Prints counts only. --show prints each turn with its gold question and reply, for the tuning half and the
invented batches only: it refuses the report half (the lead runs this once there, for counts).
Usage: python benchmarks/question_shapes.py [--sets tuning,report,1,2,...,8] [--show] [--drafts]
       [--work DIR] [--source HASH] [--no-ingest] [--data DIR]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import formation  # reads its own flags (--data) with parse_known_args
from _fake_world import ROOT

from dmem.api import Memory
from dmem.datasets.datasets import Conversation, load_dataset
from dmem.eval.methods import speaker_namespaces
from dmem.state.schemas import MemoryRecord
from dmem.text.asked import AUXILIARIES, asks, elliptical_check

QUESTION_VERDICT = "rejected: question without a first-person fact"
_OFFER = re.compile(r"\b(?:want(?:\s+to)?|wanna|shall\s+we|should\s+we|let'?s|join\s+(?:me|us)|fancy|up\s+for|"
                    r"how\s+about\s+(?:we|you\s+come)|why\s+don'?t\s+(?:we|you)|come\s+(?:with|over|along)|"
                    r"can\s+(?:i|we)|could\s+(?:i|we)|would\s+you\s+like)\b", re.I)
_WH = re.compile(r"^\W*(?:\w+\W+){0,3}?(?:what|when|where|which|who|whose|why|how)\b", re.I)
_LISTENER = re.compile(r"\b(?:you|u|your|ur|yours|youre|you're|you've|youve|uve|you'll|youll)\b", re.I)
_ASKS_FIRST = re.compile(rf"^\W*(?:(?:and|so|but|or|oh|wait)\W+)?(?:{AUXILIARIES}|r|am|may|must|shall|"
                         r"didn'?t|don'?t|doesn'?t|isn'?t|aren'?t|wasn'?t|won'?t|can'?t|haven'?t|hasn'?t)\b", re.I)
_ASKER = re.compile(r"\b(?:i|i'm|im|i've|ive|my|me|we|we're|our|us)\b", re.I)
SHAPES = ("offer or plan", "elliptical check", "listener, taken as known (wh-)", "listener, yes/no", "asker's own",
          "nobody in the chat",
          "no question mark, read as a question")


def shape(text: str) -> str:
    """What the question is about and how it asks (the last question sentence of the turn decides)."""
    asked = [s for s in re.split(r"(?<=[?.!])\s+", text) if "?" in s] or [text]
    last = asked[-1]
    if _OFFER.search(last):
        return SHAPES[0]
    if not _ASKS_FIRST.search(last) and elliptical_check(last):  # dmem's own check; an auxiliary first: yes/no
        return SHAPES[1]
    if _LISTENER.search(last):
        return SHAPES[2] if _WH.search(last) else SHAPES[3]
    return SHAPES[4] if _ASKER.search(text) else SHAPES[5]


@dataclass
class Found:
    """One unformed question evidence turn."""

    family: str
    shape: str
    reply: str
    """'no reply', 'reply formed nothing', 'reply formed, not linked' ('linked' never, by construction)."""
    line: str


def _reply_of(conv: Conversation, turn: str) -> str | None:
    """The other speaker's first turn after ``turn``."""
    at = next(i for i, m in enumerate(conv.messages) if m.turn_id == turn)
    asker = conv.messages[at].speaker
    return next((m.turn_id for m in conv.messages[at + 1: at + 4] if m.speaker != asker), None)


def formed(kind: str, conv: Conversation, drafts: bool) -> tuple[list[MemoryRecord], dict[str, tuple[bool, str]]]:
    """The conversation's facts (live memories, or drafts) and the admission verdict of each turn."""
    if drafts:
        facts, _, verdicts = formation.drafted(conv)
        return facts, verdicts
    namespaces = list(speaker_namespaces(conv).values())
    with Memory(formation.store_for(kind, conv), embeddings=formation.EMBEDDINGS, read_only=True) as mem:
        store = mem.services.store
        records = [r for ns in namespaces for r in store.vectors.list(ns)]
        return records, {d.turn_id: (d.admitted, d.reason) for ns in namespaces for d in store.history.admissions(ns)}


def found_in(kind: str, conv: Conversation, show: bool, drafts: bool) -> list[Found]:
    """Unformed question evidence turns of one conversation."""
    questions = [q for q in conv.qa if q.category in formation.CATEGORIES]
    asked_by = {e: q.question for q in questions for e in q.evidence}
    facts, verdicts = formed(kind, conv, drafts)
    sources = {t for f in facts for t in f.source_turn_ids}
    said = {m.turn_id: m.text for m in conv.messages}
    text = {m.turn_id: f"{m.speaker}: {m.text}" for m in conv.messages}
    out = []
    for turn in sorted(set(asked_by) - sources, key=formation._order(conv)):
        admitted, reason = verdicts.get(turn, (False, "no admission recorded"))
        family = "admitted, nothing formed" if admitted else formation.reason_family(reason)
        if turn not in said or not (asks(said[turn]) or family == QUESTION_VERDICT):
            continue
        reply = _reply_of(conv, turn)
        reply_facts = [f.text for f in facts if reply in f.source_turn_ids] if reply else []
        how = "no reply" if reply is None else "reply formed, not linked" if reply_facts else "reply formed nothing"
        line = ""
        if show:
            line = (f"{turn} {text[turn]!r}\n      gold Q: {asked_by[turn]!r}\n      verdict: {reason}\n"
                    f"      reply {reply} {text.get(reply or '', '')!r}\n      reply facts: {reply_facts}")
        out.append(Found(family, shape(said[turn]) if asks(said[turn]) else SHAPES[-1], how, line))
    return out


def conversations(name: str) -> list[tuple[str, Conversation]]:
    """(kind, conversation) of one set: 'tuning' or 'report' (dev data halves) or an invented batch number."""
    if name in ("tuning", "report"):
        return [(kind, c) for kind in ("locomo", "realtalk")
                for c in load_dataset(kind, formation.SETS[kind]).conversations  # type: ignore[arg-type]
                if formation.half_of(kind, c.conversation_id) == name]
    folder = ROOT / "benchmarks" / "data" / ("invented_chats" if name == "1" else f"invented_chats_{name}")
    if name not in formation.RELEASED_BATCHES or not folder.is_dir():
        raise SystemExit(f"question_shapes.py: no released invented batch {name!r} (batches 9 and on are held out)")
    return [("invented", c) for c in load_dataset("realtalk", folder).conversations]


def ingested(kind: str, conv: Conversation) -> bool:
    """Whether formation.py has ingested the conversation's store for this source (--work, --source)."""
    work = Path(formation.option("--work", str(ROOT / ".bench-stores" / "formation")) or "")
    folder = work / formation.source_hash() / kind
    return any(folder.glob(f"{conv.conversation_id}*.done"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="tuning,1,2,3,4,5,6,7,8")
    parser.add_argument("--show", action="store_true", help="print each turn (refused on the report half)")
    parser.add_argument("--drafts", action="store_true", help="drafted facts (fast), not the ingested stores")
    parser.add_argument("--data", default=str(Path(formation.DATA)))
    parser.add_argument("--work", help="as formation.py: where the ingested stores are (or get ingested)")
    parser.add_argument("--source", help="as formation.py: reuse the stores another source tree ingested")
    parser.add_argument("--no-ingest", action="store_true", help="skip a conversation with no ingested store")
    args, _ = parser.parse_known_args()
    names = args.sets.split(",")
    if args.show and "report" in names:
        raise SystemExit("question_shapes.py: --show refuses the report half (counts only there)")
    for name in names:
        convs = [(k, c) for k, c in conversations(name) if args.drafts or not args.no_ingest or ingested(k, c)]
        found = [f for kind, c in convs for f in found_in(kind, c, args.show, args.drafts)]
        print(f"\nset {name} ({len(convs)} conversations): unformed question evidence turns {len(found)}")
        for label, key in (("verdict", "family"), ("shape", "shape"), ("reply", "reply")):
            counts = Counter(getattr(f, key) for f in found)
            print(f"  by {label}: " + "; ".join(f"{n} {k}" for k, n in counts.most_common()))
        cross = Counter((f.shape, f.reply) for f in found if f.family == QUESTION_VERDICT)
        print("  'question without' verdict, shape x reply: "
              + "; ".join(f"{n} {s} / {r}" for (s, r), n in cross.most_common()))
        for f in found if args.show else []:
            print(f"  [{f.family} | {f.shape} | {f.reply}] {f.line}")


if __name__ == "__main__":
    main()
