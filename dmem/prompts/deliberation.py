"""Full Deliberation prompts: the per-chunk reader (map) and the fact selection (reduce)."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from dmem.prompts.render import build, messages_block, numbered, system_text
from dmem.state.schemas import Message
from dmem.state.verdicts import ScoredFact

READ_CHUNK_SYSTEM = system_text(
    "You read one stretch of a long conversation in search of what a question needs.",
    "Extract from <chunk> the facts that help answer <question>. <preceding_messages> come just "
    "before the chunk and only help you follow it; take no fact from them.",
    [
        "Each fact is one standalone sentence naming the speaker and the date it was said "
        "(e.g. 'On 2024-03-18 Maya drove a rented Jeep to the coast').",
        "Replace pronouns with who or what they mean, using the surrounding messages.",
        "Turn relative times into dates from the message's timestamp ('yesterday' in a message "
        "of 2023-05-08 is 2023-05-07; 'last year' is 2022).",
        "Score each fact 0-10 for how much it helps answer the question: 0 unrelated, 5-6 "
        "somewhat related, 7-8 clearly relevant, 9-10 essential.",
        "turn_ids lists the labels (numbers in brackets) of the chunk messages the fact was read from.",
        "Return no facts if nothing in the chunk bears on the question.",
    ],
)

SELECT_SYSTEM = system_text(
    "You pick the facts a question needs.",
    "From the numbered facts in <facts>, choose the ones needed to answer <question>. Do not "
    "answer the question.",
    [
        "Keep a fact if it gives a date, event, detail or link the answer depends on.",
        "Leave out facts that are only on the same topic, and duplicates of one kept.",
        "Indexes start at 1, as numbered. Return an empty list if none is needed.",
    ],
)


def read_chunk_prompt(question: str, chunk: Sequence[Message],
                      history: Sequence[Message]) -> list[BaseMessage]:
    """Prompt for the chunk reader (Full Deliberation stage 1)."""
    return build(READ_CHUNK_SYSTEM, [
        ("question", question),
        ("preceding_messages", messages_block(history)),
        ("chunk", messages_block(chunk, labelled=True)),
    ])


def select_prompt(question: str, facts: Sequence[ScoredFact]) -> list[BaseMessage]:
    """Prompt for choosing the facts needed (Full Deliberation stage 2), numbered from 1."""
    return build(SELECT_SYSTEM, [
        ("question", question),
        ("facts", numbered([f.fact for f in facts])),
    ])
