"""Formation of what chat says without 'I': a short message continuing the speaker's own one, an
opinion about something named, a question about how the listener's own event went. Filler and
chit-chat of the same shapes stay out. Invented conversations only."""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path

import pytest

from dmem.api import Memory
from dmem.decisions.model import ModelDecider
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.replies import own_message_before
from dmem.state.schemas import Message, Provenance
from dmem.testing import FakeChatModel
from tests.conftest import chat_turn

TS = datetime(2025, 6, 14, 9, 15)


turn = functools.partial(chat_turn, session="D3", when=TS)
"""A turn of the invented chat, at ``TS``."""


def admitted(decider: OfflineDecider, said: Message, prior: list[Message]) -> tuple[bool, str]:
    verdict = decider.admit([said], prior, []).value.verdicts[0]
    return verdict.admit, verdict.reason


# A short message continuing the speaker's own message ------------------------------------------

@pytest.mark.parametrize(
    ("earlier", "later", "fact"),
    [
        ("I just started at the coastal art school.", "It is right by the old ferry pier!",
         'Noor added to "Noor just started at the coastal art school": it is right by the old ferry pier'),
        ("We went to the lantern festival on Saturday.", "Mostly paper cranes and floating candles.",
         'Noor added to "Noor and others went to the lantern festival on Saturday": '
         "mostly paper cranes and floating candles"),
        ("My brother finally opened his bakery.", "Rye loaves and cardamom buns, nothing else.",
         'Noor added to "Noor\'s brother finally opened his bakery": Rye loaves and cardamom buns, nothing else'),
    ],
)
def test_a_short_message_continuing_the_speakers_own_is_kept_with_it(
        decider: OfflineDecider, earlier: str, later: str, fact: str) -> None:
    prior = [turn("Anything new this week?", "Ivo", 1), turn(earlier, "Noor", 2)]
    said = turn(later, "Noor", 3)
    ok, reason = admitted(decider, said, prior)
    assert ok and "continues the speaker's previous message" in reason
    facts = decider.split([said], prior, []).value.facts
    assert [(f.text, f.source_turn_ids) for f in facts] == [(fact, ["D3:2", "D3:3"])]


def test_the_same_message_alone_or_after_the_other_speaker_says_nothing_personal(decider: OfflineDecider) -> None:
    said = turn("It is right by the old ferry pier!", "Noor", 3)
    for prior in ([], [turn("I just started at the coastal art school.", "Ivo", 2)]):
        ok, reason = admitted(decider, said, prior)
        assert not ok and "no personal fact" in reason


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("Did you ever go to the coastal art school?", "It is right by the old ferry pier!"),  # a question
        ("The weather turned grey again.", "It is right by the old ferry pier!"),  # nothing about the speaker
        ("I just started at the coastal art school.", "lol"),  # filler
        ("I just started at the coastal art school.", "Thanks, talk soon!"),  # filler
        ("I just started at the coastal art school.",  # long: a message of its own, judged alone
         "Art schools tend to have studios that stay open late, which suits students who work at odd hours."),
    ],
)
def test_what_does_not_continue_the_speakers_own_message_stays_rejected(
        decider: OfflineDecider, earlier: str, later: str) -> None:
    prior = [turn(earlier, "Noor", 2)]
    assert admitted(decider, turn(later, "Noor", 3), prior)[0] is False


def test_the_run_searched_back_is_short() -> None:
    said = turn("Mostly paper cranes.", "Noor", 5)
    run = [turn("We went to the lantern festival.", "Noor", 1), turn("The river was packed.", "Noor", 2)]
    found = own_message_before(said, run)
    assert found is not None and found.turn_id == "D3:1"  # two back, through a message without 'I'
    longer = [run[0], turn("The river was packed.", "Noor", 2), turn("Crowds everywhere.", "Noor", 3)]
    assert own_message_before(said, longer) is None  # three back is past FOLLOW_RUN


# An opinion about something named --------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("The lake trail has the best views in the valley.", "Noor's opinion: The lake trail has the best views "
                                                             "in the valley"),
        ("Fresh egg pasta is way better than the dried kind!", "Noor's opinion: Fresh egg pasta is way better "
                                                               "than the dried kind"),
        ("Honestly the sequel was overrated.", "Noor's opinion: the sequel was overrated"),
    ],
)
def test_an_opinion_about_something_named_is_the_speakers(decider: OfflineDecider, text: str, fact: str) -> None:
    said = turn(text, "Noor", 1)
    ok, reason = admitted(decider, said, [])
    assert ok and "the speaker's opinion" in reason
    facts = decider.split([said], [], []).value.facts
    assert [(f.text, f.provenance) for f in facts] == [(fact, Provenance.STATED)]


@pytest.mark.parametrize(
    "text", ["That's the best!", "You should try the lake trail, it has the best views.", "Best day ever!",
             "It is better than nothing."],
)
def test_reactions_and_advice_are_not_opinions_to_keep(decider: OfflineDecider, text: str) -> None:
    assert admitted(decider, turn(text, "Noor", 1), [])[0] is False


# A question about how the listener's own event went ---------------------------------------------

@pytest.mark.parametrize(
    "text",
    ["How did your driving test go?", "Hey! How was the pottery fair yesterday?",
     "Did you finish the quilt for your niece?", "How is the garden shed coming along?"],
)
def test_a_question_about_the_listeners_own_event_carries_it(decider: OfflineDecider, text: str) -> None:
    prior = [turn("Morning!", "Ivo", 1)]
    ok, reason = admitted(decider, turn(text, "Noor", 2), prior)
    assert ok and "question carrying a fact" in reason


@pytest.mark.parametrize(
    "text", ["How was your day?", "How are you?", "How's your weekend going?", "What is your favourite dish?",
             "Did you have fun?"],
)
def test_small_talk_questions_stay_rejected(decider: OfflineDecider, text: str) -> None:
    assert admitted(decider, turn(text, "Noor", 2), [turn("Morning!", "Ivo", 1)])[0] is False


# Through ingestion and the model engine ---------------------------------------------------------

def test_ingestion_keeps_both_messages_as_sources(tmp_path: Path) -> None:
    turns = [turn("What did you get up to on Saturday?", "Ivo", 1),
             turn("We went to the lantern festival by the canal.", "Noor", 2),
             turn("Mostly paper cranes and floating candles.", "Noor", 3)]
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        mem.add(turns, user_id="noor", conversation_id="c1")
        records = mem.get_all(user_id="noor")
    sources = {r.text: r.source_turn_ids for r in records}
    # The first message answers Ivo's question, so its turn is a source too (the memory merged both facts).
    assert any("paper cranes" in text and ids == ["D3:1", "D3:2", "D3:3"] for text, ids in sources.items()), sources


def test_model_split_names_the_continued_message_as_a_source() -> None:
    reply = {"facts": [{"text": "Noor saw paper cranes at the lantern festival", "speaker": "Noor",
                        "source_turn_ids": ["2"], "categories": ["event"]}]}
    model = FakeChatModel(script={"FactDrafts": [reply]})
    earlier = turn("We went to the lantern festival by the canal.", "Noor", 1)
    out = ModelDecider(model).split([earlier, turn("Mostly paper cranes.", "Noor", 2)], [], []).value.facts
    assert [f.source_turn_ids for f in out] == [["D3:1", "D3:2"]]
    system = str(model.calls_for("FactDrafts")[0].messages[0].content)
    assert "continuing the speaker's own message" in system and "opinion without 'I'" in system


def test_model_admission_is_told_the_same_classes() -> None:
    verdicts = {"verdicts": [{"turn_id": "1", "reason": "continues their own message", "admit": True}]}
    model = FakeChatModel(script={"AdmissionVerdicts": [verdicts]})
    ModelDecider(model).admit([turn("Mostly paper cranes.", "Noor", 2)],
                              [turn("We went to the lantern festival.", "Noor", 1)], [])
    system = str(model.calls_for("AdmissionVerdicts")[0].messages[0].content)
    assert "continues the speaker's own message" in system and "Admit an opinion" in system
    assert "how did your driving test go?" in system
