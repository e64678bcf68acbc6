"""Our prompts, one module per stage; each builder returns the system + human messages of a call."""

from dmem.prompts.answering import NO_INFO, answer_prompt, filter_prompt
from dmem.prompts.deliberation import read_chunk_prompt, select_prompt
from dmem.prompts.extraction import extraction_prompt
from dmem.prompts.formation import admission_prompt, enrich_prompt, scope_prompt, split_prompt
from dmem.prompts.gate import group_prompt, quality_gate_prompt
from dmem.prompts.lifecycle import lifecycle_batch_prompt, lifecycle_prompt

__all__ = [
    "NO_INFO",
    "admission_prompt",
    "answer_prompt",
    "quality_gate_prompt",
    "enrich_prompt",
    "extraction_prompt",
    "filter_prompt",
    "group_prompt",
    "lifecycle_batch_prompt",
    "lifecycle_prompt",
    "read_chunk_prompt",
    "scope_prompt",
    "select_prompt",
    "split_prompt",
]
