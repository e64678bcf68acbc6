"""A wide question's wider share of memories, read by the offline answerer only for what the same-K lines lack.

A list, count or both-speaker question may get more memories than K (``wide_retrieval_factor``): the same-K
memories first, then the wider share (``nodes.retrieval.same_k_first``). A model reads every line and may use a
member or a date the wider share holds. The offline answerer is extractive: it joins spans of the lines it
ranks best, and more lines give it more spans to prefer, so a list gains a member of a line far down, or a
single answer moves to a line the retrieval ranked past K (RESULTS, h62b and h70b). So it answers from the
same-K lines, exactly as any question is answered, and reads the whole context only when those answer nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from dmem.state.verdicts import AnswerDraft, is_no_info


def core_first(answer: Callable[[list[str]], AnswerDraft], context: list[str], core: int | None) -> AnswerDraft:
    """``answer`` of the first ``core`` lines; of every line when they answer nothing (or ``core`` covers all).

    The answer's line numbers (``used``) are those of ``context`` either way: the same-K lines come first.
    """
    if core is None or not 0 < core < len(context):
        return answer(context)
    draft = answer(context[:core])
    return answer(context) if is_no_info(draft.answer) else draft
