"""Shared prompt helpers: XML-tagged input sections, message lines, memory lines, numbered lists."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from dmem.state.schemas import Fact, MemoryRecord, Message

EMPTY = "(none)"
"""Body of a section with nothing in it, so the model sees the section was deliberately empty."""


def message_line(message: Message) -> str:
    """``[turn_id] [YYYY-MM-DD HH:MM] speaker: text``, the form every prompt shows a message in."""
    return f"[{message.turn_id}] {message.render()}"


def messages_block(messages: Iterable[Message]) -> str:
    """One message per line, or ``(none)``."""
    lines = [message_line(m) for m in messages]
    return "\n".join(lines) if lines else EMPTY


def memories_block(memories: Sequence[MemoryRecord], *, start: int | None = None) -> str:
    """One dated memory per line, numbered from ``start`` when given (never the stored ids)."""
    return numbered([m.render() for m in memories], start=start)


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
