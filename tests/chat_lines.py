"""Noor's line after Ivo's turn in an invented chat, as the offline engine judges and splits it.

Shared by the register tests (casual, telegraphic): each names its chat's session, time and Ivo's turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.decider import OfflineDecider
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Message
from tests.conftest import chat_turn


@dataclass(frozen=True)
class ChatLines:
    """One invented chat: its session id, its time, and Ivo's turn before each of Noor's lines."""

    session: str
    when: datetime
    before: str
    """Ivo's turn before each line unless a test gives another."""

    def turn(self, text: str, speaker: str, seq: int) -> Message:
        """A turn of this chat."""
        return chat_turn(text, speaker, seq, session=self.session, when=self.when)

    def judged(self, text: str, before: str | None = None) -> tuple[bool, str]:
        """Admission's verdict and reason on Noor's ``text`` after Ivo's turn."""
        return judge_utterance(self.turn(text, "Noor", 2), [self.turn(before or self.before, "Ivo", 1)])

    def facts(self, text: str, before: str | None = None) -> list[str]:
        """The facts the offline splitter drafts from Noor's ``text`` after Ivo's turn."""
        prior = [self.turn(before or self.before, "Ivo", 1)]
        split = OfflineDecider(HashEmbeddings()).split([self.turn(text, "Noor", 2)], prior, [])
        return [f.text for f in split.value.facts]
