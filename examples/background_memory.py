"""Deferred remembering: the host replies at once and dmem forms memories in the background.

The host graph of ``examples/host_agent.py``, with ``make_remember_node(memory, background=...)``: the
``remember`` node only queues the exchange, and a ``BackgroundIngestion`` worker forms it after the
reply (in order, one exchange at a time). ``flush()`` waits for the queued work and returns its
failures (each is also logged when it happens); ``close()`` flushes and stops the worker.

Run it offline::

    .venv/bin/python examples/background_memory.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver

sys.path.insert(0, str(Path(__file__).resolve().parent))
from host_agent import HostContext, build_host_graph, host_reply  # noqa: E402

from dmem import Memory  # noqa: E402
from dmem.host import BackgroundIngestion  # noqa: E402


def main() -> None:
    """Two turns answered at once; the memories appear after ``flush()``."""
    from dmem.testing import FakeChatModel

    with tempfile.TemporaryDirectory(prefix="dmem-bg-") as directory, Memory(directory, embeddings="hash") as memory, \
            BackgroundIngestion() as background:
        host = build_host_graph(memory, background).compile(checkpointer=InMemorySaver(), name="host_agent")
        ctx = HostContext(model=FakeChatModel(script={"text": host_reply}), user_id="alice")
        config: RunnableConfig = {"configurable": {"thread_id": "t1"}}
        for text in ["I adopted a beagle named Rex last week.", "My sister Ana lives in Porto."]:
            out = host.invoke({"messages": [HumanMessage(text)]}, config, context=ctx)
            print(f"user: {text}\nhost: {out['messages'][-1].text}")
        failures = background.flush()
        print("background failures:", failures)
        print("memories:", [m.text for m in memory.get_all(user_id="alice")])
        out = host.invoke({"messages": [HumanMessage("What is my beagle called?")]}, config, context=ctx)
        print(f"user: What is my beagle called?\nhost: {out['messages'][-1].text}")


if __name__ == "__main__":
    main()
