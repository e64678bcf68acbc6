"""Namespaces, the routing of an exchange to them, and the keys and states of recorded turns.

A namespace (a user, an agent, ``conv/<speaker>``) owns every row it stores. One ``add`` call
names an origin namespace (its ``user_id``) and optionally a speaker map: its exchange *feeds*
the origin and every mapped namespace, and its turns are recorded in each of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from dmem.errors import DataError
from dmem.state.namespaces import check_text, validate_namespace
from dmem.state.schemas import Message, MetadataValue

TurnKey = tuple[str, str]
"""A turn inside a namespace: (conversation_id, turn_id)."""


@dataclass(frozen=True)
class Routing:
    """Where one exchange goes: the caller's namespace and its speaker -> namespace map."""

    origin: str
    """The namespace the caller named (``user_id``); unmapped speakers' facts go here."""
    speakers: tuple[tuple[str, str], ...] = ()
    """(speaker, namespace) pairs, sorted; speakers match case-insensitively."""

    @classmethod
    def of(cls, origin: object, speakers: Mapping[str, str] | None = None) -> Routing:
        """Validated routing from a user id and an optional speaker map."""
        pairs = []
        if speakers is not None and not isinstance(speakers, Mapping):
            raise DataError(f"speaker_namespaces must be a mapping of speaker -> namespace, got "
                            f"{type(speakers).__name__}")
        for speaker, ns in (speakers or {}).items():
            if not isinstance(speaker, str) or not speaker.strip():
                raise DataError(f"speaker_namespaces has a key {speaker!r} that is not a speaker name")
            pairs.append((check_text(speaker, "speaker name"), validate_namespace(ns, f"namespace of {speaker!r}")))
        return cls(validate_namespace(origin), tuple(sorted(pairs)))

    def namespace_for(self, speaker: str | None) -> str:
        """Namespace a speaker's facts go to: the speaker map, else the origin."""
        if speaker:
            low = speaker.lower()
            for name, ns in self.speakers:
                if name.lower() == low:
                    return ns
        return self.origin

    def namespaces(self) -> list[str]:
        """Every namespace the exchange feeds (its turns are recorded in each), sorted."""
        return sorted({self.origin, *(ns for _, ns in self.speakers)})

    def routes_json(self) -> str:
        """The speaker map as stored with each turn."""
        return json.dumps(dict(self.speakers), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_row(cls, origin: str, routes: str) -> Routing:
        """Rebuild the routing stored with a turn."""
        return cls(origin, tuple(sorted(json.loads(routes or "{}").items())))


@dataclass(frozen=True)
class Claim:
    """What a claim on an exchange's turns found."""

    claimed: list[TurnKey] = field(default_factory=list)
    """Turns now claimed by the caller: it must form them."""
    held: list[TurnKey] = field(default_factory=list)
    """Unformed turns another live worker is forming."""
    done: list[TurnKey] = field(default_factory=list)
    """Turns already formed."""


@dataclass(frozen=True)
class UnformedTurn:
    """A recorded turn not formed yet: new (never tried, or its worker died) or pending (failed)."""

    namespace: str
    message: Message
    status: Literal["new", "pending"]
    reason: str | None
    routing: Routing
    labels: dict[str, MetadataValue] = field(default_factory=dict)
    """The caller's metadata for the memories formed from the turn (see ``TurnStatus.label``)."""


@dataclass(frozen=True)
class StoredTurn:
    """A recorded turn as an export carries it: the message, the caller's labels, and whether it was formed."""

    namespace: str
    message: Message
    labels: dict[str, MetadataValue]
    formed: bool


def turn_keys(messages: list[Message]) -> list[TurnKey]:
    """The (conversation_id, turn_id) keys of messages, in order, without repeats."""
    return list(dict.fromkeys((m.conversation_id, m.turn_id) for m in messages))
