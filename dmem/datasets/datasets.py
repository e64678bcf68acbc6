"""Loaders for the LoCoMo and RealTalk benchmarks into dmem's :class:`~dmem.state.schemas.Message`.

Both formats have known quirks (int answers, malformed or dangling evidence ids, session dates
without turns, speaker names in another case); the loaders repair what they safely can and record
every oddity in ``Conversation.issues``. A session that is not a list, a turn without its id or
speaker, or a text field that is not text is a DataError naming the file, sample, session and
turn: skipping it would silently lose a turn. All datetimes are timezone-naive.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from dmem.datasets.formats import (
    IMAGE_MARKER,
    Notes,
    TurnReader,
    chat_documents,
    chat_files,
    is_chat,
    locomo_turn,
    parse_datetime,
    read_json,
    realtalk_turn,
    sessions,
    speaker_resolver,
    split_evidence,
    turn_identity,
    turn_text,
)
from dmem.errors import DataError
from dmem.state.namespaces import check_text
from dmem.state.schemas import Message

__all__ = [
    "IMAGE_MARKER",
    "Conversation",
    "Dataset",
    "QAItem",
    "detect_kind",
    "load_dataset",
    "load_locomo",
    "load_realtalk",
    "parse_datetime",
]

_TURN_ID = re.compile(r"D\d+:\d+")


class QAItem(BaseModel):
    """One benchmark question with its gold answer."""

    question: str
    answer: str = Field(description="Gold answer as text ('' for adversarial items without one).")
    category: int = Field(description="1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial.")
    evidence: list[str] = Field(default_factory=list, description="Valid turn ids that support the answer.")
    missing_evidence: list[str] = Field(default_factory=list, description="Well-formed evidence ids that name "
                                        "no turn of the conversation (they cap any recall that counts them).")
    adversarial_answer: str | None = Field(default=None, description="The trap answer of category 5.")


class Conversation(BaseModel):
    """A benchmark conversation: its messages in order, its questions, and what was malformed."""

    conversation_id: str
    speakers: list[str]
    messages: list[Message]
    qa: list[QAItem]
    issues: list[str] = Field(default_factory=list, description="Human-readable notes on malformed input.")
    issue_counts: dict[str, int] = Field(default_factory=dict, description="Number of issues of each kind.")


class Dataset(BaseModel):
    """A named set of benchmark conversations."""

    name: str
    conversations: list[Conversation]

    def summary(self) -> dict[str, Any]:
        """Count conversations, messages, questions per category and issues per kind."""
        categories: Counter[int] = Counter(q.category for c in self.conversations for q in c.qa)
        issues: Counter[str] = Counter()
        for conv in self.conversations:
            issues.update(conv.issue_counts)
        return {
            "name": self.name,
            "conversations": len(self.conversations),
            "messages": sum(len(c.messages) for c in self.conversations),
            "questions": sum(categories.values()),
            "questions_by_category": dict(sorted(categories.items())),
            "issues": dict(sorted(issues.items())),
        }


def _parse_qa(items: object, turn_ids: set[str], notes: Notes) -> list[QAItem]:
    """Build QA items, keeping well-formed evidence that points to existing turns."""
    out: list[QAItem] = []
    for index, item in enumerate(items if isinstance(items, list) else []):
        try:
            category = int(item["category"])
            question = str(item["question"])
        except (KeyError, TypeError, ValueError):
            notes.add("malformed_qa", f"qa {index}: no question or category; skipped")
            continue
        evidence: list[str] = []
        missing: list[str] = []
        for part in split_evidence(item.get("evidence", [])):
            if not _TURN_ID.fullmatch(part):
                notes.add("malformed_evidence", f"qa {index}: evidence {part!r} is malformed")
            elif part not in turn_ids:
                notes.add("missing_evidence", f"qa {index}: evidence {part!r} points to no turn")
                missing.append(part)
            else:
                evidence.append(part)
        answer = item.get("answer")
        if answer is None and category != 5:
            notes.add("missing_answer", f"qa {index}: category {category} question has no answer")
        adversarial = item.get("adversarial_answer")
        out.append(
            QAItem(
                question=question,
                answer="" if answer is None else str(answer),
                category=category,
                evidence=evidence,
                missing_evidence=missing,
                adversarial_answer=None if adversarial is None else str(adversarial),
            )
        )
    return out


def _build_conversation(
    conv_id: str, speakers: list[str], body: dict[str, Any], qa_items: object, read_turn: TurnReader, where: str
) -> Conversation:
    """Turn the ``session_N`` lists of ``body`` into ordered messages and parse the questions."""
    notes = Notes()
    resolve, report = speaker_resolver(speakers, notes)
    messages: list[Message] = []
    for number, turns in sessions(body, notes, where):
        raw_date = body.get(f"session_{number}_date_time")
        start = parse_datetime(raw_date)
        if start is None:
            notes.add("bad_date", f"session_{number}: date {raw_date!r} unparsed")
        for offset, turn in enumerate(turns):
            place = f"{where}: session_{number}[{offset}]"
            turn_id, speaker = turn_identity(turn, place)
            text, when = read_turn(turn, start, offset, notes, place)
            caption = turn_text(turn, "blip_caption", place)
            messages.append(Message(conversation_id=conv_id, turn_id=check_text(turn_id, f"{place}: dia_id"),
                                    speaker=resolve(check_text(speaker, f"{place}: speaker")),
                                    text=check_text(text, f"{place}: text"), timestamp=when,
                                    image_caption=check_text(caption, f"{place}: blip_caption") or None,
                                    seq=len(messages)))
    report()
    qa = _parse_qa(qa_items, {m.turn_id for m in messages}, notes)
    return Conversation(
        conversation_id=conv_id,
        speakers=speakers,
        messages=messages,
        qa=qa,
        issues=notes.lines,
        issue_counts=dict(notes.counts),
    )


def load_locomo(path: str | Path) -> Dataset:
    """Load a LoCoMo file (a list of samples, as ``locomo10.json``) into a :class:`Dataset`."""
    path = Path(path)
    data = read_json(path)
    samples = [data] if isinstance(data, dict) else data
    if not isinstance(samples, list) or not all(isinstance(s, dict) and "conversation" in s for s in samples):
        raise DataError(f"{path}: not a LoCoMo file (expected a list of samples with a 'conversation' key)")
    conversations = []
    for index, sample in enumerate(samples):
        conv_id = str(sample.get("sample_id") or f"conv-{index}")
        where = f"{path}: sample {index} ({conv_id})"
        body = sample["conversation"]
        if not isinstance(body, dict):
            raise DataError(f"{where}: 'conversation' is {type(body).__name__}, expected an object")
        speakers = [str(body[key]) for key in ("speaker_a", "speaker_b") if body.get(key)]
        conversations.append(_build_conversation(conv_id, speakers, body, sample.get("qa"), locomo_turn, where))
    return Dataset(name="locomo", conversations=conversations)


def load_realtalk(path: str | Path) -> Dataset:
    """Load a RealTalk ``Chat_*.json`` file, or a directory of them, into a :class:`Dataset`."""
    path = Path(path)
    conversations = []
    for file, data in chat_documents(path) if path.is_dir() else [(path, read_json(path))]:
        if not isinstance(data, dict) or not isinstance(data.get("name"), dict):
            raise DataError(f"{file}: not a RealTalk chat (expected an object with 'name' and 'session_N')")
        speakers = [str(name) for name in data["name"].values()]
        conversations.append(_build_conversation(file.stem, speakers, data, data.get("qa"), realtalk_turn, str(file)))
    return Dataset(name="realtalk", conversations=conversations)


def detect_kind(path: str | Path) -> Literal["locomo", "realtalk"] | None:
    """Guess whether a file (or folder) holds LoCoMo or RealTalk data; None for anything else."""
    path = Path(path)
    if path.is_dir():
        try:
            return "realtalk" if chat_files(path) else None
        except DataError:
            return None
    try:
        data = read_json(path)
    except DataError:
        if not path.exists():
            raise
        return None
    first = (data[0] if data else None) if isinstance(data, list) else data
    if isinstance(first, dict) and isinstance(first.get("conversation"), dict):
        return "locomo"
    if is_chat(data):
        return "realtalk"
    return None


def load_dataset(kind: Literal["locomo", "realtalk"], path: str | Path) -> Dataset:
    """Load a benchmark of the given kind."""
    if kind == "locomo":
        return load_locomo(path)
    if kind == "realtalk":
        return load_realtalk(path)
    raise DataError(f"unknown dataset kind {kind!r}; use 'locomo' or 'realtalk'")
