"""A message that names a person and goes on describing them by he/she is a fact about them, written with their
name (and the relation the speaker gave them), never the speaker's name alone (``described``). Invented people."""

from __future__ import annotations

from typing import Any

import pytest

from dmem.decisions.offline import described, recalled
from dmem.decisions.offline.admission import judged_utterance
from dmem.decisions.offline.circle import Circle
from dmem.state.schemas import Message
from tests.conftest import T0, chat_turn, drafted_texts

FILLER = ["the kettle is on", "did you see the match", "yeah what a finish", "mad ending", "anyway",
          "back to work for me", "same", "ha nice one"]


def _drafted(text: str, lines: list[str] = FILLER, speaker: str = "Ysolde", other: str = "Branwen") -> list[str]:
    prior: list[Message] = [chat_turn(t, other if (len(lines) - i) % 2 else speaker, i + 1, session="D4", when=T0)
                            for i, t in enumerate(lines)]
    return drafted_texts(chat_turn(text, speaker, len(lines) + 1, session="D4", when=T0), prior)


def test_a_lowercase_name_described_by_she_is_a_fact_about_her() -> None:
    facts = _drafted("odalie is from kelso, she does midwifery, she sings in the shower every single night")
    assert any(f.startswith("Odalie is from kelso") and "midwifery" in f for f in facts), facts


def _read(text: str, lines: list[str], before: str = "", own_last: bool = False) -> str | None:
    prior = [chat_turn(t, "Branwen" if (len(lines) - i + own_last) % 2 else "Ysolde", i + 1, session="D4", when=T0)
             for i, t in enumerate(lines)]
    said = chat_turn(text, "Ysolde", len(lines) + 1, session="D4", when=T0)
    found = described.read(text, Circle(said, prior, "Branwen"), before)
    return found.text if found else None


def test_a_she_clause_after_the_named_one_is_written_with_the_name() -> None:
    said = _read("she sings in the shower every single night", FILLER, "odalie is from kelso.")
    assert said == "Odalie sings in the shower every single night"


def test_a_she_line_after_the_speakers_own_named_line_is_written_with_the_name() -> None:
    lines = [*FILLER[:7], "odalie is from kelso and does midwifery"]
    assert _read("she sings in the shower every single night", lines, own_last=True) == \
        "Odalie sings in the shower every single night"


def test_the_relation_the_speaker_gave_is_written() -> None:
    lines = [*FILLER[:6], "my flatmate odalie is back tonight", "nice"]
    assert _read("odalie is from kelso, she does midwifery, she sings every night", lines) == \
        "my flatmate Odalie is from kelso, she does midwifery, she sings every night"


def test_advice_to_the_listener_stays_out() -> None:
    assert _drafted("odalie wants to meet you, she says bring your allotment leeks") == []


def test_two_people_in_one_line_stay_out() -> None:
    assert _drafted("odalie is from kelso, he says she does midwifery and plays darts") == []
    assert _read("odalie is from kelso, her brother Mael says she does midwifery and plays darts", FILLER) is None


def test_the_listeners_person_stays_out() -> None:
    lines = [*FILLER[:7], "my sister odalie says hi"]
    assert _read("odalie is lovely, she does midwifery, she sings in the shower every night", lines) is None


def test_a_common_word_opening_the_line_is_no_one() -> None:
    assert _read("everyone is from kelso, she does midwifery, she sings in the shower every night", FILLER) is None
    assert _read("she sings in the shower every single night", FILLER, "shes from kelso.") is None


def test_the_described_reading_runs_only_for_a_line_nothing_else_admits(monkeypatch: pytest.MonkeyPatch) -> None:
    read = {"described": 0, "recalled": 0}

    def counted(module: Any, name: str) -> None:
        real = module.read

        def reading(*args: Any, **kwargs: Any) -> Any:
            read[name] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, "read", reading)

    counted(described, "described")
    counted(recalled, "recalled")
    prior = [chat_turn(t, "Branwen" if i % 2 else "Ysolde", i + 1, session="D4", when=T0) for i, t in enumerate(FILLER)]
    said = chat_turn("i adopted a greyhound called pip last week, she sleeps all day", "Ysolde", 9, session="D4",
                     when=T0)
    assert judged_utterance(said, prior).admit and read == {"described": 0, "recalled": 0}
    told = chat_turn("odalie is from kelso, she does midwifery, she sings in the shower every single night", "Ysolde",
                     9, session="D4", when=T0)
    judged = judged_utterance(told, prior)
    assert judged.reason.startswith("admitted: describes the person the message names ('Odalie is from kelso")
    assert read["described"] >= 1
