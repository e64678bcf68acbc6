"""Loaders for the LoCoMo and RealTalk benchmarks into dmem's :class:`~dmem.state.schemas.Message`.

Both formats have known quirks (int answers, malformed or dangling evidence ids, session dates
without turns, speaker names in another case); the loaders repair what they safely can and record
every oddity in ``Conversation.issues`` instead of failing. All datetimes are timezone-naive.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from dmem.errors import DataError
from dmem.state.schemas import Message

IMAGE_MARKER = "[shares an image]"
_SESSION_KEY = re.compile(r"session_(\d+)")
_SESSION_DATE_KEY = re.compile(r"session_(\d+)_date_time")
_TURN_ID = re.compile(r"D\d+:\d+")
_EVIDENCE_SEP = re.compile(r"[.,;]?\s+|[,;](?=D)")
_DATE_FORMATS = (
    "%I:%M %p on %d %B, %Y",  # LoCoMo: "1:56 pm on 8 May, 2023"
    "%I:%M %p on %d %b, %Y",
    "%I:%M %p on %d %B %Y",
    "%d.%m.%Y, %H:%M:%S",  # RealTalk, day first: "29.12.2023, 22:42:04"
    "%d.%m.%Y, %H:%M",
    "%d.%m.%Y %H:%M:%S",
)


class QAItem(BaseModel):
    """One benchmark question with its gold answer."""

    question: str
    answer: str = Field(description="Gold answer as text ('' for adversarial items without one).")
    category: int = Field(description="1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial.")
    evidence: list[str] = Field(default_factory=list, description="Valid turn ids that support the answer.")
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


_TextTime = tuple[str, datetime | None]


class _Notes:
    """Collects issue notes and per-kind counts while one conversation is parsed."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.counts: Counter[str] = Counter()

    def add(self, kind: str, text: str, count: int = 1) -> None:
        self.lines.append(text)
        self.counts[kind] += count


_TurnReader = Callable[[dict[str, Any], datetime | None, int, _Notes], _TextTime]


def parse_datetime(text: object) -> datetime | None:
    """Parse a LoCoMo ("1:56 pm on 8 May, 2023") or day-first RealTalk date; None if unparseable."""
    if not isinstance(text, str):
        return None
    cleaned = " ".join(text.split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt)
        except ValueError:
            continue
    return None


def _read_json(path: Path) -> Any:
    """Read a JSON file, turning every failure into a DataError the user can act on."""
    try:
        with path.open(encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError as exc:
        raise DataError(f"{path}: file not found; check the path to the dataset") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read the file ({exc})") from exc
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from exc


def _sessions(container: dict[str, Any], notes: _Notes) -> list[tuple[int, list[Any]]]:
    """Return the ``session_N`` lists in numeric order; note session dates that have no turns."""
    sessions = sorted(
        (int(m.group(1)), value)
        for key, value in container.items()
        if (m := _SESSION_KEY.fullmatch(key)) and isinstance(value, list)
    )
    present = {number for number, turns in sessions if turns}
    empty = sorted(
        int(m.group(1))
        for key in container
        if (m := _SESSION_DATE_KEY.fullmatch(key)) and int(m.group(1)) not in present
    )
    if empty:
        notes.add("session_without_turns", f"{len(empty)} session date(s) without turns: {empty}", len(empty))
    return sessions


def _speaker_resolver(names: list[str], notes: _Notes) -> tuple[Callable[[str], str], Callable[[], None]]:
    """Return (resolve, report): map a turn's speaker to the canonical name case-insensitively."""
    canonical = {name.casefold(): name for name in names}
    changed: Counter[tuple[str, str]] = Counter()
    unknown: Counter[str] = Counter()

    def resolve(raw: str) -> str:
        name = canonical.get(raw.strip().casefold())
        if name is None:
            unknown[raw] += 1
            return raw
        if name != raw:
            changed[(raw, name)] += 1
        return name

    def report() -> None:
        for (raw, name), n in changed.items():
            notes.add("speaker_case", f"speaker {raw!r} normalised to {name!r} in {n} turn(s)", n)
        for raw, n in unknown.items():
            notes.add("unknown_speaker", f"speaker {raw!r} is not one of {names} ({n} turn(s))", n)

    return resolve, report


def _split_evidence(raw: object) -> list[str]:
    """Split evidence entries that hold several ids ("D8:6; D9:17", "D13:4. D14:4")."""
    entries = raw if isinstance(raw, list) else [raw]
    parts: list[str] = []
    for entry in entries:
        parts.extend(p for p in _EVIDENCE_SEP.split(str(entry).strip()) if p)
    return parts


def _parse_qa(items: object, turn_ids: set[str], notes: _Notes) -> list[QAItem]:
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
        for part in _split_evidence(item.get("evidence", [])):
            if not _TURN_ID.fullmatch(part):
                notes.add("malformed_evidence", f"qa {index}: evidence {part!r} is malformed")
            elif part not in turn_ids:
                notes.add("missing_evidence", f"qa {index}: evidence {part!r} points to no turn")
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
                adversarial_answer=None if adversarial is None else str(adversarial),
            )
        )
    return out


def _locomo_turn(turn: dict[str, Any], start: datetime | None, offset: int, notes: _Notes) -> _TextTime:
    """Text and time of a LoCoMo turn: the session time plus one second per turn keeps the order."""
    text = str(turn.get("text") or "")
    if not text and not turn.get("blip_caption"):
        notes.add("empty_text", f"turn {turn.get('dia_id')}: no text")
    return text, start + timedelta(seconds=offset) if start else None


def _realtalk_turn(turn: dict[str, Any], start: datetime | None, offset: int, notes: _Notes) -> _TextTime:
    """Text and time of a RealTalk turn: its own timestamp, else its session's."""
    text = str(turn.get("clean_text") or "").strip()
    if not text and any(turn.get(key) for key in ("img_file", "img_url", "blip_caption")):
        text = IMAGE_MARKER
    elif not text:
        notes.add("empty_text", f"turn {turn.get('dia_id')}: no text")
    raw_date = turn.get("date_time")
    when = parse_datetime(raw_date)
    if when is None:
        problem = "has no date_time" if raw_date is None else f"date {raw_date!r} unparsed"
        fallback = "used the session date" if start else "no date"
        notes.add("bad_date", f"turn {turn.get('dia_id')}: {problem}, {fallback}")
    return text, when or start


def _build_conversation(
    conv_id: str, speakers: list[str], body: dict[str, Any], qa_items: object, read_turn: _TurnReader
) -> Conversation:
    """Turn the ``session_N`` lists of ``body`` into ordered messages and parse the questions."""
    notes = _Notes()
    resolve, report = _speaker_resolver(speakers, notes)
    messages: list[Message] = []
    for number, turns in _sessions(body, notes):
        raw_date = body.get(f"session_{number}_date_time")
        start = parse_datetime(raw_date)
        if start is None:
            notes.add("bad_date", f"session_{number}: date {raw_date!r} unparsed")
        for offset, turn in enumerate(turns):
            if not isinstance(turn, dict) or not turn.get("dia_id") or not turn.get("speaker"):
                notes.add("malformed_turn", f"session_{number}[{offset}]: no dia_id or speaker; skipped")
                continue
            text, when = read_turn(turn, start, offset, notes)
            caption = turn.get("blip_caption")
            message = Message(
                conversation_id=conv_id,
                turn_id=str(turn["dia_id"]),
                speaker=resolve(str(turn["speaker"])),
                text=text,
                timestamp=when,
                image_caption=str(caption) if caption else None,
                seq=len(messages),
            )
            messages.append(message)
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
    data = _read_json(path)
    samples = [data] if isinstance(data, dict) else data
    if not isinstance(samples, list) or not all(isinstance(s, dict) and "conversation" in s for s in samples):
        raise DataError(f"{path}: not a LoCoMo file (expected a list of samples with a 'conversation' key)")
    conversations = []
    for index, sample in enumerate(samples):
        body = sample["conversation"] if isinstance(sample["conversation"], dict) else {}
        speakers = [str(body[key]) for key in ("speaker_a", "speaker_b") if body.get(key)]
        conv_id = str(sample.get("sample_id") or f"conv-{index}")
        conversations.append(_build_conversation(conv_id, speakers, body, sample.get("qa"), _locomo_turn))
    return Dataset(name="locomo", conversations=conversations)


def _chat_files(path: Path) -> list[Path]:
    """``Chat_*.json`` files of a directory in natural order (Chat_2 before Chat_10)."""

    def key(p: Path) -> tuple[int, str]:
        m = re.search(r"\d+", p.stem)
        return (int(m.group()) if m else 0, p.name)

    files = sorted(path.glob("Chat_*.json"), key=key)
    if not files:
        raise DataError(f"{path}: no Chat_*.json file in this folder; pass a RealTalk chat or its folder")
    return files


def load_realtalk(path: str | Path) -> Dataset:
    """Load a RealTalk ``Chat_*.json`` file, or a directory of them, into a :class:`Dataset`."""
    path = Path(path)
    conversations = []
    for file in _chat_files(path) if path.is_dir() else [path]:
        data = _read_json(file)
        if not isinstance(data, dict) or not isinstance(data.get("name"), dict):
            raise DataError(f"{file}: not a RealTalk chat (expected an object with 'name' and 'session_N')")
        speakers = [str(name) for name in data["name"].values()]
        conversations.append(_build_conversation(file.stem, speakers, data, data.get("qa"), _realtalk_turn))
    return Dataset(name="realtalk", conversations=conversations)


def detect_kind(path: str | Path) -> Literal["locomo", "realtalk"] | None:
    """Guess whether a file (or folder) holds LoCoMo or RealTalk data; None for anything else."""
    path = Path(path)
    if path.is_dir():
        return "realtalk" if any(path.glob("Chat_*.json")) else None
    try:
        data = _read_json(path)
    except DataError:
        if not path.exists():
            raise
        return None
    first = (data[0] if data else None) if isinstance(data, list) else data
    if isinstance(first, dict) and isinstance(first.get("conversation"), dict):
        return "locomo"
    if isinstance(data, dict) and "name" in data and any(_SESSION_KEY.fullmatch(k) for k in data):
        return "realtalk"
    return None


def load_dataset(kind: Literal["locomo", "realtalk"], path: str | Path) -> Dataset:
    """Load a benchmark of the given kind."""
    if kind == "locomo":
        return load_locomo(path)
    if kind == "realtalk":
        return load_realtalk(path)
    raise DataError(f"unknown dataset kind {kind!r}; use 'locomo' or 'realtalk'")
