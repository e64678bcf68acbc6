"""A deployment's own rules for a stage, added to that stage's system prompt (mem0's custom instructions).

Five stages take them, each from its own setting: admission (``admit``), extraction
(``split_intents``, ``extract_facts``), lifecycle (``decide_lifecycle``, ``decide_lifecycle_batch``),
gate (``quality_gate``) and answer (``answer``). They come after dmem's rules, in their own tagged
block, so a deployment narrows or adds without forking the prompt; the reply format stays dmem's.
"""

from __future__ import annotations

from collections.abc import Mapping

from langchain_core.messages import BaseMessage, SystemMessage

STAGE_SETTING = {
    "admit": "admission_instructions",
    "split_intents": "extraction_instructions",
    "extract_facts": "extraction_instructions",
    "decide_lifecycle": "lifecycle_instructions",
    "decide_lifecycle_batch": "lifecycle_instructions",
    "quality_gate": "gate_instructions",
    "answer": "answer_instructions",
}
"""Which setting holds the deployment's rules for each model call stage."""


def with_instructions(messages: list[BaseMessage], stage: str, instructions: Mapping[str, str]) -> list[BaseMessage]:
    """The prompt with the deployment's rules for this stage appended to its system message (if any)."""
    extra = instructions.get(STAGE_SETTING.get(stage, ""), "").strip()
    if not extra or not messages or not isinstance(messages[0], SystemMessage):
        return messages
    system = f"{messages[0].text}\n\n<deployment_instructions>\n{extra}\n</deployment_instructions>\n" \
             "Follow these deployment instructions as well, within the rules and reply format above."
    return [SystemMessage(content=system), *messages[1:]]
