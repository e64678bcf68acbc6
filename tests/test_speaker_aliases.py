"""Another name a speaker goes by: learned from what was said, used where the speaker's name is (invented chats)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from dmem.state.schemas import Message
from dmem.text.aliases import Alias, addressed_names, introduced_names, speaker_aliases, with_speaker_names

T0 = datetime(2026, 3, 2, 9, 0)


def chat(*lines: tuple[str, str], conv: str = "c1", start: int = 0) -> list[Message]:
    """A chat of (speaker, text) lines, one minute apart."""
    return [Message(conversation_id=conv, turn_id=f"{conv}-{i}", speaker=who, text=text,
                    timestamp=T0 + timedelta(minutes=i), seq=i) for i, (who, text) in enumerate(lines, start)]


def names(lines: list[Message]) -> dict[str, str]:
    return {a.name: a.speaker for a in speaker_aliases(lines)}


GREETED = chat(
    ("Alexandra", "Morning Tilda! Did your bakery open on time?"),
    ("Ottilie", "It did, I baked sourdough for the first queue."),
    ("Ottilie", "How about you Sasha, any plans tonight?"),
    ("Alexandra", "Pottery class at seven, I'm glazing a teapot."),
    ("Ottilie", "That sounds lovely. Have fun, Sasha!"),
    ("Alexandra", "Bye Tilda!"),
)


def test_a_name_the_other_speaker_greets_someone_by_is_their_alias_with_the_turns_that_taught_it() -> None:
    found = speaker_aliases(GREETED)
    assert Alias("Sasha", "Alexandra", ("c1-2", "c1-4"), "addressed") in found
    assert Alias("Tilda", "Ottilie", ("c1-0", "c1-5"), "addressed") in found


def test_self_introductions_teach_an_alias_in_one_turn() -> None:
    lines = chat(("Bartholomew", "Hi! I'm new here, please call me Bart."),
                 ("Ines", "Welcome! My name is Ines, but everyone says Nessa."),
                 ("Bartholomew", "Haha, I forgot to introduce myself properly, I'm Barty."),
                 ("Ines", "Nice to meet you."))
    assert names(lines) == {"Bart": "Bartholomew", "Nessa": "Ines", "Barty": "Bartholomew"}
    assert introduced_names("I'm Italian, so pasta is serious business.") == []


def test_saying_im_x_is_an_introduction_only_when_the_other_speaker_calls_them_x() -> None:
    lines = chat(("Oskar", "Hi! I'm Icelandic, so hockey is life."), ("Ines", "Hey! I'm Nessa."),
                 ("Oskar", "Cool, Nessa! Icelandic winters are long."), ("Ines", "Brr"))
    assert speaker_aliases(lines) == [Alias("Nessa", "Ines", ("c1-1", "c1-2"), "introduced")]


@pytest.mark.parametrize("lines", [
    # a pet the listener talks about: greeted in the other's lines, but the listener says its name
    chat(("Wim", "Good boy, Rex!"), ("Jana", "Rex chewed my slipper again."), ("Wim", "Aww, Rex!"),
         ("Jana", "Rex is lucky he is cute."), ("Wim", "Naughty, Rex.")),
    # the caller's own dog: called in two turns, spoken of in three
    chat(("Wim", "Come here, Bolt!"), ("Jana", "Is he fast?"), ("Wim", "Bolt is the fastest."),
         ("Wim", "Bolt won a race."), ("Jana", "Cute"), ("Wim", "Bolt sleeps all day."), ("Wim", "Sit, Bolt!")),
    # an apposition: a relative of the speaker, not the listener
    chat(("Wim", "I went with my sister, Ana."), ("Jana", "Nice"), ("Wim", "We met my cousin, Ana."),
         ("Jana", "Fun")),
    # a quoted line from a book
    chat(("Wim", 'The novel opens with "Call me Ishmael" and I loved it.'), ("Jana", "Classic")),
    # sentence openers that are not names
    chat(("Wim", "Absolutely! Let's go."), ("Jana", "Great"), ("Wim", "Absolutely! Friday then."),
         ("Jana", "Sure")),
])
def test_a_pet_a_relative_a_character_or_a_word_is_no_alias(lines: list[Message]) -> None:
    assert names(lines) == {}


def test_with_three_people_a_greeting_has_no_known_addressee() -> None:
    lines = chat(("Ottilie", "Hey Sasha!"), ("Alexandra", "Hi"), ("Mirko", "Thanks, Sasha!"),
                 ("Ottilie", "Thanks, Sasha."))
    assert names(lines) == {}


def test_a_name_two_speakers_are_called_by_is_nobodys() -> None:
    lines = [*chat(("Ottilie", "Hey Jo!"), ("Alexandra", "Hi"), ("Ottilie", "Thanks, Jo!")),
             *chat(("Alexandra", "Hey Jo!"), ("Mirko", "Hi"), ("Alexandra", "Thanks, Jo!"), conv="c2")]
    assert names(lines) == {}


def test_a_question_asked_with_an_alias_names_the_speaker_as_the_memories_do() -> None:
    aliases = [Alias("Sasha", "Alexandra", ("c1-2",), "addressed")]
    assert with_speaker_names("What did Sasha's class glaze?", aliases) == "What did Alexandra's class glaze?"
    assert addressed_names("Thanks for your tips, Sasha!") == ["Sasha"]
    assert addressed_names("I went with my sister, Ana.") == []


def test_a_label_is_written_as_given_even_with_backslashes() -> None:
    alias = Alias("Alex", "team\\1 lead", ("c1-0",), "introduced")
    assert with_speaker_names("What did Alex cook?", [alias]) == "What did team\\1 lead cook?"
