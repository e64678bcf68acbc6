"""The third person's words have one home (``dmem.text.words``), read by kind and gender: every he/she reader
(``remarked``, ``recalled``, ``pronoun_thread``, ``short_pieces``) builds its set from them (h75b). Invented lines."""

from __future__ import annotations

import pytest

from dmem.decisions.offline import recalled, remarked, short_pieces
from dmem.decisions.offline.pronoun_thread import said_near
from dmem.state.schemas import Message
from dmem.text.words import HE_SHE, OBJECT_PRONOUNS, SUBJECT_PRONOUNS, gender_of, third_person


def test_words_by_gender_and_kind() -> None:
    assert third_person("m") == "he him his himself"
    assert third_person("f") == "she her hers herself"
    assert third_person("mfp", SUBJECT_PRONOUNS) == "he she they"
    assert third_person("p", OBJECT_PRONOUNS) == "them"
    assert HE_SHE == "he she"  # one person of a gender a he/she can fit: no "they"


@pytest.mark.parametrize(("word", "gender"), [("he", "m"), ("Him", "m"), ("herself", "f"), ("hers", "f"),
                                              ("their", "p")])
def test_gender_of_a_pronoun(word: str, gender: str) -> None:
    assert gender_of(word) == gender


def test_gender_of_another_word_is_an_error() -> None:
    with pytest.raises(ValueError, match="not a third-person pronoun"):
        gender_of("harbour")


def test_every_reader_finds_each_form_of_its_gender() -> None:
    """Each reader's he set and she set hold every form: "hers" and "herself" as much as "her"."""
    for word in third_person("f").split():
        line = f"the blue kayak is {word} now"
        assert remarked.tells_of(line, "she", set()) and said_near("she", [line])
        assert recalled._gender_after(f"Odile. {line}", 5, len(line) + 7) == "f"
    assert said_near("he", ["Bram fixed the gate by himself"])  # a reflexive is a he too (was not read before)


def test_a_yes_reads_no_name_when_the_line_before_tells_of_another_by_any_pronoun() -> None:
    def line(text: str) -> Message:
        return Message(conversation_id="c", turn_id="D1:1", speaker="Wanda", text=text, seq=1)

    assert short_pieces._named_before(line("I think Rollo took the oars."), "Tobiasz") == "Rollo"
    for other in ("not hers", "for themselves", "by himself"):  # any of them may be whom the he or she means
        assert short_pieces._named_before(line(f"I think Rollo took the oars, {other}."), "Tobiasz") is None
