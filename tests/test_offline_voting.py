"""Majority Voting and Consensus on the offline engine: samples differ when answers are close rivals.

Sample 0 is the extractive answer; later samples draw alternative spans by their lines' relevance,
seeded by question, sample index and temperature, so votes are real and repeatable.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.voting import VOTE_SPREAD, Candidate, candidates, draw
from dmem.models.embeddings import HashEmbeddings

# One line answers the question, the others are about something else.
CLEAR = ["[2024-03-18] Maya keeps her Vespa in the garage",
         "[2024-03-18] Theo knitted a scarf with his daughters",
         "[2024-03-18] Theo has 3 kids"]
# Two lines answer it about as well, with different answers.
RIVALS = ["[2024-03-01] Maya went to Porto for the weekend",
          "[2024-03-08] Maya went to Madrid for the weekend",
          "[2024-03-18] Theo has 3 kids"]


def samples(decider: OfflineDecider, question: str, context: list[str], n: int = 3,
            temperature: float = 0.7) -> list[str]:
    return [decider.answer(question, context, temperature=temperature, sample=i).value.answer for i in range(n)]


def test_sample_zero_and_temperature_zero_are_the_extractive_answer(decider: OfflineDecider) -> None:
    best = decider.answer("Where did Maya go for the weekend?", RIVALS).value.answer
    assert best in ("Porto", "Madrid")
    assert samples(decider, "Where did Maya go for the weekend?", RIVALS, n=1) == [best]
    assert samples(decider, "Where did Maya go for the weekend?", RIVALS, n=5, temperature=0.0) == [best] * 5


def test_close_rivals_split_the_votes_and_repeat_exactly(decider: OfflineDecider) -> None:
    votes = samples(decider, "Where did Maya go for the weekend?", RIVALS, n=9)
    assert set(votes) == {"Porto", "Madrid"}
    assert votes == samples(decider, "Where did Maya go for the weekend?", RIVALS, n=9)  # repeatable


def test_a_clear_answer_is_unanimous(decider: OfflineDecider) -> None:
    assert samples(decider, "Where does Maya keep her Vespa?", CLEAR, n=9) == ["the garage"] * 9


def test_candidates_start_with_the_extractive_answer(decider: OfflineDecider) -> None:
    pool = candidates(HashEmbeddings(), "Where did Maya go for the weekend?", RIVALS)
    best = decider.answer("Where did Maya go for the weekend?", RIVALS).value.answer
    assert [c.answer for c in pool][:1] == [best]
    assert {c.answer for c in pool} == {"Porto", "Madrid"}
    assert candidates(HashEmbeddings(), "What is Maya's favourite film?", RIVALS) == []  # nothing answers: no vote


def test_draws_follow_the_relevance_gap() -> None:
    def share_of_best(gap: float) -> float:
        pool = [Candidate("best", 0.6), Candidate("other", 0.6 - gap)]
        picks = [draw(pool, "q", i, 0.7).answer for i in range(1, 401)]
        return picks.count("best") / len(picks)

    assert 0.35 < share_of_best(0.0) < 0.65  # equally relevant: a coin toss
    assert share_of_best(3 * VOTE_SPREAD) > 0.9  # far behind: rarely drawn


def ask(memory_factory: Any, policy: str, question: str, lines: list[str]) -> Any:
    mem = memory_factory(None, sub=policy)
    stamp = datetime(2024, 3, 18, 9, 30).isoformat()
    mem.add([{"speaker": "Maya", "text": text, "turn_id": f"t{i}", "timestamp": stamp} for i, text in enumerate(lines)],
            user_id="maya")
    return mem.ask(question, user_id="maya", gate_policy=policy)


@pytest.mark.parametrize("policy", ["majority", "consensus"])
def test_unanimous_samples_pass_the_vote(memory_factory: Any, policy: str) -> None:
    got = ask(memory_factory, policy, "Where does Maya keep her Vespa?",
              ["I keep my Vespa in the garage.", "I love knitting scarves."])
    assert got.engine == "offline" and len(got.samples) == 3
    assert len(set(got.samples)) == 1 and got.gate_passed is True and got.route == "system1"


def test_split_samples_pass_majority_and_send_consensus_to_deliberation(memory_factory: Any) -> None:
    lines = ["I went to Porto to see the old town.", "I went to Madrid to see the old town."]
    question = "Where did Maya go to see the old town?"
    majority = ask(memory_factory, "majority", question, lines)
    assert sorted(majority.samples) == ["Madrid", "Porto", "Porto"]  # 2 of 3: a majority, not a consensus
    assert majority.gate_passed is True and majority.route == "system1" and majority.answer == "Porto"
    consensus = ask(memory_factory, "consensus", question, lines)
    assert consensus.samples == majority.samples
    assert consensus.gate_passed is False and consensus.route == "deliberation"
    assert consensus.gate_reasons == ["2 of 3 answers agree (all needed)"]
