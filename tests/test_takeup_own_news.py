"""A line the listener congratulates or consoles was the speaker's own news, even said as the world's (stop 63).

"the results came out this morning" alone names nobody's results: a marker claims it as the world at large and the
line forms nothing. When the listener's next turn congratulates or consoles the speaker ("CONGRATS you did it",
"so sorry to hear"), the line was the speaker's own news and forms their fact, with the line as its source; the
take-up may open the next exchange. A reaction world news gets too ("omg", "whoa", "yay") lifts nothing.
Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path

import pytest

from dmem import Memory
from dmem.decisions.offline.admission import judge_utterance, takeup_news
from dmem.decisions.offline.splitting import facts_from_message
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="D7", when=datetime(2025, 11, 3, 18, 0))
OPENING = (("Ottilie", "evening!"), ("Rasmus", "hey hey"))


def chat(*lines: tuple[str, str]) -> list:
    """The opening and ``lines`` as turns D7:1, D7:2, ..."""
    return [turn(text, who, i + 1) for i, (who, text) in enumerate((*OPENING, *lines))]


def formed(*lines: tuple[str, str]) -> list[tuple[str, str | None, list[str]]]:
    """The facts the last line forms after the lines before it: (text, speaker, sources)."""
    turns = chat(*lines)
    admitted, _ = judge_utterance(turns[-1], turns[:-1])
    if not admitted:
        return []
    return [(f.text, f.speaker, f.source_turn_ids) for f in facts_from_message(turns[-1], turns, [], gated=True)]


def test_a_line_said_as_the_worlds_forms_nothing_alone() -> None:
    turns = chat(("Ottilie", "the results came out this morning"))
    assert judge_utterance(turns[-1], turns[:-1])[0] is False


@pytest.mark.parametrize("reaction", ["CONGRATS!!! you did it", "congratulations", "omg well done",
                                      "good for you"])
def test_a_congratulated_line_forms_the_speakers_fact(reaction: str) -> None:
    facts = formed(("Ottilie", "the results came out this morning"), ("Rasmus", reaction))
    assert [(speaker, sources) for _, speaker, sources in facts] == [("Ottilie", ["D7:3", "D7:4"])]  # both (h66b)
    assert "results came out" in facts[0][0] and facts[0][0].startswith("Ottilie")


def test_a_consoled_line_forms_the_speakers_fact() -> None:
    facts = formed(("Ottilie", "the marks came out"), ("Rasmus", "oh so sorry to hear"))
    assert [(speaker, sources) for _, speaker, sources in facts] == [("Ottilie", ["D7:3", "D7:4"])]  # both (h66b)
    assert "marks came out" in facts[0][0]


@pytest.mark.parametrize("reaction", ["omg", "whoa", "yay", "no way", "nice", "lol"])
def test_a_reaction_world_news_gets_too_lifts_nothing(reaction: str) -> None:
    turns = chat(("Ottilie", "the marks came out"), ("Rasmus", reaction))
    assert takeup_news(turns[-1], turns[:-1]) is None


def test_a_congratulated_line_that_only_reacts_stays_unformed() -> None:
    """A reply to the listener (a laugh opening it) is no news of the speaker's, congratulated or not."""
    turns = chat(("Ottilie", "haha the whole town knows by now"), ("Rasmus", "congrats anyway"))
    assert takeup_news(turns[-1], turns[:-1]) is None


@pytest.mark.parametrize(("text", "owns"), [("CONGRATS you did it", True), ("oh so sorry to hear", True),
                                            ("well done!!", True), ("omg", False), ("whoa", False), ("yay", False),
                                            ("oh no", False), ("I passed too", False)])
def test_congratulating_or_consoling_is_what_owns_the_news(text: str, owns: bool) -> None:
    from dmem.decisions.offline.takeup import owns_news  # new at stop 63: the other tests run on the base too

    assert owns_news(text) is owns


def test_the_take_up_opening_the_next_exchange_forms_the_line_and_keeps_its_own(tmp_path: Path) -> None:
    """The line ends one exchange and the congratulation opens the next: the fact is the line speaker's, and the
    congratulating turn's own news still forms in its own speaker's namespace."""
    turns = chat(("Rasmus", "same old here"), ("Ottilie", "the results came out this morning"),
                 ("Rasmus", "CONGRATS!!! you did it"), ("Rasmus", "I start at the bakery on Monday btw"))
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        mem.add(turns, user_id="u", conversation_id="c1", speaker_namespaces={"Ottilie": "otti", "Rasmus": "ras"})
        otti = [(r.text, r.source_turn_ids) for r in mem.get_all(user_id="otti")]
        ras = [(r.text, r.source_turn_ids) for r in mem.get_all(user_id="ras")]
    assert [sources for text, sources in otti if "results came out" in text] == [["D7:4", "D7:5"]]  # both (h66b)
    assert any("bakery" in text and sources == ["D7:6"] for text, sources in ras)
    assert not any("results" in text for text, _ in ras)
