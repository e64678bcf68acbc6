"""What both speakers share (``offline.shared``): a topic each states as theirs a few turns apart becomes one more
memory, both turns its sources; chit-chat both say alike, one speaker alone, a "not" and a topic already joined form
nothing; the lifecycle updates it; System 1 weighs it down for a question not about both. Invented chats only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import frames
from dmem.decisions.offline.decider import OfflineDecider
from dmem.evidence import hybrid
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Fact, MemoryRecord, Message, Operation
from dmem.text.questions import asks_about_both
from tests.conftest import chat_turn

WHEN = datetime(2026, 5, 9, 18, 30)


def _chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of an invented chat between Ilse and Bram, in order."""
    return [chat_turn(text, who, i + 1, session="S1", when=WHEN) for i, (who, text) in enumerate(lines)]


def _shared(turns: list[Message], memories: tuple[str, ...] = ()) -> list[tuple[str, list[str]]]:
    """The shared-topic facts the offline splitter drafts from the last turn, with their source turns."""
    known = [_record(f"k{i}", text) for i, text in enumerate(memories)]
    split = OfflineDecider(HashEmbeddings()).split([turns[-1]], turns[:-1], known)
    return [(f.text, f.source_turn_ids) for f in split.value.facts if frames.shared_by(f.text)]


def _record(memory_id: str, text: str, turns: tuple[str, ...] = ("S1:1",)) -> MemoryRecord:
    return MemoryRecord(id=memory_id, namespace="c/Bram", text=text, speaker="Bram", source_turn_ids=list(turns),
                        created_at=WHEN, updated_at=WHEN)


def test_a_topic_both_state_as_theirs_forms_one_memory_with_both_turns():
    turns = _chat(("Ilse", "I love bouldering, I go to the climbing hall on Tuesdays."),
                  ("Bram", "No way, I love bouldering too! I did my first black route last week."))
    assert _shared(turns) == [("Bram and Ilse both share an interest in bouldering", ["S1:1", "S1:2"])]


def test_the_listeners_line_may_be_a_few_turns_back():
    turns = _chat(("Ilse", "I really enjoy sourdough baking, my starter is called Gus."),
                  ("Bram", "Haha Gus"),
                  ("Ilse", "He's a good boy"),
                  ("Bram", "I'm a big fan of sourdough baking myself, I bake a loaf every Sunday."))
    assert _shared(turns) == [("Bram and Ilse both share an interest in sourdough baking", ["S1:1", "S1:4"])]


@pytest.mark.parametrize("lines", [
    # chit-chat both say alike: no fact, no topic
    (("Ilse", "Hey! How are you doing?"), ("Bram", "I'm doing great, thanks for asking!"),
     ("Ilse", "I'm doing great too, thanks!")),
    (("Ilse", "Thanks so much, I love it!"), ("Bram", "Aw thanks, I love it too!")),
    # one speaker alone says it twice
    (("Ilse", "I love bouldering, I go on Tuesdays."), ("Bram", "Oh nice"),
     ("Ilse", "I also love bouldering outdoors in the summer.")),
    # the listener's line says they do not like it
    (("Ilse", "I don't like bouldering at all, my hands hurt."),
     ("Bram", "I love bouldering, I go every Tuesday.")),
    # the same word, but a person both know, not an interest
    (("Ilse", "I love my aunt Wilma, she taught me to knit."), ("Bram", "I love Wilma too, she's hilarious.")),
])
def test_no_shared_memory_without_a_topic_both_state_as_theirs(lines: tuple[tuple[str, str], ...]):
    assert _shared(_chat(*lines)) == []


def test_a_topic_already_joined_forms_nothing_new_a_new_word_forms_it_again():
    turns = _chat(("Ilse", "I love bouldering, I go to the climbing hall on Tuesdays."),
                  ("Bram", "I love bouldering too!"))
    assert _shared(turns, ("Bram and Ilse both share an interest in bouldering",)) == []
    assert _shared(turns, ("Bram and Ilse both share an interest in chess",)) != []


@pytest.mark.parametrize(("new", "operation", "text"), [
    ("Bram and Ilse both share an interest in bouldering and chess", Operation.UPDATE,
     "Bram and Ilse both share an interest in bouldering and chess"),
    ("Bram quit bouldering", Operation.UPDATE, "Bram quit bouldering"),
    ("Bram and Ilse both share an interest in bouldering", Operation.NOOP, None),
])
def test_a_later_change_updates_the_shared_memory(new: str, operation: Operation, text: str | None):
    old = _record("m1", "Bram and Ilse both share an interest in bouldering", ("S1:1", "S1:2"))
    fact = Fact(text=new, namespace="c/Bram", speaker="Bram", source_turn_ids=["S4:7"], conversation_id="c")
    decided = OfflineDecider(HashEmbeddings()).decide_lifecycle(fact, [old]).value
    assert (decided.operation, decided.target, decided.text) == (operation, 0, text)


@pytest.mark.parametrize(("question", "both"), [
    ("What do Ilse and Bram have in common?", True),
    ("What hobbies do Ilse and Bram share?", True),
    ("What could Ilse and Bram do together?", True),
    ("Do Ilse and Bram support each other?", True),
    ("What sport does Ilse play?", False),
    ("Where did Bram go climbing?", False),
])
def test_a_question_about_both(question: str, both: bool):
    assert asks_about_both(question) is both


def test_system_one_weighs_the_shared_memory_down_only_for_a_question_not_about_both():
    ranked = [(_record("m0", "Bram and Ilse both share an interest in bouldering"), 1.0),
              (_record("m1", "Bram did his first black route"), 0.8)]
    assert [r.id for r, _ in hybrid.asked_last(ranked, "What did Bram climb?")] == ["m1", "m0"]
    assert [r.id for r, _ in hybrid.asked_last(ranked, "What do Bram and Ilse have in common?")] == ["m0", "m1"]


def test_the_model_rubric_says_the_rule_with_the_example_the_offline_engine_forms():
    from dmem.prompts.formation import SPLIT_SYSTEM

    rubric = " ".join(SPLIT_SYSTEM.split())
    assert "'Bram and Ilse both share an interest in bouldering'" in rubric
    turns = _chat(("Ilse", "I love bouldering, I go on Tuesdays"),
                  ("Bram", "I love bouldering too, did my first black route"))
    assert _shared(turns) == [("Bram and Ilse both share an interest in bouldering", ["S1:1", "S1:2"])]
