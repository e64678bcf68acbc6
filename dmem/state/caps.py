"""Output-token caps per stage: each sized to what its verdict needs, so no reply runs away.

A reply that hits its cap is cut off and treated as malformed (retried once with a request to be
shorter). The ``output_caps`` setting overrides any of them: ``"split_intents=1500,answer=200"``;
0 removes a cap.
"""

from __future__ import annotations

DEFAULT_CAPS: dict[str, int] = {
    "admit": 512,  # a one-sentence verdict per utterance of the exchange
    "split_intents": 1024,  # a few facts with categories, provenance and sources
    "extract_facts": 1024,
    "classify_scope": 512,  # a scope and a short reason per fact
    "enrich": 256,  # a handful of short attribute pairs
    "decide_lifecycle": 256,  # one operation and at most one merged memory
    "decide_lifecycle_batch": 1024,  # one operation per fact of the exchange
    "filter_memories": 256,  # indexes and a reason
    "answer": 256,  # brief working and a short answer
    "quality_gate": 384,  # three criteria with their evidence
    "group_answers": 256,  # index groups
    "read_chunk": 1024,  # the relevant facts of a 60-message chunk
    "select_facts": 256,  # indexes and a reason
    "judge": 192,  # one sentence and a label
}
"""Built-in caps (output tokens) by stage name."""


def parse_caps(text: str) -> dict[str, int]:
    """Parse ``'stage=tokens,...'`` into overrides; raises ValueError naming the bad part."""
    out: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        stage, sep, value = part.partition("=")
        stage = stage.strip()
        if not sep or stage not in DEFAULT_CAPS:
            known = ", ".join(DEFAULT_CAPS)
            raise ValueError(f"{part!r} must be stage=tokens with a stage among: {known}")
        try:
            tokens = int(value.strip())
        except ValueError:
            raise ValueError(f"{part!r}: the cap must be a whole number of tokens") from None
        if tokens < 0:
            raise ValueError(f"{part!r}: the cap must be 0 (no cap) or more")
        out[stage] = tokens
    return out


def resolve_caps(text: str) -> dict[str, int]:
    """The built-in caps with the overrides of an ``output_caps`` setting applied."""
    return {**DEFAULT_CAPS, **parse_caps(text)}
