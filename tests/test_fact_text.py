"""The text helpers every offline fact writer shares (``fact_text``), and the follow-up unit given its news once.

Invented people and lines only.
"""

from __future__ import annotations

from datetime import datetime

from dmem.decisions.offline.admission import followup_news, followup_unit
from dmem.decisions.offline.clause_admission import judge_clause
from dmem.decisions.offline.clauses import Clause, ClauseVerdict, clauses_of
from dmem.decisions.offline.fact_text import categorize, drop_vocative, tidy, trim
from dmem.state.schemas import Category, Message
from tests.conftest import chat_turn


def test_trim_and_tidy_put_a_fact_as_written() -> None:
    assert trim("  yeah, so   the kiln   cracked!! ") == "the kiln cracked"
    assert tidy("my locker code changed, it's 4471 now") == "My locker code is now 4471"
    assert tidy("ok.") == "Ok"


def test_the_listener_addressed_is_dropped_and_no_one_else() -> None:
    assert drop_vocative("Priya, Theo had to leave early", "Priya") == "Theo had to leave early"
    assert drop_vocative("the ferry was late, Priya", "Priya") == "the ferry was late"
    assert drop_vocative("Priya had to leave early", "Theo") == "Priya had to leave early"
    assert drop_vocative("Priya, hi", None) == "Priya, hi"


def test_categories_fall_back_to_persona() -> None:
    assert categorize("the kiln is in the shed") == [Category.PERSONA]


def _reply(*lines: tuple[str, str]) -> tuple[list[Message], list[Clause], list[ClauseVerdict], str]:
    """The turns, and the last one's clauses, their verdicts and its language."""
    when = datetime(2025, 6, 3, 20, 0)
    turns = [chat_turn(text, who, i + 1, session="D7", when=when) for i, (who, text) in enumerate(lines)]
    clauses, language = clauses_of(turns[-1], turns[:-1])
    return turns, list(clauses), [judge_clause(c, language) for c in clauses], language


def test_the_follow_up_unit_goes_on_with_the_news_it_is_given() -> None:
    turns, clauses, verdicts, language = _reply(("Tamsin", "failed my theory test today 😩"),
                                                 ("Wren", "noo what happened"), ("Tamsin", "parking. obvs"))
    news = followup_news(turns[-1], turns[:-1])
    assert news is not None and news.news.turn_id == turns[0].turn_id
    unit = followup_unit(clauses, verdicts, turns[-1], turns[:-1], language, news)
    assert unit is not None and unit.pooled
    assert followup_unit(clauses, verdicts, turns[-1], turns[:-1], language, None) is None  # no news, no unit
