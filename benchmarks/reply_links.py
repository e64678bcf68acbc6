"""Precision and recall of linking a chat reply to the question it answers, on invented snippets.

benchmarks/data/reply_links.json holds invented chats, each with labelled replies: the position of the
other speaker's question the reply answers, or null (a topic change, a reply to something else, a
rhetorical question). The link is ``dmem.text.crossed.replied_question`` over the messages before the
reply that it reads (``crossed.readable``), the search both engines make. Batch 1 tuned the rules;
batches 2 and 3 were written after they were frozen (held out). Then how many labelled replies the two
engines link alike: the offline engine's question and the one the model engine's split check names.
Usage: python benchmarks/reply_links.py [--misses]
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from dmem.decisions.model.checks import with_questions
from dmem.decisions.offline.replies import question_replied
from dmem.state.schemas import Message
from dmem.state.verdicts import FactDraft, FactDrafts
from dmem.text import crossed

CORPUS = Path(__file__).resolve().parent / "data" / "reply_links.json"


@dataclass
class Links:
    """Counts of one batch: links right, links wrong (or where none is), links missed."""

    right: int = 0
    wrong: int = 0
    missed: int = 0

    def precision(self) -> float:
        return self.right / max(self.right + self.wrong, 1)

    def recall(self) -> float:
        return self.right / max(self.right + self.missed, 1)


def linked(turns: list[list[str]], reply: int) -> int | None:
    """The position in ``turns`` of the question the reply at ``reply`` is linked to, else None."""
    read = crossed.readable(turns[:reply])
    found = crossed.replied_question((turns[reply][0], turns[reply][1]), [(s, t) for s, t in read])
    return None if found is None else reply - len(read) + found


def figures(misses: bool = False) -> dict[int, Links]:
    """Counts by batch; with ``misses``, each wrong or missed link is printed."""
    by_batch: dict[int, Links] = {}
    for snippet in json.loads(CORPUS.read_text())["snippets"]:
        counts = by_batch.setdefault(snippet["batch"], Links())
        for reply, gold in snippet["links"]:
            got = linked(snippet["turns"], reply)
            if got is not None and got == gold:
                counts.right += 1
                continue
            counts.wrong += got is not None
            counts.missed += gold is not None
            if misses and (got is not None or gold is not None):
                print(f"batch {snippet['batch']} reply {reply}: linked {got}, labelled {gold}: {snippet['turns']}")
    return by_batch


def engines_agree() -> tuple[int, int]:
    """(replies both engines link to the same question or to none, labelled replies)."""
    same = total = 0
    for snippet in json.loads(CORPUS.read_text())["snippets"]:
        said = [Message(turn_id=f"t{i}", speaker=s, text=t, seq=i) for i, (s, t) in enumerate(snippet["turns"])]
        for reply, _ in snippet["links"]:
            offline = question_replied(said[reply], said[:reply])
            draft = FactDraft(text=said[reply].text, speaker=said[reply].speaker, source_turn_ids=[f"t{reply}"])
            named = with_questions(FactDrafts(facts=[draft]), [said[reply]], said[:reply]).facts[0].source_turn_ids
            same += (offline.turn_id if offline else None) == (named[0] if len(named) > 1 else None)
            total += 1
    return same, total


def report() -> None:
    """Print precision and recall per batch (1 and 4 tuned, 2, 3 and 5 held out)."""
    by_batch = figures("--misses" in sys.argv)
    for batch, c in sorted(by_batch.items()):
        role = "tuning" if batch in (1, 4) else "held out"
        print(f"reply links batch {batch} ({role}): P {c.precision():.3f} R {c.recall():.3f} "
              f"({c.right} right, {c.wrong} wrong, {c.missed} missed)")
    same, total = engines_agree()
    print(f"reply links, offline and model engines name the same question: {same}/{total}")


if __name__ == "__main__":
    report()
