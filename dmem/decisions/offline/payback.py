"""Memories a reader would not store apart: a reply's piece that only reacts to the question (issue #26, stop 47).

A reply admitted as the answer to the other speaker's question is kept with that question. When the reply says
something of its own in another clause ("That sounds lovely! I spent it with my aunt in Cobh"), the clause that
only reacts, thanks or turns to the listener ("That sounds lovely", "Thanks for asking", "You should try it"),
taking up no word of the question, was admitted for no fact of its own, only because it answers: it restates
the exchange, not the speaker's world.
It forms no memory of its own then; the question's turn joins the sources of the reply's first memory, so the
reply still names the question it answers. A reply of that clause alone keeps it (it is all the reply says).
"""

from __future__ import annotations

__all__ = ["restates", "without_restated"]

from dataclasses import replace

from dmem.decisions.offline.clause_admission import judge_clause
from dmem.decisions.offline.clauses import Clause, ClauseVerdict
from dmem.decisions.offline.markers import claimed
from dmem.state.verdicts import FactDraft
from dmem.text.asked import topic_stems


def restates(clause: Clause, verdict: ClauseVerdict, language: str = "en") -> bool:
    """Whether an answer clause only restates the exchange (see the module).

    It takes up no topic word of the question and, judged without it, a marker claims it for a reaction,
    the listener, advice or a general statement (``markers``).

    ``verdict``: the clause's verdict; only an 'answer' (a rejection the question overrode) can restate, and
    its ``ruled`` verdict stands for the rules' judgement without the question (they are not run again).
    """
    if verdict.kind != "answer" or clause.asked is None:
        return False
    if topic_stems(clause.text) & topic_stems(clause.asked.question, [clause.asked.asker]):
        return False  # "the cooking class was fantastic" to "did you get to the cooking class?" answers it
    alone = judge_clause(replace(clause, asked=None, replies_to=None), language, verdict.ruled)
    return not alone.admit and claimed(clause.text, alone.kind, clause.foreign, clause.names) is not None


def without_restated(drafts: list[FactDraft], restating: set[int]) -> list[FactDraft]:
    """The drafts without those that only restate the exchange, when another draft of the message is kept.

    The dropped drafts' source turns (the question answered) join the first kept draft's, before its own.
    """
    kept = [d for i, d in enumerate(drafts) if i not in restating]
    if not restating or not kept:
        return drafts
    moved = [t for i in sorted(restating) for t in drafts[i].source_turn_ids]
    sources = list(dict.fromkeys([*moved, *kept[0].source_turn_ids]))
    return [kept[0].model_copy(update={"source_turn_ids": sources}), *kept[1:]]
