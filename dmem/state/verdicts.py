"""Structured verdicts: what each decision returns, as model output schemas and offline results.

Reasoning fields come before decision fields so a model reasons before it commits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field, PrivateAttr

from dmem.state.schemas import Category, Operation, Provenance, Scope


def _as_label(value: Any) -> Any:
    """A label written as a number (1 rather than "1", as small models do) becomes text."""
    return str(int(value)) if isinstance(value, int | float) and not isinstance(value, bool) else value


Label = Annotated[str, BeforeValidator(_as_label)]
"""A reference to an item of the prompt: its short label ('2'), or a real id."""


def _near_categories(value: Any) -> Any:
    """Category names as small models write them ('Person', 'events', 'user rule') become the real ones.

    A name that is a prefix of exactly one category, or that one category prefixes, is that
    category; a name matching none is dropped rather than failing the whole reply.
    """
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return value
    names = [c.value for c in Category]
    out: list[str] = []
    for item in value:
        word = re.sub(r"[\s-]+", "_", str(item).strip().lower())
        close = [n for n in names if n == word] or [n for n in names if n.startswith(word) or word.startswith(n)]
        if len(close) == 1 and len(word) >= 4 and close[0] not in out:
            out.append(close[0])
    return out


Categories = Annotated[list[Category], BeforeValidator(_near_categories)]
"""Formation categories, with the near-misses of small models mapped to the real names."""


class UtteranceVerdict(BaseModel):
    """Admission decision for one utterance of the current exchange."""

    turn_id: Label = Field(description="Label of the utterance judged: the number in brackets before it.")
    reason: str = Field(description="One short sentence: which admit or reject criterion applies and why.")
    admit: bool = Field(description="True to admit the utterance as a source of facts.")


class AdmissionVerdicts(BaseModel):
    """Admission decisions for every utterance of the current exchange."""

    verdicts: list[UtteranceVerdict] = Field(description="One verdict per utterance, in input order.")
    _reading: object = PrivateAttr(default=None)

    @property
    def reading(self) -> object:
        """The engine's own reading of the turns it judged (the offline engine's clause cuts), or None.

        Handed to the same engine's split of the same exchange, so it does not read the turns again. Private: no
        model fills it (it is not in the schema) and no checkpoint or output keeps it (it is never serialized).
        """
        return self._reading

    def read_with(self, reading: object) -> AdmissionVerdicts:
        """These verdicts, holding ``reading`` for the split of the same exchange."""
        self._reading = reading
        return self


class FactDraft(BaseModel):
    """One atomic fact split out of admitted content (or extracted Mem0*-style)."""

    text: str = Field(
        description="A standalone fact naming its subject (e.g. 'Theo joined a community choir'); "
        "relative times kept as said; no entity that is not in the window."
    )
    speaker: str = Field(description="Speaker the fact is about, exactly as named in the input.")
    source_turn_ids: list[Label] = Field(
        default_factory=list, description="Labels (numbers in brackets) of the utterances the fact comes from."
    )
    categories: Categories = Field(
        default_factory=list, description="One or more of persona, preference, event, procedural, "
        "user_rule, error_learning."
    )
    provenance: Provenance = Field(
        default=Provenance.STATED,
        description="'stated' if asserted as the point of the utterance, 'hedged' if said with a hedge "
        "('probably', 'I think'), 'inferred' if implied in passing.",
    )
    language: str = Field(default="en", description="ISO 639-1 code of the source utterance's language.")


class FactDrafts(BaseModel):
    """Facts split out of the admitted utterances."""

    facts: list[FactDraft] = Field(default_factory=list, description="Atomic facts; empty if none.")


class ScopeLabel(BaseModel):
    """Scope classification for one fact."""

    index: int = Field(description="Index of the fact in the input list, from 1.")
    reason: str = Field(description="Why this scope.")
    scope: Scope = Field(description="Exactly one of USER_PII, INTERNAL, EXTERNAL, GENERIC.")
    entity: str | None = Field(
        default=None, description="The entity the fact is about, exactly as written in it: the public name "
        "for EXTERNAL (e.g. 'Tesla Model 3'), the person or group for INTERNAL (e.g. 'sister'); "
        "never the user's name; null for USER_PII and GENERIC.")
    enrich: bool = Field(default=False,
                         description="True if background knowledge would make the fact more useful later.")


class ScopeLabels(BaseModel):
    """Scope classifications, one per fact."""

    labels: list[ScopeLabel] = Field(description="One label per input fact.")


class Enrichment(BaseModel):
    """Attributes added to a fact from a permitted knowledge source."""

    reason: str = Field(description="Which source supports each attribute.")
    attributes: dict[str, str] = Field(
        default_factory=dict, description="Short attribute -> value pairs supported by the given knowledge."
    )


class LifecycleDecision(BaseModel):
    """Mem0* update phase: what to do with one new fact given similar stored memories."""

    reason: str = Field(description="Why: redundant, contradicts, refines, or new.")
    operation: Operation = Field(description="ADD, UPDATE, DELETE or NOOP.")
    target: int | None = Field(
        default=None, description="For UPDATE/DELETE/NOOP: the label (number) of the existing memory concerned."
    )
    text: str | None = Field(default=None, description="For ADD/UPDATE: the memory text to store.")


class FactOperation(BaseModel):
    """The lifecycle operation for one new fact, when all facts of an exchange are decided at once."""

    fact: int = Field(description="Number of the new fact in <new_facts>.")
    reason: str = Field(description="Why: new, refines, contradicts or already known.")
    operation: Operation = Field(description="ADD, UPDATE, DELETE or NOOP.")
    target: int | None = Field(
        default=None, description="For UPDATE/DELETE/NOOP: the label (number) of the existing memory concerned."
    )
    text: str | None = Field(default=None, description="For ADD/UPDATE: the memory text to store.")


class LifecycleDecisions(BaseModel):
    """Lifecycle operations for the new facts of one exchange (mem0-style, one call)."""

    decisions: list[FactOperation] = Field(description="One decision per new fact, in order.")


class MemorySelection(BaseModel):
    """Indexes of the items that are needed (filter and selection steps)."""

    reason: str = Field(description="Why these items are needed to answer.")
    keep: list[int] = Field(default_factory=list, description="Indexes of the items to keep, from 1.")


class AnswerDraft(BaseModel):
    """An answer to the question from the given context."""

    reasoning: str = Field(default="", description="Brief working: which items support the answer.")
    used: list[int] = Field(default_factory=list, description="Numbers (from 1) of the lines the answer rests "
                            "on; empty when none answers.")
    answer: str = Field(description="The answer alone, as short as the style asks.")


class CriterionVerdict(BaseModel):
    """One rubric dimension of the quality gate."""

    reason: str = Field(description="Evidence for the verdict.")
    passed: bool = Field(description="True if the answer meets this criterion.")


class QualityGateVerdict(BaseModel):
    """The quality gate's verdict on a System 1 answer: relevance, faithfulness and consistency, completeness."""

    relevance: CriterionVerdict = Field(description="Does the answer address exactly what was asked?")
    faithfulness: CriterionVerdict = Field(
        description="Is every claim supported by the memories, without contradiction?"
    )
    completeness: CriterionVerdict = Field(description="Does it cover every part the question needs?")

    @property
    def passed(self) -> bool:
        """All three dimensions pass."""
        return self.relevance.passed and self.faithfulness.passed and self.completeness.passed

    @property
    def only_incomplete(self) -> bool:
        """Relevant and faithful, failed only on completeness: a partial answer."""
        return self.relevance.passed and self.faithfulness.passed and not self.completeness.passed


class AnswerGroups(BaseModel):
    """A judge's grouping of candidate answers into semantically equivalent sets."""

    reason: str = Field(description="Which answers say the same thing and why.")
    groups: list[list[int]] = Field(description="Groups of answer indexes (from 1); every index once.")
    best: list[int] = Field(
        default_factory=list,
        description="For each group, in the same order, the member to return (clearest, most verbatim).",
    )


class ScoredFact(BaseModel):
    """A query-relevant fact read from one transcript chunk, with a 0-10 relevance score."""

    fact: str = Field(description="Standalone fact with speaker and date, pronouns resolved.")
    score: int = Field(ge=0, le=10, description="Relevance to the question, 0-10.")
    turn_ids: list[str] = Field(default_factory=list, description="turn_ids the fact was read from.")


class ChunkFacts(BaseModel):
    """Facts one Full Deliberation worker extracted from its chunk."""

    facts: list[ScoredFact] = Field(default_factory=list, description="Relevant facts; empty if none.")


NO_INFO = "No information available."
"""The answer given when the memories (or the transcript) do not hold the answer."""

_NO_INFO_MARKERS = (
    "no information", "not available", "i don't know", "i do not know", "not mentioned",
    "unknown", "cannot be determined", "can't be determined", "not enough information", "no answer",
)


def is_no_info(answer: str) -> bool:
    """True for an empty answer or one that says the memories do not hold it."""
    text = answer.strip().lower()
    return not text or any(marker in text for marker in _NO_INFO_MARKERS)


_FILLER = re.compile(r"^(?:(?:i think|i believe|the answer is|answer|it is|it's|probably) )+")


def normalise_answer(text: str) -> str:
    """An answer reduced to its words: lower case, no punctuation, leading filler or articles."""
    words = " ".join(re.findall(r"[\w']+", text.lower()))
    return " ".join(w for w in _FILLER.sub("", words).split() if w not in ("a", "an", "the"))


def joined(n: int, links: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Indexes 1..n in groups, two joined wherever a link joins them (union-find): each group and the list ascending."""
    parent = list(range(n + 1))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for a, b in links:
        parent[find(b)] = find(a)
    groups: dict[int, list[int]] = {}
    for i in range(1, n + 1):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])


def group_answers(groups: Sequence[Sequence[int]], answers: Sequence[str]) -> list[list[int]]:
    """Every answer index (1..n) in exactly one group, largest groups first.

    The given groups (bad and repeated indexes dropped) are joined wherever two answers are the
    same normalised text; with no usable groups this is plain normalised-string grouping.
    """
    n = len(answers)

    def links() -> Iterator[tuple[int, int]]:
        seen: set[int] = set()
        for group in groups:
            members = [i for i in dict.fromkeys(group) if 1 <= i <= n and i not in seen]
            seen.update(members)
            yield from ((members[0], other) for other in members[1:])
        first: dict[str, int] = {}
        for i in range(1, n + 1):
            key = normalise_answer(answers[i - 1])
            if key in first:
                yield first[key], i
            first.setdefault(key, i)

    return sorted(joined(n, links()), key=lambda g: (-len(g), g[0]))
