"""Gate prompts: the quality gate's three checks and the voting gate's answer grouping."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from dmem.prompts.render import build, numbered, system_text

QUALITY_GATE_SYSTEM = system_text(
    "You are the quality gate of a memory system: a strict checker of the answers it gives.",
    "Check the answer in <answer> to the question in <question> against the lines in <memories> "
    "on three dimensions, each pass or fail with the evidence. When unsure, fail: a failed "
    "answer is re-done by a slower, more thorough reader, a wrong answer that passes is not.",
    [
        "Relevance: the answer responds to exactly what was asked (the right person, thing, "
        "time and kind of answer), not to a neighbouring question.",
        "Faithfulness & consistency: every claim in the answer is supported by the memories, "
        "nothing contradicts them (the most recent memory wins a conflict), and any date worked "
        "out from a relative time ('last year' in a memory dated 2023 is 2022) is computed right.",
        "Completeness: every part of the question is covered (all items asked for, both halves "
        "of a two-part question). An answer saying the information is unavailable, unknown or "
        "not in the memories fails completeness.",
        "Check the answer, not the memories: do not pass a wrong answer because the memories "
        "are weak.",
    ],
)

GROUP_SYSTEM = system_text(
    "You decide whether candidate answers to a question say the same thing.",
    "Group the numbered answers in <answers> so that answers in one group mean the same for "
    "<question>, and pick the member each group should return.",
    [
        "Same meaning despite wording or format counts as equivalent: '7 May 2023' and "
        "'2023-05-07', 'NYC' and 'New York City', 'a dog and a cat' and 'a cat and a dog'.",
        "Different values, a yes against a no, or a list with items missing or added are not "
        "equivalent.",
        "Every index (from 1) appears in exactly one group; a lone answer is a group of one.",
        "best lists one index per group, in the same order: the clearest member, without "
        "filler like 'I think' or 'The answer is', in standard format; on a tie, the shortest.",
    ],
)


def quality_gate_prompt(question: str, answer: str, context: Sequence[str]) -> list[BaseMessage]:
    """Prompt for the three-dimension quality gate."""
    return build(QUALITY_GATE_SYSTEM, [
        ("memories", numbered(list(context), start=None)),
        ("question", question),
        ("answer", answer),
    ])


def group_prompt(question: str, answers: Sequence[str]) -> list[BaseMessage]:
    """Prompt for grouping candidate answers (Majority Voting, Consensus), numbered from 1."""
    return build(GROUP_SYSTEM, [("question", question), ("answers", numbered(list(answers)))])
