"""Answer-generation and memory-filter prompts (System 1, and the final step of System 2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from langchain_core.messages import BaseMessage

from dmem.prompts.render import build, memories_block, numbered, system_text
from dmem.state.schemas import MemoryRecord
from dmem.state.verdicts import NO_INFO

AnswerStyle = Literal["short", "sentence"]
_LENGTH: dict[str, str] = {
    "short": "Answer in a few words (at most about six): the name, date, place or phrase asked for, "
    "not a sentence.",
    "sentence": "Answer in one complete sentence.",
}


def answer_system(style: AnswerStyle = "short") -> str:
    """Write the answerer's instructions for one answer style."""
    return system_text(
        "You answer questions about people from what a memory system remembers about them.",
        "Answer the question in <question> using only the numbered lines in <memories>. Each line "
        "starts with the date it was recorded or happened.",
        [
            "Use only the memories; do not add knowledge of your own and do not guess.",
            "Turn relative times into absolute dates from the line's own date: 'last month' on a "
            "line dated 2023-10-02 means September 2023. Never answer with a relative time.",
            "When memories disagree, trust the most recent one.",
            "When the question names a time (a day, a month, a year), answer from the memories of that "
            "time, by the line's date or a date it states, rather than from a like memory of another time.",
            "Names in a memory may be other people than the speakers; keep track of who did what.",
            _LENGTH[style],
            f"If the memories do not contain the answer, answer exactly: {NO_INFO}",
            "Put your brief working in reasoning, the numbers of the lines the answer rests on in "
            "used (only those, none when you cannot answer), and only the answer in answer.",
        ],
    )


FILTER_SYSTEM = system_text(
    "You pick the memories a question needs.",
    "From the numbered lines in <memories>, choose the ones strictly needed to answer <question>. "
    "Do not answer the question.",
    [
        "Keep a memory only if it gives a fact, date, event or detail the answer depends on.",
        "Leave out memories that are merely on the same topic, and near-duplicates of one kept.",
        "Indexes start at 1, as numbered. Return an empty list if none is needed.",
    ],
)


def answer_prompt(question: str, context: Sequence[str], style: AnswerStyle = "short") -> list[BaseMessage]:
    """Prompt for an answer from context lines (memories or deliberation facts)."""
    return build(answer_system(style), [
        ("memories", numbered(list(context))),
        ("question", question),
    ])


def filter_prompt(question: str, memories: Sequence[MemoryRecord]) -> list[BaseMessage]:
    """Prompt for the 'Filter' step, memories numbered from 1."""
    return build(FILTER_SYSTEM, [
        ("question", question),
        ("memories", memories_block(memories, start=1)),
    ])
