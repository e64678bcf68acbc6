"""A category question's answer: the members the asked person's lines name, gathered into a short list.

"What are Maya's hobbies?", "Which foods does Theo like?" or "What pets has Maya had?" is answered by
several lines, each naming one member ("Maya loves climbing", "Maya is keeping the drums", "Theo really
likes dumplings") and rarely the category. One span of the best line answers one member, and a list of
the close lines' spans ("loves new", "eating") says their other words. This gathers, from every line of
the asked person, the members it names: for hobbies and foods, whose members no list closes, the thing
after a taste word when it is one ("loves bouldering" -> "bouldering"), else the member words the line says
(``CATEGORY_WORDS``, and for pets and instruments the concept class of ``rules.CONCEPTS``: "the drums" ->
"drums"), joined in the lines' order, each once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from dmem.decisions.offline import lists, spans
from dmem.decisions.offline.frames import said
from dmem.decisions.offline.lists import ANSWER_NOT_ACTIVITIES
from dmem.decisions.offline.newwords import EDGE_FILLER
from dmem.decisions.offline.topics import in_class_sense, related
from dmem.text.lexical import STOPWORDS, stem
from dmem.text.names import mentions, question_names

MEMBERS_MAX_ITEMS = 6  # a category question's answer joins at most this many members

CATEGORY_WORDS: dict[str, str] = {
    "hobbies": "climb bake cook knit sew crochet paint draw sketch read garden yoga pilates dance sing choir band "
               "guitar piano drum cello violin chess puzzle photography pottery hike run jog swim cycle fish camp "
               "quiz ski skate surf",
    "foods": "eat ate cook bake dish meal dinner lunch breakfast recipe pasta pizza curry soup salad rice bread cake "
             "chicken fish meat cheese vegetarian vegan allergic dessert fries",
    "pets": "dog cat puppy kitten rabbit hamster parrot bird tortoise horse vet",
    "instruments": "guitar piano drum violin cello bass flute saxophone trumpet ukulele keyboard",
}
"""Each everyday category a question may name, and the common words of its members (general English)."""
_CATEGORY = {
    "hobbies": re.compile(r"\b(?:hobbies|pastimes)\b", re.IGNORECASE),
    "foods": re.compile(r"\b(?:foods?|dishes|meals)\b", re.IGNORECASE),
    "pets": re.compile(r"\b(?:pets|animals)\b", re.IGNORECASE),
    "instruments": re.compile(r"\binstruments\b", re.IGNORECASE),
}
"""The words by which a question names each category of ``CATEGORY_WORDS``: plural, or 'food', which names many
('What pet does Maya have?' asks for one, which the best line's span answers). Not cuisines: their members are
the adjectives of peoples and places, which no common word list names."""
_OPEN = ("hobbies", "foods")
"""Categories whose members no list closes ('bouldering', 'shrimp scampi'): a thing liked may be one. Pets and
instruments are answered by the members their lines name."""
_CLASS = {"pets": "pet", "instruments": "instrument"}
"""The concept class (``rules.CONCEPTS``) whose members are also a category's ('guinea pig', 'clarinet')."""
NOT_MEMBERS: dict[str, str] = {"foods": "eat ate cook bake make prepare try dish meal dinner lunch breakfast recipe",
                                "pets": "vet"}
"""Words of a category's lines that are not its members: what one does with food, the meals themselves, the vet."""
_QUALIFIED = re.compile(r"\b(?!(?:kinds?|types?|sorts?|of|favou?rite|other|new|the|some)\b)[a-z]+\s+"
                        r"(?:foods?|dish(?:es)?|meals?|pets?|animals?|instruments?|hobbies)\b", re.IGNORECASE)
"""A category narrowed by a word before it ('Italian dishes', 'savory food'): a subset the members do not tell."""
_ASKS = re.compile(r"^\s*(?:what|which)\b", re.IGNORECASE)
_TASTE = re.compile(r"\b(?:loves?|loved|enjoys?|enjoyed|likes|liked|adores?|fan\s+of|passion\s+for|"
                    r"favou?rite(?:\s+[\w-]+)?\s+(?:is|are|was))\s+(?P<what>[^,.;:!?()\"]+)", re.IGNORECASE)
"""A taste said of a thing ('loves climbing', 'is a big fan of dumplings', 'favourite dessert is the lava cake')."""
_NARROWED = re.compile(r"\d|\b(?:in|at|on|during|for|with|from|since|after|before|when|while)\b", re.IGNORECASE)
"""A question narrowing its members to an occasion or time ('... in her cooking class?', '... on 3 May?')."""
_WHAT = re.compile(r"^\s*(?:what|which)\s+(?:(?:are|were)\s+)?(?:[A-Z][\w-]*['\u2019]s\s+|his\s+|her\s+|their\s+)?",
                   re.IGNORECASE)
_WORD = re.compile(r"[\w'-]+")
_ACTIVITY = re.compile(r"[a-z]{3,}ing")
_LEAD = STOPWORDS | EDGE_FILLER | {"some", "all", "any", "every", "kinds", "kind", "types", "sorts", "of"}


def asked_category(question: str) -> str | None:
    """The category a 'what/which' question names ('What are Maya's hobbies?': 'hobbies'), else None.

    Not when it narrows the category ('Which spicy dishes...', '... in her cooking class?', '... on 3 May?') or asks
    for the members' names ('What are Maya's pets' names?'): those are answered as any list.
    """
    if not _ASKS.match(question) or spans.question_kind(question) != "other" or _NARROWED.search(question):
        return None
    if _QUALIFIED.search(_WHAT.sub("", question)) or lists.list_type(question) in ("person", "title", "place"):
        return None
    return next((name for name, pattern in _CATEGORY.items() if pattern.search(question)), None)


class Gathered(NamedTuple):
    """A category question's members, as the lines of the people it names say them."""

    category: str
    """The category the question names (``asked_category``: 'hobbies', 'foods', 'pets', 'instruments')."""
    people: list[str]
    """The people the question names whom the context names too."""
    items: list[tuple[int, str]]
    """(line index, member) of each member their lines name (``member_answer``); never empty."""


def gathered(question: str, context: Sequence[str]) -> Gathered | None:
    """The members of the category a question names, from its people's lines; None if their lines name none.

    The members are the asked people's, not anyone's: a question naming no one the context names gathers none.
    """
    if not (category := asked_category(question)):
        return None
    if not (people := [n for n in question_names(question) if any(mentions(c, [n]) for c in context)]):
        return None
    items = member_answer(question, category, context, people)
    return Gathered(category, people, items) if items else None


def lists_members(question: str, answer: str, context: Sequence[str]) -> bool:
    """Whether the answer lists only members the asked people's lines name (``gathered``): on topic, and complete."""
    if not (found := gathered(question, context)):
        return False
    return {item.strip().lower() for item in answer.split(",")} <= {item.lower() for _, item in found.items}


def member_answer(question: str, category: str, context: Sequence[str],
                  people: Sequence[str]) -> list[tuple[int, str]]:
    """(line index, member) for each member the lines of ``people`` name, in line order, each member once."""
    generic = {stem(w) for w in NOT_MEMBERS.get(category, "").split()}
    stems = ({stem(w) for w in CATEGORY_WORDS[category].split()}
             | (related(_CLASS[category], instances_only=True) if category in _CLASS else set())) - generic
    asked = {stem(w.lower()) for w in _WORD.findall(question)} | generic
    found: dict[str, tuple[int, str]] = {}
    for i, line in enumerate(context):
        text = in_class_sense(said(spans.parse_line(line)[0]))
        if people and not mentions(text, people):
            continue
        for item in _line_members(text, category, stems, asked):
            item = re.sub(r"['\u2019]s$", "", item)
            found.setdefault(item.lower(), (i, item))
    return list(found.values())[:MEMBERS_MAX_ITEMS]


def _line_members(text: str, category: str, stems: set[str], asked: set[str]) -> list[str]:
    """The members one line names: of an open category the things it likes that are members, else its member words.

    A thing liked is a member when it holds a member word, when a pastime ('loves bouldering') for hobbies, and
    when the line names the category ('favourite dish is the lava cake') for foods, whose dishes no list closes.
    """
    named = [w for w in _WORD.findall(text) if stem(w.lower()) in stems and stem(w.lower()) not in asked]
    if category not in _OPEN:
        return named
    says = category == "foods" and bool(_CATEGORY[category].search(text))
    tasted = [t for t in _tasted(text, asked) if says or any(stem(w.lower()) in stems for w in t.split())
              or (category == "hobbies" and _activity(t))]
    return tasted or named


def _activity(item: str) -> bool:
    """An item that is a doing ('bouldering', 'sea swimming'): its first word a gerund that is not a filler."""
    first = item.split()[0].lower()
    return bool(_ACTIVITY.fullmatch(first)) and first not in ANSWER_NOT_ACTIVITIES


def _tasted(text: str, asked: set[str]) -> list[str]:
    """The things the text says a taste for, each cut to its first words ('loves new exotic dishes' -> ...)."""
    items = []
    for m in _TASTE.finditer(text):
        words = _WORD.findall(m["what"])
        while words and (words[0].lower() in _LEAD or (stem(words[0].lower()) in asked and len(words) > 1)):
            words = words[1:]
        kept = []
        for w in words[:3]:
            if w.lower() in STOPWORDS or stem(w.lower()) in asked:
                break
            kept.append(w)
        if kept:
            items.append(" ".join(kept))
    return items
