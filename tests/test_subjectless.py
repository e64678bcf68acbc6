"""The speaker's own news told mid-session without "I" (stop 53): a verb first and no subject of its own.

"camping at the bay instead, end of may" has only one subject it can have, the speaker's: "I'm" is put back
and the rules judge it as said in full, so it forms the speaker's fact. A gerund with a verb of its own
("camping is fun"), a deed with nothing to keep ("sending it now"), a question, a line naming the listener and a
reply about someone else ("how's Tove?" -> "doing better ...") stay as they were. Invented people and events.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.clauses import clauses_of
from dmem.decisions.offline.splitting import facts_from_message
from dmem.decisions.offline.subjectless import dropped_subject, reads_as_own, restored
from dmem.prompts.formation import admission_prompt, split_prompt
from dmem.state.schemas import Message

START = datetime(2026, 3, 14, 18, 0)


def chat(*lines: tuple[str, str]) -> list[Message]:
    """Lines a minute apart (one session), speaker and text."""
    return [Message(turn_id=f"D1:{i + 1}", speaker=who, text=text, timestamp=START + timedelta(minutes=i), seq=i + 1)
            for i, (who, text) in enumerate(lines)]


BEFORE = (("Wilhelmina", "did the landlord ever fix the boiler"), ("Bartholomew", "nope, still cold showers"))


def formed(text: str, before: tuple[tuple[str, str], ...] = BEFORE) -> list[tuple[str, str | None]]:
    """The facts Bartholomew's ``text`` forms after ``before`` (speaker, text)."""
    turns = chat(*before, ("Bartholomew", text))
    if not judge_utterance(turns[-1], turns[:-1])[0]:
        return []
    return [(f.text, f.speaker) for f in facts_from_message(turns[-1], turns, [], gated=True)]


@pytest.mark.parametrize(("text", "fact"), [
    ("camping at hollin cove instead, end of june", "Bartholomew is camping at hollin cove instead, end of june"),
    ("also moving the party to the bank holiday", "Bartholomew is moving the party to the bank holiday"),
    ("fixed my bike finally", "Bartholomew fixed"),
])
def test_a_verb_first_line_is_the_speakers_own_news(text: str, fact: str) -> None:
    found = formed(text)
    assert len(found) == 1 and found[0][0].startswith(fact) and found[0][1] == "Bartholomew"


@pytest.mark.parametrize("text", [
    "camping is fun",  # a gerund subject with a verb of its own
    "moving went fine in the end",  # the same, in the past
    "sending it now",  # a deed with nothing to keep
    "camping at hollin cove this weekend?",  # a question
    "texting ur sister about the party",  # names the listener's
    "including the twins from next door",  # an -ing preposition
    "watching the kids race cheers me up",  # a gerund subject before a present verb and its object
    "packing for the twins isn't fun",  # the same, its verb contracted
])
def test_what_keeps_no_dropped_i(text: str) -> None:
    assert dropped_subject(text) is None


def test_the_subject_is_put_back_after_filler_and_adverbs() -> None:
    assert restored("lol also camping at hollin cove in june") == "lol also I'm camping at hollin cove in june"
    assert restored("painted our shed purple") == "I painted our shed purple"
    assert restored("put my name down for the raffle") == "put my name down for the raffle"  # an order reads so too
    assert restored("camping is fun") == "camping is fun"


def test_a_reply_about_someone_else_keeps_its_subject() -> None:
    asked_tove = chat(("Wilhelmina", "hows tove getting on"),
                      ("Bartholomew", "doing physio at the clinic twice a week"))
    assert not reads_as_own(asked_tove[-1], asked_tove[:-1])
    clauses, _ = clauses_of(asked_tove[-1], asked_tove[:-1])
    assert not clauses[0].text.startswith("I'm")
    asked_you = chat(("Wilhelmina", "what are u up to this weekend"), ("Bartholomew", "painting the hallway green"))
    assert reads_as_own(asked_you[-1], asked_you[:-1])
    clauses, _ = clauses_of(asked_you[-1], asked_you[:-1])
    assert clauses[0].text.startswith("I'm painting the hallway")


def test_a_line_of_several_clauses_is_told_whole() -> None:
    # "doing porto instead. 2nd to 6th april": a subject put back in the first clause would drop the dates
    found = formed("doing porto instead. 2nd to 6th april", (("Wilhelmina", "the lisbon flights are silly prices"),))
    assert len(found) == 1 and "april" in found[0][0] and "porto" in found[0][0].lower()


def test_a_line_longer_than_chat_says_its_subjects() -> None:
    # written-out English says its subjects: an -ing opening a sentence there is a gerund subject
    long = ("Thanks so much for the card, it arrived this morning and made my whole office smile. Repainting the "
            "boathouse on weekends with the other rowers and their brand new coach from the club.")
    turns = chat(*BEFORE, ("Bartholomew", long))
    assert not reads_as_own(turns[-1], turns[:-1], [long])
    assert not any(c.text.startswith("I'm repainting") for c in clauses_of(turns[-1], turns[:-1])[0])


def test_the_prompts_say_it_too() -> None:
    turns = chat(*BEFORE, ("Bartholomew", "camping at hollin cove instead"))
    assert "camping at the dunes instead, end of june" in str(admission_prompt(turns[2:], turns[:2])[0].content)
    assert "Noor is camping at the dunes instead" in str(split_prompt(turns[2:], turns[:2], [])[0].content)
