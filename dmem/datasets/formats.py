"""Low-level readers for the LoCoMo and RealTalk file formats: dates, sessions, speakers, turns, evidence.

These helpers repair what they safely can (unparsed dates, speaker case, evidence ids) and record
every such oddity in a :class:`Notes` collector, which :mod:`dmem.datasets.datasets` turns into
``issues``. What cannot be repaired without losing or inventing a turn (a session that is not a
list, a turn without its id or speaker, a field that is not text) is a DataError naming the place.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from dmem.errors import DataError

IMAGE_MARKER = "[shares an image]"
SESSION_KEY = re.compile(r"session_(\d+)")
_SESSION_DATE_KEY = re.compile(r"session_(\d+)_date_time")
_EVIDENCE_SEP = re.compile(r"[.,;]?\s+|[,;](?=D)")
_DATE_FORMATS = (
    "%I:%M %p on %d %B, %Y",  # LoCoMo: "1:56 pm on 8 May, 2023"
    "%I:%M %p on %d %b, %Y",
    "%I:%M %p on %d %B %Y",
    "%d.%m.%Y, %H:%M:%S",  # RealTalk, day first: "29.12.2023, 22:42:04"
    "%d.%m.%Y, %H:%M",
    "%d.%m.%Y %H:%M:%S",
)

TextTime = tuple[str, datetime | None]


class Notes:
    """Collects issue notes and per-kind counts while one conversation is parsed."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.counts: Counter[str] = Counter()

    def add(self, kind: str, text: str, count: int = 1) -> None:
        """Record one note of ``kind`` that stands for ``count`` occurrences."""
        self.lines.append(text)
        self.counts[kind] += count


TurnReader = Callable[[dict[str, Any], datetime | None, int, Notes, str], TextTime]


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


def read_json(path: Path) -> Any:
    """Read a JSON file, turning every failure into a DataError the user can act on."""
    try:
        with path.open(encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError as exc:
        raise DataError(f"{path}: file not found; check the path to the dataset") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read the file ({exc})") from exc
    except RecursionError:
        raise DataError(f"{path}: JSON nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from exc


def sessions(container: dict[str, Any], notes: Notes, where: str) -> list[tuple[int, list[Any]]]:
    """Return the ``session_N`` lists in numeric order; note session dates that have no turns."""
    found: list[tuple[int, list[Any]]] = []
    for key, value in container.items():
        if m := SESSION_KEY.fullmatch(key):
            if not isinstance(value, list):
                raise DataError(f"{where}: {key} is {type(value).__name__}, expected a list of turns")
            found.append((int(m.group(1)), value))
    found.sort(key=lambda pair: pair[0])
    present = {number for number, turns in found if turns}
    empty = sorted(
        int(m.group(1))
        for key in container
        if (m := _SESSION_DATE_KEY.fullmatch(key)) and int(m.group(1)) not in present
    )
    if empty:
        notes.add("session_without_turns", f"{len(empty)} session date(s) without turns: {empty}", len(empty))
    return found


def turn_text(turn: dict[str, Any], key: str, where: str) -> str:
    """A turn's text field: a string (missing or null is empty), never the repr of something else."""
    value = turn.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DataError(f"{where}: {key!r} is {type(value).__name__}, expected text")
    return value


def turn_identity(turn: object, where: str) -> tuple[str, str]:
    """A turn's (dia_id, speaker), both required strings."""
    if not isinstance(turn, dict):
        raise DataError(f"{where} is {type(turn).__name__}, expected a turn object")
    for key, what in (("dia_id", "turn id"), ("speaker", "speaker")):
        value = turn.get(key)
        if value is None or value == "":
            raise DataError(f"{where} has no {key!r} ({what})")
        if not isinstance(value, str):
            raise DataError(f"{where}: {key!r} is {type(value).__name__} {value!r:.30}, expected text")
    return turn["dia_id"], turn["speaker"]


def speaker_resolver(names: list[str], notes: Notes) -> tuple[Callable[[str], str], Callable[[], None]]:
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


def split_evidence(raw: object) -> list[str]:
    """Split evidence entries that hold several ids ("D8:6; D9:17", "D13:4. D14:4")."""
    entries = raw if isinstance(raw, list) else [raw]
    parts: list[str] = []
    for entry in entries:
        parts.extend(p for p in _EVIDENCE_SEP.split(str(entry).strip()) if p)
    return parts


def locomo_turn(turn: dict[str, Any], start: datetime | None, offset: int, notes: Notes, where: str) -> TextTime:
    """Text and time of a LoCoMo turn: the session time plus one second per turn keeps the order."""
    text = turn_text(turn, "text", where)
    if not text and not turn.get("blip_caption"):
        notes.add("empty_text", f"turn {turn.get('dia_id')}: no text")
    return text, start + timedelta(seconds=offset) if start else None


def realtalk_turn(turn: dict[str, Any], start: datetime | None, offset: int, notes: Notes, where: str) -> TextTime:
    """Text and time of a RealTalk turn: its own timestamp, else its session's."""
    text = turn_text(turn, "clean_text", where).strip()
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


def is_chat(data: object) -> bool:
    """Whether parsed JSON is a RealTalk chat: an object with ``name`` and a ``session_N`` key."""
    return isinstance(data, dict) and "name" in data and any(SESSION_KEY.fullmatch(k) for k in data)


def _natural(paths: Iterable[Path]) -> list[Path]:
    """Paths in natural order of the first number in their names (Chat_2 before Chat_10), then by name."""

    def key(p: Path) -> tuple[int, str]:
        m = re.search(r"\d+", p.stem)
        return (int(m.group()) if m else 0, p.name)

    return sorted(paths, key=key)


def _chat_or_none(path: Path) -> Any:
    """A file's parsed JSON if it holds a RealTalk chat, else None (unreadable files included)."""
    try:
        data = read_json(path)
    except DataError:
        return None
    return data if is_chat(data) else None


def chat_documents(path: Path) -> list[tuple[Path, Any]]:
    """A folder's chats, each file with its parsed JSON, read once: its ``Chat_*.json`` files, else the rest.

    The rest: its ``*.json`` files that hold a RealTalk chat (the same format under other names, e.g. invented).
    A ``Chat_*.json`` file is returned whatever it holds, so that loading it names what is wrong with it.
    """
    named = _natural(path.glob("Chat_*.json"))
    if named:
        return [(p, read_json(p)) for p in named]
    found = [(p, data) for p in _natural(path.glob("*.json")) if (data := _chat_or_none(p)) is not None]
    if not found:
        raise DataError(f"{path}: no Chat_*.json file (nor other .json file holding a RealTalk chat) in this "
                        "folder; pass a RealTalk chat or its folder")
    return found


def chat_files(path: Path) -> list[Path]:
    """A folder's chat files in natural order, as :func:`chat_documents` finds them (``Chat_*.json`` unread)."""
    return _natural(path.glob("Chat_*.json")) or [p for p, _ in chat_documents(path)]
