"""A he/she line whose person was named a few lines before, by either speaker, is written with that person when
exactly one named person fits the pronoun (``recalled``); two, a stranger or a line naming someone else first keep
it as said. Invented people."""

from __future__ import annotations

from dmem.decisions.offline import recalled
from dmem.decisions.offline.circle import Circle
from dmem.state.schemas import Message
from tests.conftest import T0, chat_turn, drafted_texts

SPEAKER, OTHER = "Ysolde", "Branwen"


def _lines(lines: list[tuple[str, str]]) -> list[Message]:
    return [chat_turn(t, who, i + 1, session="D4", when=T0) for i, (who, t) in enumerate(lines)]


def _read(text: str, lines: list[tuple[str, str]], before: str = "") -> str | None:
    prior = _lines(lines)
    said = chat_turn(text, SPEAKER, len(lines) + 1, session="D4", when=T0)
    found = recalled.read(text, Circle(said, prior, OTHER), before)
    return found.text if found else None


def _drafted(text: str, lines: list[tuple[str, str]]) -> list[str]:
    return drafted_texts(chat_turn(text, SPEAKER, len(lines) + 1, session="D4", when=T0), _lines(lines))


ROOFER = [(SPEAKER, "the roofer came to quote. Gwilym. he's very tall and very quiet"), (OTHER, "uh oh"),
          (SPEAKER, "he went up the ladder and came down shaking his head"), (OTHER, "nooo")]


def test_a_he_line_after_a_role_and_its_name_is_drafted_with_both() -> None:
    facts = _drafted("he says the whole chimney stack needs rebuilding", ROOFER)
    assert any(f.startswith("The roofer Gwilym says the whole chimney stack") for f in facts), facts


def test_a_she_line_after_the_listeners_named_neighbour_is_written_with_her_name() -> None:
    lines = [(OTHER, "Ottilie from the flat below popped in again"), (SPEAKER, "ha"),
             (OTHER, "She's turning into our favourite person, Ottilie."), (SPEAKER, "true")]
    assert _read("she's signed him up for the bowls club on mondays", lines) == \
        "Ottilie has signed him up for the bowls club on mondays"


def test_a_titled_name_gives_the_gender() -> None:
    lines = [(SPEAKER, "mr pendry came in at ten to five"), (OTHER, "Of course he did"),
             (SPEAKER, "bought his usual crossword book"), (OTHER, "Lovely")]
    assert _read("he says he's done every one since march", lines) == "Mr Pendry says he's done every one since march"


def test_two_people_the_pronoun_fits_keep_the_line_as_said() -> None:
    lines = [(SPEAKER, "mr pendry came in at ten to five"), (OTHER, "and Mr Fairley rang about the order"),
             (SPEAKER, "busy day")]
    assert _read("he says he's done every one since march", lines) is None


def test_a_stranger_is_no_one_the_fact_names() -> None:
    lines = [(SPEAKER, "a man on a scooter overtook me on the hill"), (OTHER, "no way")]
    assert _read("he had a horn and a flag and everything", lines) is None


def test_a_line_naming_someone_else_first_is_theirs() -> None:
    assert _read("he took the van back and swapped it", ROOFER, before="cadog felt bad.") is None


def test_too_little_said_stays_out() -> None:
    assert _read("but he fainted", ROOFER) is None
    assert _read("he told you that", ROOFER) is None
