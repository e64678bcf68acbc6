"""One store handle per store per process: per-run settings, several Memory objects and graph runs share it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dmem.graphs import ingestion_graph, query_graph, served_resources
from dmem.state.context import build_context
from dmem.state.schemas import Message
from dmem.store.local.store import open_handles

TURNS = [{"speaker": "Ines", "text": "I work as a nurse at the city hospital.", "turn_id": "t0"},
         {"speaker": "assistant", "text": "That sounds demanding.", "turn_id": "t1"}]


def test_runs_with_other_settings_share_the_open_store(fake: Any, memory_factory: Any, tmp_path: Path) -> None:
    mem = memory_factory(fake)  # holds a handle for as long as it lives
    mem.add(TURNS, user_id="ines")
    key = str((tmp_path / "store").resolve())
    always = build_context(store_dir=str(tmp_path / "store"), embedding_model="hash", gate_policy="always",
                           use_env=False)
    never = always.with_overrides(gate_policy="never", retrieval_top_k=5)
    try:
        routes = [query_graph.invoke({"question": "Where does Ines work?", "namespaces": ["ines"]},
                                     context=ctx)["route"] for ctx in (always, never)]
        assert routes == ["deliberation", "system1"]
        more = [Message(conversation_id="ines", turn_id="t2", speaker="Ines", text="I moved to Porto last year.")]
        out = ingestion_graph.invoke({"turns": more, "user_id": "ines"}, context=never)  # a write meanwhile
        assert out["status"] != "claimed"
        assert open_handles() == {key: 2}  # the Memory and the served graphs' owner, whatever the settings
        assert mem.add([{"speaker": "Ines", "text": "I swim on Fridays.", "turn_id": "t3"}], user_id="ines")
        assert {m.turn_id for m in mem.transcript(user_id="ines")} == {"t0", "t1", "t2", "t3"}
    finally:
        served_resources.close()
    assert open_handles() == {key: 1}
    mem.close()
    assert open_handles() == {}
