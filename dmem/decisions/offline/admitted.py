"""Admission's judgement of one exchange, handed to splitting of the same exchange so it does not cut lines again.

Admission cuts each turn into clauses and judges them (``admission.Judged``); splitting needs the same cut of every
admitted turn. ``Admitted`` holds them for one exchange only: the decider builds it in ``admit``, the verdicts carry
it to ``split`` (``AdmissionVerdicts.reading``), and nothing keeps it after that (no module or decider store).
A judgement is read only where splitting reads the line as admission did: the same turns before it, the same
stored memories; anywhere else the line is cut afresh.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dmem.decisions.offline.admission import Judged, judged_utterance
from dmem.state.schemas import Message


def _place(message: Message, prior: Sequence[Message]) -> tuple[str, tuple[str, ...]]:
    """A line's place in the chat as admission read it: its turn and the turns before it."""
    return message.turn_id, tuple(m.turn_id for m in prior)


@dataclass(frozen=True)
class Admitted:
    """Each turn of one exchange as admission judged it, by its place (``_place``), with the memories read."""

    judged: tuple[tuple[tuple[str, tuple[str, ...]], Judged], ...]
    """Admission's judgement of each turn (its verdict, clauses and clause verdicts) with its place, in order."""
    memories: tuple[str, ...]
    """The stored memory texts admission read the turns with."""

    def of(self, message: Message, prior: Sequence[Message], memories: Sequence[str]) -> Judged | None:
        """The judgement of ``message`` read after ``prior`` with ``memories``; None if admission read it otherwise."""
        if tuple(memories) != self.memories:
            return None
        place = _place(message, prior)
        return next((judged for at, judged in self.judged if at == place), None)

    def verdicts(self) -> list[Judged]:
        """The exchange's judgements, in turn order."""
        return [judged for _, judged in self.judged]


def admit_exchange(exchange: Sequence[Message], history: Sequence[Message], memories: Sequence[str]) -> Admitted:
    """Every turn of the exchange judged after the history and the exchange's turns before it."""
    places = [(message, [*history, *exchange[:i]]) for i, message in enumerate(exchange)]
    return Admitted(tuple((_place(m, prior), judged_utterance(m, prior, memories)) for m, prior in places),
                    tuple(memories))
