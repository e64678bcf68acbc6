"""One reader of a capitalised name in a line (``person.capitalised``), used by ``remarked``, ``recalled``,
``short_pieces`` and ``pronoun_thread``, each with what it leaves out (h75b). Invented people."""

from __future__ import annotations

import pytest

from dmem.decisions.offline import remarked, short_pieces
from dmem.decisions.offline.person import capitalised
from dmem.decisions.offline.pronoun_thread import _names_another
from dmem.state.schemas import Message


def _names(text: str, speakers: set[str] | None = None, **kw: object) -> list[str]:
    return [m["n"] for m in capitalised(text, speakers or set(), **kw)]  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "names"), [
    ("we met Élise and Tomé at the ferry", ["Élise", "Tomé"]),  # Latin-1 letters
    ("so Bram's shed blew over", ["Bram"]),  # a possessive tells of its owner
    ("Painting's a joy, thanks Bram", ["Bram"]),  # a sentence's first word before a 's is one "is" follows
    ("Didn't Bram say so? Couldn't care less", ["Bram"]),  # a contraction's head is no name
    ("Monday with Mum in Lisbon, lol", []),  # a weekday, kin, a place, a chat word: no one
    ("Ok so Ed came", []),  # two letters are too few to tell a name from a word
])
def test_what_a_capital_names(text: str, names: list[str]) -> None:
    assert _names(text) == names


def test_speakers_and_sentence_starts_are_left_out_when_asked() -> None:
    line = "Gwen and Ivo came. Rafferty stayed home"
    assert _names(line) == ["Gwen", "Ivo", "Rafferty"]
    assert _names(line, {"gwen"}) == ["Ivo", "Rafferty"]
    assert _names(line, starts=False) == ["Ivo"]
    assert _names("It's at Lisbon's old port", starts=False, no_one=()) == ["Lisbon"]  # any name, a place too


def test_remarked_reads_an_accented_name_as_a_person() -> None:
    """remarked's own pattern read only A-Z names: "Élise" told of no one it could go on about."""
    assert remarked.tells_of("Élise rebuilt the shed roof over the weekend", "she", {"wanda", "tobiasz"})


def test_a_yes_reads_the_one_name_and_no_place() -> None:
    def line(text: str) -> Message:
        return Message(conversation_id="c", turn_id="D1:1", speaker="Wanda Nowak", text=text, seq=1)

    assert short_pieces._named_before(line("I think Rollo did it in Paris."), "Tobiasz") == "Rollo"
    assert short_pieces._named_before(line("Rollo did it, I think."), "Tobiasz") is None  # a sentence start
    assert short_pieces._named_before(line("I think Rollo and Mum did it."), "Tobiasz") is None  # kin is someone


def test_a_reply_names_another_by_a_capital_after_its_first_word() -> None:
    assert _names_another("And Basil? Has he gone", {"Wanda Nowak"})
    assert not _names_another("Hooray! Did he win", {"Wanda Nowak"})
    assert not _names_another("so did he tell Wanda", {"Wanda"})  # a speaker is no other
