"""Shared fixtures: a fake model scripted per schema, hash embeddings, temporary stores."""

from __future__ import annotations

import importlib
import logging
import re
import sys
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import langsmith.utils
import pytest
from langchain_core.messages import BaseMessage

from dmem.api import Memory
from dmem.cli import main
from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.splitting import split_messages
from dmem.graphs import served_resources
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Message, Provenance
from dmem.testing import FakeChatModel
from tests.collector import Collector

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
T0 = datetime(2023, 5, 8, 13, 56)


@pytest.fixture
def decider() -> OfflineDecider:
    """The offline decision engine on hash embeddings (a module may keep its own, e.g. module-scoped)."""
    return OfflineDecider(HashEmbeddings())


def chat_turn(text: str, speaker: str, seq: int, *, session: str, when: datetime) -> Message:
    """A chat turn with a LoCoMo-shaped id (``<session>:<seq>``) at ``when``."""
    return Message(turn_id=f"{session}:{seq}", speaker=speaker, text=text, timestamp=when, seq=seq)


def minute_chat(lines: tuple[tuple[str, str], ...], *, session: str, start: datetime,
                gap_before_last: timedelta = timedelta(0)) -> list[Message]:
    """Chat turns of (speaker, text) ``lines``, a minute apart from ``start``, the last after ``gap_before_last``."""
    turns = [chat_turn(text, who, i + 1, session=session, when=start + timedelta(minutes=i))
             for i, (who, text) in enumerate(lines)]
    last = turns[-1]
    return [*turns[:-1], last.model_copy(update={"timestamp": last.timestamp + gap_before_last})]


def drafted_after(prior: Message, said: Message) -> tuple[bool, str, list[tuple[str, Provenance]]]:
    """The offline decider on ``said`` after ``prior``: admitted, the reason, the facts drafted (none if rejected)."""
    engine = OfflineDecider(HashEmbeddings())
    verdict = engine.admit([said], [prior], []).value.verdicts[0]
    facts = engine.split([said], [prior], []).value.facts if verdict.admit else []
    return verdict.admit, verdict.reason, [(f.text, f.provenance) for f in facts]


def drafted_texts(said: Message, prior: list[Message]) -> list[str]:
    """The texts of the facts the offline decider drafts from ``said`` after ``prior``, split with admission's
    judgement of it as the ingestion does; none if admission rejects it."""
    engine = OfflineDecider(HashEmbeddings())
    admission = engine.admit([said], prior, []).value
    if not admission.verdicts[0].admit:
        return []
    return [f.text for f in engine.split([said], prior, [], admission).value.facts]


def exchange_drafts(turns: list[Message]) -> list[tuple[str, list[str]]]:
    """The drafts (text, source turns) of the last two ``turns`` split as one exchange, the admitted ones only, the
    turns before them its history."""
    *history, line, answer = turns
    pair = [line, answer]
    admitted = [m for i, m in enumerate(pair) if judge_utterance(m, [*history, *pair[:i]])[0]]
    return [(f.text, f.source_turn_ids) for f in split_messages(admitted, history, gated=True)]


def stored_by_speaker(path: Path, turns: list[Message],
                      namespaces: dict[str, str]) -> dict[str, list[tuple[str, list[str]]]]:
    """Ingest ``turns`` into a fresh offline memory at ``path``, each speaker's facts in their own namespace
    (``namespaces``: speaker -> namespace); the stored (text, source turns) of each namespace."""
    with Memory(path, embeddings="hash") as mem:
        mem.add(turns, user_id="u", conversation_id="c1", speaker_namespaces=namespaces)
        return {ns: [(r.text, r.source_turn_ids) for r in mem.get_all(user_id=ns)] for ns in namespaces.values()}


def drafted_last(turns: list[Message], *, gated: bool = True) -> list[tuple[str, list[str]]]:
    """The facts the offline splitter drafts from the last of ``turns`` (the others its context), with their source
    turns; when ``gated``, none if the offline admission rules reject the turn."""
    if gated and not judge_utterance(turns[-1], turns[:-1])[0]:
        return []
    split = OfflineDecider(HashEmbeddings()).split([turns[-1]], turns[:-1], [])
    return [(f.text, f.source_turn_ids) for f in split.value.facts]


def last_section(messages: list[BaseMessage], tag: str) -> str:
    """Body of the last <tag>...</tag> section of a prompt."""
    text = "\n".join(str(m.content) for m in messages)
    found = re.findall(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return found[-1] if found else ""


def turn_ids(messages: list[BaseMessage], tag: str = "current_exchange") -> list[str]:
    """Turn ids listed in a prompt section."""
    return re.findall(r"^\[([^\]]+)\] ", last_section(messages, tag), re.MULTILINE)


def admit_all(messages: list[BaseMessage]) -> dict[str, Any]:
    return {"verdicts": [{"turn_id": t, "reason": "stable attribute", "admit": True}
                         for t in turn_ids(messages)]}


def split_each(messages: list[BaseMessage]) -> dict[str, Any]:
    """One fact per admitted line, text as said with the speaker named."""
    facts = []
    for line in last_section(messages, "current_exchange").splitlines():
        m = re.match(r"^\[([^\]]+)\] (?:\[[^\]]+\] )?([^:]+): (.*)$", line)
        if m:
            tid, speaker, text = m.groups()
            facts.append({"text": f"{speaker} said: {text}", "speaker": speaker, "source_turn_ids": [tid],
                          "categories": ["event"], "provenance": "stated"})
    return {"facts": facts}


def scope_all(messages: list[BaseMessage], scope: str = "GENERIC", enrich: bool = False) -> dict[str, Any]:
    n = len(re.findall(r"^\d+\. ", last_section(messages, "facts"), re.MULTILINE)) or 1
    return {"labels": [{"index": i, "reason": "rule", "scope": scope, "enrich": enrich}
                       for i in range(1, n + 1)]}


def read_chunk_all(messages: list[BaseMessage], score: int = 8) -> dict[str, Any]:
    ids = re.findall(r"^\[([^\]]+)\] ", last_section(messages, "chunk"), re.MULTILINE)
    return {"facts": [{"fact": f"fact from {t}", "score": score, "turn_ids": [t]} for t in ids[:1]]}


def add_each(messages: list[BaseMessage]) -> dict[str, Any]:
    """Batch lifecycle: ADD for every numbered new fact."""
    n = len(re.findall(r"^\d+\. ", last_section(messages, "new_facts"), re.MULTILINE))
    return {"decisions": [{"fact": i, "reason": "new information", "operation": "ADD"} for i in range(1, n + 1)]}


PASS = {"reason": "ok", "passed": True}
FAIL = {"reason": "missing", "passed": False}


def default_script() -> dict[str, Any]:
    return {
        "AdmissionVerdicts": admit_all,
        "FactDrafts": split_each,
        "ScopeLabels": scope_all,
        "LifecycleDecision": [{"reason": "new information", "operation": "ADD"}],
        "LifecycleDecisions": add_each,
        "Enrichment": [{"reason": "from knowledge", "attributes": {"type": "thing"}}],
        "AnswerDraft": [{"reasoning": "memory 1", "answer": "7 May 2023"}],
        "QualityGateVerdict": [{"relevance": PASS, "faithfulness": PASS, "completeness": PASS}],
        "AnswerGroups": [{"reason": "same", "groups": [[1, 2, 3]], "best": [1]}],
        "ChunkFacts": read_chunk_all,
        "MemorySelection": [{"reason": "needed", "keep": [1]}],
    }


@pytest.fixture
def fake() -> FakeChatModel:
    return FakeChatModel(script=default_script())


def conversation(n: int, conv: str = "c1", speakers: tuple[str, str] = ("Maya", "Theo"),
                 start: datetime = T0) -> list[Message]:
    from datetime import timedelta

    return [Message(conversation_id=conv, turn_id=f"{conv}-{i}", speaker=speakers[i % 2],
                    text=f"message number {i} about topic {i % 7}", timestamp=start + timedelta(minutes=i), seq=i)
            for i in range(n)]


def memories(tmp_path: Path, store_url: Callable[[str], str] | None = None) -> Iterator[Any]:
    """``make(llm, sub, **settings)``: a Memory on hash embeddings in ``tmp_path / sub`` (on PostgreSQL at
    ``store_url(sub)`` when given); every one made is closed afterwards."""
    opened: list[Memory] = []

    def make(llm: Any = None, sub: str = "store", **settings: Any) -> Memory:
        if store_url is not None:
            settings["store_url"] = store_url(sub)
        mem = Memory(tmp_path / sub, llm=llm, embeddings="hash", **settings)
        opened.append(mem)
        return mem

    yield make
    for mem in opened:
        mem.close()
    served_resources.close()


@pytest.fixture
def memory_factory(tmp_path: Path) -> Iterator[Any]:
    yield from memories(tmp_path)


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    """Run ``dmem --store <tmp> --embeddings hash <args>`` in-process; returns (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = main(["--store", str(tmp_path / "store"), "--embeddings", "hash", *args])
        finally:
            served_resources.close()
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture(autouse=True)
def _no_dmem_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(__import__("os").environ):
        if key.startswith("DMEM_"):
            monkeypatch.delenv(key, raising=False)
    # The served factories freeze the process's heap once (dmem.runtime); the test process keeps its
    # collector as it is. tests/test_gc_heap.py checks the freeze in a process of its own.
    monkeypatch.setenv("DMEM_FREEZE_HEAP", "false")
    monkeypatch.delenv("LANGSMITH_TRACING", raising=False)
    monkeypatch.delenv("LANGCHAIN_TRACING_V2", raising=False)


@pytest.fixture(autouse=True)
def _dmem_log_level_restored() -> Iterator[None]:
    """The CLI quiets the ``dmem`` logger for its process; an in-process CLI test must not quiet the next test."""
    logger = logging.getLogger("dmem")
    level = logger.level
    yield
    logger.setLevel(level)


@pytest.fixture
def langsmith_collector(monkeypatch: pytest.MonkeyPatch) -> Iterator[Collector]:
    """A loopback LangSmith API (``tests/collector.py``) that every LangSmith client the test makes talks to.

    A client starts a thread that asks its API for settings at once: at the default endpoint that is the network,
    and the thread logs the failure whenever it comes, after the test too. Runs are sent uncompressed, as the
    collector reads them.
    """
    server = Collector()
    for key in ("LANGCHAIN_ENDPOINT", "LANGCHAIN_API_KEY", "LANGSMITH_RUNS_ENDPOINTS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANGSMITH_ENDPOINT", server.url)
    monkeypatch.setenv("LANGSMITH_API_KEY", "dummy-key")
    monkeypatch.setenv("LANGSMITH_DISABLE_RUN_COMPRESSION", "true")
    langsmith.utils.get_env_var.cache_clear()
    yield server
    server.close()
    langsmith.utils.get_env_var.cache_clear()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """One real PostgreSQL + pgvector for the session (see tests/postgres_server.py); never skipped."""
    from tests.postgres_server import postgres_server as start

    with start() as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: Any) -> Iterator[str]:
    """The URL of a fresh, empty schema on the session's PostgreSQL server."""
    url = postgres_server.fresh_url()
    yield url
    postgres_server.drop(url)


@pytest.fixture
def postgres_memory_factory(postgres_server: Any, tmp_path: Path) -> Iterator[Any]:
    """Like ``memory_factory``, but each ``sub`` store is a fresh PostgreSQL schema (dropped afterwards)."""
    urls: dict[str, str] = {}
    yield from memories(tmp_path, lambda sub: urls.setdefault(sub, postgres_server.fresh_url()))
    for url in urls.values():
        postgres_server.drop(url)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that starts PostgreSQL must say so (``@pytest.mark.postgres``), or the fast lane would run it."""
    unmarked = [item.nodeid for item in items if "postgres_server" in getattr(item, "fixturenames", ())
                and item.get_closest_marker("postgres") is None]
    if unmarked:
        raise pytest.UsageError("tests that use PostgreSQL (the postgres_server fixture) must be marked "
                                f"@pytest.mark.postgres: {', '.join(unmarked)}")


def benchmark_module(name: str) -> Iterator[ModuleType]:
    """benchmarks/<name>.py imported with benchmarks/ on the path, which is taken off again after the last use.

    For a module-scoped fixture: ``yield from benchmark_module("redundancy")``.
    """
    folder = str(Path(__file__).resolve().parents[1] / "benchmarks")
    sys.path.insert(0, folder)
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(folder)
