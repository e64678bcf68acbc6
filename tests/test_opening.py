"""A line that opens the chat again after a silence is the speaker's news (stop 52).

Judged alone, "signed btw" says too little; sent two days after the last line, it answers nobody and takes
nothing up: the speaker came back to tell it. It forms one fact of its speaker's, the line its only source. The
same line minutes later, a question, a greeting, an "ok" keeping an arrangement, a line announcing news still
to come and a chat's first line stay as they were; the fact lands in the speaker's namespace, never the
listener's. The model's admission prompt names the silence too. Invented people and events only.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from dmem import Memory
from dmem.decisions.offline.admission import judge_utterance, opening_news
from dmem.decisions.offline.splitting import facts_from_message
from dmem.prompts.formation import admission_prompt
from dmem.silence import SESSION_GAP, silence_before, spoken
from dmem.state.schemas import Message
from tests.conftest import last_section

START = datetime(2025, 10, 3, 20, 0)
BEFORE = (("Odalys", "ok night, ferry at 7"), ("Joaquim", "night! safe trip"))


def chat(*lines: tuple[str, str, timedelta]) -> list[Message]:
    """The two lines before, then ``lines`` (speaker, text, time after the last line before)."""
    said = [Message(turn_id=f"D1:{i + 1}", speaker=who, text=text, timestamp=START + timedelta(minutes=i), seq=i + 1)
            for i, (who, text) in enumerate(BEFORE)]
    last = said[-1].timestamp
    assert last is not None
    return [*said, *(Message(turn_id=f"D2:{i + 1}", speaker=who, text=text, timestamp=last + after, seq=10 + i)
                     for i, (who, text, after) in enumerate(lines))]


def facts(turns: list[Message]) -> list[tuple[str, str | None, list[str]]]:
    """The facts the last turn forms after the turns before it: (text, speaker, sources)."""
    admitted, _ = judge_utterance(turns[-1], turns[:-1])
    if not admitted:
        return []
    return [(f.text, f.speaker, f.source_turn_ids) for f in facts_from_message(turns[-1], turns, [], gated=True)]


TWO_DAYS, MINUTES = timedelta(days=2), timedelta(minutes=4)


@pytest.mark.parametrize("who", ["Odalys", "Joaquim"])  # either speaker may open the chat again
def test_a_short_line_after_a_silence_is_its_speakers_news(who: str) -> None:
    turns = chat((who, "signed btw 🔑", TWO_DAYS))
    admitted, why = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "opening the chat after 2 days of silence" in why
    assert facts(turns) == [(f"{who} signed", who, ["D2:1"])]


def test_the_same_line_minutes_later_is_no_news_of_its_own() -> None:
    turns = chat(("Odalys", "signed btw 🔑", MINUTES))
    assert not judge_utterance(turns[-1], turns[:-1])[0]
    assert opening_news(turns[-1], turns[:-1]) is None


def test_the_line_after_a_greeting_opens_the_chat() -> None:
    turns = chat(("Odalys", "morning!!", TWO_DAYS), ("Odalys", "stuck in port, ferry cancelled", TWO_DAYS + MINUTES))
    found = facts(turns)
    assert found and found[0][1:] == ("Odalys", ["D2:2"]) and "port" in found[0][0]
    # a line after one that said something opens nothing
    said = chat(("Odalys", "home!", TWO_DAYS), ("Odalys", "knackered lol", TWO_DAYS + MINUTES))
    assert opening_news(said[-1], said[:-1]) is None


@pytest.mark.parametrize("text", [
    "any news?",  # a question
    "heyyy",  # a greeting
    "sooo",  # a stretched function word
    "[shares a photo]",  # a stage direction alone
    "thanks!!",  # thanks alone
    "ok outside",  # an "ok" keeping an arrangement
    "good news and bad news",  # announcing news still to come
    "lol",
])
def test_what_opens_the_chat_and_is_no_news(text: str) -> None:
    turns = chat(("Joaquim", text, TWO_DAYS))
    assert facts(turns) == []


def test_the_opening_keeps_the_framing_and_detail_it_told() -> None:
    # "trains are off tomorrow" (framed as bad news) and "saltmarsh was so good" (an evaluation) answer nobody
    # after a silence: they are the news and its detail, kept with the clause pooled on its own
    strike = facts(chat(("Odalys", "Bad news, trains are off tomorrow. Strike 😩", TWO_DAYS)))
    assert len(strike) == 1 and "trains are off tomorrow" in strike[0][0] and "Strike" in strike[0][0]
    floods = facts(chat(("Joaquim", "saltmarsh was sooo good. no floods", TWO_DAYS)))
    assert len(floods) == 1 and "saltmarsh was sooo good" in floods[0][0].lower() and "floods" in floods[0][0]
    # thanks is the listener's, never the news's detail; and minutes later the same framing claims the clause
    assert facts(chat(("Odalys", "Home! Thanks for the best weekend", TWO_DAYS))) == [("Odalys: Home", "Odalys",
                                                                                     ["D2:1"])]
    assert not any("trains" in f[0] for f in facts(chat(("Odalys", "Bad news, trains are off tomorrow. Strike",
                                                         MINUTES))))


def test_a_line_all_framing_opens_nothing_more() -> None:
    # the lifted claims keep a clause only beside one that is news on its own: a line of world talk stays out
    assert facts(chat(("Odalys", "petrol prices are mad", TWO_DAYS))) == []


def test_no_clock_or_no_line_before_means_no_silence() -> None:
    untimed = [Message(turn_id="D1:1", speaker="Odalys", text="ferry at 7"),
               Message(turn_id="D2:1", speaker="Odalys", text="signed btw")]
    assert silence_before(untimed[1], untimed[:1]) is None
    assert not judge_utterance(untimed[1], untimed[:1])[0]
    first = chat(("Odalys", "signed btw", TWO_DAYS))[-1]
    assert silence_before(first, []) is None and not judge_utterance(first, [])[0]


def test_the_silence_is_measured_and_said() -> None:
    turns = chat(("Odalys", "signed", SESSION_GAP))
    assert silence_before(turns[-1], turns[:-1]) == SESSION_GAP
    assert silence_before(chat(("Odalys", "signed", SESSION_GAP - MINUTES))[-1], turns[:-1]) is None
    assert (spoken(timedelta(days=1)), spoken(timedelta(days=3, hours=5)), spoken(timedelta(hours=7))) == (
        "1 day", "3 days", "7 hours")


def test_the_admission_prompt_names_the_line_that_ends_a_silence() -> None:
    turns = chat(("Odalys", "signed btw", TWO_DAYS), ("Joaquim", "WHAT", TWO_DAYS + MINUTES))
    prompt = admission_prompt(turns[2:], turns[:2])
    assert last_section(prompt, "silences") == "[1] opens the chat after 2 days of silence"
    assert "opens the chat again after a silence" in str(prompt[0].content)
    assert "the storm its cause" in str(prompt[0].content)
    soon = chat(("Odalys", "signed btw", MINUTES))
    assert last_section(admission_prompt(soon[2:], soon[:2]), "silences") == ""


def test_the_news_lands_in_its_speakers_namespace_only(tmp_path: Path) -> None:
    turns = chat(("Joaquim", "signed btw 🔑", TWO_DAYS), ("Odalys", "WHAT", TWO_DAYS + MINUTES))
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        mem.add(turns, user_id="u", conversation_id="c1", speaker_namespaces={"Odalys": "oda", "Joaquim": "joa"})
        joa = [(r.text, r.source_turn_ids) for r in mem.get_all(user_id="joa")]
        oda = [r.text for r in mem.get_all(user_id="oda")]
    assert ("Joaquim signed", ["D2:1", "D2:2"]) in joa  # the shouted "WHAT" reacts to the news: a source (h66b)
    assert not any("signed" in t for t in oda)
