"""Mem0*-style extraction prompt, used when the Gated Memory formation layer is off."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from dmem.prompts.render import build, memories_block, messages_block, system_text
from dmem.state.schemas import MemoryRecord, Message

EXTRACT_SYSTEM = system_text(
    "You keep the long-term memory of the people in a conversation.",
    "Pick out the salient personal facts in <current_exchange>. <existing_memories> are the most "
    "similar facts already stored and <recent_messages> are the turns just before; both are "
    "context only.",
    [
        "Extract facts about the speakers and the people and things in their lives: what they "
        "like, do, own, plan, experience, believe or are.",
        "Each fact stands alone and names its subject (e.g. 'Priya sold her kayak'), never "
        "a pronoun; speaker = the name of the person the fact is about.",
        "Do not restate what <existing_memories> already say; do extract what changes or adds "
        "to them.",
        "Take facts only from <current_exchange>; use the context only to understand it.",
        "Keep relative time words as said ('yesterday', 'next month'); a later step dates them.",
        "Skip greetings, small talk and content with no lasting information.",
        "Write each fact in the language it was said in; source_turn_ids lists the labels (numbers "
        "in brackets) of the utterances it comes from. Return no facts if there is nothing worth keeping.",
    ],
)


def extraction_prompt(exchange: Sequence[Message], history: Sequence[Message],
                      memories: Sequence[MemoryRecord]) -> list[BaseMessage]:
    """Prompt for Mem0* extraction: top existing memories + recent messages + the new exchange."""
    return build(EXTRACT_SYSTEM, [
        ("existing_memories", memories_block(memories, dated=False)),
        ("recent_messages", messages_block(history, timed=False)),
        ("current_exchange", messages_block(exchange, labelled=True, timed=False)),
    ])
