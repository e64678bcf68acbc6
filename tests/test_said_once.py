"""One exchange writes a fact once: a draft whose words another draft of the same turn holds is folded into it, and
its source turns stay sources of the memory kept; a speaker's feeling about the listener's news is no fact of theirs.
Invented people and events only.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import clause_rules
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.repeated import said_once
from dmem.state.schemas import Category, Message, Provenance
from dmem.state.verdicts import FactDraft
from tests.conftest import chat_turn

TS = datetime(2031, 4, 9, 19, 0)


def turn(text: str, speaker: str, seq: int) -> Message:
    return chat_turn(text, speaker, seq, session="D1", when=TS)


def _facts(decider: OfflineDecider, *lines: tuple[str, str]) -> list[FactDraft]:
    messages = [turn(text, speaker, i) for i, (speaker, text) in enumerate(lines, start=1)]
    admission = decider.admit(messages[-2:], messages[:-2], [])
    admitted = [m for m, v in zip(messages[-2:], admission.value.verdicts, strict=True) if v.admit]
    return decider.split(admitted, messages[:-2], [], admission.value).value.facts


def test_a_repeated_clause_of_one_message_is_one_memory(decider: OfflineDecider) -> None:
    facts = _facts(decider, ("Oskar", "any luck with the flat?"),
                   ("Wilma", "look again. i have 6 weeks. i have 6 weeks and no flat and a parrot"))
    texts = [f.text for f in facts]
    assert not any(t.endswith("Wilma has 6 weeks") for t in texts), texts
    assert any("no flat and a parrot" in t for t in texts)
    assert all("D1:2" in f.source_turn_ids for f in facts)


def test_a_folded_draft_leaves_its_turns_and_categories_to_the_one_kept() -> None:
    short = FactDraft(text="Wilma is nervous about Friday", speaker="Wilma", source_turn_ids=["D2:1"],
                      categories=[Category.EVENT, Category.PREFERENCE])
    longer = FactDraft(text="Wilma is nervous about Friday, meeting the whole choir", speaker="Wilma",
                       source_turn_ids=["D2:1", "D2:3"], categories=[Category.EVENT])
    [kept] = said_once([short, longer])
    assert kept.text == longer.text
    assert kept.source_turn_ids == ["D2:1", "D2:3"]
    assert set(kept.categories) == {Category.EVENT, Category.PREFERENCE}


def test_a_fact_and_the_rule_it_sets_are_two() -> None:
    drafts = [FactDraft(text="Wilma is vegan", speaker="Wilma", source_turn_ids=["D2:1"],
                        categories=[Category.PREFERENCE]),
              FactDraft(text="Assistant should suggest vegan cafes for Wilma", speaker="Wilma",
                        source_turn_ids=["D2:1"], categories=[Category.USER_RULE])]
    assert said_once(drafts) == drafts


def test_replies_under_one_question_fold_by_what_they_say() -> None:
    frame = 'Wilma answered Oskar\'s question "can you make Friday?": '
    short = FactDraft(text=frame + "she'll say yes", speaker="Wilma", source_turn_ids=["D2:4", "D2:5"])
    longer = FactDraft(text=frame + "the rota starts on the 9th; she always says yes", speaker="Wilma",
                       source_turn_ids=["D2:4", "D2:5"])
    assert said_once([short, longer]) == [longer]


@pytest.mark.parametrize("holder", [
    # the plain fact's name is only in the quote: the role stays; a reply under the same question folds in
    'Oskar answered Wilma\'s question "who\'s Brannigan?": bakery boss',
    # the saying holds the plain fact, which folds in; a reply under another question stays
    'Oskar answered Wilma\'s question "any news?": Brannigan is the boss now, at the bakery',
])
def test_a_frame_holds_only_what_it_says_and_a_line_of_its_own_frame(holder: str) -> None:
    plain = FactDraft(text="Brannigan is Oskar's boss", speaker="Oskar", source_turn_ids=["D2:2"])
    framed = FactDraft(text='Oskar answered Wilma\'s question "who\'s Brannigan?": boss', speaker="Oskar",
                       source_turn_ids=["D2:2"])
    other = FactDraft(text=holder, speaker="Oskar", source_turn_ids=["D2:1", "D2:2"])
    quoted_only = "who's" in holder
    assert (plain in said_once([plain, other])) == quoted_only
    assert (framed in said_once([framed, other])) == (not quoted_only)


@pytest.mark.parametrize("other", [
    FactDraft(text="Oskar is nervous about Friday and the choir", speaker="Oskar", source_turn_ids=["D2:1"]),
    FactDraft(text="Wilma is nervous about Friday and the choir", speaker="Wilma", source_turn_ids=["D2:7"]),
])
def test_only_the_same_speakers_draft_of_a_shared_turn_holds_one(other: FactDraft) -> None:
    short = FactDraft(text="Wilma is nervous about Friday", speaker="Wilma", source_turn_ids=["D2:1"])
    assert said_once([short, other]) == [short, other]


def test_a_fact_inferred_in_passing_stays_its_own() -> None:
    drafts = [FactDraft(text="Wilma looked for a gift for Wilma's niece", speaker="Wilma", source_turn_ids=["D2:1"]),
              FactDraft(text="Wilma has a niece", speaker="Wilma", source_turn_ids=["D2:1"],
                        provenance=Provenance.INFERRED)]
    assert said_once(drafts) == drafts


def test_two_drafts_saying_different_things_both_stay() -> None:
    drafts = [FactDraft(text="Wilma sings alto", speaker="Wilma", source_turn_ids=["D2:1"]),
              FactDraft(text="Wilma joined the harbour choir", speaker="Wilma", source_turn_ids=["D2:1"])]
    assert said_once(drafts) == drafts


def test_a_feeling_about_the_listeners_news_is_not_the_speakers_fact(decider: OfflineDecider) -> None:
    facts = _facts(decider, ("Wilma", "My cousin Ansel taught me to make sourdough last weekend, we baked six loaves."),
                   ("Oskar", "I'm so glad you had a lovely baking day with your cousin! I started a ceramics class "
                             "on Thursdays."))
    texts = [f.text for f in facts if f.speaker == "Oskar"]
    assert texts == ["Oskar started a ceramics class on Thursdays"]


@pytest.mark.parametrize("clause", [
    "I'm so glad you had a lovely baking day with your cousin",
    "it's great that your parrot settled in so fast",
    "sorry your train was late again",
    "I hope you enjoy the trip to Lisbon",
])
def test_reactions_to_the_listener_are_rejected(clause: str) -> None:
    verdict = clause_rules.reject_early(clause)
    assert verdict is not None and verdict.kind == "reaction" and not verdict.admit


@pytest.mark.parametrize("clause", [
    "I'm so glad you came to my birthday party",
    "I'm glad I finally booked the ferry",
    "so happy with my new bike",
    "you got the job at the bakery",
])
def test_a_feeling_that_tells_the_speakers_own_world_is_not_a_reaction(clause: str) -> None:
    assert clause_rules.reject_early(clause) is None
