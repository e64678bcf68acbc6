"""Formation keeps what it kept with fewer lines: one answer is one memory, and a question that only asks
for tastes or news is not kept as asked. The frames are written and read back by one module.
Invented people and events only.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import frames, question_facts
from dmem.decisions.offline.decider import OfflineDecider
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Message, Provenance
from tests.conftest import chat_turn

TS = datetime(2025, 5, 2, 18, 0)


def turn(text: str, speaker: str, seq: int) -> Message:
    return chat_turn(text, speaker, seq, session="D1", when=TS)


def _reply_facts(decider: OfflineDecider, question: str, reply: str) -> list[str]:
    asked, said = turn(question, "Maya", 1), turn(reply, "Theo", 2)
    facts = decider.split([said], [asked], []).value.facts
    assert facts[0].source_turn_ids == ["D1:1", "D1:2"]
    return [f.text for f in facts]


def test_fragments_answering_one_question_are_one_memory(decider: OfflineDecider) -> None:
    facts = _reply_facts(decider, "What were the best moments of the lantern festival?",
                         "The lantern parade. The drummers at midnight. Fireworks over the bay.")
    assert facts == ['Theo answered Maya\'s question "What were the best moments of the lantern festival?": '
                     "The lantern parade; The drummers at midnight; Fireworks over the bay"]
    assert frames.said(facts[0]) == "The lantern parade; The drummers at midnight; Fireworks over the bay"


def test_a_reply_to_another_question_or_a_statement_stays_its_own_memory(decider: OfflineDecider) -> None:
    facts = _reply_facts(decider, "Which bands did you see at the fair?",
                         "Mostly local ones. I bought a harmonica from the brass quartet.")
    assert len(facts) == 2
    assert facts[0].startswith('Theo answered Maya\'s question "Which bands did Theo see at the fair?": Mostly')
    assert "harmonica" in facts[1] and "; " not in facts[1]


def test_joined_keeps_stated_when_one_part_is_stated(decider: OfflineDecider) -> None:
    asked, said = turn("What about you?", "Maya", 1), turn("Probably the ferry museum. The old lighthouse.", "Theo", 2)
    [fact] = decider.split([said], [asked], []).value.facts
    assert "; " in fact.text and fact.provenance == Provenance.STATED


@pytest.mark.parametrize("first, second, expected", [
    ('Theo answered Maya\'s question "Why?": the rain', 'Theo answered Maya\'s question "Why?": the cold',
     'Theo answered Maya\'s question "Why?": the rain; the cold'),
    ('Theo answered Maya\'s question "Why?": the rain', 'Theo answered Maya\'s question "When?": in May', None),
    ('Theo answered Maya\'s question "Why?": the rain', 'Noor answered Maya\'s question "Why?": the rain', None),
    ("Theo likes rain", 'Theo answered Maya\'s question "Why?": the cold', None),
])
def test_joined_only_joins_the_same_frame(first: str, second: str, expected: str | None) -> None:
    assert frames.joined(first, second) == expected


def test_frames_read_back_what_they_write() -> None:
    reply = frames.answered("Theo", "Maya", "Which film?", "the one with the lighthouse")
    added = frames.added("Noor", "Noor just started at the art school", "it is right by the ferry pier")
    asked = frames.asked("Maya", "Theo", "How is the new puppy settling in")
    assert [frames.said(t) for t in (reply, added, asked)] == [
        "the one with the lighthouse", "it is right by the ferry pier", "How is the new puppy settling in?"]
    assert frames.is_asked(asked) and not frames.is_asked(reply) and not frames.is_asked("Maya asked Theo to cook")


@pytest.mark.parametrize("question, kept", [
    ("Do you have any favourite hiking trails or quiet spots that you visit on weekends?", False),
    ("Any exciting novels or comics you usually look for at the library downtown?", False),
    ("Is there a particular painter from the museum exhibition that stands out to you?", False),
    ("Did you finish the puzzle book I lent you?", True),
    ("Are you still enjoying your pottery class on Thursdays?", True),
    ("How did the chess tournament go last weekend?", True),
])
def test_a_question_is_kept_as_asked_only_when_it_presupposes_something(
        decider: OfflineDecider, question: str, kept: bool) -> None:
    verdict = decider.admit([turn(question, "Noor", 2)], [turn("Long week at work.", "Ivo", 1)], []).value.verdicts[0]
    assert verdict.admit is kept, verdict.reason


def test_articles_presupposing_was_the_old_rule(decider: OfflineDecider, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(question_facts, "ARTICLES_PRESUPPOSE", 1)
    asked = [turn("Do you have any favourite hiking trails or quiet spots that you visit on weekends?", "Noor", 2)]
    verdict = decider.admit(asked, [turn("Long week at work.", "Ivo", 1)], []).value.verdicts[0]
    assert verdict.admit and verdict.reason.startswith("admitted: question carrying a fact (")


def test_model_prompts_say_the_same() -> None:
    from dmem.prompts.formation import ADMIT_SYSTEM, SPLIT_SYSTEM

    assert "only asks for tastes or news presupposes nothing" in ADMIT_SYSTEM
    assert "One answer is one fact" in SPLIT_SYSTEM


def test_long_pieces_stay_lines_of_their_own(decider: OfflineDecider) -> None:
    facts = _reply_facts(decider, "What were the best moments of the lantern festival?",
                         "The lantern parade that wound along the old harbour wall at dusk with the drummers. "
                         "The quiet fireworks over the bay after midnight, seen from the top of the ferris wheel.")
    assert len(facts) == 2 and all("; " not in f for f in facts)


def test_the_answerer_reads_joined_replies_piece_by_piece() -> None:
    from dmem.decisions.offline.answer_extraction import answer

    frame = 'Theo answered Maya\'s question "How often do you take the kids to the lake park?": '
    joined = "A few times a week; They come home tired and happy after chasing the ducks"
    assert frames.pieces(frame + joined) == ["A few times a week",
                                             "They come home tired and happy after chasing the ducks"]
    assert frames.replied_to(frame + joined) == "How often do you take the kids to the lake park?"
    line = f"[2025-04-06] {frame}{joined}"
    out = answer(HashEmbeddings(), "How often does Theo take the kids to the lake park?", [line])
    assert out.answer == "times a week"


def test_a_list_question_takes_an_item_from_each_joined_reply() -> None:
    from dmem.decisions.offline.answer_extraction import answer

    line = ('[2025-04-06] Theo answered Maya\'s question "What are your cats called?": Pepper is the older cat; '
            "Miso is the kitten")
    other = "[2025-04-07] Theo adopted a third cat called Biscuit from the shelter"
    out = answer(HashEmbeddings(), "What are the names of Theo's cats?", [line, other])
    assert "Pepper" in out.answer and "Miso" in out.answer, out.answer


def test_long_pieces_on_one_topic_are_one_memory(decider: OfflineDecider) -> None:
    facts = _reply_facts(decider, "How was the new climbing gym?",
                         "The walls are much taller than at the old gym, with a whole overhang for beginners. "
                         "The staff reset the walls every two weeks so there is always a fresh route to try.")
    assert len(facts) == 1
    assert frames.pieces(facts[0]) == [
        "The walls are much taller than at the old gym, with a whole overhang for beginners",
        "The staff reset the walls every two weeks so there is always a fresh route to try"]


@pytest.mark.parametrize("opener", ["It took", "It's", "It\u2019s"])
def test_a_long_piece_pointing_back_joins_the_one_before(decider: OfflineDecider, opener: str) -> None:
    facts = _reply_facts(decider, "What was the best part of the island trip?",
                         "Walking the whole coastal path from the lighthouse down to the old fort on the cliffs. "
                         f"{opener} about five hours because of all the stops to watch seals on the rocks.")
    assert len(facts) == 1 and len(frames.pieces(facts[0])) == 2
    assert facts[0].startswith('Theo answered Maya\'s question "What was the best part of the island trip?": ')
