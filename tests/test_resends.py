"""Safe resends: turns the store already holds are recognised whatever thread or conversation they come on.

An idempotency key recognises a resend at any time; without one, a resend of the same messages
without a conversation id is recognised by content within ``resend_window`` seconds. A call that
names its conversation and gives no key is never moved. ``Memory.add`` records its turns once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.errors import DataError
from dmem.graphs import compile_ingestion_graph
from tests.conftest import conversation

EXCHANGE = [{"role": "user", "content": "I started learning the cello in March."},
            {"role": "assistant", "content": "How are the lessons going?"}]


def plain(n: int) -> list[dict[str, str]]:
    """Turns as a client sends them: speaker and text, no ids, no conversation."""
    return [{"speaker": ("Maya", "Theo")[i % 2], "text": f"line {i} about the garden"} for i in range(n)]


def count(mem: Memory, user: str = "maya") -> int:
    return mem.store.transcript.count(user)


def test_an_idempotency_key_recognises_a_resend_in_another_conversation(memory_factory: Any, fake: Any) -> None:
    mem = memory_factory(fake)
    first = mem.add(plain(4), user_id="maya", conversation_id="morning", idempotency_key="send-1")
    assert [ex.status for ex in first.exchanges] == ["formed", "formed"]
    again = mem.add(plain(4), user_id="maya", conversation_id="evening", idempotency_key="send-1")
    assert [ex.status for ex in again.exchanges] == ["duplicate", "duplicate"]
    assert count(mem) == 4 and mem.store.transcript.conversations("maya") == ["morning"]
    other = mem.add(plain(4), user_id="maya", conversation_id="morning", idempotency_key="send-2")
    assert [ex.status for ex in other.exchanges] == ["formed", "formed"] and count(mem) == 8  # another send


def test_a_resend_without_a_key_is_recognised_only_without_a_conversation(memory_factory: Any, fake: Any) -> None:
    mem = memory_factory(fake)
    now = [{"speaker": "Maya", "text": "My train leaves at nine."}, {"speaker": "Theo", "text": "Safe travels!"}]
    mem.add(now, user_id="maya")
    assert [ex.status for ex in mem.add(now, user_id="maya").exchanges] == ["duplicate"]
    assert count(mem) == 2
    named = mem.add(now, user_id="maya", conversation_id="trip")  # the caller says it is another conversation
    assert [ex.status for ex in named.exchanges] == ["formed"] and count(mem) == 4


def test_a_bad_idempotency_key_is_refused(memory_factory: Any, fake: Any) -> None:
    mem = memory_factory(fake)
    with pytest.raises(DataError, match="idempotency_key"):
        mem.add(conversation(2), user_id="maya", idempotency_key="  ")
    assert count(mem) == 0


def test_add_records_each_turn_once(memory_factory: Any, fake: Any) -> None:
    mem = memory_factory(fake)
    inner = mem.store._transcript  # under the local store's guard
    calls: list[int] = []
    original = inner.append

    def append(routing: Any, messages: Any, labels: Any = None) -> Any:
        calls.append(len(messages))
        return original(routing, messages, labels)
    inner.append = append
    mem.add(conversation(6), user_id="maya")
    assert calls == [6]  # one append for the whole add, none again per exchange


def test_graph_runs_on_new_threads_record_a_resend_once(memory_factory: Any, fake: Any) -> None:
    mem = memory_factory(fake)
    graph = compile_ingestion_graph(resources=mem.resources)

    def send(thread: str, **extra: Any) -> dict[str, Any]:
        return graph.invoke({"messages": EXCHANGE, "user_id": "maya", **extra},
                            config={"configurable": {"thread_id": thread}})
    assert send("t1")["status"] == "formed"
    assert send("t2")["status"] == "duplicate"  # a stateless resend: a new thread, same messages
    assert count(mem) == 2
    assert send("t3", idempotency_key="k")["status"] == "formed"  # a key names a new send
    assert send("t4", idempotency_key="k")["status"] == "duplicate"
    assert count(mem) == 4
    assert send("t5", conversation_id="named")["status"] == "formed"  # a named conversation is never moved
    assert count(mem) == 6


def test_a_zero_resend_window_leaves_recognition_to_keys(tmp_path: Path, fake: Any) -> None:
    with Memory(tmp_path / "store", llm=fake, embeddings="hash", resend_window=0) as mem:
        graph = compile_ingestion_graph(resources=mem.resources)
        for thread in ("t1", "t2"):
            graph.invoke({"messages": EXCHANGE, "user_id": "maya"}, config={"configurable": {"thread_id": thread}})
        assert count(mem) == 4
