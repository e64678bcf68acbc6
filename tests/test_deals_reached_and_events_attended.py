"""A deal reaching its proposal past a short exchange, a split agreed by echoing it, "I'll be there" to the other's
event (``accepted``), and a follow-up after a bare yes written with the line the yes confirmed (``followup``),
offline. Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import accepted, frames
from dmem.state.schemas import Message
from tests.conftest import chat_turn, drafted_last

WHEN = datetime(2027, 5, 2, 19, 40)


def _chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of an invented chat between Hesper and Tobiah, in order."""
    return [chat_turn(text, who, i + 1, session="T1", when=WHEN) for i, (who, text) in enumerate(lines)]


@pytest.mark.parametrize(("lines", "fact", "sources"), [
    ((("Tobiah", "i'll do your saturday shift if you want"), ("Hesper", "really?"), ("Tobiah", "yeah i owe you"),
      ("Hesper", "deal")),
     "Hesper agreed to Tobiah's proposal: Tobiah will do Hesper's saturday shift if Hesper wants", ["T1:1", "T1:4"]),
    ((("Tobiah", "i'll take your friday and you do my monday"), ("Hesper", "yes! thank you"),
      ("Tobiah", "monday 9th"), ("Hesper", "done")),
     "Hesper agreed to Tobiah's proposal: Tobiah will take Hesper's friday and Hesper does Tobiah's monday; monday 9th",
     ["T1:3", "T1:1", "T1:4"]),
    ((("Tobiah", "i'll do your saturday shift if you want"), ("Hesper", "lol"), ("Tobiah", "haha"), ("Hesper", "deal")),
     "Hesper agreed to Tobiah's proposal: Tobiah will do Hesper's saturday shift if Hesper wants", ["T1:1", "T1:4"]),
    ((("Tobiah", "we said no flats above a pub"), ("Hesper", "We did. Agreed")),
     "Hesper agreed to Tobiah's proposal: Tobiah and Hesper said no flats above a pub", ["T1:1", "T1:2"]),
    ((("Tobiah", "and the petrol half and half"), ("Hesper", "Half and half")),
     "Hesper agreed to Tobiah's proposal: the petrol half and half", ["T1:1", "T1:2"]),
    ((("Tobiah", "you and Wenna. alternate"), ("Hesper", "ok")),
     "Hesper agreed to Tobiah's proposal: Hesper and Wenna. alternate", ["T1:1", "T1:2"]),
])
def test_a_deal_keeps_the_proposal_it_reaches(lines: tuple[tuple[str, str], ...], fact: str,
                                              sources: list[str]) -> None:
    turns = _chat(*lines)
    assert drafted_last(turns) == [(fact, sources)]
    assert frames.said(fact) == fact.split(": ", 1)[1]


@pytest.mark.parametrize("lines", [
    (("Tobiah", "i'll do your saturday shift if you want"), ("Hesper", "hmm let me check the rota first"),
     ("Tobiah", "ok"), ("Hesper", "deal")),  # the exchange is talk of its own
    (("Tobiah", "the rent went up again"), ("Hesper", "really?"), ("Tobiah", "yeah 40 more"), ("Hesper", "deal")),
    (("Tobiah", "you and Wenna. alternate"), ("Hesper", "no. alternate")),  # a no is no agreement
    (("Tobiah", "the petrol was awful"), ("Hesper", "Half and half")),  # no split to echo
])
def test_a_deal_reaches_no_line_that_proposes_nothing(lines: tuple[tuple[str, str], ...]) -> None:
    turns = _chat(*lines)
    assert accepted.accepted(turns[-1], turns[:-1]) is None


@pytest.mark.parametrize(("lines", "fact", "sources"), [
    ((("Tobiah", "still with the choir?"), ("Hesper", "yep, concert on the 14th"), ("Tobiah", "I'll be there")),
     "Tobiah will be at Hesper's event: still with the choir? concert on the 14th", ["T1:1", "T1:2", "T1:3"]),
    ((("Hesper", "my leaving drinks are friday at the Kestrel"), ("Tobiah", "count me in")),
     "Tobiah will be at Hesper's event: Hesper's leaving drinks are friday at the Kestrel", ["T1:1", "T1:2"]),
    ((("Tobiah", "when is your recital"), ("Hesper", "march 3rd"), ("Tobiah", "ill come!!")),
     "Tobiah will be at Hesper's event: when is Hesper's recital? march 3rd", ["T1:1", "T1:2", "T1:3"]),
])
def test_ill_be_there_keeps_the_event_it_commits_to(lines: tuple[tuple[str, str], ...], fact: str,
                                                    sources: list[str]) -> None:
    turns = _chat(*lines)
    assert drafted_last(turns) == [(fact, sources)]
    assert frames.said(fact) == fact.split(": ", 1)[1]


@pytest.mark.parametrize("lines", [
    (("Hesper", "my leaving drinks were so sad"), ("Tobiah", "I'll be there")),  # no time: nothing to be at
    (("Hesper", "are you coming on friday?"), ("Tobiah", "I'll be there")),  # a question: answered, not this
    (("Hesper", "the concert is on the 14th"), ("Tobiah", "I'll be there with Wenna and her mum")),  # words of its own
])
def test_ill_be_there_to_no_event_named_is_not_attending(lines: tuple[tuple[str, str], ...]) -> None:
    turns = _chat(*lines)
    assert accepted.attending(turns[-1], turns[:-1]) is None


@pytest.mark.parametrize(("lines", "fact", "sources"), [
    ((("Tobiah", "did you book the driving test?"), ("Hesper", "yep"), ("Tobiah", "when!"), ("Hesper", "tues. 10am")),
     'Hesper added to "Hesper booked the driving test": when? tues; 10am', ["T1:1", "T1:2", "T1:3", "T1:4"]),
    ((("Hesper", "12 a box now"), ("Tobiah", "from 8.50?"), ("Hesper", "yep"), ("Tobiah", "why"),
      ("Hesper", "the flood she said")),
     'Hesper added to "12 a box now, from 8.50": the flood she said', ["T1:1", "T1:2", "T1:3", "T1:4", "T1:5"]),
])
def test_a_followup_after_a_bare_yes_quotes_what_the_yes_confirmed(lines: tuple[tuple[str, str], ...], fact: str,
                                                                   sources: list[str]) -> None:
    turns = _chat(*lines)
    assert drafted_last(turns) == [(fact, sources)]
