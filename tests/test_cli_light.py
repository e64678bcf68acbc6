"""A quick, pipe-friendly command line: the store's embedding model adopted, unwrapped piped output,
JSON-only stderr with ``--json``, and no heavy import a command does not use."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dmem.cli import main
from dmem.graphs import served_resources

MESSAGES = [
    {"speaker": "Ines", "text": "I keep three beehives on the roof of the community garden in Ostrava.",
     "turn_id": "1", "timestamp": "2024-04-02T08:00:00"},
    {"speaker": "Tomas", "text": "How much honey did they give last summer?", "turn_id": "2",
     "timestamp": "2024-04-02T08:01:00"},
    {"speaker": "Ines", "text": "About twelve kilos, mostly linden honey from the avenue trees.", "turn_id": "3",
     "timestamp": "2024-04-02T08:02:00"},
]
LONG_QUESTION = "What did Ines say about the beehives, the roof, the garden and the summer honey from the trees?"


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("DMEM_EMBEDDING_MODEL", raising=False)
    monkeypatch.delenv("DMEM_CONFIG", raising=False)
    yield
    served_resources.close()


@pytest.fixture
def hash_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A store ingested with ``--embeddings hash``."""
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps(MESSAGES), encoding="utf-8")
    store = tmp_path / "store"
    assert main(["--store", str(store), "--embeddings", "hash", "ingest", str(chat), "--user-id", "ines"]) == 0
    capsys.readouterr()
    return store


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_plain_ask_adopts_the_stores_embedding_model(hash_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--json", "--store", str(hash_store), "ask", "Where are the beehives?",
                         "--user-id", "ines")
    assert code == 0, err
    assert json.loads(out)["answer"]
    code, out, err = run(capsys, "--json", "--store", str(hash_store), "search", "honey", "--user-id", "ines")
    assert code == 0 and "honey" in out, err


def test_naming_another_model_is_refused_with_the_flag(hash_store: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(capsys, "--store", str(hash_store), "--embeddings", "local:all-MiniLM-L6-v2", "ask",
                       "Where are the beehives?", "--user-id", "ines")
    assert code == 2 and "--embeddings hash:384" in err and "Traceback" not in err
    monkeypatch.setenv("DMEM_EMBEDDING_MODEL", "hash:64")  # a setting names a model: it is used, not the store's
    code, _, err = run(capsys, "--json", "--store", str(hash_store), "ask", "Where are the beehives?",
                       "--user-id", "ines")
    assert code == 2 and json.loads(err)["kind"] in ("embedding_mismatch", "store")


def test_piped_output_is_never_wrapped(hash_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--store", str(hash_store), "ask", LONG_QUESTION, "--user-id", "ines"]
    code, out, err = run(capsys, "--json", *base)
    assert code == 0, err
    answer = json.loads(out)
    code, out, err = run(capsys, *base)
    assert code == 0, err
    lines = out.splitlines()
    assert answer["answer"] in lines and max(len(line) for line in lines) > 80
    for reason in answer["gate_reasons"]:
        assert f"  gate: {reason}" in lines


def test_json_stderr_carries_json_lines_only(hash_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--json", "-v", "--store", str(hash_store), "ask", "Where are the beehives?",
                         "--user-id", "ines")
    assert code == 0 and err.strip()
    records = [json.loads(line) for line in err.splitlines()]  # each line parses
    assert any(r.get("log") == "info" for r in records)


HEAVY = ("torch", "sentence_transformers", "transformers", "onnxruntime", "tokenizers", "nltk", "scipy", "sklearn",
         "matplotlib")


def imported_by(*argv: str) -> list[str]:
    """The heavy packages a ``dmem`` command imports, run in a fresh interpreter."""
    code = ("import json, sys\nfrom dmem.cli import main\ntry:\n    code = main(sys.argv[1:])\n"
            "except SystemExit as stop:\n    code = stop.code\n"
            f"print('HEAVY=' + json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\nsys.exit(code)")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(next(ln for ln in done.stdout.splitlines() if ln.startswith("HEAVY="))[6:])


@pytest.mark.slow
def test_commands_import_only_what_they_use(hash_store: Path) -> None:
    assert imported_by("--store", str(hash_store), "memories", "--user-id", "ines") == []
    assert imported_by("--help") == []
    assert imported_by("--store", str(hash_store), "ask", "Where are the beehives?", "--user-id", "ines") == []


def test_its_log_records_go_to_stderr_as_it_is_when_they_come(hash_store: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Run in-process, the CLI's log handler follows ``sys.stderr``: a record logged after this test's capture
    is gone (a LangSmith client's thread, in a later test) reaches the stderr of then, never a closed stream."""
    code, _, err = run(capsys, "--store", str(hash_store), "search", "honey", "--user-id", "ines")
    assert code == 0, err
    later = io.StringIO()
    with contextlib.redirect_stderr(later):
        logging.getLogger("tests.late").warning("flushed after the command")
    assert later.getvalue() == "WARNING tests.late: flushed after the command\n"
    assert "flushed" not in capsys.readouterr().err
