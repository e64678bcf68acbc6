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

A host chat agent keeps LangGraph's plain `MessagesState`. dmem's ready nodes (`dmem.host`) do the
rest: **recall** asks dmem about the user's last message and adds what it remembers to `messages`
as one system message (replaced every turn), and **remember** hands the finished exchange to dmem's
ingestion graph. Whose memory it is comes from the host's runtime context (`user_id`); per-run dmem
settings travel in its `dmem` field. This is `examples/host_agent.py`, cell by cell, offline:
dmem's offline engine, hash embeddings, and a scripted host model."""),
    ("code", """import tempfile
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.runtime import Runtime

from dmem import Context, Memory
from dmem.host import make_recall_node, make_remember_node, recall_text
from dmem.testing import FakeChatModel

memory = Memory(tempfile.mkdtemp(prefix="dmem-host-"), embeddings="hash")"""),
    ("md", "## The host's context: its model, its user, optional dmem settings"),
    ("code", """@dataclass(frozen=True)
class HostContext:
    model: BaseChatModel          # the host's own chat model
    user_id: str                  # whose memory dmem reads and writes
    dmem: Context | None = None   # per-run dmem settings, e.g. Context(gate_policy="never")"""),
    ("md", """## Nodes: recall → reply → remember
Only `reply` is the host's own code; the recalled memory is already among the messages it sends."""),
    ("code", """def reply(state: MessagesState, runtime: Runtime[HostContext]):
    system = SystemMessage("You are a friendly assistant with long-term memory.")
    return {"messages": [runtime.context.model.invoke([system, *state["messages"]])]}


builder = StateGraph(MessagesState, context_schema=HostContext)
builder.add_node("recall", make_recall_node(memory))
builder.add_node("reply", reply)
builder.add_node("remember", make_remember_node(memory))
builder.add_edge(START, "recall")
builder.add_edge("recall", "reply")
builder.add_edge("reply", "remember")
builder.add_edge("remember", END)
host = builder.compile(checkpointer=InMemorySaver())  # our graphs run under the host's nodes"""),
    ("md", """## Talk to it
The host's model is scripted: it repeats what dmem recalled. `stream(..., subgraphs=True)` shows
our graphs' nodes running under the host's `recall` and `remember` nodes."""),
    ("code", """def scripted_reply(messages):
    recalled = recall_text(messages) or ""
    answer = recalled.split("answer: ", 1)[1].splitlines()[0] if "answer: " in recalled else "nothing yet"
    return f"(from memory: {answer}) Got it!"


ctx = HostContext(model=FakeChatModel(script={"text": scripted_reply}), user_id="alice")
config = {"configurable": {"thread_id": "thread-1"}}
for text in ["I adopted a beagle named Rex last week.", "What is the name of my beagle?"]:
    seen = {}
    for namespace, update in host.stream({"messages": [HumanMessage(text)]}, config,
                                         context=ctx, subgraphs=True, stream_mode="updates"):
        seen.setdefault(namespace[0].split(":")[0] if namespace else "host", []).extend(update)
    state = host.get_state(config).values
    route = [m for m in state["messages"] if m.name == "dmem_memory"][-1].additional_kwargs["dmem"]["route"]
    print(f"user: {text}\\nhost: {state['messages'][-1].text}   [dmem route: {route}]")
    for where, nodes in seen.items():
        print(f"   {where}: {' -> '.join(nodes)}")"""),
    ("md", """The thread holds the host's messages and one recall note (replaced every turn); the memories
live in dmem's store."""),
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
