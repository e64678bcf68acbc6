"""Gated Memory formation prompts: admission, multi-intent split, scope, enrichment."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from dmem.prompts.render import build, fact_line, memories_block, messages_block, numbered, system_text
from dmem.state.schemas import Fact, MemoryRecord, Message

ADMIT_SYSTEM = system_text(
    "You are the admission gate of a long-term memory system. You decide which utterances are "
    "worth remembering across future conversations.",
    "Judge every utterance in <current_exchange>, one at a time, as the whole utterance it is "
    "(not as a fragment or a summary). <reference_history> is only there to work out what words "
    "like 'he', 'there' or 'that one' point to; never judge it.",
    [
        "Admit an utterance that carries a personal relation: a preference, habit, possession, role "
        "or lasting affiliation (owning a car, being vegetarian, working at a clinic).",
        "Admit an utterance that carries a semi-stable attribute: health, job, where someone lives, "
        "or a major life event (a move, a wedding, a new child, a graduation).",
        "Admit an utterance whose content would still help a reply in a later session.",
        "Reject transient states and one-off situations (a rented car for one trip, today's "
        "traffic), generic emotional reactions ('that's so sweet!'), greetings and small talk, and "
        "vague, hedged or non-committal content ('I might try it someday').",
        "The same words can deserve different verdicts: a car one has owned for years is admitted, "
        "a car rented for a weekend is not; 'I'm switching jobs next month' is admitted, 'maybe I'll "
        "switch someday' is not.",
        "Return exactly one verdict per utterance of <current_exchange>, in order: turn_id is the "
        "utterance's label (the number in brackets at the start of its line), with a one-sentence "
        "reason naming the criterion.",
    ],
)

SPLIT_SYSTEM = system_text(
    "You turn admitted utterances into the atomic facts a long-term memory stores.",
    "Split the utterances in <current_exchange> into standalone facts. <reference_history> and "
    "<existing_memories> only resolve references; no fact may come from them.",
    [
        "One proposition per fact; an utterance may yield several ('gift ideas for my son' gives "
        "'the user has a son' and 'the user looked for gift ideas').",
        "Each fact stands alone: name its subject by name (e.g. 'Theo joined a community choir'), never "
        "with a pronoun; speaker = the name of the person the fact is about, as written in the input.",
        "Categories (one or more): persona = identity, relationships, lasting traits; preference = "
        "likes, dislikes, dietary or interaction constraints; event = something that happened or "
        "will happen, with who and when; procedural = an action done in a device or application; "
        "user_rule = an instruction on how the assistant should behave; error_learning = a "
        "correction of something the assistant got wrong.",
        "Provenance: 'stated' when the fact is the point of the utterance, 'inferred' when it is "
        "only implied in passing. If the speaker asks to remember something, every fact from that "
        "utterance is 'stated'.",
        "Grounding: assert no person, thing or relation that the input does not contain. If a "
        "reference has no antecedent, use the most specific accurate generic form ('he is seven' "
        "with no named child gives 'the user's child is seven', not an invented son).",
        "Write each fact in the language of its source utterance (do not translate) and give "
        "that language's ISO 639-1 code.",
        "Keep relative time words exactly as said ('last week', 'tomorrow'); a later step turns "
        "them into dates.",
        "source_turn_ids lists the labels (numbers in brackets) of the <current_exchange> utterances "
        "the fact comes from. Return no facts if nothing storable remains.",
    ],
)

SCOPE_SYSTEM = system_text(
    "You label the scope of facts for a privacy-aware memory system.",
    "For each numbered fact in <facts>, choose exactly one scope and say whether background "
    "knowledge about its entity would make it more useful later.",
    [
        "USER_PII: identifying or sensitive personal data: contact details (phone, e-mail or "
        "street address, also spelled out or disguised), credentials (passwords, PINs, keys, "
        "tokens), ID, account and card numbers, precise birth dates, and special categories "
        "(health, sexual orientation, religion, finances, ethnicity, political views, biometrics, "
        "criminal records). It must never leave the system.",
        "INTERNAL: entities known only inside the user's own world: family members and friends, "
        "their household (named pets and possessions too), their own organization, team, boss, "
        "projects and internal tools. Only the user's own memories may describe them.",
        "EXTERNAL: named public entities (products, brands, companies, public places, books, "
        "films, public events) that public knowledge describes.",
        "GENERIC: general activities or concepts with no specific entity (hiking, baking bread), "
        "and facts that only place the user: where they live or come from is personal context, "
        "like their occupation ('lives in Porto' and 'works as a nurse' are both GENERIC).",
        "enrich = true only when facts about the entity itself would answer likely future "
        "questions (a car model's fuel type, a city's country); false for facts complete as stated.",
        "entity: the name the fact gives its entity, copied exactly as written: for EXTERNAL the "
        "public name alone ('Tesla Model 3', not 'her Tesla Model 3' and never the whole fact); for "
        "INTERNAL the person or group ('sister', 'design team'). Never a user's or speaker's name. "
        "null for USER_PII and GENERIC.",
        "Return one label per fact with its index (from 1) and a short reason.",
    ],
)

ENRICH_SYSTEM = system_text(
    "You add background attributes to a stored fact.",
    "Read the fact in <fact> and the lines in <knowledge>, and return short attribute -> value "
    "pairs about the fact's entity.",
    [
        "Use only what the <knowledge> lines say; never add anything from your own general "
        "knowledge, even if you are sure of it.",
        "Keep attributes short and stable (e.g. type: electric vehicle, range: 300 miles).",
        "Skip knowledge about a different entity than the one in the fact.",
        "Return no attributes when nothing in <knowledge> applies; in the reason, name the "
        "knowledge line behind each attribute.",
    ],
)


def admission_prompt(exchange: Sequence[Message], history: Sequence[Message]) -> list[BaseMessage]:
    """Prompt for the utterance-level admission gate.

    It shows the current exchange and, only to bind references, the reference history (as in
    Gated Memory); stored memories come in at the split.
    """
    return build(ADMIT_SYSTEM, [
        ("reference_history", messages_block(history, timed=False)),
        ("current_exchange", messages_block(exchange, labelled=True, timed=False)),
    ])


def split_prompt(admitted: Sequence[Message], history: Sequence[Message],
                 memories: Sequence[MemoryRecord]) -> list[BaseMessage]:
    """Prompt for multi-intent splitting into categorized, grounded facts."""
    return build(SPLIT_SYSTEM, [
        ("reference_history", messages_block(history, timed=False)),
        ("existing_memories", memories_block(memories, dated=False)),
        ("current_exchange", messages_block(admitted, labelled=True, timed=False)),
    ])


def scope_prompt(facts: Sequence[Fact]) -> list[BaseMessage]:
    """Prompt for the four-class scope taxonomy, facts numbered from 1."""
    return build(SCOPE_SYSTEM, [("facts", numbered([fact_line(f) for f in facts]))])


def enrich_prompt(fact: Fact, knowledge: Sequence[str]) -> list[BaseMessage]:
    """Prompt for enrichment drawn only from the supplied knowledge lines."""
    return build(ENRICH_SYSTEM, [
        ("fact", fact_line(fact)),
        ("knowledge", "\n".join(f"- {line}" for line in knowledge)),
    ])
