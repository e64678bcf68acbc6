"""``dmem demo``: ingest a short conversation we wrote, ask questions, show routes and the audit trail."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from dmem.api import Memory
from dmem.state.results import AddResult, Answer
from dmem.state.schemas import Message


@dataclass
class DemoScript:
    """The sample conversation and its questions."""

    user_id: str
    conversation_id: str
    messages: list[Message]
    questions: list[str]


def load_demo_script() -> DemoScript:
    """Read the bundled sample conversation (sessions over several weeks)."""
    raw: dict[str, Any] = json.loads(
        resources.files("dmem.data").joinpath("demo_conversation.json").read_text(encoding="utf-8"))
    messages: list[Message] = []
    for s_index, session in enumerate(raw["sessions"], start=1):
        start = datetime.fromisoformat(session["date"])
        for t_index, (speaker, text) in enumerate(session["messages"], start=1):
            messages.append(Message(
                conversation_id=raw["conversation_id"], turn_id=f"S{s_index}:{t_index}", speaker=speaker,
                text=text, timestamp=start + timedelta(minutes=t_index), seq=len(messages)))
    return DemoScript(raw["user_id"], raw["conversation_id"], messages, list(raw["questions"]))


@dataclass
class DemoRun:
    """Everything the demo did, for printing and for tests."""

    script: DemoScript
    ingest: AddResult
    answers: list[Answer]
    engine: str
    store_dir: str


def run_demo(store_dir: str | Path | None = None, **settings: Any) -> DemoRun:
    """Ingest the sample conversation into a fresh store and answer the sample questions."""
    script = load_demo_script()
    directory = str(store_dir) if store_dir else tempfile.mkdtemp(prefix="dmem-demo-")
    with Memory(directory, **settings) as mem:
        ingest = mem.add(script.messages, user_id=script.user_id, conversation_id=script.conversation_id)
        answers = [mem.ask(q, user_id=script.user_id) for q in script.questions]
        engine = mem.services.decider.name
    return DemoRun(script=script, ingest=ingest, answers=answers, engine=engine, store_dir=directory)
