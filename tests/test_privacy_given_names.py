"""'named X', 'called X': the same verdict as the per-name regular expression, without compiling one per name.

The enrichment policy refuses an entity someone gave as a name (a pet, a child). It used to compile
``\\b(?:named|called|nicknamed)\\s+<name>\\b`` for every entity checked, and ``re`` keeps up to 512
compiled patterns: in a long-running server each new name added one. Now one fixed pattern finds
the verbs and the name is compared letter by letter.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from dmem.privacy.policy import _given_name_pattern, entity_refusal, given_name

# ASCII, accented letters, and letters whose case rules are irregular (they take the regex path)
LETTERS = "aAbBeEkKnNrRsSxX_ 0.!'-\téÉøØıİſςσΣßµΜK"
VERBS = ["named ", "called  ", "Nicknamed ", "NAMED\t", "renamed ", "so-called "]


def test_a_given_name_is_found_in_any_case_as_a_whole_word() -> None:
    assert given_name("Rex", "We adopted a beagle named rex last spring.")
    assert given_name("Pixel Bean", "a cat called   PIXEL bean")
    assert not given_name("Rex", "a beagle named Rexford")  # not a whole word
    assert not given_name("Rex", "a beagle, Rex, named after nobody")
    assert not given_name("Rex", "a beagle renamed Rex")  # 'renamed' is not the verb 'named'
    assert given_name("Rex", "renamed Bo, then named Rex")  # a later verb still counts


@settings(max_examples=200, deadline=None)
@given(name=st.text(alphabet=LETTERS, min_size=1, max_size=6).filter(lambda n: n.strip() == n and n),
       before=st.text(alphabet=LETTERS, max_size=6), verb=st.sampled_from(VERBS),
       after=st.text(alphabet=LETTERS, max_size=6), same=st.booleans())
def test_the_verdict_is_the_regular_expression_s(name: str, before: str, verb: str, after: str, same: bool) -> None:
    said = name if same else name.swapcase()
    text = f"{before}{verb}{said}{after}"
    assert given_name(name, text) == _given_name_pattern(name, text)


@settings(max_examples=150, deadline=None)
@given(name=st.text(alphabet=LETTERS, min_size=1, max_size=5), text=st.text(alphabet=LETTERS + "namedcl", max_size=30))
def test_the_verdict_is_the_regular_expression_s_on_any_text(name: str, text: str) -> None:
    assert given_name(name, text) == _given_name_pattern(name, text)


def test_checking_many_new_names_compiles_no_pattern_per_name() -> None:
    re.purge()
    for i in range(600):
        name = f"Zorblat{i}"
        why = entity_refusal(name, fact_text=f"I adopted a gecko named {name}.", private_names=["ines"])
        assert why == "the entity is a name someone gave (a pet, a child)"
    assert len(re._cache) < 50  # type: ignore[attr-defined]  # was 512: one pattern per name, up to re's bound
