"""``dmem store copy``: local -> PostgreSQL -> local keeps every row and vector, and refuses a non-empty target."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.cli import main
from dmem.store import Routing, open_any_store
from dmem.store.copying import all_namespaces, verify_copy
from dmem.testing import FakeChatModel, echo_formation_script

TURNS = [{"speaker": "Oskar", "text": "I repaint the blue canoe every April.", "turn_id": "t0",
          "timestamp": "2024-04-02T10:00:00"},
         {"speaker": "Liv", "text": "I keep bees behind the boathouse.", "turn_id": "t1",
          "timestamp": "2024-04-02T10:01:00"}]


def build_source(path: Path) -> None:
    """A local store with two users, a speaker map, a deletion and a pending turn with labels."""
    with Memory(path, llm=FakeChatModel(script=echo_formation_script()), embeddings="hash") as mem:
        mem.add(TURNS, user_id="lake", conversation_id="dock", speaker_namespaces={"Liv": "lake/Liv"})
        mem.add([{**TURNS[0], "text": "I sail on Sundays."}], user_id="sea", conversation_id="dock")
        gone = mem.get_all(user_id="sea")[0]
        mem.delete(gone.id, user_id="sea")
        mem.store.transcript.append(Routing.of("sea"), mem.store.transcript.messages(["sea"])[:0] + [
            mem.store.transcript.messages(["sea"])[0].model_copy(update={"turn_id": "t9", "text": "later", "seq": 5})],
            {"source": "chat"})
        mem.store.transcript.mark_pending(["sea"], [("dock", "t9")], "model timed out")


@pytest.mark.postgres
def test_copy_to_postgres_and_back_keeps_everything(tmp_path: Path, postgres_url: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    build_source(tmp_path / "src")
    assert main(["store", "copy", str(tmp_path / "src"), postgres_url]) == 0
    assert "verified" in capsys.readouterr().out
    assert main(["store", "copy", postgres_url, str(tmp_path / "back")]) == 0
    stores: list[Any] = [open_any_store(p, dim=None, read_only=True)
                         for p in (tmp_path / "src", postgres_url, tmp_path / "back")]
    try:
        src, pg, back = stores
        assert all_namespaces(src) == ["lake", "lake/Liv", "sea"] and all_namespaces(back) == all_namespaces(src)
        verify_copy(src, pg)
        verify_copy(src, back)
        assert [h.operation for h in pg.history.entries("sea")] == [h.operation for h in src.history.entries("sea")]
        assert pg.transcript.pending("sea")[0][1] == "model timed out"
        assert [u.labels for u in pg.transcript.unformed("sea")] == [{"source": "chat"}]
        assert [u.labels for u in back.transcript.unformed("sea")] == [{"source": "chat"}]
        assert back.transcript.messages(["lake", "lake/Liv"]) == src.transcript.messages(["lake", "lake/Liv"])
        assert pg.history.admissions("lake") == src.history.admissions("lake")
    finally:
        for store in stores:
            store.close()
    with Memory(embeddings="hash", store_url=postgres_url) as mem:  # the copy serves searches
        assert mem.search("canoe", user_id="lake")[0].memory.text == "Oskar said: I repaint the blue canoe every April."


@pytest.mark.postgres
def test_copy_refuses_a_destination_with_data(tmp_path: Path, postgres_url: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    build_source(tmp_path / "src")
    assert main(["store", "copy", str(tmp_path / "src"), postgres_url]) == 0
    capsys.readouterr()
    assert main(["store", "copy", str(tmp_path / "src"), postgres_url]) == 2
    err = capsys.readouterr().err
    assert "already holds data" in err and len(err.strip().splitlines()) == 1


@pytest.mark.postgres
def test_cli_reads_a_postgres_store_through_store_url(tmp_path: Path, postgres_url: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    build_source(tmp_path / "src")
    assert main(["--json", "store", "copy", str(tmp_path / "src"), postgres_url]) == 0
    assert '"verified": true' in capsys.readouterr().out
    assert main(["--store-url", postgres_url, "--json", "users"]) == 0
    listed = capsys.readouterr().out
    assert '"lake/Liv"' in listed and '"sea"' in listed
    assert main(["--store-url", postgres_url, "--embeddings", "hash", "--json", "memories", "--user-id", "lake"]) == 0
    assert "canoe" in capsys.readouterr().out
