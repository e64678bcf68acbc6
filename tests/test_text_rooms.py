"""Text helpers that several admission rules share, each in one room (stop 48 review items).

- ``straighten``: a curly apostrophe reads as a straight one, once per text, before any rule looks at it;
  the confirmed-reply, question-fact and embedded-question rules read a curly line the way they read a straight one.
- ``ClauseVerdict.ruled``: an answer's verdict keeps the rules' own verdict its question overrode, so ``payback``
  judges the clause without its question by the rules only once.
- ``text.asked``'s ``LEAD_INS``, ``LEAD_WORDS``, ``AUXILIARIES`` and ``NEGATED``: one set of lead-ins and
  auxiliaries for every rule that reads how a question opens (confirmed replies, embedded clauses, chained answers).

Invented people and events only.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import replace
from datetime import datetime

import pytest

from dmem.decisions.offline import clause_admission
from dmem.decisions.offline.chains import answer_statement
from dmem.decisions.offline.clause_admission import judge_clause
from dmem.decisions.offline.clauses import Clause, answer_words
from dmem.decisions.offline.confirmed import clarified, confirmed_statement, outcome, thing_asked, verb_echo
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.embedded import embedded
from dmem.decisions.offline.replies import Asked
from dmem.models.embeddings import HashEmbeddings
from dmem.text.answers import yes_no_echo
from dmem.text.asked import asks_yes_no
from dmem.text.lexical import straighten, tokenize
from tests.conftest import chat_turn

CURLY = "\u2019"


def test_straighten_turns_each_curly_apostrophe_straight_and_keeps_the_rest() -> None:
    said = f"I{CURLY}ve sold Pim{CURLY}s old kayak, didn{CURLY}t I?"
    assert straighten(said) == "I've sold Pim's old kayak, didn't I?"
    assert straighten("no apostrophe here") == "no apostrophe here"
    assert straighten("\u2018quoted\u201d") == "\u2018quoted\u201d"  # only the apostrophe; quote marks stay


def test_tokenize_reads_a_curly_line_as_the_straight_one() -> None:
    straight = "Wren's ferry didn't leave, I'm stuck in Harwick"
    assert tokenize(straight.replace("'", CURLY)) == tokenize(straight) == [
        "wren's", "ferry", "didn't", "leave", "i'm", "stuck", "in", "harwick"]


@pytest.mark.parametrize(("question", "reply", "speaker", "before"), [
    ("did Osric get the job at the boatyard?", "got it!!", "Osric", None),
    ("did Osric get the job at the boatyard?", "nope, didn't get it", "Osric", None),
    ("how did Osric's driving test go?", "passed!!", "Osric", None),
    ("THE APPRENTICESHIP???", "yeah", "Osric", "i got it"),
])
def test_confirmed_replies_read_curly_and_straight_alike(question: str, reply: str, speaker: str,
                                                         before: str | None) -> None:
    curly = confirmed_statement(question.replace("'", CURLY), reply.replace("'", CURLY), speaker,
                                before and before.replace("'", CURLY))
    assert curly is not None
    assert curly == confirmed_statement(question, reply, speaker, before)


def test_each_public_confirmation_rule_straightens_its_own_inputs() -> None:
    assert verb_echo("did you finish the quilt?", f"didn{CURLY}t finish it")
    assert outcome(f"how did Osric{CURLY}s exam go?", "aced it", "Osric") == "Osric aced the exam"
    assert thing_asked(f"the band{CURLY}s gig??") == "the band's gig"
    assert clarified(f"the band{CURLY}s gig??", "booked it!!") == "booked the band's gig"
    assert yes_no_echo("did you find the keys?", f"I didn{CURLY}t") == yes_no_echo("did you find the keys?", "I didn't")


turn = functools.partial(chat_turn, session="R8", when=datetime(2025, 6, 14, 9, 30))


def test_an_answer_keeps_the_rules_verdict_its_question_overrode() -> None:
    clause = Clause("Ooh that sounds like a proper adventure", asked=Asked("Marit", "How was your weekend?", "R8:1"))
    verdict = judge_clause(clause)
    assert verdict.admit and verdict.kind == "answer"
    assert verdict.ruled is not None and not verdict.ruled.admit and verdict.ruled.kind != "answer"
    alone = replace(clause, asked=None)
    assert judge_clause(alone, ruled=verdict.ruled) == judge_clause(alone)  # the same verdict, the rules not run
    assert judge_clause(Clause("I repainted the boat shed")).ruled is None  # admitted by the rules: nothing overrode


def test_splitting_a_reply_runs_the_rules_once_a_clause(monkeypatch: pytest.MonkeyPatch) -> None:
    judged: Counter[str] = Counter()
    rules_alone = clause_admission._judge

    def counted(clause: Clause, language: str) -> clause_admission.ClauseVerdict:
        judged[clause.text] += 1
        return rules_alone(clause, language)

    asked = turn("How was your weekend?", "Marit", 1)
    reply = turn("Thanks for asking! Ooh that sounds like a proper adventure. I spent it repainting the boat shed.",
                 "Tobias", 2)
    monkeypatch.setattr(clause_admission, "_judge", counted)
    facts = OfflineDecider(HashEmbeddings()).split([reply], [asked], []).value.facts
    assert [f.source_turn_ids for f in facts] == [["R8:1", "R8:2"]]  # the reactions restate: no memory of their own
    assert judged and max(judged.values()) == 1, judged


@pytest.mark.parametrize("lead", ["", "so ", "oh btw ", "hey Osric, ", "hi! ", "ok wait, "])
def test_every_rule_reading_a_question_skips_the_same_lead_ins(lead: str) -> None:
    asked = f"{lead}did you get the job at the boatyard?"
    assert asks_yes_no(asked)
    assert verb_echo(asked, "got it!!")
    assert confirmed_statement(f"{lead}did Osric get the job at the boatyard?", "yep", "Osric") == \
        "Osric got the job at the boatyard"
    assert answer_statement(f"{lead}where do you work?", "the bakery on Dock Lane", "Ines") == \
        "Ines works in the bakery on Dock Lane"


@pytest.mark.parametrize(("question", "said"), [
    ("hiya Ines, didnt you move to Tromso in May?", "you did move to Tromso in May"),
    ("hey Ines, where did you move to in May?", "you did move to in May"),
])
def test_an_embedded_clause_is_read_after_the_shared_lead_ins(question: str, said: str) -> None:
    found = embedded(question, answer_words, frozenset(), {"ines"}, lambda _: True)
    assert found is not None and found.said == said and found.whose == "listener"
