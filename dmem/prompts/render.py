"""Shared prompt helpers: XML-tagged input sections, message lines, memory lines, numbered lists.

Items a reply must point at (the utterances to judge, the memories to update) carry short labels,
``[1]``, ``[2]``..., never stored ids: small models echo a position far more reliably than an id
like 'S3:12'. Context-only lines carry no label at all, so a reply cannot point at them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from dmem.state.schemas import Fact, MemoryRecord, Message

EMPTY = "(none)"
"""Body of a section with nothing in it, so the model sees the section was deliberately empty."""


def message_line(message: Message, label: int | None = None, *, timed: bool = True) -> str:
    """``[label] [YYYY-MM-DD HH:MM] speaker: text``, the form every prompt shows a message in.

    Context-only messages have no label; the time is left out where no step needs it.
    """
    line = message.render(timed=timed)
    return f"[{label}] {line}" if label is not None else line


def messages_block(messages: Iterable[Message], *, labelled: bool = False, timed: bool = True) -> str:
    """One message per line, labelled 1..n when a reply must point at them, or ``(none)``.

    Formation prompts pass ``timed=False``: facts keep relative times as said and are dated
    afterwards from each message's timestamp, so the model needs no clock time.
    """
    lines = [message_line(m, i if labelled else None, timed=timed) for i, m in enumerate(messages, start=1)]
    return "\n".join(lines) if lines else EMPTY


def labelled(lines: Sequence[str]) -> str:
    """Lines prefixed ``[1] ``, ``[2] ``..., or ``(none)``."""
    return "\n".join(f"[{i}] {line}" for i, line in enumerate(lines, start=1)) if lines else EMPTY


def memories_block(memories: Sequence[MemoryRecord], *, start: int | None = None, dated: bool = True) -> str:
    """One memory per line, dated unless ``dated`` is False, numbered from ``start`` when given."""
    return numbered([m.render() if dated else m.text for m in memories], start=start)


def fact_line(fact: Fact) -> str:
    """Render a candidate fact with its date when known."""
    return f"[{fact.event_time:%Y-%m-%d}] {fact.text}" if fact.event_time else fact.text


def numbered(lines: Sequence[str], *, start: int | None = 1) -> str:
    """Lines prefixed ``1. ``, ``2. `` ... (or plain when ``start`` is None), or ``(none)``."""
    if not lines:
        return EMPTY
    if start is None:
        return "\n".join(lines)
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=start))


def section(tag: str, body: str) -> str:
    """``<tag>`` ... ``</tag>`` around a body (an empty body becomes ``(none)``)."""
    return f"<{tag}>\n{body.strip() or EMPTY}\n</{tag}>"


def system_text(role: str, task: str, rules: Sequence[str]) -> str:
    """Write a system prompt: who the model is, what it does, and the rules as a numbered list."""
    body = "\n".join(f"{i}. {rule}" for i, rule in enumerate(rules, start=1))
    return f"{role}\n\n{task}\n\nRules:\n{body}"


def build(system: str, sections: Sequence[tuple[str, str]]) -> list[BaseMessage]:
    """Build the two messages of a prompt: the system text, then the tagged input sections."""
    human = "\n\n".join(section(tag, body) for tag, body in sections)
    return [SystemMessage(content=system), HumanMessage(content=human)]
