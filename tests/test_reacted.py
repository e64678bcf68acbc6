"""A reaction to the other speaker's news: its turn becomes a source of what the news formed (stop 66).

"got the keys to the flat on Juniper Road today" / "CONGRATS 🎉": the reaction says how the listener took the news,
so a question about that asks for its turn; it forms no memory of its own. Within one exchange it joins the line's
drafts, after it the line's fact is written again with it as a source and the lifecycle's repeat adds it to the
stored memory. A reaction to a line that formed nothing takes it up (``takeup``) and is a source of that fact too.
Kept out: a reaction to a question, a plan of both, an opinion or a reaction; one reaching back ("congrats again")
or praising the listener; a reaction by the line's own speaker. Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path

import pytest

from dmem.decisions.offline.admission import judge_utterance, reacted_news
from dmem.decisions.offline.reacted import reacts
from dmem.decisions.offline.splitting import facts_from_message
from dmem.decisions.offline.takeup import signal
from dmem.state.schemas import Message
from tests.conftest import chat_turn, exchange_drafts, stored_by_speaker

turn = functools.partial(chat_turn, session="D7", when=datetime(2025, 10, 3, 18, 0))
OPENING = (("Odalys", "hiya"), ("Bertil", "evening!"))


def chat(*lines: tuple[str, str]) -> list[Message]:
    """The opening and ``lines`` as turns D7:1, D7:2, ..."""
    return [turn(text, who, i + 1) for i, (who, text) in enumerate((*OPENING, *lines))]


@pytest.mark.parametrize("reaction", ["CONGRATS 🎉", "WHAT. That is so good!", "aww amazing", "omg congrats",
                                      "no way!!", "yay"])
def test_a_reaction_in_the_same_exchange_joins_the_lines_draft(reaction: str) -> None:
    turns = chat(("Odalys", "got the keys to the flat on Juniper Road today"), ("Bertil", reaction))
    assert exchange_drafts(turns) == [("Odalys got the keys to the flat on Juniper Road today", ["D7:3", "D7:4"])]


def test_a_reaction_after_a_stored_line_restates_its_memory_with_the_reaction_as_source() -> None:
    turns = chat(("Odalys", "my sister Wenna passed her driving test"), ("Bertil", "WHAT. That is so good!"))
    memory = "Odalys's sister Wenna passed her driving test"
    assert judge_utterance(turns[-1], turns[:-1], [memory])[0]
    drafted = facts_from_message(turns[-1], turns, [], gated=True, memories=[memory])
    assert [(f.text, f.speaker, f.source_turn_ids) for f in drafted] == [(memory, "Odalys", ["D7:3", "D7:4"])]


def test_the_stored_memory_takes_the_reactions_turn_and_no_memory_is_added(tmp_path: Path) -> None:
    lines = (("Odalys", "ok news"), ("Odalys", "got the keys to the flat on Juniper Road today"),
             ("Bertil", "CONGRATS 🎉"), ("Bertil", "when do you move in?"))
    stored = stored_by_speaker(tmp_path / "m", chat(*lines), {"Odalys": "oda", "Bertil": "ber"})
    oda, ber = stored["oda"], [text for text, _ in stored["ber"]]
    keys = [sources for text, sources in oda if "keys" in text]
    assert len(keys) == 1 and "D7:5" in keys[0] and "D7:4" in keys[0]
    assert not any("keys" in t or "CONGRATS" in t for t in ber)


def test_a_reaction_taking_up_a_line_that_formed_nothing_is_a_source_of_its_fact() -> None:
    turns = chat(("Odalys", "Merewyn is stressed"), ("Bertil", "oh no poor her"))
    assert judge_utterance(turns[-1], turns[:-1])[0]
    assert [(f.text, f.source_turn_ids) for f in facts_from_message(turns[-1], turns, [], gated=True)] == [
        ("Odalys: Merewyn is stressed", ["D7:3", "D7:4"])]


@pytest.mark.parametrize("text", ["WHAT. That is so good!", "aww amazing", "phew!!", "oh no poor her", "so sorry",
                                  "that's amazing", "how awful"])
def test_evaluations_only_news_gets_are_reactions(text: str) -> None:
    assert signal(text, ()) == "a reaction to news"
    assert reacts(text)


@pytest.mark.parametrize("text", ["A CAT. Finally!", "GRANDAD THAT'S AMAZING", "acting lead: congrats??", "WHAT",
                                  "WHAT?!"])
def test_a_reaction_after_the_news_word_or_a_name_called_or_shouted_surprise_is_a_reaction(text: str) -> None:
    assert reacts(text)


@pytest.mark.parametrize("text", ["great", "nice", "lovely", "Lovely.", "haha", "ok", "good", "what", "what time",
                                  "Not amazing", "i got it. yay", "nice. haha"])
def test_what_follows_anything_is_no_reaction(text: str) -> None:
    assert not reacts(text)


@pytest.mark.parametrize("lines", [
    (("Odalys", "drinks at the Anchor on friday?"), ("Bertil", "yay")),  # a question: a plan asked
    (("Odalys", "lets do the quiz at the Anchor on friday"), ("Bertil", "yay")),  # a plan of both
    (("Odalys", "the new Corvale album is amazing"), ("Bertil", "omg")),  # an opinion
    (("Odalys", "congrats!!"), ("Bertil", "omg thank you")),  # a reaction is no news
    (("Odalys", "got the keys to the flat on Juniper Road today"), ("Bertil", "congrats again ur a legend")),
    (("Odalys", "haha same, Juniper Road is the best"), ("Bertil", "amazing")),  # a reply to the listener
    (("Bertil", "pottery on thursday?"), ("Odalys", "thursday works for me at the Fernhill studio"),
     ("Bertil", "amazing")),  # a day checked and agreed: a plan of both
])
def test_what_a_reaction_is_no_source_of(lines: tuple[tuple[str, str], ...]) -> None:
    turns = chat(*lines)
    assert reacted_news(turns[-1], turns[:-1]) is None


def test_the_speakers_own_cheer_after_their_news_is_no_reaction() -> None:
    turns = chat(("Odalys", "got the keys to the flat on Juniper Road today"), ("Odalys", "yay"))
    assert reacted_news(turns[-1], turns[:-1]) is None
    assert exchange_drafts(turns) == [("Odalys got the keys to the flat on Juniper Road today", ["D7:3"])]


GARAGE = "the garage fixed the exhaust on the van and since it was their mistake there's no charge"


# Stop 73 (h73e): a verdict said back, owned sympathy, an echo question, and the line after the listener's murmur.
@pytest.mark.parametrize(("news", "reaction"), [
    (GARAGE, "That's decent of them."),
    (GARAGE, "sweet"),
    ("Pomfrey the spaniel ate a whole pork pie off the counter at my mum's", "Of course he did"),
    ("Pomfrey the spaniel ate a whole pork pie off the counter at my mum's", "Oh no. I'm so sorry"),
    ("the plumber quoted four thousand two hundred pounds for the boiler in Tregaron", "4200?"),
    ("I found a copper kettle with a wooden handle in the loft at Tregaron", "copper kettle?"),
    ("the boiler at Tregaron broke again on Sunday night", "again??"),
])
def test_a_verdict_sympathy_or_echo_question_is_a_source_of_the_news(news: str, reaction: str) -> None:
    turns = chat(("Odalys", news), ("Bertil", reaction))
    assert reacted_news(turns[-1], turns[:-1]) == turns[-2]
    drafts = exchange_drafts(turns)
    assert drafts and all(sources == ["D7:3", "D7:4"] for _, sources in drafts)
    assert len(drafts) == len(exchange_drafts([*turns[:-1], turn("ok", "Bertil", 4)]))  # no memory of its own


def test_the_line_after_the_listeners_murmur_answers_the_news() -> None:
    turns = chat(("Odalys", "I dropped the roofer from Llanfair, he never turned up with the slates"),
                 ("Bertil", "hmm"), ("Bertil", "told you"))
    assert reacted_news(turns[-1], turns[:-1]) == turns[-3]


@pytest.mark.parametrize("lines", [
    (("Odalys", "the plumber quoted four thousand two hundred pounds for the boiler"), ("Bertil", "which plumber?")),
    (("Odalys", "I found a copper kettle in the loft at Tregaron"), ("Bertil", "so?")),
    (("Odalys", "the boiler at Tregaron broke on Sunday night"), ("Bertil", "again??")),  # not told as again
    (("Odalys", "I dropped the roofer from Llanfair"), ("Bertil", "well"), ("Bertil", "told you")),  # no murmur
    (("Odalys", "drinks at the Anchor on friday?"), ("Bertil", "good choice")),  # a question
    (("Odalys", "I dropped the roofer from Llanfair"), ("Odalys", "right call")),  # the speaker's own
])
def test_what_a_verdict_or_echo_is_no_source_of(lines: tuple[tuple[str, str], ...]) -> None:
    turns = chat(*lines)
    assert reacted_news(turns[-1], turns[:-1]) is None
