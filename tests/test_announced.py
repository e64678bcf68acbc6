"""The speaker's news asked for: announced ("guess what"), asked for ("?"), then told in a fragment (stop 56).

Judged alone, "kayaking" or "got the flat" says too little. After the speaker's own announcement and the listener's
prompt naming nothing, the line is what they said when asked for their news: it forms one fact of theirs, the line
its only source. Without the announcement, the prompt, or with a line that replies, goes on with a sentence, asks
or says who knows, it stays as it was. Invented people and events only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dmem import Memory
from dmem.decisions.offline.admission import announced_news, judge_utterance
from dmem.decisions.offline.announced import ANNOUNCE_MAX_WORDS, announces
from dmem.decisions.offline.splitting import facts_from_message
from dmem.prompts.formation import admission_prompt
from dmem.state.schemas import Message


def chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of a two-person chat, in order (speaker, text)."""
    return [Message(turn_id=f"D1:{i + 1}", speaker=who, text=text, seq=i + 1) for i, (who, text) in enumerate(lines)]


def facts(turns: list[Message]) -> list[tuple[str, str | None, list[str]]]:
    """The facts the last turn forms after the turns before it: (text, speaker, sources)."""
    admitted, _ = judge_utterance(turns[-1], turns[:-1])
    if not admitted:
        return []
    return [(f.text, f.speaker, f.source_turn_ids) for f in facts_from_message(turns[-1], turns, [], gated=True)]


OPENER = (("Tamsin", "hiya"), ("Oswin", "yo"))


@pytest.mark.parametrize(("announcement", "prompt", "line", "detail"), [
    ("guess what", "?", "kayaking", "kayaking"),
    ("news", "go on", "got the flat", "flat"),
    ("ugh", "spill", "hives. everywhere", "hives"),
])
def test_the_news_asked_for_forms_a_fact_of_the_speakers(announcement: str, prompt: str, line: str,
                                                         detail: str) -> None:
    turns = chat(*OPENER, ("Tamsin", announcement), ("Oswin", prompt), ("Tamsin", line))
    alone = chat(*OPENER, ("Tamsin", line))
    assert not judge_utterance(alone[-1], alone[:-1])[0]  # said without being asked for, it says too little
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "announced" in reason, reason
    (text, speaker, sources), = facts(turns)
    assert speaker == "Tamsin" and detail in text.lower() and sources == ["D1:5"]


def test_the_same_line_with_no_announcement_or_prompt_says_too_little() -> None:
    no_prompt = chat(*OPENER, ("Tamsin", "guess what"), ("Oswin", "lol"), ("Tamsin", "kayaking"))
    no_announcement = chat(*OPENER, ("Oswin", "how was the match, we won 3-1"), ("Oswin", "?"), ("Tamsin", "kayaking"))
    for turns in (no_prompt, no_announcement):
        assert announced_news(turns[-1], turns[:-1]) is None
        assert not judge_utterance(turns[-1], turns[:-1])[0]


@pytest.mark.parametrize("line", ["and one oar is", "everyone knows", "haha yes", "kayaking?"])
def test_a_line_going_on_replying_asking_or_saying_who_knows_is_no_news(line: str) -> None:
    turns = chat(*OPENER, ("Tamsin", "guess what"), ("Oswin", "?"), ("Tamsin", line))
    assert announced_news(turns[-1], turns[:-1]) is None


def test_the_prompt_must_be_the_listeners_and_name_nothing() -> None:
    own = chat(*OPENER, ("Tamsin", "guess what"), ("Tamsin", "?"), ("Tamsin", "kayaking"))
    named = chat(*OPENER, ("Tamsin", "guess what"), ("Oswin", "the Brackley job?"), ("Tamsin", "kayaking"))
    for turns in (own, named):
        assert announced_news(turns[-1], turns[:-1]) is None


def test_an_announcement_is_short_and_neither_asks_nor_replies() -> None:
    assert announces("big news") and announces("ugh")
    assert not announces(" ".join(["word"] * (ANNOUNCE_MAX_WORDS + 1)))
    assert not announces("guess where?") and not announces("haha ok") and not announces("what happened")


def test_the_news_lands_in_its_speakers_namespace_only(tmp_path: Path) -> None:
    turns = chat(*OPENER, ("Oswin", "guess what"), ("Tamsin", "?"), ("Oswin", "kayaking"), ("Tamsin", "since when"))
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        mem.add(turns, user_id="u", conversation_id="c1", speaker_namespaces={"Tamsin": "tam", "Oswin": "osw"})
        osw = [(r.text, r.source_turn_ids) for r in mem.get_all(user_id="osw")]
        tam = [r.text for r in mem.get_all(user_id="tam")]
    assert any("kayaking" in text.lower() and "D1:5" in sources for text, sources in osw), osw
    assert not any("kayaking" in text.lower() for text in tam)


def test_the_admission_prompt_says_news_can_be_asked_for() -> None:
    turns = chat(*OPENER, ("Tamsin", "guess what"), ("Oswin", "?"), ("Tamsin", "kayaking"))
    system = str(admission_prompt(turns[2:], turns[:2])[0].content)
    assert "News can be asked for" in system and "'guess what' -> '?' -> 'kayaking'" in system


def test_an_announcement_asked_about_is_the_lines_topic() -> None:
    asked_where = chat(*OPENER, ("Tamsin", "moving fri"), ("Oswin", "where"), ("Tamsin", "gullsmere"))
    (text, _, sources), = facts(asked_where)
    assert text.lower().startswith("tamsin: moving fri; ") and "gullsmere" in text.lower() and sources == ["D1:3",
                                                                                                          "D1:5"]
    teaser = chat(*OPENER, ("Tamsin", "bad news"), ("Oswin", "?"), ("Tamsin", "van died"))
    (text, _, sources), = facts(teaser)
    assert "bad news" not in text.lower() and "van died" in text.lower() and sources == ["D1:5"]
