"""A comma splice before a habit of the speaker's is two clauses: a transient state beside it no longer vetoes it.

"I'm reading up on old trains right now, I'm always so curious about them when I travel" is a transient state and a
standing interest joined by a comma; judged as one clause, "right now" rejected both. Cut at the comma before
"I('m) always/usually/often/never", the habit is admitted on its own; a left part that is the habit's condition
("when I travel, I always pack light") stays one clause with it (stop 63). Invented people and lines only.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.clauses import segment
from dmem.decisions.offline.splitting import facts_from_message
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="D2", when=datetime(2025, 6, 14, 9, 0))


def facts(line: str) -> list[str]:
    """The facts Ottilie's line forms after Rasmus asks how her day is going ([] when it is rejected)."""
    turns = [turn("how is your day going?", "Rasmus", 1), turn(line, "Ottilie", 2)]
    if not judge_utterance(turns[-1], turns[:-1])[0]:
        return []
    return [f.text for f in facts_from_message(turns[-1], turns, [], gated=True)]


@pytest.mark.parametrize(("line", "habit"), [
    ("I am reading up on old trains right now, I'm always so curious about them when I travel.", "curious"),
    ("Right now I'm baking bread, I always bake on Sundays.", "on Sundays"),
    ("I'm stuck at the depot at the moment, I usually cycle home along the canal.", "along the canal"),
])
def test_a_habit_spliced_to_a_transient_state_forms(line: str, habit: str) -> None:
    formed = facts(line)
    assert any(habit in f for f in formed), formed
    assert not any("right now" in f.lower() or "at the moment" in f for f in formed)


@pytest.mark.parametrize(("text", "clauses"), [
    ("Right now I'm baking bread, I always bake on Sundays.",
     ["Right now I'm baking bread", "I always bake on Sundays."]),
    ("When I travel, I always pack light.", ["When I travel, I always pack light."]),  # the habit's condition
    ("If I can, I usually walk to work.", ["If I can, I usually walk to work."]),
    ("Honestly, I always forget.", ["Honestly, I always forget."]),  # no first person before the comma
    ("I'm at the market, it's always busy.", ["I'm at the market, it's always busy."]),  # not the speaker's habit
])
def test_the_splice_cut(text: str, clauses: list[str]) -> None:
    assert [c.text for c in segment(text)] == clauses
