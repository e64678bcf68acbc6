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
    ("can u lend me 200", "Bram asked to borrow 200 from Ilse"),
    ("could you lend me £50 till friday?", "Bram asked to borrow £50 till friday from Ilse"),
    ("can i have ur old bike?", "Bram asked to have Ilse's old bike"),
    ("want ur old sofa?", "Bram asked Ilse for Ilse's old sofa"),
    ("be my best person?", "Bram asked Ilse to be Bram's best person"),
    ("will u be my plus one", "Bram asked Ilse to be Bram's plus one"),
])
def test_a_request_an_offer_or_news_is_said_as_the_fact_it_tells(text: str, fact: str) -> None:
    assert said(text) == fact


@pytest.mark.parametrize("text", [
    "Can I ask you something?", "want some?", "can i borrow a pen", "can i borrow it", "Did you hear what I said?",
    "Do you know what I mean?", "heard the bridge is closed?", "did u hear he left?", "want to come over?",
    "can you believe that?", "heard tamsin?", "can u lend me a hand", "do you want your tea?", "be nice?",
    "want ur opinion?x", "could be my fault?",
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
    ("ok sure", "Ilse lent Bram the drill"),
    ("no sorry, it's broken", "Ilse did not lend Bram the drill"),
    ("sure but not this week", None),
    ("no worries", None),
    ("can't wait", None),
    ("what for?", None),
])
def test_a_yes_or_no_to_a_request_is_the_loan_or_its_refusal(reply: str, loan: str | None) -> None:
    assert speech_acts.granted("can i borrow ur drill?", reply, "Ilse", "Bram") == loan


@pytest.mark.parametrize(("question", "reply", "fact"), [
    ("want my old tablet?", "yes pls", "Ilse accepted Bram's offer of Bram's old tablet"),
    ("want my old tablet?", "nah", "Ilse turned down Bram's offer of Bram's old tablet"),
    ("be my best person?", "YES", "Ilse agreed to be Bram's best person"),
    ("be my best person?", "no", "Ilse declined to be Bram's best person"),
    ("want ur old sofa?", "I did. Yes, take it.", "Ilse agreed to give Bram Ilse's old sofa"),
    ("can u lend me 200", "ok sure", "Ilse lent Bram 200"),
    ("heard Tamsin got the allotment?", "yes", None),  # news is confirmed, not settled
    ("Are you still there?", "yes", None),  # asks for nothing
])
def test_a_yes_or_no_settles_an_ask_as_the_fact_the_pair_makes(question: str, reply: str, fact: str | None) -> None:
    assert speech_acts.granted(question, reply, "Ilse", "Bram") == fact


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


def test_a_yes_settles_the_ask_across_a_clarifying_exchange_both_turns_its_sources() -> None:
    messages = _messages(("Bram", "q"), ("Ilse", "?"), ("Bram", "be my best person?"), ("Ilse", "me??"),
                         ("Bram", "u"), ("Ilse", "YES"))
    decider = OfflineDecider(HashEmbeddings())
    verdicts = decider.admit(messages, [], []).value.verdicts
    assert verdicts[2].admit and verdicts[2].reason.startswith("admitted: role asked as a question")
    assert verdicts[5].admit and "be my best person?" in verdicts[5].reason
    facts = decider.split(messages[-1:], messages[:-1], []).value.facts
    assert [(f.text, f.source_turn_ids) for f in facts] == [("Ilse agreed to be Bram's best person", ["D1:3", "D1:6"])]


@pytest.mark.parametrize(("lines", "settles"), [
    ((("Bram", "want my old desk?"), ("Ilse", "the oak one?"), ("Bram", "ya"), ("Ilse", "yes pls")), "D1:1"),
    ((("Bram", "want my old desk?"), ("Ilse", "yes pls")), "D1:1"),
    # the turn between is no question back: no clarifying exchange, the ask is not reached
    ((("Bram", "want my old desk?"), ("Ilse", "the oak one"), ("Bram", "ya"), ("Ilse", "yes pls")), None),
    # a request asks by its form, its mark dropped; an offer without its mark may be a statement
    ((("Bram", "can i borrow ur drill"), ("Ilse", "for?"), ("Bram", "shelves"), ("Ilse", "sure")), "D1:1"),
    ((("Bram", "want my old desk"), ("Ilse", "yes")), None),
    # a yes to a question that asks for nothing: filler, nothing settled
    ((("Bram", "you there?"), ("Ilse", "yes")), None),
    # not a yes or a no
    ((("Bram", "want my old desk?"), ("Ilse", "which one")), None),
    # the speaker's own ask: nobody else's to settle
    ((("Ilse", "want my old desk?"), ("Ilse", "yes")), None),
])
def test_settled_finds_the_ask_a_yes_or_no_settles(lines: tuple[tuple[str, str], ...], settles: str | None) -> None:
    messages = _messages(*lines)
    found = speech_acts.settled(messages[-1], messages[:-1])
    assert (found.turn_id if found else None) == settles


def test_a_bare_yes_to_a_question_asking_nothing_stays_rejected() -> None:
    messages = _messages(("Bram", "you ok?"), ("Ilse", "yes"))
    clauses, language = clauses_of(messages[1], messages[:1])
    assert clauses[0].settles is None and not judge_clause(clauses[0], language).admit


def test_the_formation_prompts_say_a_yes_or_no_settles_an_ask() -> None:
    from dmem.prompts.formation import ADMIT_SYSTEM, SPLIT_SYSTEM

    assert "'be my best person?' -> 'me??' -> 'u' -> 'YES'" in ADMIT_SYSTEM
    assert "invitation naming nothing ('want to come?')" in ADMIT_SYSTEM
    assert "Ilse agreed to be Bram's best person" in SPLIT_SYSTEM
    assert "Bram asked Ilse for Ilse's old sofa" in SPLIT_SYSTEM
