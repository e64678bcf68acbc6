"""Reading the files ``dmem ingest`` takes, and ingesting them with progress.

A plain file (JSON list, ``{"messages": [...]}`` or JSONL) goes to one namespace; a LoCoMo or
RealTalk dataset stores each speaker of each conversation in ``<user>/<conversation>/<speaker>``: the
user is named explicitly (``--user-id``), never taken from the file, so a file cannot write into
another user's namespace by naming it as a conversation.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dmem.errors import DataError
from dmem.progress import Phases
from dmem.state.results import AddResult

if TYPE_CHECKING:
    from dmem.api import Memory
    from dmem.datasets.datasets import Conversation


def read_messages(path: Path) -> list[Any]:
    """Messages from a JSON list (or {'messages': [...]}) or a JSONL file (one object per line)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path} is not UTF-8 text (byte {exc.start} cannot be decoded); is it a binary file?"
                        ) from None
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None
    if path.suffix == ".jsonl":
        return [_json_line(path, number, line) for number, line in enumerate(text.splitlines(), start=1)
                if line.strip()]
    data = _json(path, text)
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        data = data["messages"]
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a list of messages or {{'messages': [...]}}")
    return data


def _json(path: Path, text: str, where: str = "") -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise DataError(f"{path}{where}: JSON nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        line = f"line {exc.lineno} column {exc.colno}" if not where else f"column {exc.colno}"
        raise DataError(f"{path}{where}: not valid JSON ({line}: {exc.msg})") from None


def _json_line(path: Path, number: int, line: str) -> Any:
    data = _json(path, line, f" line {number}")
    if not isinstance(data, dict):
        raise DataError(f"{path} line {number}: expected a JSON object (one message), got {type(data).__name__}")
    return data


def _exchanges(messages: int) -> int:
    return max(1, (messages + 1) // 2)


def pick_conversations(conversations: list[Conversation], wanted: list[str] | None, path: Path) -> list[Conversation]:
    """The dataset's conversations named in ``wanted`` (all when None); an unknown id lists the known ones."""
    if wanted is None:
        return conversations
    known = {c.conversation_id: c for c in conversations}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise DataError(f"{path} has no conversation {', '.join(map(repr, unknown))}; it holds "
                        f"{', '.join(known)}")
    return [known[w] for w in dict.fromkeys(wanted)]


def ingest_file(mem: Memory, path: Path, *, scope: Mapping[str, Any], progress: Phases,
                conversations: list[str] | None = None, metadata: dict[str, Any] | None = None) -> list[AddResult]:
    """Ingest a LoCoMo/RealTalk dataset (per-speaker namespaces) or a plain message file.

    A plain file goes to the scoped namespace (default 'default') as conversation ``<file stem>``.
    ``scope`` holds the options as given (None when not given).
    A dataset stores each speaker of each conversation in ``<scope>/<conversation>/<speaker>``; it
    needs ``--user-id``: a dataset file never chooses a namespace.
    """
    from dmem.datasets.datasets import detect_kind, load_dataset
    from dmem.scopes import scope as compose

    if not path.is_file():
        raise DataError(f"file {str(path)!r} does not exist")
    namespace = compose(scope.get("user_id") or "default", scope.get("agent_id"), scope.get("run_id"))
    kind = detect_kind(path) if path.suffix == ".json" else None
    if kind is None:
        if conversations is not None:
            raise DataError(f"--conversations picks conversations of a LoCoMo/RealTalk file; {path} is a plain "
                            "message file")
        msgs = read_messages(path)
        progress.start("ingest", _exchanges(len(msgs)), f"ingesting {path.name}")
        return [mem.add(msgs, user_id=namespace, conversation_id=path.stem, metadata=metadata,
                        progress=lambda done, _total: progress.update("ingest", done))]
    dataset = load_dataset(kind, path)  # type: ignore[arg-type]
    if scope.get("user_id") is None:
        raise DataError(f"{path.name} is a {kind} dataset: name the user its conversations go under with --user-id "
                        "(they are stored as <user>/<conversation>/<speaker>; a file never chooses a namespace)")
    chosen = pick_conversations(dataset.conversations, conversations, path)
    prefix = f"{namespace}/"
    progress.start("ingest", sum(_exchanges(len(c.messages)) for c in chosen),
                   f"ingesting {len(chosen)} conversation(s) of {path.name}")
    results: list[AddResult] = []
    before = 0
    for conv in chosen:
        names = {s: f"{prefix}{conv.conversation_id}/{s}" for s in conv.speakers}
        results.append(mem.add(conv.messages, user_id=f"{prefix}{conv.conversation_id}", metadata=metadata,
                               conversation_id=conv.conversation_id, speaker_namespaces=names,
                               progress=_offset(progress, before)))
        before += _exchanges(len(conv.messages))
    return results


def _offset(progress: Phases, before: int) -> Callable[[int, int], None]:
    """A per-conversation callback that moves the file's one bar on from ``before`` exchanges."""
    return lambda done, _total: progress.update("ingest", before + done)
