"""One role-phrase reader (``roles.phrase_pattern``, ``roles.phrases``) serves the people readers' role nouns and
``recalled``'s trades alike: a determiner, owners, the words a head may have before it, the head. Invented people."""

from __future__ import annotations

from dmem.decisions.offline import recalled, roles
from dmem.decisions.offline.circle import Circle
from dmem.decisions.offline.roles import Phrase, phrase_pattern, phrases, role_phrases
from tests.conftest import T0, chat_turn

_HEADS = ("farrier", "tree surgeon")


def test_the_reader_takes_the_heads_and_the_words_before_them_it_is_given() -> None:
    any_word = phrase_pattern(_HEADS, "the|my", r"(?:[a-z]+\s+)?", r"\b")
    said = "My sister's  grumpy farrier came, then the tree surgeon, then a farrier"
    at = said.index("the tree")
    assert phrases(any_word, said) == [Phrase(0, 27, "my", "sister's grumpy farrier", "farrier"),
                                       Phrase(at, at + 16, "the", "tree surgeon", "tree surgeon")]
    closed = phrase_pattern(_HEADS, "the|my", r"(?:(?:new|old)\s+)?", r"\b")
    assert [p.rest for p in phrases(closed, said)] == ["tree surgeon"]  # 'grumpy' is no word it takes


def test_role_phrases_read_through_it_with_the_place_that_makes_a_role_the_speakers() -> None:
    found = role_phrases("the lady downstairs and a guy from work", "Rhosyn", "Iestyn")
    assert [(r.phrase, r.owner, r.gender) for r in found] == [("the lady downstairs", "Rhosyn", "f"),
                                                              ("a guy", None, "m")]
    assert [p.placed for p in phrases(roles._ROLE, "the lady downstairs and a guy")] == [True, False]


def test_recalled_reads_its_trades_with_the_same_reader() -> None:
    assert phrases(recalled._TRADE, "our dad's new locksmith and a roofer") == \
        [Phrase(0, 23, "our", "dad's new locksmith", "locksmith")]
    prior = [chat_turn("our dad's new locksmith came by", "Iestyn", 1, session="D2", when=T0),
             chat_turn("oh?", "Rhosyn", 2, session="D2", when=T0)]
    said = chat_turn("he says the back door lock is shot", "Rhosyn", 3, session="D2", when=T0)
    found = recalled.candidates(Circle(said, prior, "Iestyn"))
    assert found["locksmith"].phrase == "Iestyn's dad's new locksmith"
