"""A reply linked to its question across crossed messages (both people type at once), in both engines, and
the question's turn weighed apart in the source-turn ranking. Invented chats only."""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dmem.api import Memory
from dmem.decisions.model import ModelDecider
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.replies import question_replied
from dmem.models.embeddings import HashEmbeddings
from dmem.testing import FakeChatModel
from dmem.text import crossed
from dmem.text.asked import real_questions, reply_answers
from dmem.text.crossed import replied_question
from tests.conftest import chat_turn

TS = datetime(2025, 8, 2, 19, 40)
EMB = HashEmbeddings(384)
turn = functools.partial(chat_turn, session="D7", when=TS)
"""A turn of the invented chat, at ``TS``."""
ASKS = ("Ivo", "What did you cook for the potluck on Saturday?")


# Which question a reply answers --------------------------------------------------------------------------

@pytest.mark.parametrize(("between", "reply"), [
    ([("Ivo", "I burned the rice again lol")], "For the potluck I cooked a big pot of lentil stew"),  # asker's
    ([("Noor", "haha")], "I cooked a lentil stew with smoked paprika"),  # the replier's filler first
    ([("Ivo", "lol"), ("Noor", "omg wait")], "Cooked a lentil stew, everyone asked for seconds"),  # filler both ways
    ([("Noor", "The ferry was late again this morning")], "I cooked lentil stew for the potluck"),  # crossed
    ([("Noor", "Are you going to the market tomorrow?")], "I cooked lentil stew for the potluck"),  # asked back
    ([("Noor", "The ferry was late"), ("Ivo", "ugh")], "I cooked lentil stew for the potluck"),  # interleaved
])
def test_a_reply_after_crossed_messages_answers_the_question(between: list[tuple[str, str]], reply: str) -> None:
    assert replied_question(("Noor", reply), [ASKS, *between]) == 0


@pytest.mark.parametrize(("between", "reply"), [
    ([("Ivo", "I burned the rice again, the whole flat smells of it")], "Yes, same here honestly"),  # no topic word
    ([("Noor", "Are you going to the market tomorrow?")], "Yes, loved it"),  # asked back, no topic word
    ([("Noor", "I cooked lentil stew")], "It was a big hit at the potluck"),  # the question was answered before
    ([("Ivo", "I burned the rice"), ("Ivo", "the flat smells"), ("Ivo", "opened every window"),
      ("Ivo", "the cat hid")], "I cooked lentil stew for the potluck"),  # 4 after: past the far window
    ([("Noor", "The ferry was late"), ("Noor", "so annoying"), ("Noor", "missed my bus too")],
     "I cooked lentil stew for the potluck"),  # 3 before: past the far window
    ([("Ivo", "I burned the rice"), ("Ivo", "the flat smells"), ("Noor", "oh no, the whole rice?")],
     "I cooked lentil stew for the potluck"),
    # past the near window only with no turn-taking: here the replier took up the asker's later message
    ([("Rafa", "Count me in for the next potluck")], "I cooked lentil stew for the potluck"),  # a third person
])
def test_a_reply_the_turn_taking_or_its_words_do_not_tie_to_the_question_answers_nothing(
        between: list[tuple[str, str]], reply: str) -> None:
    assert replied_question(("Noor", reply), [ASKS, *between]) is None


def test_a_later_question_the_reply_takes_up_is_the_one_answered() -> None:
    prior = [ASKS, ("Ivo", "And did you finish the bookshelf?")]
    assert replied_question(("Noor", "Yes, the bookshelf is finally up in the hall"), prior) == 1
    assert replied_question(("Noor", "Cooked lentil stew for the potluck"), prior) == 0  # crossed past it


def test_the_question_right_before_is_linked_as_before() -> None:
    assert replied_question(("Noor", "I cooked lentil stew"), [ASKS]) == 0
    assert replied_question(("Noor", "The weather was awful all week"), [ASKS]) is None


# The offline engine --------------------------------------------------------------------------------------

def test_the_offline_split_names_the_question_across_the_askers_follow_up(decider: OfflineDecider) -> None:
    """On main the asker's follow-up hid the question: the reply's facts named the reply's turn only."""
    prior = [turn(ASKS[1], "Ivo", 1), turn("I burned the rice again lol", "Ivo", 2)]
    said = turn("For the potluck I cooked a big pot of lentil stew.", "Noor", 3)
    asked = question_replied(said, prior)
    assert asked is not None and asked.turn_id == "D7:1"
    out = [(f.text, f.source_turn_ids) for f in decider.split([said], prior, []).value.facts]
    assert out == [("For the potluck Noor cooked a big pot of lentil stew", ["D7:1", "D7:3"])]


def test_ingestion_adds_the_crossed_question_as_a_source_not_a_memory(tmp_path: Path) -> None:
    turns = [turn(ASKS[1], "Ivo", 1), turn("I burned the rice again lol", "Ivo", 2),
             turn("haha", "Noor", 3), turn("I cooked a lentil stew with smoked paprika.", "Noor", 4)]
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        mem.add(turns, user_id="u", conversation_id="c1", speaker_namespaces={"Noor": "noor", "Ivo": "ivo"})
        noor = [(r.text, r.source_turn_ids) for r in mem.get_all(user_id="noor")]
    assert noor == [("Noor cooked a lentil stew with smoked paprika", ["D7:1", "D7:4"])]


# The model engine ----------------------------------------------------------------------------------------

def test_the_model_split_names_the_question_across_the_askers_follow_up() -> None:
    fact = {"text": "Noor cooked lentil stew for the potluck", "speaker": "Noor", "source_turn_ids": ["1"]}
    reply = {"facts": [fact]}
    model = FakeChatModel(script={"FactDrafts": [reply, reply]})
    said = turn("For the potluck I cooked a big pot of lentil stew.", "Noor", 3)
    chat = [turn(ASKS[1], "Ivo", 1), turn("I burned the rice again lol", "Ivo", 2)]
    assert [f.source_turn_ids for f in ModelDecider(model).split([said], chat, []).value.facts] == [
        ["D7:1", "D7:3"]]
    unrelated = [turn("Did you see the eclipse last night?", "Ivo", 1), chat[1]]
    assert [f.source_turn_ids for f in ModelDecider(model).split([said], unrelated, []).value.facts] == [["D7:3"]]


# Properties of the search ------------------------------------------------------------------------------------

_LINES = ["What did you cook for the potluck?", "Did you finish the bookshelf?", "lol", "haha ok",
          "I cooked lentil stew for the potluck", "The ferry was late again", "Are you coming tomorrow?",
          "Yes, the bookshelf is up", "How are you?", "Cooked a stew"]
_CHAT = st.lists(st.tuples(st.sampled_from(["Ivo", "Noor", "Rafa"]), st.sampled_from(_LINES)), max_size=6)


@given(prior=_CHAT, reply=st.sampled_from(_LINES))
def test_a_linked_question_is_a_real_one_by_another_speaker_within_the_window(
        prior: list[tuple[str, str]], reply: str) -> None:
    found = replied_question(("Noor", reply), prior)
    if found is not None:
        assert prior[found][0] != "Noor" and real_questions(prior[found][1])
        after = prior[found + 1:]
        assert sum(s == "Noor" for s, _ in after) <= max(crossed.REPLIER_BEFORE, crossed.LINK_REPLIER_FAR)
        assert sum(s != "Noor" for s, _ in after) <= max(crossed.ASKER_AFTER, crossed.LINK_ASKER_FAR)
        assert {s for s, _ in after} <= {"Noor", prior[found][0]}  # no third person in between


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prior=_CHAT, reply=st.sampled_from(_LINES))
def test_with_no_crossing_allowed_only_the_question_right_before_is_linked(
        prior: list[tuple[str, str]], reply: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both constants 0 give main's rule: the other speaker's message just before, if the reply takes it up."""
    with monkeypatch.context() as patch:
        patch.setattr(crossed, "ASKER_AFTER", 0)
        patch.setattr(crossed, "REPLIER_BEFORE", 0)
        patch.setattr(crossed, "LINK_ASKER_FAR", 0)
        patch.setattr(crossed, "LINK_REPLIER_FAR", 0)
        found = replied_question(("Noor", reply), prior)
    last = prior[-1] if prior else None
    expected = (len(prior) - 1 if last and last[0] != "Noor" and real_questions(last[1])
                and reply_answers(last[1], reply, ("Noor", last[0])) else None)
    assert found == expected
