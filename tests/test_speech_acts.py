"""A question that asks to borrow, offers the speaker's thing or passes on news tells a fact (``speech_acts``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dmem.decisions.offline import speech_acts
from dmem.decisions.offline.clause_admission import judge_clause
from dmem.decisions.offline.clauses import clauses_of
from dmem.decisions.offline.decider import OfflineDecider
from dmem.models.embeddings import HashEmbeddings
from dmem.prompts.lifecycle import LIFECYCLE_BATCH_SYSTEM, LIFECYCLE_SYSTEM
from dmem.state.schemas import Message


def said(text: str) -> str | None:
    act = speech_acts.act(text)
    return speech_acts.statement(act, "Bram", "Ilse") if act else None


@pytest.mark.parametrize(("text", "fact"), [
    ("can i borrow ur drill", "Bram asked to borrow Ilse's drill"),
    ("can i borrow ur running watch", "Bram asked to borrow Ilse's running watch"),
    ("Could you lend me your ladder for the weekend?", "Bram asked to borrow Ilse's ladder for the weekend"),
    ("mind if i use ur car tmrw", "Bram asked to use Ilse's car tmrw"),
    ("want my old tablet?", "Bram offered Ilse Bram's old tablet"),
    ("do u need my spare tent", "Bram offered Ilse Bram's spare tent"),
    ("heard Tamsin got the allotment?", "Bram heard that Tamsin got the allotment"),
    ("did u know Pia is moving to Leeds?", "Bram heard that Pia is moving to Leeds"),
    ("heard oswin n fenna got engaged?? 💍", "Bram heard that Oswin and Fenna got engaged"),
])
def test_a_request_an_offer_or_news_is_said_as_the_fact_it_tells(text: str, fact: str) -> None:
    assert said(text) == fact


@pytest.mark.parametrize("text", [
    "Can I ask you something?", "want some?", "can i borrow a pen", "can i borrow it", "Did you hear what I said?",
    "Do you know what I mean?", "heard the bridge is closed?", "did u hear he left?", "want to come over?",
    "can you believe that?", "heard tamsin?",
])
def test_a_question_that_tells_nothing_carries_no_act(text: str) -> None:
    assert speech_acts.act(text) is None


def test_a_lowercase_single_name_counts_only_when_the_chat_named_it_before() -> None:
    assert speech_acts.act("heard tamsin got the allotment") is None
    found = speech_acts.act("heard tamsin got the allotment", frozenset({"tamsin"}))
    assert found is not None and found.said == "Tamsin got the allotment"


@pytest.mark.parametrize(("reply", "loan"), [
    ("sure, it's in the shed", "Ilse lent Bram the drill"),
    ("Of course you can.", "Ilse lent Bram the drill"),
    ("ya ofc", "Ilse lent Bram the drill"),
    ("no sorry, it's broken", None),
    ("sure but not this week", None),
    ("what for?", None),
])
def test_a_yes_to_a_request_is_the_loan(reply: str, loan: str | None) -> None:
    assert speech_acts.granted("can i borrow ur drill?", reply, "Ilse", "Bram") == loan
    assert speech_acts.granted("want my old tablet?", reply, "Ilse", "Bram") is None  # an offer lends nothing


def _messages(*lines: tuple[str, str]) -> list[Message]:
    at = datetime(2031, 3, 2, 9, 0, tzinfo=UTC)
    return [Message(turn_id=f"D1:{i}", speaker=who, text=text, timestamp=at) for i, (who, text) in
            enumerate(lines, 1)]


def test_admission_admits_the_request_and_the_split_writes_it_and_the_loan() -> None:
    messages = _messages(("Bram", "can I borrow your ladder on saturday?"), ("Ilse", "sure, it's in the garage"))
    decider = OfflineDecider(HashEmbeddings())
    verdicts = decider.admit(messages, [], []).value.verdicts
    assert verdicts[0].admit and verdicts[0].reason.startswith("admitted: borrow asked as a question")
    facts = decider.split([m for m, v in zip(messages, verdicts, strict=True) if v.admit], [], []).value.facts
    texts = {f.text: f.source_turn_ids for f in facts}
    assert texts["Bram asked to borrow Ilse's ladder on saturday"] == ["D1:1"]
    assert texts["Ilse lent Bram the ladder on saturday"] == ["D1:1", "D1:2"]


def test_a_terse_request_without_its_mark_is_admitted_with_the_listener_named() -> None:
    prior = _messages(("Ilse", "2 wks to the race"), ("Bram", "nervous?"))
    message = _messages(("Ilse", "x"), ("Bram", "x"), ("Ilse", "can i borrow ur running watch"))[2]
    clauses, language = clauses_of(message, prior)
    verdict = judge_clause(clauses[0], language)
    assert verdict.admit and verdict.kind == "question_fact", verdict.reason
    facts = OfflineDecider(HashEmbeddings()).split([message], prior, []).value.facts
    assert [f.text for f in facts] == ["Ilse asked to borrow Bram's running watch"]


def test_a_question_asking_for_news_is_still_rejected() -> None:
    message = _messages(("Bram", "x"), ("Ilse", "did u hear what happened?"))[1]
    clauses, language = clauses_of(message, _messages(("Bram", "back from the shops")))
    assert not judge_clause(clauses[0], language).admit


def test_the_lifecycle_prompts_say_an_ending_event_updates() -> None:
    for system in (LIFECYCLE_SYSTEM, LIFECYCLE_BATCH_SYSTEM):
        assert "An event that ends what a memory says" in system and "UPDATE" in system


def test_the_formation_prompts_say_what_a_request_an_offer_and_news_tell() -> None:
    from dmem.prompts.formation import ADMIT_SYSTEM, SPLIT_SYSTEM

    assert "can i borrow ur drill" in ADMIT_SYSTEM and "'want some?'" in ADMIT_SYSTEM
    assert "Bram asked to borrow Ilse's drill" in SPLIT_SYSTEM and "Ilse lent Bram the drill" in SPLIT_SYSTEM
