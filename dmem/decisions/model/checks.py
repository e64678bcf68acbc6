"""Deterministic checks on model replies: labels mapped back to ids, verdicts completed, values clamped.

Prompts show short labels (1, 2, 3...) instead of turn ids and memory ids, because small models
echo positions more reliably than opaque ids; these functions map the labels back, and accept a
real turn id too. Whatever the reply leaves out is filled conservatively.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from typing import Any

from dmem.prompts import NO_INFO
from dmem.state.schemas import Fact, Message, Operation, Scope
from dmem.state.verdicts import (
    AdmissionVerdicts,
    AnswerGroups,
    ChunkFacts,
    FactDraft,
    FactDrafts,
    LifecycleDecision,
    LifecycleDecisions,
    MemorySelection,
    ScopeLabel,
    ScopeLabels,
    ScoredFact,
    UtteranceVerdict,
    group_answers,
)
from dmem.text import crossed
from dmem.text.asked import question_sentences, topic_stems
from dmem.text.lexical import content_stems

log = logging.getLogger(__name__)
NO_INFO_FORMS = {"", "none", "null", "n/a", NO_INFO.lower().rstrip(".")}
_LABEL_WORDS = re.compile(r"^(?:turn|label|utterance|message|memory|id|fact)\s*", re.IGNORECASE)


def is_null_answer(answer: str) -> bool:
    """Check whether an answer says there is no information ('No information available.', 'NONE', '')."""
    return answer.strip().lower().rstrip(".") in NO_INFO_FORMS


def label_index(raw: str | int | None, n: int) -> int | None:
    """The 0-based position a label 1..n stands for ('2', '[2]', '#2', 'turn 2'), else None."""
    if raw is None:
        return None
    text = _LABEL_WORDS.sub("", str(raw).strip().strip("[]#()").strip()).strip("[]#() ")
    if text.isdigit() and 1 <= int(text) <= n:
        return int(text) - 1
    return None


def match_turn(raw: str | int, ids: Sequence[str]) -> str | None:
    """The turn id a model meant: a label 1..n in prompt order, or the real id (brackets tolerated)."""
    pos = label_index(raw, len(ids))
    if pos is not None:
        return ids[pos]
    cleaned = str(raw).strip().strip("[]").strip()
    return cleaned if cleaned in ids else None


def complete_verdicts(out: AdmissionVerdicts, exchange: Sequence[Message]) -> AdmissionVerdicts:
    """One verdict per utterance in exchange order: unknown labels dropped, missing ones rejected."""
    order = [m.turn_id for m in exchange]
    got: dict[str, UtteranceVerdict] = {}
    for verdict in out.verdicts:
        tid = match_turn(verdict.turn_id, order)
        if tid is None:
            log.warning("admit: dropped a verdict for unknown turn %r", verdict.turn_id)
            continue
        got.setdefault(tid, verdict.model_copy(update={"turn_id": tid}))
    missing = UtteranceVerdict(turn_id="", reason="no verdict returned", admit=False)
    verdicts = [got.get(t) or missing.model_copy(update={"turn_id": t}) for t in order]
    return AdmissionVerdicts(verdicts=verdicts)


def clean_drafts(out: FactDrafts, sources: Sequence[Message]) -> FactDrafts:
    """Drop empty and ungrounded facts, map source labels to turn ids, fill a missing speaker.

    A fact none of whose content words occurs in the source utterances is not from them: small
    models copy an example of the prompt as a fact. It is dropped (and logged), as the grounding
    rule asks.
    """
    ids = [m.turn_id for m in sources]
    speakers = {m.turn_id: m.speaker for m in sources}
    said = {s for m in sources for s in content_stems(f"{m.speaker} {m.text}")}
    facts = []
    for draft in out.facts:
        if not draft.text.strip():
            continue
        if said and not grounded(draft.text, said):
            log.warning("dropped a fact with no word from its utterances: %r", draft.text)
            continue
        turn_ids = list(dict.fromkeys(t for t in (match_turn(r, ids) for r in draft.source_turn_ids) if t))
        speaker = draft.speaker.strip() or (speakers[turn_ids[0]] if turn_ids else "")
        facts.append(draft.model_copy(update={"text": draft.text.strip(), "speaker": speaker,
                                              "source_turn_ids": turn_ids}))
    return FactDrafts(facts=facts)


def with_questions(out: FactDrafts, sources: Sequence[Message], history: Sequence[Message]) -> FactDrafts:
    """Name the question a reply answers (or the message it continues) as a source too.

    The turn before a fact's source, said by another speaker, is its question when the reply answers
    a real question of it (``dmem.text.crossed.replied_question``, as the offline engine asks: no greeting,
    the reply takes it up; of two questions in a row answered in a row, the first reply answers the first) and
    the fact is the reply's first or uses a topic word of the question ("What got you into rowing?" +
    "My cousin took me out once" -> "Theo got into rowing through a cousin"), or when the fact uses a
    word of the question the reply does not say. The same speaker's statement just before, which a
    short message continues ("We went to the night market." + "Mostly street food." -> "Theo ate
    street food at the night market"), is named when the fact uses a word of it. Across crossed
    messages (the asker's next messages, or the replier's own, came first: ``dmem.text.crossed``) the
    question is named on the reply's first fact and on facts using a topic word of it.
    """
    turns = [*history, *sources]
    before = {b.turn_id: a for a, b in zip(turns, turns[1:], strict=False)}
    position = {m.turn_id: i for i, m in enumerate(turns)}
    replied: set[str] = set()  # replies whose first fact already names their question
    facts = []
    for draft in out.facts:
        first = draft.source_turn_ids[0] if draft.source_turn_ids else ""
        asked, reply = before.get(first), turns[position[first]] if first in position else None
        question = _crossed_question(reply, turns[: position[first]]) if reply else None
        earlier = question is not None and question is not asked and asked is not None \
            and asked.speaker == question.speaker  # an earlier question of the same asker is the one answered
        if asked and reply and asked.turn_id not in draft.source_turn_ids and not earlier \
                and _names_source(draft, asked, reply, question is asked, replied):
            draft = draft.model_copy(update={"source_turn_ids": [asked.turn_id, *draft.source_turn_ids]})
        elif reply and question is not None \
                and question is not asked and question.turn_id not in draft.source_turn_ids \
                and (reply.turn_id not in replied or topic_stems(question.text) & topic_stems(draft.text)):
            replied.add(reply.turn_id)
            draft = draft.model_copy(update={"source_turn_ids": [question.turn_id, *draft.source_turn_ids]})
        facts.append(draft)
    return FactDrafts(facts=facts)


def _crossed_question(reply: Message, prior: Sequence[Message]) -> Message | None:
    """The other speaker's question ``reply`` answers across crossed messages (``dmem.text.crossed``), if any."""
    read = crossed.readable(prior)
    found = crossed.replied_question((reply.speaker, reply.text), [(m.speaker, m.text) for m in read])
    return None if found is None else read[found]


def _names_source(draft: FactDraft, asked: Message, reply: Message, answered: bool, replied: set[str]) -> bool:
    """Whether ``asked`` (the turn before the fact's source ``reply``) is a source of the fact too.

    ``answered``: ``dmem.text.crossed`` found it the question the reply answers (as the offline engine asks).
    """
    new = set(content_stems(asked.text)) - set(content_stems(reply.text))
    if asked.speaker == reply.speaker:
        return not question_sentences(asked.text) and bool(new & set(content_stems(draft.text)))
    if answered:
        takes_up = topic_stems(asked.text) & topic_stems(draft.text)
        if reply.turn_id not in replied or takes_up:
            replied.add(reply.turn_id)
            return True
    return bool(question_sentences(asked.text)) and bool(new & set(content_stems(draft.text)))


_GENERIC = {"user"}
"""Words a fact may use for anyone ('the user'): they anchor nothing."""


def grounded(fact: str, said: set[str]) -> bool:
    """Whether a fact shares a content word (stemmed) with what was said; a fact of no content words is kept."""
    words = [w for w in content_stems(fact) if w not in _GENERIC]
    return not words or any(w in said for w in words)


def complete_labels(out: ScopeLabels, n: int) -> ScopeLabels:
    """One label per fact (1..n): out-of-range dropped, missing ones get the most restrictive scope."""
    got: dict[int, ScopeLabel] = {}
    for label in out.labels:
        if 1 <= label.index <= n:
            got.setdefault(label.index, label)
    fallback = ScopeLabel(index=0, reason="no label returned; most restrictive scope assumed",
                          scope=Scope.USER_PII, enrich=False)
    labels = [got.get(i) or fallback.model_copy(update={"index": i}) for i in range(1, n + 1)]
    return ScopeLabels(labels=labels)


def check_lifecycle(out: LifecycleDecision, fact: Fact, n: int) -> LifecycleDecision:
    """Map the memory label (1..n) to its position (0..n-1), and repair what cannot apply.

    UPDATE/DELETE on a label not shown becomes ADD; ADD/UPDATE without text use the fact's text.
    """
    target = label_index(out.target, n)
    text = (out.text or "").strip() or None
    if out.operation in (Operation.UPDATE, Operation.DELETE) and target is None:
        reason = (f"{out.reason} [model chose {out.operation.value} on memory {out.target}, "
                  f"not one of the {n} memories shown: added instead]")
        return LifecycleDecision(reason=reason, operation=Operation.ADD, target=None, text=fact.text)
    if out.operation is Operation.DELETE:
        return out.model_copy(update={"target": target, "text": None})
    if out.operation is Operation.UPDATE:
        return out.model_copy(update={"target": target, "text": text or fact.text})
    if out.operation is Operation.ADD:
        return out.model_copy(update={"target": None, "text": text or fact.text})
    return out.model_copy(update={"target": target})


def check_batch(out: LifecycleDecisions, facts: Sequence[Fact], n: int) -> list[LifecycleDecision]:
    """One checked decision per fact, in fact order; a fact the reply skipped is added."""
    got: dict[int, LifecycleDecision] = {}
    for item in out.decisions:
        pos = label_index(item.fact, len(facts))
        if pos is None or pos in got:
            continue
        single = LifecycleDecision(reason=item.reason, operation=item.operation, target=item.target, text=item.text)
        got[pos] = check_lifecycle(single, facts[pos], n)
    missing = "no decision returned for this fact: added"
    return [got.get(i) or LifecycleDecision(reason=missing, operation=Operation.ADD, text=f.text)
            for i, f in enumerate(facts)]


def clean_selection(out: MemorySelection, n: int) -> MemorySelection:
    """Indexes within 1..n, each once, in the order given."""
    keep = list(dict.fromkeys(i for i in out.keep if 1 <= i <= n))
    return out.model_copy(update={"keep": keep})


def clean_groups(out: AnswerGroups, answers: Sequence[str]) -> AnswerGroups:
    """Every answer in exactly one group, with a valid best member per group.

    The model's grouping is completed and corrected by normalised-string equality: identical
    answers always share a group, and an empty or partial grouping is filled in.
    """
    groups = group_answers(out.groups, answers)
    # best[k] is the model's pick for its group k; a merged group keeps the first pick inside it.
    best = [next((b for b in out.best if b in g), g[0]) for g in groups]
    given = sorted(sorted(set(g)) for g in out.groups if g)
    reason = out.reason if sorted(groups) == given else (
        f"{out.reason} [grouping completed by identical normalised answers]".strip())
    return AnswerGroups(reason=reason, groups=groups, best=best)


_STAMP = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})?[ T]?(?P<time>\d{1,2}:\d{2})?")


def turn_at_time(raw: str | int, chunk: Sequence[Message]) -> str | None:
    """The turn a timestamp stands for, when a model wrote the time where a turn id was asked.

    '2024-03-05 14:10' (or its date or time alone, as the prompt shows them) maps to the one chunk
    message said then; None when no message or several match.
    """
    m = _STAMP.fullmatch(str(raw).strip().strip("[]()").strip())
    if not m or not (m["date"] or m["time"]):
        return None
    hits = [msg.turn_id for msg in chunk if msg.timestamp is not None
            and (not m["date"] or f"{msg.timestamp:%Y-%m-%d}" == m["date"])
            and (not m["time"] or f"{msg.timestamp:%H:%M}" == f"{m['time']:0>5}")]
    return hits[0] if len(hits) == 1 else None


def clamp_chunk_facts(raw: list[dict[str, Any]], chunk: Sequence[Message]) -> ChunkFacts:
    """Scores rounded and clamped to 0-10, empty facts dropped, labels mapped to the chunk's turn ids."""
    ids = [m.turn_id for m in chunk]
    facts = []
    for item in raw:
        text = str(item["fact"]).strip()
        if not text:
            continue
        value = float(item["score"])
        score = min(10, max(0, round(value))) if math.isfinite(value) else 0
        found = (match_turn(r, ids) or turn_at_time(r, chunk) for r in item["turn_ids"])
        turn_ids = list(dict.fromkeys(t for t in found if t))
        facts.append(ScoredFact(fact=text, score=score, turn_ids=turn_ids))
    return ChunkFacts(facts=facts)
