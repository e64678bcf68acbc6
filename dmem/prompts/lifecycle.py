"""Mem0* update-phase prompts: ADD, UPDATE, DELETE or NOOP for one new fact, or for all facts of an exchange."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from dmem.prompts.render import build, fact_line, labelled, numbered, system_text
from dmem.state.schemas import Fact, MemoryRecord

_OPERATIONS = [
    "ADD: the fact says something no listed memory covers. text = the fact.",
    "UPDATE: a listed memory is about the same subject and the fact adds detail or changes "
    "it (a new city, a later date, one more item). target = that memory's label; text = one "
    "merged memory keeping whatever still holds from the old one plus the new information.",
    "DELETE: the fact retracts or contradicts a listed memory and nothing replaces it "
    "('Tomas no longer plays chess'). target = that memory's label.",
    "NOOP: a listed memory already says the same thing, or the fact adds nothing. target = the label of "
    "the memory that already says it (the fact's turn becomes one of its sources), e.g. 'Lena bakes "
    "sourdough on Sundays' against [2] 'Lena bakes sourdough every Sunday': NOOP, target 2.",
    "Prefer UPDATE over DELETE when the fact gives the new value of something that changed.",
    "An event that ends what a memory says (a sale, a loss, a move away, quitting, a break-up) is UPDATE of that "
    "memory with text = the event ('Tomas sold his chess set' against [1] 'Tomas has a chess set': UPDATE, target "
    "1): the history keeps the old text, and a DELETE would lose the event too.",
    "A memory of the same person or in the same wording frame ('Lena answered Ivo's question ...') is not "
    "the same subject: another event, answer or opinion is ADD, so an UPDATE never loses an older fact.",
    "target is the label of a listed memory (the number in brackets) for UPDATE, DELETE and NOOP; leave it "
    "empty for ADD, and for a NOOP that restates no listed memory.",
]

LIFECYCLE_SYSTEM = system_text(
    "You keep a memory store consistent as new facts arrive.",
    "Compare the fact in <new_fact> with the stored memories in <existing_memories>, each shown "
    "with a label in brackets, and choose one operation.",
    [*_OPERATIONS, "Give a one-sentence reason: new, refines, contradicts or already known."],
)

LIFECYCLE_BATCH_SYSTEM = system_text(
    "You keep a memory store consistent as new facts arrive.",
    "For each numbered fact in <new_facts>, compare it with the stored memories in "
    "<existing_memories>, each shown with a label in brackets, and choose one operation.",
    [
        *_OPERATIONS,
        "Return one decision per new fact, in order, with fact = the fact's number and a reason of a "
        "few words: new, refines, contradicts or already known.",
        "Two facts may not both UPDATE or DELETE the same memory; merge them into one UPDATE.",
    ],
)


def lifecycle_prompt(fact: Fact, background: Sequence[MemoryRecord]) -> list[BaseMessage]:
    """Prompt for the update phase; memories are labelled [1]..[n], never by their stored ids."""
    return build(LIFECYCLE_SYSTEM, [
        ("existing_memories", labelled([m.render() for m in background])),
        ("new_fact", fact_line(fact)),
    ])


def lifecycle_batch_prompt(facts: Sequence[Fact], background: Sequence[MemoryRecord]) -> list[BaseMessage]:
    """Prompt deciding every new fact of an exchange at once (memories labelled, facts numbered)."""
    return build(LIFECYCLE_BATCH_SYSTEM, [
        ("existing_memories", labelled([m.render() for m in background])),
        ("new_facts", numbered([fact_line(f) for f in facts])),
    ])
