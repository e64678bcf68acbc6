"""Offline scope classification (USER_PII > INTERNAL > EXTERNAL > GENERIC) and knowledge parsing.

Privacy wins ties: a fact with personal data (``dmem.privacy.detect``, the detector both engines
share) is USER_PII, one naming a son, a friend or a pet and a brand is INTERNAL. A name given
with 'named'/'called' is a private name, never a brand. Enrichment never invents: it only reads
the knowledge lines given.
"""

from __future__ import annotations

import re

from dmem.decisions.offline import rules
from dmem.decisions.offline.lexical import stem, tokenize
from dmem.grounding.deixis import MONTHS, WEEKDAYS
from dmem.privacy.detect import describe
from dmem.state.schemas import Scope

_FAMILY = tuple(r for r in rules.RELATIONS if r not in {"friend", "friends", "colleague", "colleagues",
                                                         "coworker", "coworkers", "neighbor", "neighbour",
                                                         "mentor", "roommate", "boy", "girl"})
_FAMILY_RE = re.compile(rules.words(*_FAMILY, "family", "grandkids", "in-laws"), re.I)
_CIRCLE_RE = re.compile(r"\b(?:friends?|colleagues?|coworkers?|neighbou?rs?|mentor|roommate|classmate|"
                        r"boyfriend|girlfriend|partner|landlord|landlady|doctor|dentist|therapist)\s+"
                        r"(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)")
_PET_RE = re.compile(r"\b(?:(?:my|her|his|their|our|[A-Z][\w-]*'s)\s+(?:new\s+|little\s+|old\s+)?|(?:adopted|got|has|"
                     r"have|rescued)\s+an?\s+(?:new\s+|little\s+)?)(?P<name>" + "|".join(rules.PETS) + r")\b")
_GIVEN_NAME = re.compile(r"\b(?:named|called|nicknamed)\s+(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)")
_MODEL_SUFFIX = r"(?:\s+(?:\d[\w-]*|[a-z]\d[\w-]*))?"
_ORG_RE = re.compile(r"\b(?:my|our|[A-Z][\w-]*'s)\s+(?:company|team|office|boss|manager|employer|coworkers?|"
                     r"colleagues?|department|startup|business|firm|organi[sz]ation|workplace)\b")
BRANDS = ("Tesla", "Android", "iPhone", "iPad", "Apple", "Google", "BMW", "Jeep", "Toyota", "Honda", "Ford",
          "Netflix", "Spotify", "Amazon", "Microsoft", "Samsung", "Nike", "Adidas", "Starbucks", "Facebook",
          "Instagram", "YouTube", "Twitter", "TikTok", "Uber", "Airbnb", "Disney", "Nintendo", "PlayStation",
          "Xbox", "Audi", "Mercedes", "Volkswagen", "Subaru", "Chevrolet", "Porsche", "Ikea", "Lego", "Pixel",
          "Windows", "Linux", "Mac", "MacBook", "Kindle", "Peloton", "Fitbit", "Garmin", "Volvo", "Nissan",
          "Hyundai", "Kia", "Mazda", "Ferrari", "Coca-Cola", "Pepsi", "McDonald's", "Walmart", "Costco")
PLACES = ("Paris", "London", "Berlin", "Madrid", "Rome", "Tokyo", "Kyoto", "Osaka", "Beijing", "Shanghai",
          "Seoul", "Sydney", "Toronto", "Vancouver", "Chicago", "Boston", "Seattle", "Miami", "Dallas",
          "Austin", "Denver", "Atlanta", "Houston", "Phoenix", "Portland", "Lisbon", "Dublin", "Amsterdam",
          "Vienna", "Prague", "Barcelona", "Munich", "Zurich", "Stockholm", "Oslo", "Copenhagen", "Helsinki",
          "Athens", "Istanbul", "Dubai", "Mumbai", "Delhi", "Bangkok", "Singapore", "Mexico", "Canada",
          "France", "Germany", "Spain", "Italy", "Japan", "China", "Korea", "India", "Brazil", "Argentina",
          "Australia", "England", "Ireland", "Scotland", "Sweden", "Norway", "Denmark", "Finland", "Greece",
          "Portugal", "Netherlands", "Switzerland", "Austria", "Poland", "Turkey", "Egypt", "Kenya", "Peru",
          "Chile", "Colombia", "Thailand", "Vietnam", "Hawaii", "California", "Texas", "Florida", "Europe",
          "Asia", "Africa", "America", "USA", "UK")
_KNOWN_RE = re.compile(rules.words(*BRANDS, *PLACES) + r"(?:'s)?", re.I)
_NOT_NAMES = {w.lower() for w in MONTHS} | set(WEEKDAYS) | {"i", "i'm", "i've", "i'd", "i'll"}
_RUN = re.compile(r"\b[A-Z][\w'-]*(?: [A-Z][\w'-]*)*")


def named_entities(text: str, speaker: str | None) -> list[str]:
    """Brands and places from the lexicons, and capitalized multiword names not opening a sentence."""
    skip = _NOT_NAMES | ({speaker.lower(), f"{speaker.lower()}'s"} if speaker else set())
    given = {w.lower() for m in _GIVEN_NAME.finditer(text) for w in m.group("name").split()}
    skip |= given | {f"{w}'s" for w in given}
    found = [m.group(0) for m in _KNOWN_RE.finditer(text) if m.group(0).lower().removesuffix("'s") not in given]
    for m in _RUN.finditer(text):
        words = m.group(0).split()
        if m.start() == 0 or text[: m.start()].rstrip()[-1:] in ".!?":
            words = words[1:]
        part: list[str] = []
        for word in [*words, ""]:
            if word and word.lower() not in skip:
                part.append(word)
                continue
            if len(part) >= 2:
                found.append(" ".join(part))
            part = []
    return list(dict.fromkeys(found))


def _internal(text: str) -> tuple[str, str] | None:
    """The kind of private entity a fact names and the entity as written, if any."""
    if m := _FAMILY_RE.search(text):
        return "family member", m.group(0)
    if m := _CIRCLE_RE.search(text):
        return "person the user knows", m.group("name")
    if m := _PET_RE.search(text):
        return "household pet", m.group("name")
    if m := _ORG_RE.search(text):
        return "own organization", m.group(0).split()[-1]
    return None


def public_entity(text: str, speaker: str | None) -> str | None:
    """The longest named public entity of a fact, with a model number that follows it ('Tesla Model 3')."""
    entities = named_entities(text, speaker)
    if not entities:
        return None
    best = max(entities, key=len)
    m = re.search(re.escape(best) + _MODEL_SUFFIX, text)
    return m.group(0) if m else best


def classify(text: str, speaker: str | None) -> tuple[Scope, bool, str, str | None]:
    """Scope, enrich flag, reason, and the entity a lookup may ask about, for one fact."""
    if why := describe(text):
        return Scope.USER_PII, False, f"USER_PII: {why} must never leave the system", None
    if found := _internal(text):
        kind, private = found
        return Scope.INTERNAL, True, f"INTERNAL: {kind} ('{private}'); other memories may describe them", private
    if public := public_entity(text, speaker):
        return Scope.EXTERNAL, True, f"EXTERNAL: named public entity ('{public}')", public
    return Scope.GENERIC, False, "GENERIC: no personal data, household/organization or named entity", None


_KEY_VALUE = re.compile(r"^\s*(?:[-*\u2022]\s*)?(?P<key>[A-Za-z][\w /()-]{0,40}?)\s*[:=]\s*(?P<val>.+?)\s*$")
_IS_A = re.compile(r"^\s*(?P<ent>[^,.;]+?)\s+(?:is|are|was)\s+(?P<val>(?:an?|the)\s+[^.;]+?)\s*\.?\s*$")


def _entity_stems(text: str, speaker: str | None) -> set[str]:
    words = [*named_entities(text, speaker), *[m.group(0) for m in _FAMILY_RE.finditer(text)]]
    return {stem(t) for w in words for t in tokenize(w)}


def parse_knowledge(text: str, speaker: str | None, knowledge: list[str]) -> tuple[dict[str, str], str]:
    """Attributes from 'Key: value' lines and from sentences that mention the fact's entities."""
    if not knowledge:
        return {}, "no knowledge given: nothing to add"
    entities = _entity_stems(text, speaker)
    attrs: dict[str, str] = {}
    used: list[int] = []
    for i, line in enumerate(knowledge, start=1):
        kv = _KEY_VALUE.match(line)
        mentions = bool(entities & {stem(t) for t in tokenize(line)})
        if kv and not re.search(r"\s(?:is|are|was)\s", kv["key"]):
            attrs.setdefault(kv["key"].strip(), kv["val"].strip().strip("'\""))
        elif mentions and (isa := _IS_A.match(line)):
            attrs.setdefault(isa["ent"].strip(), isa["val"].strip())
        elif mentions:
            attrs.setdefault(f"note {len(attrs) + 1}", line.strip())
        else:
            continue
        used.append(i)
    if not used:
        return {}, "no knowledge line states an attribute or mentions the fact's entities"
    return attrs, f"parsed {len(attrs)} attribute(s) from knowledge line(s) {', '.join(map(str, used))}"
