"""Write notebooks/quickstart.ipynb and notebooks/embedding.ipynb (no outputs) from the cells below.

Edit the cells here, then run ``.venv/bin/python notebooks/make_notebooks.py``; the .ipynb files are
generated, so review this script rather than their JSON. Both run offline in seconds: hash
embeddings, dmem's offline decision engine, and a scripted chat model for the host agent.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

QUICKSTART = [
    ("md", """# dmem quickstart

dmem gives an agent long-term memory in two systems (D-Mem): **System 1** answers from stored
memories; a **quality gate** audits that answer and, when it fails, **Full Deliberation** reads the
raw transcript. Memories are formed by Gated Memory's admission-controlled layer.

This notebook runs offline: no chat model is configured, so dmem's rule-based offline engine makes
every decision, and `embeddings="hash"` avoids loading a sentence-transformer."""),
    ("code", """import tempfile

from dmem import Memory

# Hash embeddings are coarse, so we let lifecycle compare memories from cosine 0.5
# (the default 0.8 suits real sentence embeddings).
mem = Memory(tempfile.mkdtemp(prefix="dmem-quickstart-"), embeddings="hash", update_min_similarity=0.5)
print("decision engine:", mem.services.decider.name)"""),
    ("md", """## Ingest a conversation
`add` records every message in the transcript, then forms memories one exchange at a time.
Each utterance gets an **admission** decision with its reason."""),
    ("code", """chat = [
    {"speaker": "Alice", "text": "I finally adopted a beagle named Rex last Saturday!",
     "timestamp": "2023-05-08T10:00:00"},
    {"speaker": "assistant", "text": "Congratulations! The Riverside dog park is great for beagles.",
     "timestamp": "2023-05-08T10:01:00"},
    {"speaker": "Alice", "text": "I live in Boston and I work as a nurse.", "timestamp": "2023-05-08T10:02:00"},
    {"speaker": "assistant", "text": "That sounds rewarding.", "timestamp": "2023-05-08T10:03:00"},
    {"speaker": "Alice", "text": "lol ok", "timestamp": "2023-05-08T10:04:00"},
    {"speaker": "assistant", "text": "Anything else?", "timestamp": "2023-05-08T10:05:00"},
]
result = mem.add(chat, user_id="alice")
for d in result.admitted + result.rejected:
    print(f"{'admit ' if d.admitted else 'reject'} {d.speaker}: {d.utterance}\\n       {d.reason}")"""),
    ("md", "## The memories formed\nRelative times are grounded on the message's timestamp."),
    ("code", """for m in mem.get_all(user_id="alice"):
    print(m.id[:8], m.text, [str(c) for c in m.categories], m.scope, m.event_time)"""),
    ("md", """## Ask: System 1 and the gate
`route` says how the answer was reached; `gate_reasons` are the quality audit's verdicts."""),
    ("code", """ans = mem.ask("When did Alice adopt Rex?", user_id="alice")
print(ans.answer, "| route:", ans.route)
for reason in ans.gate_reasons:
    print("  gate:", reason)"""),
    ("md", """Assistant turns are context, not a source of facts, so no memory says which park suits beagles.
System 1 cannot answer, the gate fails, and Full Deliberation reads the transcript; its answer
cites the turn it came from."""),
    ("code", """ans = mem.ask("Which park is great for beagles?", user_id="alice")
print(ans.answer, "| route:", ans.route, "| gate:", ans.gate_reasons)
for fact in ans.facts_used:
    print(f"  fact (score {fact.score}): {fact.fact}  <- turns {fact.turn_ids}")"""),
    ("md", """## Lifecycle and the audit trail
A new fact about the same subject with a changed value **updates** the memory; its history keeps
every operation with its reason."""),
    ("code", """moved = {"speaker": "Alice", "text": "I live in Seattle now.", "timestamp": "2023-06-01T09:00:00"}
update = mem.add([moved], user_id="alice")
op = update.operations[0]
print(op.operation, ":", op.old_text, "->", op.new_text, "|", op.reason)
for h in mem.history(op.memory_id, user_id="alice"):
    print(f"{h.at:%Y-%m-%d %H:%M}", h.operation, h.old_text, "->", h.new_text, "|", h.reason)"""),
    ("code", """for msg in mem.transcript(user_ids=["alice"]):
    print(msg.turn_id, msg.render())"""),
    ("code", "mem.close()"),
]

EMBEDDING = [
    ("md", """# Embedding dmem in a host agent

A host chat agent has its own state (`messages`, `user_id`) and its own context. Our graphs have
other state keys, so each runs as a subgraph **called from a node** that maps the host's state in
and out. dmem's settings travel in the host's context as a `dmem` field. This is
`examples/host_agent.py`, cell by cell, offline: dmem's offline engine, hash embeddings, and a
scripted host model."""),
    ("code", """import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NotRequired

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_config
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.runtime import Runtime

from dmem import Context, Memory, Message
from dmem.graphs import ingestion_graph, query_graph
from dmem.testing import FakeChatModel

memory = Memory(tempfile.mkdtemp(prefix="dmem-host-"), embeddings="hash")"""),
    ("md", "## The host's context and state"),
    ("code", """@dataclass(frozen=True)
class HostContext:
    model: BaseChatModel  # the host's own chat model
    dmem: Context         # dmem's settings and live resources: how they reach our subgraphs


class HostState(MessagesState):
    user_id: str
    recalled: NotRequired[str]  # the host's key for what dmem recalled; our 'answer' never lands here
    recall_route: NotRequired[str]"""),
    ("md", """## Nodes: recall → reply → remember
`recall` asks the query graph the user's last message; `remember` hands the new exchange to the
ingestion graph as dmem `Message`s whose turn ids are the host's message ids (stable, so the
transcript never records a message twice)."""),
    ("code", """def last_of(messages, kind):
    return next((m for m in reversed(messages) if isinstance(m, kind)), None)


def recall(state: HostState, runtime: Runtime[HostContext]):
    question = last_of(state["messages"], HumanMessage).text
    out = query_graph.invoke({"question": question, "namespaces": [state["user_id"]]},
                             context=runtime.context.dmem)
    return {"recalled": out["answer"], "recall_route": out["route"]}


def reply(state: HostState, runtime: Runtime[HostContext]):
    system = SystemMessage(f"You are a friendly assistant.\\n<memory>\\n{state['recalled']}\\n</memory>")
    return {"messages": [runtime.context.model.invoke([system, *state["messages"]])]}


def remember(state: HostState, runtime: Runtime[HostContext]):
    conversation = get_config()["configurable"].get("thread_id", state["user_id"])
    now = datetime.now(UTC)
    pair = [last_of(state["messages"], HumanMessage), last_of(state["messages"], AIMessage)]
    exchange = [Message(conversation_id=conversation, turn_id=str(m.id), text=m.text, timestamp=now,
                        speaker="user" if isinstance(m, HumanMessage) else "assistant",
                        seq=state["messages"].index(m)) for m in pair]
    ingestion_graph.invoke({"messages": exchange, "user_id": state["user_id"]}, context=runtime.context.dmem)
    return {}


builder = StateGraph(HostState, context_schema=HostContext)
for name, node in (("recall", recall), ("reply", reply), ("remember", remember)):
    builder.add_node(name, node)
builder.add_edge(START, "recall")
builder.add_edge("recall", "reply")
builder.add_edge("reply", "remember")
builder.add_edge("remember", END)
host = builder.compile(checkpointer=InMemorySaver())  # our subgraphs share the host's checkpointer"""),
    ("md", """## Talk to it
The host's model is scripted: it repeats what dmem recalled. `stream(..., subgraphs=True)` shows
our graphs' nodes running under the host's `recall` and `remember` nodes."""),
    ("code", """def scripted_reply(messages):
    memory_text = messages[0].content.split("<memory>\\n", 1)[1].split("\\n</memory>", 1)[0]
    return f"(from memory: {memory_text}) Got it!"


ctx = HostContext(model=FakeChatModel(script={"text": scripted_reply}), dmem=memory.context)
config = {"configurable": {"thread_id": "thread-1"}}
for text in ["I adopted a beagle named Rex last week.", "What is the name of my beagle?"]:
    seen = {}
    for namespace, update in host.stream({"messages": [HumanMessage(text)], "user_id": "alice"}, config,
                                         context=ctx, subgraphs=True, stream_mode="updates"):
        seen.setdefault(namespace[0].split(":")[0] if namespace else "host", []).extend(update)
    state = host.get_state(config).values
    print(f"user: {text}\\nhost: {state['messages'][-1].text}   [dmem route: {state['recall_route']}]")
    for where, nodes in seen.items():
        print(f"   {where}: {' -> '.join(nodes)}")"""),
    ("md", "The host's state holds only its own keys and messages; the memories live in dmem's store."),
    ("code", """state = host.get_state(config).values
print(sorted(state), [type(m).__name__ for m in state["messages"]])
for m in memory.get_all(user_id="alice"):
    print("memory:", m.text)
memory.close()"""),
]


def build(cells: list[tuple[str, str]], stem: str) -> nbformat.NotebookNode:
    """A notebook with stable cell ids, so regenerating it changes nothing unless the cells did."""
    nb = new_notebook(metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    })
    for i, (kind, source) in enumerate(cells):
        cell = new_markdown_cell(source) if kind == "md" else new_code_cell(source)
        cell["id"] = f"{stem}-{i:02d}"
        nb.cells.append(cell)
    nbformat.validate(nb)
    return nb


def main() -> None:
    """Write both notebooks next to this script."""
    for stem, cells in (("quickstart", QUICKSTART), ("embedding", EMBEDDING)):
        path = HERE / f"{stem}.ipynb"
        nbformat.write(build(cells, stem), path)
        print("wrote", path)


if __name__ == "__main__":
    main()
