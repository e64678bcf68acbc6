"""Evaluation harness: resumable runs, reports, dry run, evidence recall, judge, fallback split, CLI."""

from __future__ import annotations

import argparse
import json
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from rich.console import Console

from dmem.datasets.datasets import Conversation, QAItem
from dmem.errors import ConfigError, DataError
from dmem.eval.cli import add_eval_parser, execute
from dmem.eval.judge import Judge, build_record, make_judge
from dmem.eval.methods import METHODS, MethodAnswer, QuestionTask, rag_chunks, rag_retrieve, resolve_methods
from dmem.eval.metrics import evidence_precision, evidence_recall
from dmem.eval.report import fallback_split, summarize
from dmem.eval.runner import ANSWERS_FILE, EvalConfig, EvalError, EvalRunner
from dmem.eval.tables import render_markdown
from dmem.models.embeddings import HashEmbeddings, make_embeddings
from dmem.models.embeddings_local import LocalMiniLMEmbeddings
from dmem.state.context import Context
from dmem.state.schemas import Message, Usage
from dmem.testing import FakeChatModel

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "locomo_mini.json"
LOCOMO_DEV = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "locomo" / "locomo-dev6.json"
_LINE = re.compile(r"^\[([^\]]+)\] (?:\[[^\]]+\] )?([^:]+): (.*)$")
# fx-1 questions of categories 1-4, by dataset index: 0 temporal "When ...", 1 multi-hop, 3 single-hop, 4 open-domain.
SCORED = [0, 1, 3, 4]


# --- A fake model whose replies are derived from the prompts ------------------------------------
def _section(messages: list[BaseMessage], tag: str) -> str:
    text = "\n".join(str(m.content) for m in messages)
    found = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.S)
    return found.group(1) if found else ""


def _turns(messages: list[BaseMessage], tag: str) -> list[tuple[str, str, str]]:
    return [m.groups() for line in _section(messages, tag).splitlines() if (m := _LINE.match(line))]


def _answer(messages: list[BaseMessage]) -> dict[str, str]:
    if "cities" in _section(messages, "question") and _FAIL["cities"]:
        raise RuntimeError("simulated crash while answering")
    lines = [ln for ln in _section(messages, "memories").splitlines() if ln and ln != "(none)"]
    text = re.sub(r"^\[[^\]]*\]\s*", "", lines[0]) if lines else "No information available."
    return {"reasoning": "first line", "answer": text}


def _split(messages: list[BaseMessage]) -> dict[str, Any]:
    turns = _turns(messages, "current_exchange")
    if _FAIL["ingest"] and any(x == "How was Rome?" for _, _, x in turns):  # turn D2:1 (prompts show labels)
        raise RuntimeError("simulated crash while ingesting")
    return {"facts": [{"text": f"{s} said: {x}", "speaker": s, "source_turn_ids": [t]} for t, s, x in turns]}


def _quality_gate(messages: list[BaseMessage]) -> dict[str, Any]:
    verdict = {"reason": "checked", "passed": not _section(messages, "question").startswith("When")}
    return {"relevance": verdict, "faithfulness": verdict, "completeness": verdict}


def _judge(messages: list[BaseMessage]) -> dict[str, str]:
    gold = set(re.findall(r"\w+", _section(messages, "gold_answer").lower()))
    answer = set(re.findall(r"\w+", _section(messages, "generated_answer").lower()))
    return {"reasoning": "overlap", "label": "CORRECT" if gold & answer else "WRONG"}


_FAIL = {"cities": False, "ingest": False}


@pytest.fixture(autouse=True)
def _reset_failures() -> None:
    _FAIL.update(cities=False, ingest=False)


def fake_model(delay: float = 0.0) -> FakeChatModel:
    return FakeChatModel(delay=delay, script={
        "AdmissionVerdicts": lambda m: {"verdicts": [{"turn_id": t, "reason": "lasting", "admit": True}
                                                     for t, _, _ in _turns(m, "current_exchange")]},
        "FactDrafts": _split,
        "ScopeLabels": lambda m: {"labels": []},
        "LifecycleDecision": lambda m: {"reason": "new", "operation": "ADD"},
        "AnswerDraft": _answer,
        "QualityGateVerdict": _quality_gate,
        "ChunkFacts": lambda m: {"facts": [{"fact": f"{s} said: {x}", "score": 8, "turn_ids": [t]}
                                           for t, s, x in _turns(m, "chunk")]},
        "MemorySelection": lambda m: {"reason": "needed", "keep": [1]},
        "AnswerGroups": lambda m: {"reason": "same", "groups": [[1, 2, 3]], "best": [1]},
        "JudgeVerdict": _judge,
    })


def config(out: Path, model: Any, methods: str, **kw: Any) -> EvalConfig:
    base: dict[str, Any] = {"conversations": ["fx-1"], "embeddings": "hash", "concurrency": 2}
    return EvalConfig(kind="locomo", path=kw.pop("path", FIXTURE), out=out, methods=resolve_methods(methods),
                      llm=model, **{**base, **kw})


def count(model: FakeChatModel, schema: str) -> int:
    return len(model.calls_for(schema))


# --- Resume -------------------------------------------------------------------------------------
def test_limit_then_full_run_asks_only_missing_questions(tmp_path: Path) -> None:
    first = fake_model()
    out = EvalRunner(config(tmp_path, first, "quality,full_context", limit=2)).run()
    assert sorted((r["method"], r["index"]) for r in out.records) == [
        ("full_context", 0), ("full_context", 1), ("quality", 0), ("quality", 1)]
    assert count(first, "AdmissionVerdicts") == 3  # three exchanges of two messages

    second = fake_model()
    out = EvalRunner(config(tmp_path, second, "quality,full_context")).run()
    assert len(out.records) == 8 and not out.failures
    assert count(second, "AdmissionVerdicts") == 0  # the store is reused, not re-ingested
    assert count(second, "JudgeVerdict") == 4  # indexes 3 and 4, for both methods
    asked = {c.prompt.split("<question>\n")[1].split("\n")[0] for c in second.calls_for("JudgeVerdict")}
    assert asked == {"What did Ann do today?", "Would Ann like Italy?"}


def test_crash_mid_run_then_rerun_retries_only_failed_questions(tmp_path: Path) -> None:
    _FAIL["cities"] = True
    cfg = config(tmp_path, fake_model(), "quality,full_context")
    with pytest.raises(EvalError, match="2 question"):
        execute(cfg, Console(file=open(tmp_path / "log.txt", "w")))  # noqa: SIM115
    saved = [json.loads(line) for line in (tmp_path / ANSWERS_FILE).read_text().splitlines()]
    assert len(saved) == 6 and all(r["index"] != 1 for r in saved)
    assert (tmp_path / "table.md").exists()  # what finished is reported even when some failed
    with (tmp_path / ANSWERS_FILE).open("a") as handle:
        handle.write('{"key": "quality|fx-1|1", "con')  # a write cut short by the crash

    _FAIL["cities"] = False
    model = fake_model()
    out = EvalRunner(config(tmp_path, model, "quality,full_context")).run()
    assert len(out.records) == 8 and not out.failures
    assert count(model, "AnswerDraft") == 2 and count(model, "JudgeVerdict") == 2
    assert count(model, "AdmissionVerdicts") == 0


def test_interrupted_ingestion_resumes_where_it_stopped(tmp_path: Path) -> None:
    _FAIL["ingest"] = True  # a provider failure on exchange 2: kept pending, the batch goes on
    with pytest.raises(EvalError, match="ingestion failed: .*fx-1: 2 turn.*simulated crash"):
        EvalRunner(config(tmp_path, fake_model(), "mem0")).run()
    assert not list((tmp_path / "stores").glob("*/fx-1.done.json"))

    _FAIL["ingest"] = False
    model = fake_model()
    out = EvalRunner(config(tmp_path, model, "mem0")).run()
    assert count(model, "AdmissionVerdicts") == 1  # exchange 2 only; 1 and 3 were formed before
    assert len(list((tmp_path / "stores").glob("*/fx-1.done.json"))) == 1
    info = out.ingestion[0]
    assert info["formed_now"] == 2 and info["pending"] == 0
    assert sum(info["memories"].values()) == 6  # one memory per turn, none lost or duplicated


def test_changed_settings_are_not_served_from_the_cache(tmp_path: Path) -> None:
    EvalRunner(config(tmp_path, fake_model(), "full_context", limit=1)).run()
    model = fake_model()
    EvalRunner(config(tmp_path, model, "full_context", limit=1, settings={"answer_style": "sentence"})).run()
    assert count(model, "AnswerDraft") == 1


# --- Reports ------------------------------------------------------------------------------------
def test_reports_hold_every_method_and_the_paper_columns(tmp_path: Path) -> None:
    methods = "mem0,quality,quality-noformation,full_context,rag"
    assert execute(config(tmp_path, fake_model(), methods), Console(file=open(tmp_path / "o", "w"))) == 0  # noqa: SIM115
    table = (tmp_path / "table.md").read_text()
    header = next(line for line in table.splitlines() if line.startswith("| Method | F1 S-H"))
    for column in ("F1 M-H", "F1 Temp", "F1 O-D", "F1 Avg", "Judge Avg", "BLEU-1 Avg", "Total tok", "Time (s)"):
        assert column in header
    assert "mem0 / A-Mem token-set F1" in table and "official LoCoMo scorer" in table
    for name in methods.split(","):
        assert f"| {name} |" in table
    assert "| quality | W/ FB | 25.0% |" in table
    assert (tmp_path / "tradeoff.png").read_bytes()[:4] == b"\x89PNG"
    data = json.loads((tmp_path / "results.json").read_text())
    assert len(data["records"]) == 20 and set(data["summary"]) == set(methods.split(","))
    rag = [r for r in data["records"] if r["method"] == "rag"]
    f1 = sum(r["scores"]["f1_mem0"] for r in rag) / len(rag)
    row = next(line for line in table.splitlines() if line.startswith("| rag |")).split(" | ")
    assert row[5] == f"{100 * f1:.1f}"  # the F1 Avg cell is the micro-average of the records


# --- Dry run ------------------------------------------------------------------------------------
def test_dry_run_calls_no_model_and_writes_nothing(tmp_path: Path) -> None:
    model = fake_model()
    console = Console(file=open(tmp_path / "dry.txt", "w"), width=200)  # noqa: SIM115
    assert execute(config(tmp_path / "out", model, "all"), console, dry_run=True) == 0
    console.file.close()
    assert model.calls == [] and not (tmp_path / "out").exists()
    text = (tmp_path / "dry.txt").read_text()
    assert "quality-noformation" in text and "ingest fx-1 (formation off)" in text and "total" in text


def test_dry_run_from_the_cli_builds_no_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a dry run must not build a model")

    monkeypatch.setattr("dmem.eval.engines.make_chat_model", refuse)
    monkeypatch.setattr("dmem.eval.judge.make_chat_model", refuse)
    args = _parse(["eval", "locomo", str(FIXTURE), "--dry-run", "--llm", "openai:gpt-4o-mini",
                   "--judge-model", "openai:gpt-4o", "--methods", "quality,rag", "--out", str(tmp_path)])
    assert args.func(args) == 0
    assert "quality" in capsys.readouterr().out


# --- Evidence recall ----------------------------------------------------------------------------
def test_evidence_recall_on_a_hand_made_case() -> None:
    assert evidence_recall(["D1:1", "D2:1"], ["D1:1", "D9:9", "D1:1"]) == 0.5
    assert evidence_recall([], ["D1:1"]) is None
    assert evidence_precision(["D1:1", "D2:1"], ["D1:1", "D9:9", "D1:1"]) == 0.5  # of the distinct turns named
    assert evidence_precision(["D1:1"], []) is None and evidence_precision([], ["D1:1"]) is None
    conv = Conversation(conversation_id="c", speakers=["A", "B"], messages=[], qa=[])
    qa = QAItem(question="q", answer="a", category=1, evidence=["D1:1", "D2:1", "D3:1", "D4:1"])
    usage = {"total": Usage(stage="total", calls=1, input_tokens=10, output_tokens=2)}
    out = MethodAnswer("a", usage, 0.1, "deliberation", retrieved_turn_ids=["D1:1", "D7:7"],
                       facts_turn_ids=["D1:1", "D2:1", "D3:1"], evidence_turn_ids=["D1:1", "D2:1", "D3:1"],
                       read_share=0.3)
    rec = build_record(QuestionTask(METHODS["quality"], conv, 0, qa), out, "cfg")
    assert rec["evidence_recall"] == {"system1": 0.25, "system1_missing_counted": 0.25, "deliberation": 0.75,
                                      "answer": 0.75}
    assert rec["evidence_precision"] == {"answer": 1.0}  # every turn the trace names is gold
    assert rec["read_share"] == 0.3
    assert rec["fallback"] is True and rec["usage"]["total_tokens"] == 12
    baseline = build_record(QuestionTask(METHODS["full_context"], conv, 0, qa), out, "cfg")
    assert baseline["evidence_recall"]["system1"] is None and baseline["fallback"] is None


def test_recall_counting_missing_ids_is_a_column_of_its_own() -> None:
    # Invented: two evidence ids name turns, two name none (a dataset's broken references).
    assert evidence_recall(["D1:1", "D2:1"], ["D1:1"], missing=["D9:1", "D9:2"]) == 0.25
    assert evidence_recall([], ["D1:1"], missing=["D9:1"]) == 0.0
    conv = Conversation(conversation_id="c", speakers=["A", "B"], messages=[], qa=[])
    qa = QAItem(question="q", answer="a", category=4, evidence=["D1:1", "D2:1"], missing_evidence=["D9:1", "D9:2"])
    usage = {"total": Usage(stage="total", calls=1, input_tokens=10, output_tokens=2)}
    out = MethodAnswer("a", usage, 0.1, "system1", retrieved_turn_ids=["D1:1", "D7:7"],
                       evidence_turn_ids=["D1:1"])
    rec = build_record(QuestionTask(METHODS["mem0"], conv, 0, qa), out, "cfg")
    assert rec["missing_evidence"] == ["D9:1", "D9:2"]
    assert rec["evidence_recall"]["system1"] == 0.5
    assert rec["evidence_recall"]["system1_missing_counted"] == 0.25
    summary = summarize([rec], ["mem0"])
    assert summary["mem0"]["evidence_ids"] == {"existing": 2, "missing": 2}
    table = render_markdown(summary, {"dataset": "locomo", "questions": 1})
    lines = table.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("| Method | System 1 recall"))
    head, row = lines[at], lines[at + 2]
    columns = [c.strip() for c in head.strip("|").split("|")]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[columns.index("System 1 recall (existing ids; missing not counted)")] == "50.0"
    assert cells[columns.index("System 1 recall (missing ids counted)")] == "25.0"
    assert cells[columns.index("Answer trace precision")] == "100.0"  # its one turn is gold
    assert "(2 of the 4 gold evidence ids" in table


def test_evidence_recall_in_a_run_uses_memory_source_turns(tmp_path: Path) -> None:
    out = EvalRunner(config(tmp_path, fake_model(), "quality,filter")).run()
    by = {(r["method"], r["index"]): r for r in out.records}
    # Every turn became one memory, and quality keeps all 6 retrieved: all evidence is found.
    assert by[("quality", 1)]["evidence_recall"] == {"system1": 1.0, "system1_missing_counted": 1.0,
                                                     "deliberation": None, "answer": 1.0}
    assert by[("quality", 0)]["evidence_recall"]["deliberation"] == 1.0  # it fell back, facts cite D1:1
    # The filter keeps one memory: recall is the share of evidence that memory's source turn covers.
    kept = by[("filter", 1)]
    assert len(kept["memory_ids"]) == 1
    assert kept["evidence_recall"]["system1"] == evidence_recall(["D1:1", "D2:1"], kept["retrieved_turn_ids"])
    # The record keeps the lines the answerer read: one per memory it answered from, dated as shown to it.
    assert len(kept["context"]) == 1 and kept["context"][0].startswith("[")
    assert len(by[("quality", 1)]["context"]) == len(by[("quality", 1)]["memory_ids"]) == 6
    assert all(r["asked"] == r["question"] for r in out.records)  # no speaker is asked after by another name


def test_rag_retrieves_the_window_holding_the_answer() -> None:
    msgs = [Message(conversation_id="c", turn_id=f"D1:{i}", speaker="A", text=t, seq=i)
            for i, t in enumerate(["hi", "how are you", "fine", "I adopted a beagle named Rex", "nice", "ok"])]
    chunks = rag_chunks(msgs, 3)
    assert [c.turn_ids for c in chunks] == [("D1:0", "D1:1", "D1:2"), ("D1:3", "D1:4", "D1:5")]
    assert rag_retrieve("What is the name of the beagle?", chunks, make_embeddings("hash"), 1) == [chunks[1]]


# --- Judge --------------------------------------------------------------------------------------
def test_judge_unavailable_is_reported_as_null_then_filled_in_later(tmp_path: Path) -> None:
    model = fake_model()
    out = EvalRunner(config(tmp_path, model, "full_context", judge="none")).run()
    assert count(model, "JudgeVerdict") == 0
    assert all(r["scores"]["judge"] is None and r["scores"]["judge_label"] is None for r in out.records)
    assert summarize(out.records, ["full_context"])["full_context"]["overall"]["judge"] is None

    again = fake_model()
    out = EvalRunner(config(tmp_path, again, "full_context")).run()
    assert count(again, "AnswerDraft") == 0 and count(again, "JudgeVerdict") == 4
    assert {r["scores"]["judge_label"] for r in out.records} <= {"CORRECT", "WRONG"}
    assert all(r["scores"]["judge"] in (0.0, 1.0) for r in out.records)


def test_judge_without_any_model_is_unavailable() -> None:
    judge = make_judge(None, None, Context())
    assert not judge.available
    assert judge("q", "gold", "answer").label is None
    assert Judge(None)("q", "g", "a").reasoning == "no judge model configured"


def test_judge_calls_at_temperature_zero_with_our_rubric() -> None:
    model = fake_model()
    model.temperature = 0.7
    result = make_judge(model, None, Context())("When?", "7 May 2023", "May 7, 2023")
    call = model.calls_for("JudgeVerdict")[0]
    assert result.label == "CORRECT" and call.temperature == 0.0
    assert "same day" in call.prompt and "<gold_answer>" in call.prompt


def test_offline_engine_run_reports_judge_as_not_available(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dmem.decisions.offline")
    monkeypatch.delenv("DMEM_CHAT_MODEL", raising=False)
    monkeypatch.delenv("DMEM_JUDGE_MODEL", raising=False)
    assert execute(config(tmp_path, None, "mem0"), Console(file=open(tmp_path / "o", "w"))) == 0  # noqa: SIM115
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["meta"]["judge_model"] is None and data["meta"]["model"] == "offline"
    assert all(r["scores"]["judge"] is None for r in data["records"])
    assert "Judge Avg" in (tmp_path / "table.md").read_text()


# --- Fallback split -----------------------------------------------------------------------------
def test_fallback_rate_and_split(tmp_path: Path) -> None:
    out = EvalRunner(config(tmp_path, fake_model(), "quality,mem0")).run()
    quality = [r for r in out.records if r["method"] == "quality"]
    assert [r["route"] for r in sorted(quality, key=lambda r: r["index"])] == [
        "deliberation", "system1", "system1", "system1"]  # only the "When ..." question fails the quality gate
    summary = summarize(out.records, ["quality", "mem0"])
    split = summary["quality"]["fallback"]
    assert split["rate"] == 0.25 and split["routed"]["n"] == 1 and split["not_routed"]["n"] == 3
    routed = next(r for r in quality if r["fallback"])
    assert split["routed"]["tokens"] == routed["usage"]["total_tokens"]
    assert summary["mem0"]["fallback"] is None  # not a gated method


def test_fallback_split_on_hand_made_records() -> None:
    def rec(fallback: bool | None, f1: float) -> dict[str, Any]:
        return {"fallback": fallback, "scores": {"f1_mem0": f1, "judge": None}, "usage": {"total_tokens": 100}}

    split = fallback_split([rec(True, 1.0), rec(False, 0.0), rec(False, 0.5), rec(False, 0.5)])
    assert split is not None and split["rate"] == 0.25
    assert split["routed"]["f1_mem0"] == 1.0 and split["not_routed"]["f1_mem0"] == pytest.approx(1 / 3)
    assert fallback_split([rec(None, 1.0)]) is None


# --- Concurrency, methods, CLI ------------------------------------------------------------------
BARRIER_SECONDS = 60  # a barrier that is never met breaks (the test fails); a met one returns at once


class InFlight:
    """Wraps a function: counts the calls in flight, and makes the first ``meet`` calls wait for each other."""

    def __init__(self, real: Any, meet: int = 1) -> None:
        self.real, self.meet = real, meet
        self.lock = threading.Lock()
        self.now = self.most = self.entered = 0
        self.barrier = threading.Barrier(meet, timeout=BARRIER_SECONDS) if meet > 1 else None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            self.now += 1
            self.entered += 1
            self.most = max(self.most, self.now)
            first = self.entered <= self.meet
        try:
            if self.barrier and first:
                self.barrier.wait()  # the first `meet` calls are all in flight at once, or this raises
            return self.real(*args, **kwargs)
        finally:
            with self.lock:
                self.now -= 1


def spy_workers(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the worker count the runner gives the question pool (ingestion is not spied)."""
    from dmem.eval import runner

    asked: list[int] = []

    def spied(jobs: Any, on_result: Any, workers: int, on_done: Any = None) -> list[str]:
        asked.append(workers)
        return real(jobs, on_result, workers, on_done)

    real = runner.run_parallel
    monkeypatch.setattr(runner, "run_parallel", spied)
    return asked


def test_questions_run_concurrently_within_the_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dmem.eval import runner

    workers = spy_workers(monkeypatch)
    three = InFlight(runner.answer_full_context, meet=3)
    monkeypatch.setattr(runner, "answer_full_context", three)
    EvalRunner(config(tmp_path / "a", fake_model(), "full_context", concurrency=3, judge="none")).run()
    assert three.entered == len(SCORED) and three.most == 3  # three met at the barrier; the pool holds a fourth back
    one = InFlight(runner.answer_full_context.real)
    monkeypatch.setattr(runner, "answer_full_context", one)
    EvalRunner(config(tmp_path / "b", fake_model(), "full_context", concurrency=1, judge="none")).run()
    assert workers == [3, 1] and one.entered == len(SCORED) and one.most == 1


def test_offline_engine_asks_one_question_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dmem.decisions.offline")
    monkeypatch.delenv("DMEM_CHAT_MODEL", raising=False)
    from dmem.eval import runner

    workers = spy_workers(monkeypatch)
    tracked = InFlight(runner.answer_memory)
    monkeypatch.setattr(runner, "answer_memory", tracked)
    out = EvalRunner(config(tmp_path, None, "mem0", concurrency=4)).run()
    assert workers == [1]  # CPU-bound: overlapping questions would only inflate each one's seconds
    assert len(out.records) == 4 and tracked.entered == 4 and tracked.most == 1


def test_the_pool_runs_up_to_its_workers_at_once() -> None:
    from dmem.pool import run_parallel

    three = threading.Barrier(3, timeout=BARRIER_SECONDS)
    assert run_parallel({f"j{i}": three.wait for i in range(3)}, lambda _: None, workers=3) == []
    alone = threading.Barrier(2, timeout=0.2)  # one worker: the second job starts only after the first gave up
    errors = run_parallel({f"j{i}": alone.wait for i in range(2)}, lambda _: None, workers=1)
    assert len(errors) == 2 and all("BrokenBarrierError" in e for e in errors)


def test_each_method_reads_through_its_own_embedding_cache(tmp_path: Path) -> None:
    def misses(methods: str, folder: str) -> int:
        run = EvalRunner(config(tmp_path / folder, fake_model(), methods, judge="none"))
        run.run()
        return run.models.for_method("full_deliberation").embeddings.misses

    # Embedding work quality did first is not free for full_deliberation: its cost is its own, in any order.
    assert misses("quality,full_deliberation", "after") == misses("full_deliberation", "alone") > 0


def test_the_embedding_model_loads_before_any_timed_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []

    class Bundled(LocalMiniLMEmbeddings):  # stands in for the bundled model: records what it embeds
        name = "fake:bundled"

        def _load(self) -> Any:
            return HashEmbeddings()

        def _encode(self, model: Any, texts: list[str]) -> list[list[float]]:
            calls.append(list(texts))
            return model.embed_documents(texts)

    out = EvalRunner(config(tmp_path, fake_model(), "mem0", embeddings=Bundled(), limit=1)).run()
    assert len(out.records) == 1 and calls[0] == ["warm-up"] and len(calls) > 1


def test_methods_table_and_resolution() -> None:
    assert METHODS["quality"].overrides == {"gate_policy": "quality"} and METHODS["quality"].formation is True
    assert METHODS["filter-noformation"].overrides == {"gate_policy": "never", "use_filter": True}
    assert METHODS["filter-noformation"].formation is False
    assert not METHODS["rag"].needs_store and METHODS["consensus"].gated and not METHODS["mem0"].gated
    assert [m.name for m in resolve_methods("mem0, rag,mem0")] == ["mem0", "rag"]
    assert len(resolve_methods("all")) == 16
    assert METHODS["full_deliberation"].overrides["deliberation_mode"] == "full"
    assert METHODS["focused_deliberation"].overrides["deliberation_mode"] == "focused"
    with pytest.raises(ConfigError, match="unknown method 'nope'"):
        resolve_methods("nope")


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_eval_parser(parser.add_subparsers())
    return parser.parse_args(argv)


def test_cli_rejects_bad_options_with_our_errors(tmp_path: Path) -> None:
    base = ["eval", "locomo", str(FIXTURE), "--dry-run", "--out", str(tmp_path)]
    for extra, error in ((["--limit", "0"], ConfigError), (["--methods", "nope"], ConfigError),
                         (["--conversations", "nope"], DataError), (["--set", "retrieval_top_k"], ConfigError),
                         (["--set", "not_a_setting=1"], ConfigError)):
        args = _parse(base + extra)
        with pytest.raises(error):
            args.func(args)
    args = _parse(["eval", "locomo", str(tmp_path / "missing.json"), "--dry-run"])
    with pytest.raises(DataError, match="file not found"):
        args.func(args)


def test_main_cli_prints_one_line_on_error(capsys: pytest.CaptureFixture[str]) -> None:
    main = pytest.importorskip("dmem.cli").main
    assert main(["eval", "locomo", str(FIXTURE), "--methods", "nope", "--dry-run"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "unknown method" in err


# --- End to end on the shared LoCoMo data -------------------------------------------------------
@pytest.mark.slow  # ingests and answers two whole conversations
@pytest.mark.data
@pytest.mark.skipif(not LOCOMO_DEV.exists(), reason="needs ../shared/data/locomo/locomo-dev6.json")
def test_end_to_end_two_locomo_conversations(tmp_path: Path) -> None:
    model = fake_model()
    cfg = config(tmp_path, model, "paper", path=LOCOMO_DEV, conversations=["conv-26", "conv-30"], limit=2,
                 concurrency=4)
    assert execute(cfg, Console(file=open(tmp_path / "o", "w"))) == 0  # noqa: SIM115
    data = json.loads((tmp_path / "results.json").read_text())
    assert len(data["records"]) == 2 * 2 * 8 and not data["meta"]["failures"]
    assert {r["conversation_id"] for r in data["records"]} == {"conv-26", "conv-30"}
    assert all(r["scores"]["f1_mem0"] is not None and r["scores"]["judge"] is not None for r in data["records"])
    assert len(data["meta"]["ingestion"]) == 2
    assert (tmp_path / "table.md").exists() and (tmp_path / "tradeoff.png").exists()


def test_adversarial_questions_only_when_asked(tmp_path: Path) -> None:
    default = EvalRunner(config(tmp_path / "a", fake_model(), "full_context")).run()
    assert sorted(r["index"] for r in default.records) == SCORED
    out = EvalRunner(config(tmp_path / "b", fake_model(), "full_context", include_adversarial=True)).run()
    adversarial = [r for r in out.records if r["category"] == 5]
    assert sorted(r["index"] for r in adversarial) == [2, 5]
    for rec in adversarial:  # scored by the official "declines to answer" check, never judged
        assert rec["scores"]["f1_mem0"] is None and rec["scores"]["judge"] is None
        assert rec["scores"]["f1_locomo"] in (0.0, 1.0)


def test_cli_runs_offline_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("dmem.decisions.offline")
    monkeypatch.delenv("DMEM_CHAT_MODEL", raising=False)
    args = _parse(["eval", "locomo", str(FIXTURE), "--methods", "mem0,rag", "--embeddings", "hash",
                   "--out", str(tmp_path), "--limit", "2", "--set", "retrieval_top_k=5"])
    assert args.func(args) == 0
    assert "results:" in capsys.readouterr().out
    data = json.loads((tmp_path / "results.json").read_text())
    assert len(data["records"]) == 4 and data["meta"]["settings"]["retrieval_top_k"] == 5


def test_methods_sharing_a_store_keep_their_own_gate(tmp_path: Path) -> None:
    model = fake_model()
    asked: Counter[str] = Counter()

    def sample(m: list[BaseMessage]) -> dict[str, str]:  # of any three answers in a row, one differs
        asked[_section(m, "question")] += 1
        return {"answer": "Rome" if asked[_section(m, "question")] % 3 == 0 else "Paris"}

    def group(m: list[BaseMessage]) -> dict[str, Any]:
        answers = [ln.split(". ", 1)[1] for ln in _section(m, "answers").splitlines()]
        groups = [[i for i, a in enumerate(answers, 1) if a == x] for x in dict.fromkeys(answers)]
        return {"reason": "two agree", "groups": groups, "best": [g[0] for g in groups]}

    model.set_script("AnswerDraft", sample)
    model.set_script("AnswerGroups", group)
    out = EvalRunner(config(tmp_path, model, "majority,consensus", concurrency=1,
                            settings={"max_concurrency": 1})).run()
    routes = {(r["method"], r["route"]) for r in out.records}
    assert routes == {("majority", "system1"), ("consensus", "deliberation")}  # 2 of 3 agree
    assert count(model, "AdmissionVerdicts") == 3  # one ingestion serves both methods
