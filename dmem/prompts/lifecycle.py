"""Mem0* update-phase prompt: ADD, UPDATE, DELETE or NOOP for one new fact."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from dmem.prompts.render import EMPTY, build, fact_line, system_text
from dmem.state.schemas import Fact, MemoryRecord

LIFECYCLE_SYSTEM = system_text(
    "You keep a memory store consistent as new facts arrive.",
    "Compare the fact in <new_fact> with the stored memories in <existing_memories>, each shown "
    "with a small integer id, and choose one operation.",
    [
        "ADD: the fact says something no listed memory covers. text = the fact.",
        "UPDATE: a listed memory is about the same subject and the fact adds detail or changes "
        "it (a new city, a later date, one more item). target = that memory's id; text = one "
        "merged memory keeping whatever still holds from the old one plus the new information.",
        "DELETE: the fact retracts or contradicts a listed memory and nothing replaces it "
        "('Omar no longer sings in the choir'). target = that memory's id.",
        "NOOP: a listed memory already says the same thing, or the fact adds nothing.",
        "Prefer UPDATE over DELETE when the fact gives the new value of something that changed.",
        "target must be one of the ids shown; leave it empty for ADD and NOOP.",
        "Give a one-sentence reason: new, refines, contradicts or already known.",
    ],
)


def lifecycle_prompt(fact: Fact, background: Sequence[MemoryRecord]) -> list[BaseMessage]:
    """Prompt for the update phase; memories are numbered 0..n-1, never by their stored ids."""
    return build(LIFECYCLE_SYSTEM, [
        ("existing_memories", "\n".join(f"id {i}: {m.render()}" for i, m in enumerate(background)) or EMPTY),
        ("new_fact", fact_line(fact)),
    ])
