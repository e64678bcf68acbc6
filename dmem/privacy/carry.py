"""Detect at the source, carry the verdict: a fact inherits the personal data of the utterances it came from.

A model rewrites "The PIN of my card is 2580" into "Maya's card PIN: 2580" or "Maya keeps her code
in mind"; the rewrite may hide what the detector recognised. So detection runs on the utterances
too, and a fact from an utterance holding personal data is USER_PII with no lookup, whatever its
own text says. The entity the scope step proposed is then vetted against the utterances
(``policy.entity_refusal``); a refused lookup is recorded on the fact (``not_enriched``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from dmem.privacy.detect import personal_kinds
from dmem.privacy.policy import entity_refusal, private_names
from dmem.state.privacy_terms import NONE, Vocabulary
from dmem.state.schemas import Fact, Message, Scope

log = logging.getLogger(__name__)


def utterance(msg: Message) -> str:
    """What a message said, its shared photo's caption included."""
    return f"{msg.text} [shares a photo: {msg.image_caption}]" if msg.image_caption else msg.text


def sources_of(fact: Fact, messages: Sequence[Message]) -> list[str]:
    """The utterances a fact came from (every message of the exchange when its turns are unknown)."""
    mine = [utterance(m) for m in messages if m.turn_id in fact.source_turn_ids]
    return mine or [utterance(m) for m in messages]


def screen(fact: Fact, messages: Sequence[Message], extra: Vocabulary = NONE) -> Fact:
    """The fact with the personal kinds of its text and sources; USER_PII without a lookup when any are found.

    Otherwise a flagged fact keeps its entity only when the rules allow a lookup about it.
    """
    sources = sources_of(fact, messages)
    kinds = list(dict.fromkeys([*fact.personal, *personal_kinds(fact.text, extra),
                                *(k for s in sources for k in personal_kinds(s, extra))]))
    if kinds:
        if fact.scope != Scope.USER_PII:
            log.info("scope %s overridden to USER_PII: the fact or its utterance holds %s", fact.scope,
                     ", ".join(kinds))
        note = f"personal data in the fact or its utterance ({', '.join(kinds)})" if fact.enrich else None
        return fact.model_copy(update={"scope": Scope.USER_PII, "enrich": False, "entity": None,
                                       "personal": kinds, "not_enriched": note or fact.not_enriched})
    if not fact.enrich:
        return fact
    refused = entity_refusal(fact.entity, fact_text=fact.text, private_names=private_names(fact),
                             sources=sources, extra=extra)
    if refused is None:
        return fact
    log.info("no enrichment lookup for a fact: %s", refused)
    return fact.model_copy(update={"enrich": False, "entity": None, "not_enriched": refused})


def screen_all(facts: Sequence[Fact], messages: Sequence[Message], extra: Vocabulary = NONE) -> list[Fact]:
    """``screen`` for each fact of an exchange."""
    return [screen(f, messages, extra) for f in facts]
