"""A teaser the asker answers, or a 'guess who' riddle, tells the asker's own fact (issue #26, stop 57).

'Guess where I'm moving in June? Tarrowick!' asks the listener nothing: the asker tells the clause with its
answer. 'guess who got the library job' with no answer after it is the asker's news as a riddle, kept as the
asker's and hedged; a third person's pronoun ('guess who fell off their bike') names someone else. A teaser
whose answer tells nothing ('Guess what? Nothing.') and a question asked of oneself ('where did I leave my
gloves? ugh') stay rejected. Invented people and lines only: Saoirse asks, Tamsin is asked.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline import embedded
from dmem.state.schemas import Provenance
from tests.conftest import chat_turn, drafted_after

turn = functools.partial(chat_turn, session="D3", when=datetime(2025, 7, 9, 18, 30))


def drafted(question: str, before: str = "Quiet evening here.") -> tuple[bool, str, list[tuple[str, Provenance]]]:
    """Saoirse's turn after a turn of Tamsin: admitted, the reason, the facts drafted."""
    return drafted_after(turn(before, "Tamsin", 1), turn(question, "Saoirse", 2))


@pytest.mark.parametrize(("question", "fact"), [
    ("Guess where I'm moving in June? Tarrowick!", "Saoirse is moving in June: Tarrowick"),
    ("Guess what I carved at the weekend? A rocking horse for my niece.",
     "Saoirse carved at the weekend: a rocking horse for Saoirse's niece"),
    ("What do you think I rescued on tuesday? A one-eyed tabby cat.",
     "Saoirse rescued on tuesday: a one-eyed tabby cat"),
])
def test_a_teaser_the_asker_answers_tells_the_clause_with_its_answer(question: str, fact: str) -> None:
    admitted, reason, facts = drafted(question)
    assert admitted and "the asker's own statement in a question" in reason
    assert (fact, Provenance.STATED) in facts
    assert not any(text.startswith(("Guess", "What do")) or "think" in text for text, _ in facts)


@pytest.mark.parametrize(("line", "fact"), [
    ("guess who got the library job", "Saoirse got the library job"),
    ("Guess who's moving to Dundee in April?", "Saoirse is moving to Dundee in April"),
])
def test_a_guess_who_riddle_is_the_askers_news_kept_hedged(line: str, fact: str) -> None:
    admitted, _, facts = drafted(line)
    assert admitted
    assert (fact, Provenance.HEDGED) in facts
    assert not any("guess" in text.lower() for text, _ in facts)  # not "Saoirse guesses who ..."


@pytest.mark.parametrize("line", [
    "Guess what? Nothing.",
    "Guess what I'm doing? Nothing much.",
    "Where did I leave my gloves? Ugh.",
    "What should I do? Help!",
    "Guess who? Me!",
    "What am I even doing? No idea.",
    "Guess who's back?",
])
def test_a_teaser_telling_nothing_stays_rejected(line: str) -> None:
    admitted, reason, _ = drafted(line)
    assert not admitted, reason


def test_a_riddle_about_a_third_person_is_not_the_askers() -> None:
    assert embedded.guessed("you'll never guess who fell off their bike", None) is None
    _, _, facts = drafted("you'll never guess who fell off their bike")
    assert not any(text.startswith("Saoirse fell") for text, _ in facts)


def test_the_teasers_guards() -> None:
    words = str.split
    assert embedded.answered("Guess where I'm moving?", "Tarrowick!", words) is not None
    assert embedded.answered("Guess where I'm moving?", None, words) is None  # no answer given
    assert embedded.answered("Guess where I'm moving?", "Is it far?", words) is None  # the next clause asks
    long_answer = "a little town on the coast an hour north of the city"
    assert embedded.answered("Guess where I'm moving?", long_answer, words) is None  # a statement of its own
    assert embedded.answered("Where am I moving?", "Tarrowick!", words) is None  # no guessing frame
    assert embedded.guessed("guess who got the library job", "Tamsin!") is None  # answered with someone else
    assert embedded.guessed("guess who cares", None) is None
