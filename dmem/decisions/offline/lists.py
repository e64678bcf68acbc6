"""Typed lists: the items a list question asks for ('Which cities...', 'What books...'), not whole sentences.

A question that asks for several things of one type names the type with its noun: places ('cities',
'countries'), people ('friends', 'names'), titles ('books', 'films'), activities ('hobbies'), or a
concept class ('pets', 'instruments'). The answer is the items of that type the used memories name,
each once, in the order of the lines; a question of no known type keeps the spans of its lines.
"""

from __future__ import annotations

import re
from typing import Literal

from dmem.decisions.offline import spans
from dmem.decisions.offline.newwords import EDGE_FILLER
from dmem.decisions.offline.topics import in_class_sense, related
from dmem.text.lexical import STOPWORDS, content_stems, stem, tokenize
from dmem.text.words import wordset

ListType = Literal["place", "person", "title", "activity", "class"]

ANSWER_PERSON_NOUNS = wordset("people persons friends names friend name kids children family members guests "
                              "colleagues coworkers artists musicians bands authors writers")
ANSWER_TITLE_NOUNS = wordset("books book novels novel movies movie films film songs song shows show series "
                             "albums album podcasts podcast games game titles title")
ANSWER_ACTIVITY_NOUNS = wordset("activities activity hobbies hobby pastimes pastime")
# Gerunds that are not activities ("something", "during", "amazing").
ANSWER_NOT_ACTIVITIES = wordset(
    "thing something anything nothing everything morning evening during being going doing getting having "
    "feeling thinking saying making taking trying looking coming amazing interesting exciting inspiring "
    "loving caring living working bring ring king spring string sing wing ping wedding ceiling building "
    "meaning including according starting using sharing seeing telling keeping learning planning letting wanting "
    "hoping needing putting refreshing")
_NOUN = re.compile(r"^\s*(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?:(?:are|were)\s+(?:(?:[A-Z][\w-]*'s"
                   r"|his|her|their|the|some\s+of)\s+)?)?(?:(?:other|favou?rite|new)\s+)?(?P<noun>[a-z]+)\b"
                   r"(?:'?\s+(?P<then>names|titles))?", re.I)
_QUOTED = re.compile(r"[\"\u201c](?P<t>[^\"\u201c\u201d]{2,80})[\"\u201d]")
_GERUND = re.compile(r"\b[a-z]{3,}ing\b")


def list_type(question: str) -> ListType | None:
    """The type of the things a list question asks for, from its noun; None when the noun says none."""
    if spans.question_kind(question) == "where":
        return "place"
    m = _NOUN.match(question)
    if not m:
        return "person" if re.match(r"^\s*(?:who|whom)\b", question, re.I) else None
    noun = (m["then"] or m["noun"]).lower()
    if noun in ANSWER_PERSON_NOUNS:
        return "person"
    if noun in ANSWER_TITLE_NOUNS:  # 'What kinds of books...' asks for genres, not titles
        return None if re.match(r"^\s*\w+\s+(?:kinds?|types?|sorts?)\s+of\b", question, re.I) else "title"
    if noun in ANSWER_ACTIVITY_NOUNS:
        return "activity"
    return "class" if len(related(stem(noun), instances_only=True)) > 1 else None


def _class_members(question: str, text: str) -> list[str]:
    m = _NOUN.match(question)
    members = related(stem(m["noun"].lower()), instances_only=True) - set(content_stems(question)) if m else set()
    return [w for w in re.findall(r"[\w'-]+", in_class_sense(text)) if stem(w.lower()) in members]


def _names(question: str, text: str) -> list[str]:
    return [n for _, n in spans.person_names(text, question) if n.lower() not in STOPWORDS | EDGE_FILLER]


def list_items(kind: ListType, question: str, text: str) -> list[str]:
    """The items of this type one sentence names, in order (places, names, titles, activities, class members)."""
    if kind == "place":
        return spans.place_spans(text, question)
    if kind == "person":
        return _names(question, text)
    if kind == "title":
        quoted = [m["t"].strip(" ,.") for m in _QUOTED.finditer(text)]
        return quoted or [n for n in _names(question, text) if len(n.split()) > 1]  # "Night Garden", not "Italian"
    if kind == "activity":
        asked = set(tokenize(question))
        return [g for g in _GERUND.findall(text) if g not in ANSWER_NOT_ACTIVITIES and g not in asked]
    return _class_members(question, text)
