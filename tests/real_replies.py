"""The scenario behind the recorded real replies: an invented conversation, questions, every policy and mode.

``benchmarks/record_replies.py`` runs it against a live OpenAI-compatible server (through a
recording proxy); ``tests/test_models_replay.py`` runs the very same calls against the recordings,
so the requests match. Change the scenario or the prompts' inputs, and record again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from dmem.api import Memory
from dmem.errors import ModelError
from dmem.state.results import AddResult, Answer
from dmem.state.schemas import Message
from dmem.state.verdicts import AdmissionVerdicts, FactDrafts

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "replies"
MODES = ("function_calling", "prompt", "auto", "json_mode")
"""Structured-output modes that run the whole scenario ('json_schema' is refused by the server)."""
T0 = datetime(2024, 3, 9, 18, 30)
_LINES = [
    ("Ines", "I finally adopted a rescue greyhound last Saturday. Her name is Pippa."),
    ("Oskar", "That's wonderful! How is she settling in?"),
    ("Ines", "Really well, but she hates the rain. Also, I start my new job at the city aquarium next month."),
    ("Oskar", "Congratulations! Will you be working with the jellyfish?"),
    ("Ines", "Pippa, my greyhound, now sleeps on the sofa every night."),
    ("Oskar", "Ha, she owns the place already."),
]
QUESTION = "What is the name of Ines's dog?"
SETTINGS: dict[str, Any] = {"embeddings": "hash", "request_timeout": 900.0, "call_deadline": 1800.0,
                            "enrichment": False, "max_concurrency": 1}
"""Same settings when recording and replaying (hash embeddings: retrieval, hence every prompt, is the same).

One call at a time: a vote's samples are the same request, answered with the recorded replies in the
order they arrive, so they must arrive in sample order (in parallel, a loaded machine reorders them
and the grouping prompt lists the answers in another order than was recorded)."""


def conversation(mode: str = "auto") -> list[Message]:
    """The invented conversation: three exchanges, or only the first one for 'json_mode' and 'prompt'.

    Every real reply is a slow call on a small local server, so the scenario is kept small: the
    whole conversation under function calling (which 'auto' starts with, so its recordings serve
    both), one exchange under the JSON modes.
    """
    lines = _LINES if mode in ("function_calling", "auto") else _LINES[:2]
    return [Message(conversation_id="pippa", turn_id=f"p{i}", speaker=speaker, text=text,
                    timestamp=T0 + timedelta(minutes=i), seq=i) for i, (speaker, text) in enumerate(lines)]


@dataclass
class ModeRun:
    """What one structured-output mode did: the ingestion, and every answer by (question, policy)."""

    mode: str
    ingest: AddResult
    answers: dict[tuple[str, str], Answer] = field(default_factory=dict)


POLICIES = ("quality", "never", "majority", "consensus", "always")
"""Every gate policy, the question asked once under each, in every mode."""


def run_mode(base_url: str, mode: str, store: Path) -> ModeRun:
    """Ingest the conversation and ask the question under every gate policy with one structured-output mode."""
    with Memory(store, llm="openai-compatible:qwen2.5-0.5b-instruct", base_url=base_url, structured_output=mode,
                **SETTINGS) as mem:
        run = ModeRun(mode, mem.add(conversation(mode), user_id="ines", conversation_id="pippa"))
        for policy in POLICIES:
            run.answers[(QUESTION, policy)] = mem.ask(QUESTION, user_id="ines", gate_policy=policy)
    return run


def run_json_mode_stages(base_url: str, store: Path) -> tuple[AdmissionVerdicts, FactDrafts]:
    """Admission and multi-intent split of the first exchange with structured_output='json_mode'.

    The two formation stages recorded in that mode (the recording was cut off after them), called
    exactly as the ingestion graph calls them on a first exchange: no history, no memories.
    """
    exchange = conversation("json_mode")
    with Memory(store, llm="openai-compatible:qwen2.5-0.5b-instruct", base_url=base_url,
                structured_output="json_mode", **SETTINGS) as mem:
        verdicts = mem.services.decider.admit(exchange, [], [])
        drafts = mem.services.decider.split(exchange, [], [])
    return verdicts.value, drafts.value


def run_forced_json_schema(base_url: str, store: Path) -> ModelError:
    """One answer with structured_output='json_schema', which this server rejects: the error."""
    with Memory(store, llm="openai-compatible:qwen2.5-0.5b-instruct", base_url=base_url,
                structured_output="json_schema", **SETTINGS) as mem:
        try:
            mem.services.decider.answer(QUESTION, ["[2024-03-02] Ines adopted a rescue greyhound named Pippa"])
        except ModelError as exc:
            return exc
    raise AssertionError("the server accepted json_schema")
