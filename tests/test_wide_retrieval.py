"""A list, count or both-speaker question gets a wider System 1 budget; the others the papers' K."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from dmem.api import Memory
from dmem.datasets.datasets import Conversation
from dmem.errors import ConfigError
from dmem.eval.cache import QUERY_KEYS
from dmem.eval.costs import question_cost
from dmem.eval.methods import METHODS
from dmem.evidence.questions import needs_wide_retrieval, retrieval_budget
from dmem.nodes.retrieval import asearch_memories, search_memories, top_k
from dmem.state.context import Context, build_context
from dmem.state.schemas import Message

WIDE = ["How many cousins does Ines have?", "What books has Pavel read?", "Which cities did Ines visit?",
        "Which hobby has Pavel in common with Ines?", "What hobbies do they share?", "What did they cook together?",
        "How do Ines and Pavel help each other?", "Do both of them like jazz?", "How often does Pavel swim?"]
ORDINARY = ["What does Ines bake?", "Where does Pavel work?", "When did Ines move to Graz?", "Is Pavel nervous?",
            "What is the name of Ines's cat?", "What did Pavel do after the race?"]  # one fact placed in time


@pytest.mark.parametrize("question", WIDE)
def test_list_count_and_both_speaker_questions_are_wide(question: str) -> None:
    assert needs_wide_retrieval(question)


@pytest.mark.parametrize("question", ORDINARY)
def test_a_question_about_one_fact_is_not_wide(question: str) -> None:
    assert not needs_wide_retrieval(question)


def test_the_budget_is_k_times_the_factor_for_a_wide_question_only() -> None:
    assert retrieval_budget(WIDE[0], 30, 1.5) == 45
    assert retrieval_budget(WIDE[3], 30, 2.0) == 60
    assert retrieval_budget(WIDE[0], 7, 1.5) == 11  # 10.5 rounds up
    assert retrieval_budget(WIDE[0], 30, 1.0) == 30  # the papers' K for every question
    assert retrieval_budget(ORDINARY[0], 30, 2.0) == 30


def test_the_default_widens_the_wide_questions_by_half_and_a_factor_of_one_is_the_papers_k() -> None:
    assert Context().wide_retrieval_factor == 1.5
    assert top_k(Context(), WIDE[0]) == 45 and top_k(Context(), ORDINARY[0]) == 30
    paper = build_context(environ={"DMEM_WIDE_RETRIEVAL_FACTOR": "1"})
    assert paper.wide_retrieval_factor == 1.0 and top_k(paper, WIDE[0]) == top_k(paper, ORDINARY[0]) == 30
    assert top_k(Context(retrieval_top_k=10, wide_retrieval_factor=2), WIDE[1]) == 20


@pytest.mark.parametrize("bad", [0.5, 0, -1])
def test_a_factor_below_one_is_a_config_error_naming_the_setting(bad: float) -> None:
    with pytest.raises(ConfigError, match="wide_retrieval_factor"):
        build_context(environ={}, wide_retrieval_factor=bad)


def test_the_factor_shapes_the_eval_answer_cache() -> None:
    assert "wide_retrieval_factor" in QUERY_KEYS


T0 = datetime(2026, 4, 6, 8, 0)
INES = ["I bake rye bread every sunday.", "I adopted a grey cat called Pilar.", "I work at a bike shop in Graz.",
        "I swim at the lake before work.", "I started learning the cello in March.", "I grow tomatoes on my balcony.",
        "I visited Porto with my sister last spring.", "I run a book club at the library.",
        "I painted my kitchen yellow.", "I volunteer at the animal shelter on fridays."]
PAVEL = ["I repair old radios as a hobby.", "I cycle to the office every day.", "I cooked a lentil curry for my mum.",
         "I bought a used canoe in June.", "I teach chess to kids on mondays.", "I climbed the Dachstein last summer.",
         "I brew my own ginger beer.", "I moved into a flat near the river.", "I sing in a choir on wednesdays.",
         "I knitted a scarf for my nephew."]


def _ingest(mem: Memory) -> None:
    lines = [pair for i, a in enumerate(INES) for pair in (("Ines", a), ("Pavel", PAVEL[i]))]
    mem.add([Message(conversation_id="c1", turn_id=f"c1-{i}", speaker=who, text=text,
                     timestamp=T0 + timedelta(minutes=i), seq=i) for i, (who, text) in enumerate(lines)],
            user_id="c", conversation_id="c1", speaker_namespaces={"Ines": "c/i", "Pavel": "c/p"})


@pytest.mark.parametrize("mode", ["hybrid", "dense"])
def test_each_namespace_gives_a_wide_question_k_times_the_factor_and_an_ordinary_one_k(
        tmp_path: Path, mode: str) -> None:
    with Memory(tmp_path / "m", embeddings="hash", retrieval_top_k=3, wide_retrieval_factor=2, episode_neighbours=0,
                retrieval_mode=mode) as mem:
        _ingest(mem)
        svc = mem.services
        assert all(len(svc.store.vectors.list(ns)) > 6 for ns in ("c/i", "c/p"))
        for question, per_namespace in (("What hobbies do they have in common?", 6), ("What do they bake?", 3)):
            hits = search_memories(svc, question, ["c/i", "c/p"])
            ahits = asyncio.run(asearch_memories(svc, question, ["c/i", "c/p"]))
            assert [(r.id, s) for r, s in hits] == [(r.id, s) for r, s in ahits]
            assert Counter(r.namespace for r, _ in hits) == {"c/i": per_namespace, "c/p": per_namespace}


def test_the_answerer_gets_the_wider_budget_and_the_trace_its_source_turns(tmp_path: Path) -> None:
    with Memory(tmp_path / "m", embeddings="hash", retrieval_top_k=3, wide_retrieval_factor=2, episode_neighbours=0,
                gate_policy="never") as mem:  # System 1's answer and trace (Mem0*)
        _ingest(mem)
        wide = mem.ask("What hobbies do they have in common?", user_ids=["c/i", "c/p"])
        one = mem.ask("What do they bake?", user_ids=["c/i", "c/p"])
        assert len(wide.retrieved) == 12 and len(one.retrieved) == 6
        sources = {t for r in wide.retrieved for t in r.memory.source_turn_ids}
        assert set(wide.evidence_turn_ids) <= sources and len(sources) > 6


def test_the_dry_run_estimates_a_wide_question_with_the_wider_budget() -> None:
    said = [Message(turn_id=f"t{i}", speaker="Ines", text="I bake rye bread.") for i in range(200)]
    conv = Conversation(conversation_id="c1", speakers=["Ines", "Pavel"], qa=[], messages=said)
    ctx = Context(retrieval_top_k=10, wide_retrieval_factor=2)
    mem0 = METHODS["mem0"]
    wide, one = question_cost(mem0, WIDE[3], conv, ctx), question_cost(mem0, ORDINARY[0], conv, ctx)
    paper = question_cost(mem0, WIDE[3], conv, ctx.with_overrides(wide_retrieval_factor=1))
    assert abs(paper.tokens_in - one.tokens_in) < 20  # 10 lines per speaker each: only the questions' words differ
    assert wide.tokens_in - paper.tokens_in > 20 * 20  # 10 more lines per speaker, 20+ tokens each


def test_the_dry_run_counts_the_episode_neighbours_a_hybrid_answer_reads() -> None:
    said = [Message(turn_id=f"t{i}", speaker="Ines", text="I bake rye bread.") for i in range(200)]
    conv = Conversation(conversation_id="c1", speakers=["Ines", "Pavel"], qa=[], messages=said)
    ctx = Context(retrieval_top_k=10, episode_neighbours=3)
    mem0 = METHODS["mem0"]
    with_three = question_cost(mem0, ORDINARY[0], conv, ctx)
    none = question_cost(mem0, ORDINARY[0], conv, ctx.with_overrides(episode_neighbours=0))
    dense = question_cost(mem0, ORDINARY[0], conv, ctx.with_overrides(retrieval_mode="dense"))
    assert 3 * 5 < with_three.tokens_in - none.tokens_in < 3 * 60  # three more memory lines
    assert dense.tokens_in == none.tokens_in  # dense retrieval adds no neighbours
