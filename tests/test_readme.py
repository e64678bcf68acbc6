"""The README's examples run: every python block, and every `dmem ...` line of its bash blocks."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from dmem.cli import main
from dmem.graphs import served_resources

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```(python|bash)\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
SKIP = ("pip install", "python -m pytest", "python3 -m venv", "export ", "dmem eval", "dmem demo")


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "conversation.json").write_text(json.dumps([
        {"speaker": "Maya", "text": "I started a new job at Atlas Robotics.", "turn_id": "1",
         "timestamp": "2024-03-04T09:12:00"},
        {"speaker": "assistant", "text": "Congratulations!", "turn_id": "2", "timestamp": "2024-03-04T09:13:00"},
    ]))
    yield tmp_path
    served_resources.close()


def test_readme_has_examples():
    kinds = [k for k, _ in BLOCKS]
    assert kinds.count("python") >= 2 and kinds.count("bash") >= 2


def test_python_blocks_run(in_tmp):
    for kind, code in BLOCKS:
        if kind == "python":
            exec(compile(code, "README.md", "exec"), {"__name__": "readme"})


def test_cli_lines_run(in_tmp, monkeypatch, capsys):
    monkeypatch.setenv("DMEM_EMBEDDING_MODEL", "hash")
    lines = [ln.split("  #")[0].strip() for kind, code in BLOCKS if kind == "bash" for ln in code.splitlines()]
    commands = [ln for ln in lines if ln.startswith("dmem ") and not ln.startswith(SKIP)]
    assert len(commands) >= 4
    for line in commands:
        assert main(shlex.split(line)[1:]) == 0, line
    assert "graph TD" in capsys.readouterr().out
