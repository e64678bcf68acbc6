"""``--base-url`` reaches the model, and a server URL without /v1 is one line that names it and suggests /v1."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmem.api import Memory
from dmem.cli import main
from dmem.testing_http import ChatServer, error


def test_base_url_flag_and_404_without_v1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "store"
    with Memory(store, embeddings="hash") as mem:  # memories formed offline, asked with a model
        mem.add([{"speaker": "Maya", "text": "I moved to Lisbon in March and I love it."}], user_id="maya")
        assert mem.get_all(user_id="maya")
    with ChatServer(lambda body: error(404, "Not Found")) as srv:
        bare = srv.url.removesuffix("/v1")
        code = main(["--store", str(store), "--embeddings", "hash", "--llm", "openai-compatible:tiny",
                     "--base-url", bare, "ask", "Where does Maya live?", "--user-id", "maya", "--policy", "never"])
        assert len(srv.requests) == 1  # the flag reached the client; a 404 is not retried
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err
    [line] = err.strip().splitlines()
    assert bare in line and f"try {bare}/v1" in line and "HTTP 404" in line
