"""One table of irregular verbs (``dmem.text.verbs``) answers every lookup as the three tables it replaced did.

The old tables are kept here, frozen, as test data: the tense writer's (base: past, participle), the
stemmer's (form: base) and the past-reading rules' set of pasts. Every word any of them knew, and a few
regular ones, must get the same answer from the new lookups.
"""

from __future__ import annotations

import pytest

from dmem.text import verbs
from dmem.text.lexical import stem
from dmem.text.verbs import IRREGULAR_PASTS, PAST_STEMS, irregular_past, participle, past
from dmem.text.words import wordset

_OLD_WRITER = {
    "begin": ("began", "begun"), "break": ("broke", "broken"), "bring": ("brought", "brought"),
    "build": ("built", "built"), "buy": ("bought", "bought"), "catch": ("caught", "caught"),
    "choose": ("chose", "chosen"), "do": ("did", "done"), "draw": ("drew", "drawn"), "drive": ("drove", "driven"),
    "eat": ("ate", "eaten"), "feel": ("felt", "felt"), "find": ("found", "found"), "fly": ("flew", "flown"),
    "get": ("got", "gotten"), "give": ("gave", "given"), "go": ("went", "gone"), "have": ("had", "had"),
    "hear": ("heard", "heard"), "hold": ("held", "held"), "keep": ("kept", "kept"), "knit": ("knitted", "knitted"),
    "leave": ("left", "left"), "lose": ("lost", "lost"), "make": ("made", "made"), "meet": ("met", "met"),
    "pay": ("paid", "paid"), "ride": ("rode", "ridden"), "run": ("ran", "run"), "see": ("saw", "seen"),
    "sell": ("sold", "sold"), "send": ("sent", "sent"), "sew": ("sewed", "sewn"), "sing": ("sang", "sung"),
    "sit": ("sat", "sat"), "speak": ("spoke", "spoken"), "swim": ("swam", "swum"), "take": ("took", "taken"),
    "teach": ("taught", "taught"), "tell": ("told", "told"), "think": ("thought", "thought"),
    "win": ("won", "won"), "write": ("wrote", "written"), "spend": ("spent", "spent"), "lend": ("lent", "lent"),
    "quit": ("quit", "quit"), "fall": ("fell", "fallen"), "forget": ("forgot", "forgotten"),
    "wake": ("woke", "woken"), "sleep": ("slept", "slept"), "steal": ("stole", "stolen"),
}
_OLD_STEMS = dict(pair.split(":") for pair in wordset(
    "went:go gone:go did:do had:have made:make took:take saw:see seen:see met:meet bought:buy ran:run "
    "got:get gave:give found:find left:leave felt:feel told:tell said:say thought:think knew:know "
    "came:come wrote:write ate:eat drove:drive taught:teach sold:sell lost:lose won:win kept:keep "
    "spent:spend began:begin built:build flew:fly grew:grow became:become chose:choose drew:draw "
    "sang:sing swam:swim paid:pay sent:send brought:bring caught:catch heard:hear"))
_OLD_PASTS = wordset(
    "went had got made took saw met ran bought won gave found left began came built wrote read did "
    "was were felt thought told said knew lost sold kept heard paid sent spent taught brought caught "
    "fell held put quit set slept spoke stood threw understood woke wore drove ate flew grew became "
    "chose drew forgot hid hung led lent let lit meant rode rang rose sang sat shot shut swam tore")
_REGULAR = ["move", "try", "play", "pass", "Bake", "cry"]
WORDS = sorted(set(_OLD_WRITER) | {f for forms in _OLD_WRITER.values() for f in forms} | set(_OLD_STEMS)
               | set(_OLD_STEMS.values()) | _OLD_PASTS | set(_REGULAR))


def _old_regular(verb: str) -> str:
    low = verb.lower()
    if low.endswith("e"):
        return verb + "d"
    return verb[:-1] + "ied" if low.endswith("y") and low[-2] not in "aeiou" else verb + "ed"


@pytest.mark.parametrize("word", WORDS)
def test_the_writer_answers_as_its_old_table(word: str) -> None:
    low = word.lower()
    assert past(word) == (_OLD_WRITER[low][0] if low in _OLD_WRITER else _old_regular(low))
    assert participle(word) == (_OLD_WRITER[low][1] if low in _OLD_WRITER else _old_regular(word))
    assert irregular_past(word) is (low in {forms[0] for forms in _OLD_WRITER.values()})


@pytest.mark.parametrize("word", WORDS)
def test_the_stemmer_and_the_past_readers_answer_as_their_old_tables(word: str) -> None:
    assert stem(word) == stem(_OLD_STEMS.get(word, word))
    assert PAST_STEMS.get(word) == _OLD_STEMS.get(word)
    assert (word in IRREGULAR_PASTS) is (word in _OLD_PASTS)


def test_the_views_are_exactly_the_old_tables() -> None:
    assert verbs._IRREGULAR == _OLD_WRITER
    assert PAST_STEMS == _OLD_STEMS
    assert IRREGULAR_PASTS == _OLD_PASTS


def test_every_form_the_views_know_is_spelled_in_one_row() -> None:
    rows = verbs._rows()
    bases = [base for base, *_ in rows]
    assert len(bases) == len(set(bases))
    spelled = {f for _, pasts, part, _ in rows for f in [*pasts, part]}
    assert set(PAST_STEMS) | IRREGULAR_PASTS <= spelled
    assert set(PAST_STEMS.values()) <= set(bases)
