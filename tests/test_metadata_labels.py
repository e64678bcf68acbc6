"""``add(metadata=...)`` labels travel with the turns: written with the memories, whoever forms them and when.

The labels are kept with the recorded turns in the transaction that records them, and the
lifecycle writes them in the commit that writes the memories: a killed worker, a provider that
fails until a later ``retry_pending``, or another worker forming the turns leaves no memory
without its labels. ``tests/test_postgres_memory.py`` runs this module again on PostgreSQL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.testing import FakeChatModel, FaultRates, FaultyChatModel, echo_formation_script
from tests.add_worker import turns
from tests.label_worker import LABELS
from tests.test_faults import assert_each_turn_once
from tests.test_ingestion_graph import _two_facts, pair

ROOT = Path(__file__).resolve().parents[1]


def failing() -> FaultyChatModel:
    """A provider that fails every call until ``heal()``."""
    return FaultyChatModel(script=echo_formation_script(), faults=FaultRates(provider_error=1.0, seed=5))


def labels_by_turn(mem: Memory, user: str) -> dict[str, dict[str, Any]]:
    """Each memory's metadata by the turn it came from (echo script: one memory per turn)."""
    return {m.source_turn_ids[0]: m.metadata for m in mem.get_all(user_id=user)}


def test_turns_that_failed_formation_get_their_labels_from_a_later_retry(memory_factory: Any) -> None:
    model = failing()
    mem = memory_factory(model, max_retries=0, retry_backoff=0)
    result = mem.add(turns(6), user_id="u", metadata=LABELS)
    assert {ex.status for ex in result.exchanges} == {"pending_retry"} and mem.get_all(user_id="u") == []
    assert [u.labels for u in mem.store.transcript.unformed("u")] == [LABELS] * 6
    other = memory_factory(FakeChatModel(script=echo_formation_script()))  # another worker on the same store
    again = other.retry_pending(user_id="u")
    assert {ex.status for ex in again.exchanges} == {"formed"}
    assert labels_by_turn(other, "u") == {f"t{i}": LABELS for i in range(6)}
    assert_each_turn_once(other, "u", 6)
    assert [h.memory.source_turn_ids for h in other.search("garden", user_id="u", metadata={"batch": 7})]


def test_a_retry_joining_turns_of_two_adds_labels_each_memory_from_its_own_turn(memory_factory: Any) -> None:
    model = failing()
    mem = memory_factory(model, max_retries=0, retry_backoff=0)
    first, second = turns(2)
    mem.add([first], user_id="u", metadata={"source": "chat", "week": 1})
    mem.add([second], user_id="u", metadata={"source": "mail"})
    model.heal()
    again = mem.retry_pending(user_id="u")
    assert [ex.turn_ids for ex in again.exchanges] == [["t0", "t1"]]  # one exchange, two calls' turns
    assert labels_by_turn(mem, "u") == {"t0": {"source": "chat", "week": 1}, "t1": {"source": "mail"}}


def test_adding_pending_turns_again_merges_the_new_labels_and_formed_turns_keep_theirs(memory_factory: Any) -> None:
    model = failing()
    mem = memory_factory(model, max_retries=0, retry_backoff=0)
    mem.add(turns(2), user_id="u", metadata={"source": "chat", "week": 1})
    model.heal()
    mem.add(turns(2), user_id="u", metadata={"week": 2, "checked": True})  # the same turns: formed now
    expected = {"source": "chat", "week": 2, "checked": True}
    assert labels_by_turn(mem, "u") == {"t0": expected, "t1": expected}
    again = mem.add(turns(2), user_id="u", metadata={"week": 3})
    assert {ex.status for ex in again.exchanges} == {"duplicate"}
    assert labels_by_turn(mem, "u") == {"t0": expected, "t1": expected}  # formed turns are not formed again


def test_labels_are_kept_per_namespace(memory_factory: Any) -> None:
    model = failing()
    mem = memory_factory(model, max_retries=0, retry_backoff=0)
    speakers = {"Noor": "conv/Noor", "Tomas": "conv/Tomas"}
    mem.add(turns(2), user_id="conv", speaker_namespaces=speakers, metadata={"source": "chat"})
    mem.add(turns(2), user_id="bo")  # the same turn ids in another namespace, unlabelled
    assert [u.labels for u in mem.store.transcript.unformed("bo")] == [{}, {}]
    model.heal()
    mem.retry_pending(user_ids=["conv", "conv/Noor", "conv/Tomas", "bo"])
    assert labels_by_turn(mem, "conv/Noor") == {"t0": {"source": "chat"}}
    assert labels_by_turn(mem, "conv/Tomas") == {"t1": {"source": "chat"}}
    assert labels_by_turn(mem, "bo") == {"t0": {}, "t1": {}}


def test_an_updated_memory_keeps_old_labels_and_new_keys_win(fake: FakeChatModel, memory_factory: Any) -> None:
    _two_facts(fake, "Maya lives in Boston", "Maya lives in Boston now")
    fake.set_script("LifecycleDecision", [{"reason": "refines the address", "operation": "UPDATE", "target": 1,
                                           "text": "Maya lives in Boston near the harbor"}])
    mem = memory_factory(fake, lifecycle_mode="per_fact")
    mem.add(pair("I live in Boston", "ok"), user_id="u1", metadata={"source": "chat", "week": 1})
    res = mem.add(pair("I live in Boston near the harbor now", "ok", start=2), user_id="u1", metadata={"week": 2})
    assert [op.operation.value for op in res.operations] == ["UPDATE"]
    [rec] = mem.get_all(user_id="u1")
    assert rec.metadata == {"source": "chat", "week": 2}


@pytest.mark.slow  # a worker process per case
@pytest.mark.parametrize(("mode", "survivors"), [("in_apply", 2), ("after_apply", 4)])
def test_a_worker_killed_at_the_apply_step_leaves_no_memory_without_its_labels(
    memory_factory: Any, mode: str, survivors: int
) -> None:
    """SIGKILL inside the second exchange's commit (nothing of it lands) or right after it (all of it)."""
    mem = memory_factory(FakeChatModel(script=echo_formation_script()))
    store, url = mem.context.store_dir, mem.context.store_url or "-"
    mem.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "label_worker.py"), store, url, "u", "8", mode, "2"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    mem = memory_factory(FakeChatModel(script=echo_formation_script()))
    assert labels_by_turn(mem, "u") == {f"t{i}": LABELS for i in range(survivors)}
    assert [u.labels for u in mem.store.transcript.unformed("u")] == [LABELS] * (8 - survivors)
    mem.retry_pending(user_id="u")  # the dead worker's claims lapse at once
    assert labels_by_turn(mem, "u") == {f"t{i}": LABELS for i in range(8)}
    assert_each_turn_once(mem, "u", 8)
