"""One number vocabulary (``text.words``: ones, teens, tens, scales) read by both its readers: values for
``text.spelled_numbers``, digit counts for ``privacy.numbers``. A word added or dropped changes both."""

from __future__ import annotations

import pytest

from dmem.privacy import numbers
from dmem.text import spelled_numbers, words

_EVERY = [*words.ONES.split(), *words.TEENS.split(), *words.TENS.split(), *words.SCALES]


@pytest.mark.parametrize("word", _EVERY)
def test_every_number_word_is_read_by_both(word: str) -> None:
    assert word in numbers.NUMBER_WORDS
    assert spelled_numbers.SPELLED.fullmatch(word)
    assert spelled_numbers.SPELLED.fullmatch(word.upper())


def test_the_small_words_are_their_values_and_digits() -> None:
    values = [spelled_numbers.value(w) for w in [*words.ONES.split()[1:], *words.TEENS.split(), *words.TENS.split()]]
    assert values == [*range(2, 20), *range(20, 100, 10)]
    assert [numbers.spelled_digits(w) for w in words.ONES.split()] == [1] * 9
    assert {numbers.spelled_digits(w) for w in [*words.TEENS.split(), *words.TENS.split()]} == {2}


@pytest.mark.parametrize(("scale", "zeros"), sorted(words.SCALES.items()))
def test_a_scale_is_its_zeros_for_both_readers(scale: str, zeros: int) -> None:
    assert spelled_numbers.value(f"seven {scale}") == 7 * 10**zeros
    assert numbers.spelled_digits(f"seven {scale}") == 1 + zeros
    assert spelled_numbers.value(f"{scale} and five") is None  # a scale alone starts nothing


def test_spelled_values_and_privacy_runs_as_before() -> None:
    assert spelled_numbers.value("One thousand two hundred and forty") == 1240
    assert spelled_numbers.value("four hundred and ten") == 410
    assert spelled_numbers.value("ninety-five") == 95
    assert numbers.spelled_digits("double five, one two three four") == 6
    assert [m.group(0) for m in numbers.spelled_runs("pin is four four one nine, ok")] == ["four four one nine"]
