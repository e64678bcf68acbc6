"""Helpers the offline rules had written more than once now have one home each (issue #26, stop 51, h51d).

The question words (``dmem.text.words.WH`` and the variants each stage was tuned with), a text's first word
(``dmem.text.lexical.first_word``) and the speaker's stored memory a line goes on with (``followup.own_memory``).
Each finds what it names and nothing past it, and the stages read them as they read their own copies. Stop 52
(h52e): an utterance's clauses are cut and judged once for its verdict and its take-up (``judged_utterance``), a
chat filler is split off in one place (``rules.after_filler``) and answers are grouped by one union-find
(``verdicts.joined``). Stop 53 (h53d): a line shown to be news by its take-up or its opening is written from the
clauses admission cut it into, not cut again. Invented lines only.
"""

from __future__ import annotations

import functools
from collections import Counter
from datetime import datetime
from typing import Any

import pytest

from dmem.decisions.offline import (
    admission,
    clause_admission,
    followup,
    gate,
    leaning,
    register,
    replies,
    rules,
    splitting,
    telegraphic,
    worldline,
)
from dmem.decisions.offline.clauses import clauses_of
from dmem.state.verdicts import group_answers, joined
from dmem.text.asked import elliptical_check
from dmem.text.lexical import first_word
from dmem.text.words import WH, WH_ANYWHERE, WH_FOLLOWUP, WH_OPENING, alternation
from tests.conftest import chat_turn


@pytest.mark.parametrize("line", ["what's the ferry called", "hows Moss", "Where did you park", "why not",
                                  "...who won", "which one", "how's the loft", "whats new with the band"])
def test_every_variant_finds_a_question_word(line: str) -> None:
    assert WH_OPENING.search(line) and WH_ANYWHERE.search(line)
    assert followup._ASKING.search(line)


@pytest.mark.parametrize("line", ["whatever you say", "somewhere near the pier", "showcase on friday",
                                  "the whole crew", "anyhow the gate"])
def test_no_variant_finds_a_word_that_only_contains_one(line: str) -> None:
    assert not WH_OPENING.search(line) and not WH_ANYWHERE.search(line)


def test_the_opening_variant_reads_only_how_a_line_opens() -> None:
    assert WH_OPENING.search("  what a week") and not WH_OPENING.search("no idea what he meant")


def test_chat_contractions_and_whom_whose_are_only_in_the_anywhere_variant() -> None:
    for line in ("wheres the tandem", "whens the regatta", "whos Ferdie", "whose kayak", "to whom"):
        assert WH_ANYWHERE.search(line) and not WH_OPENING.search(line)
    assert not elliptical_check("whose kayak?") and elliptical_check("the green tandem?")


def test_whatd_is_only_in_the_followup_variant() -> None:
    assert "whatd" in WH_FOLLOWUP.split() and "whatd" not in WH.split()
    assert followup._ASKING.search("whatd she say") and not WH_ANYWHERE.search("whatd she say")


def test_alternation_escapes_each_word() -> None:
    assert alternation("a.b c") == r"a\.b|c"


def test_a_short_line_opening_as_a_question_states_nothing_but_a_plain_one_does() -> None:
    assert not worldline.short_statement(["hows the boiler"], [None], ["boiler"])
    assert worldline.short_statement(["the boiler packed in"], [None], ["boiler", "packed"])


@pytest.mark.parametrize(("text", "first"), [("Moss sleeps", "Moss"), ("  \tdrove  home ", "drove"), ("", ""),
                                             ("   ", ""), ("solo", "solo")])
def test_first_word_is_the_first_word_as_written_or_empty(text: str, first: str) -> None:
    assert first_word(text) == first


def test_a_line_doing_something_now_opens_with_a_progressive_and_an_empty_one_does_not() -> None:
    assert worldline._doing_now("eating lunch at the pier") and worldline._doing_now('"sending it now')
    assert not worldline._doing_now("morning swim was cold") and not worldline._doing_now("") \
        and not worldline._doing_now("   ")


def test_a_piece_points_back_by_its_first_word_whatever_its_case_and_trailing_mark() -> None:
    assert leaning.points_back("It, opens at noon") and not leaning.points_back("Noon is when it opens")
    assert not leaning.points_back("  ")


MEMORIES = ["Orla keeps a red kayak at the lake", "Orla paddles from the old jetty at the lake every Sunday",
            "Tam keeps a red kayak at the lake"]


def test_own_memory_is_the_speakers_memory_sharing_the_most_stems() -> None:
    stems = {"jetti", "lake", "sunday"}
    assert followup.own_memory(stems, "Orla Finn", MEMORIES, 2) == MEMORIES[1]
    assert followup.own_memory(stems, "Tam", MEMORIES, 1) == MEMORIES[2]  # Tam's own, though it shares less


def test_own_memory_needs_the_least_shared_and_keeps_to_the_longest_allowed() -> None:
    stems = {"jetti", "lake", "sunday"}
    assert followup.own_memory(stems, "Orla", MEMORIES, 4) is None
    assert followup.own_memory(stems, "Orla", MEMORIES, 1, max_words=8) == MEMORIES[0]  # the longer one is out
    assert followup.own_memory({"kayak", "red"}, "Orla", MEMORIES, 2) == MEMORIES[0]  # the first of equals


def test_news_memory_asks_for_half_the_news_stems() -> None:
    assert followup.news_memory("jetty lake sunday", "Orla", MEMORIES) == MEMORIES[1]
    assert followup.news_memory("jetty rowing club regatta", "Orla", MEMORIES) is None


turn = functools.partial(chat_turn, session="D2", when=datetime(2025, 3, 4, 18, 0))


@pytest.mark.parametrize(("who", "text"), [("Odalys", "got the keys"), ("Odalys", "My cousin Brann plays the oboe."),
                                           ("Odalys", "ok"), ("assistant", "Noted, I will remember that."),
                                           ("Odalys", "  "), ("Odalys", "wait when?? and where")])
def test_judged_utterance_is_the_verdict_with_the_clauses_it_was_drawn_from(who: str, text: str) -> None:
    prior = [turn("hey, long day?", "Perrin", 1)]
    message = turn(text, who, 2)
    judged = admission.judged_utterance(message, prior)
    assert (judged.admit, judged.reason) == admission.judge_utterance(message, prior)
    if who == "assistant" or not text.strip():
        assert judged.clauses == () and not judged.admit
        return
    clauses, language = clauses_of(message, prior)
    assert (list(judged.clauses), judged.language) == (clauses, language)
    assert list(judged.verdicts) == [clause_admission.judge_clause(c, language) for c in clauses]


def test_a_line_taken_up_is_cut_into_clauses_once(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [turn("heyy", "Odalys", 1), turn("hey you", "Perrin", 2), turn("got the keys", "Odalys", 3)]
    cut: Counter[str] = Counter()

    def counted(message: Any, *args: Any, **kwargs: Any) -> Any:
        cut[message.turn_id] += 1
        return clauses_of(message, *args, **kwargs)

    monkeypatch.setattr(admission, "clauses_of", counted)
    taken = admission.takeup_news(turn("omg congrats", "Perrin", 4), lines)
    assert taken is not None and taken.news.turn_id == "D2:3" and taken.how == "a reaction to news"
    assert cut["D2:3"] == 1


def _cuts_while_writing(monkeypatch: pytest.MonkeyPatch, turns: list[Any]) -> tuple[list[Any], Counter[str]]:
    """The last turn's drafts, and how often each turn was cut into clauses (by admission and the splitter)."""
    cut: Counter[str] = Counter()

    def counted(message: Any, *args: Any, **kwargs: Any) -> Any:
        cut[message.turn_id] += 1
        return clauses_of(message, *args, **kwargs)

    monkeypatch.setattr(admission, "clauses_of", counted)
    monkeypatch.setattr(splitting, "clauses_of", counted)
    return splitting.facts_from_message(turns[-1], turns, [], gated=True), cut


def test_a_line_taken_up_is_written_from_the_clauses_admission_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 53 (h53d): the take-up carries the line's pooled clauses and language; the splitter cuts it no more."""
    lines = [turn("heyy", "Odalys", 1), turn("hey you", "Perrin", 2), turn("got the keys", "Odalys", 3),
             turn("omg congrats", "Perrin", 4)]
    drafts, cut = _cuts_while_writing(monkeypatch, lines)
    assert [(d.text, d.speaker, d.source_turn_ids, d.language) for d in drafts] == [
        ("Odalys got the keys", "Odalys", ["D2:3", "D2:4"], "en")]  # the reaction a source too (h66b)
    assert cut["D2:3"] == 1  # judged in its place once; written from those clauses


def test_a_line_opening_the_chat_is_written_from_the_clauses_admission_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 53 (h53d): the opening carries the line's pooled clauses; only the message's own split cuts it again."""
    back = datetime(2025, 3, 6, 18, 0)  # two days after the lines before
    lines = [turn("ok night, ferry at 7", "Odalys", 1), turn("night! safe trip", "Perrin", 2),
             chat_turn("signed btw", "Odalys", 3, session="D2", when=back)]
    drafts, cut = _cuts_while_writing(monkeypatch, lines)
    assert [(d.text, d.speaker, d.source_turn_ids) for d in drafts] == [("Odalys signed", "Odalys", ["D2:3"])]
    assert cut["D2:3"] == 2  # the splitter's own cut of the message, and the opening's judgement of it


@pytest.mark.parametrize(("clause", "head", "body"), [
    ("yeah so got the job", "yeah so ", "got the job"),
    ("Oh, moved to Tarsk last May", "Oh, ", "moved to Tarsk last May"),
    ("got the job", "", "got the job"), ("", "", ""), ("so", "", "so")])
def test_after_filler_splits_the_leading_filler_from_the_rest(clause: str, head: str, body: str) -> None:
    assert rules.after_filler(clause) == (head, body)


def test_the_dropped_word_is_put_back_after_the_filler_by_each_stage() -> None:
    assert register.restore("lol so usually run on sundays") == "lol so I usually run on sundays"
    assert telegraphic.restore_owner("oh dog has been sick all week") == "oh my dog has been sick all week"
    assert replies.restore_subject("yeah had an audition yesterday") == "yeah I had an audition yesterday"


def test_joined_groups_indexes_by_their_links_first_member_first() -> None:
    assert joined(0, []) == []
    assert joined(5, [(4, 2), (5, 1)]) == [[1, 5], [2, 4], [3]]
    assert joined(4, [(1, 2), (3, 4), (2, 3)]) == [[1, 2, 3, 4]]


def test_answer_groupings_read_the_one_union_find() -> None:
    assert group_answers([[2, 1, 9, 2]], ["the blue kite", "a red kite", "The blue kite."]) == [[1, 2, 3]]
    assert group_answers([], ["Lisbon", "Porto", "lisbon"]) == [[1, 3], [2]]
    assert gate.group(["in March 2021", "Porto", "March 2021"]).groups == [[1, 3], [2]]
