"""A proposal put as a question and agreed ("Then we split the rest 50/50?" / "fine by me"), an agreeing word after
an echo of the line ("Both. Deal."), and a value settled on ("ten then" to "Ten if Gwil comes"): the decision both
speakers reached, both turns its sources (``accepted``), offline. Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import accepted
from dmem.state.schemas import Message
from tests.conftest import chat_turn, drafted_last

WHEN = datetime(2027, 8, 14, 20, 5)


def _chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of an invented chat between Ottoline and Brannock, in order."""
    return [chat_turn(text, who, i + 1, session="T4", when=WHEN) for i, (who, text) in enumerate(lines)]


@pytest.mark.parametrize(("lines", "fact", "sources"), [
    ((("Brannock", "I'll book the hall, you pay the caterer?"), ("Ottoline", "yes. you did the phoning"),
      ("Brannock", "OK. Then we split everything else 50/50?"), ("Ottoline", "fine by me")),
     "Ottoline agreed to Brannock's proposal: Then Brannock and Ottoline split everything else 50/50",
     ["T4:3", "T4:4"]),
    ((("Ottoline", "the lamp from the whole street, the scarf from us?"),
      ("Brannock", "so both? lamp from the street, scarf from us two?"), ("Ottoline", "Both. Deal.")),
     "Ottoline agreed to Brannock's proposal: both? lamp from the street, scarf from Brannock and Ottoline",
     ["T4:2", "T4:3"]),
    ((("Ottoline", "I was going to invite you over. I'll make dumplings"), ("Brannock", "YES")),
     "Brannock agreed to Ottoline's proposal: Ottoline was going to invite Brannock over. Ottoline will make dumplings",
     ["T4:1", "T4:2"]),
    ((("Brannock", "How many chairs for the choir?"), ("Ottoline", "how many singers?"),
      ("Brannock", "I counted 9. Ten if Gwil comes."), ("Ottoline", "ten then")),
     "Ottoline agreed to Brannock's proposal: Ten if Gwil comes", ["T4:3", "T4:4"]),
    ((("Brannock", "take four jars"), ("Ottoline", "Two is plenty for one"), ("Brannock", "3 and that's final"),
      ("Ottoline", "Three then.")),
     "Ottoline agreed to Brannock's proposal: 3 and that's final", ["T4:3", "T4:4"]),
])
def test_an_agreement_keeps_the_decision_both_reached(lines: tuple[tuple[str, str], ...], fact: str,
                                                      sources: list[str]) -> None:
    turns = _chat(*lines)
    assert drafted_last(turns) == [(fact, sources)]


@pytest.mark.parametrize("lines", [
    (("Brannock", "so what did the vet say?"), ("Ottoline", "fine by me")),  # an asking word: no conclusion drawn
    (("Brannock", "do you like the hall?"), ("Ottoline", "yes")),  # a question proposing nothing
    (("Brannock", "so you hand in your notice at the shop?"), ("Ottoline", "yep")),  # the listener's plan checked
    (("Brannock", "I counted 9. Ten if Gwil comes."), ("Ottoline", "eleven then")),  # a value the line never said
    (("Brannock", "the hall was lovely, ten of us came"), ("Ottoline", "ten then")),  # said of a view, no decision
    (("Brannock", "Ten if Gwil comes."), ("Ottoline", "no then")),  # a no settles on nothing
    (("Brannock", "then we split the rest 50/50?"), ("Ottoline", "No. Deal.")),  # a no before the word: no echo
])
def test_an_agreement_to_no_proposal_or_value_is_none(lines: tuple[tuple[str, str], ...]) -> None:
    turns = _chat(*lines)
    assert accepted.accepted(turns[-1], turns[:-1]) is None
    assert accepted.settled_on(turns[-1], turns[:-1]) is None
