"""Which names in a fact are public entities, and which are the user's own.

A public entity is something public knowledge describes: a brand or place from the lexicons,
a name ending in a public head noun ('Golden Gate Bridge'), a name after 'the' ('the Blue
Mountains') or a place word ('visited New York'), or a title after a media verb ('watched Star
Wars'). Other multiword names are people's. Lexicon words count only as written (capitalized):
'apple pie', 'the windows' and 'roast turkey' name nothing.

A name is the user's own, and never public, when the text gives it to a pet, person or
possession ('a cat named Pixel', 'my friend Austin', 'her boat Serenity'), names a companion
('went kayaking with Sydney'), or places the user: where they live, come from or work ('lives in
Boston', 'grew up in Kyoto', 'works at Atlas Robotics') is personal context, not a lookup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dmem.decisions.offline import rules
from dmem.grounding.deixis import MONTHS, WEEKDAYS

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
# Last words that make a capitalized name a public place, institution, event or organization.
PUBLIC_HEADS = rules.wordset(
    "Bridge Park Museum Tower Gallery Cathedral Palace Castle Stadium Arena Theatre Theater Zoo Aquarium "
    "University College Airport Station Library Market Mall Festival Hotel Resort Island Islands Lake River "
    "Mountain Mountains Canyon Falls Beach Bay Valley Forest Desert Garden Gardens Square Center Centre "
    "Airlines Records Studios Institute Foundation Hospital Clinic"
)
_MEDIA = r"(?:watch(?:ed|ing)?|read(?:ing)?|saw|see(?:ing)?|play(?:ed|ing)?|listen(?:ed|ing)?\s+to|finished)"
_PLACE_CUE = (r"(?:in|at|near|around|across|visit(?:s|ed|ing)?|tour(?:s|ed|ing)?|"
              r"(?:trip|travel(?:l?ed|l?ing)?|flew|flight|drove|went|go(?:es|ing)?)\s+to)")
_OWN_NOUNS = (*rules.RELATIONS, *rules.PETS, "puppy", "kitten", "hamster", "rabbit", "bunny", "parrot", "horse",
              "goldfish", "turtle", "car", "bike", "boat", "van", "truck", "guitar", "piano", "plant", "doll",
              "teddy", "robot", "laptop", "phone")
_ONE_NAME = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*"
_NAME = rf"(?P<name>{_ONE_NAME})"
# Cues that make the name after them the user's own (a pet, person or possession) or their context.
_OWN = [
    re.compile(r"\b(?:named|called|nicknamed|name\s+is|name\s+was|name's|goes\s+by)\s+" + _NAME),
    re.compile(r"\b(?:my|our|his|her|their|[A-Z][\w-]*'s)\s+(?:\w+\s+)?(?:" + "|".join(_OWN_NOUNS) + r"),?\s+" + _NAME),
    re.compile(r"\bwith\s+(?P<name>" + _ONE_NAME + r"(?:(?:,\s*|,?\s+and\s+)" + _ONE_NAME + r")*)"),
]
_HOME = [re.compile(
    r"\b(?:lives?|lived|living|resides?|settled|based|born|raised|grew\s+up|moved|moving|relocated|relocating|"
    r"is\s+from|are\s+from|am\s+from|'m\s+from|comes?\s+from|came\s+from|hometown\s+is)\s+"
    r"(?:back\s+)?(?:(?:to|in|at|from|near|outside)\s+)?" + _NAME)]
_WORKPLACE = [
    re.compile(r"\b(?:works?|worked|working|job|employed|intern(?:ing|ship)?|hired)\s+(?:\w+\s+)?(?:at|for|by|with)\s+"
               + _NAME),
    re.compile(r"\bjoined\s+" + _NAME),
]
_LEXICON = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, (*BRANDS, *PLACES))) + r")(?![\w-])")
_RUN = re.compile(r"\b[A-Z][\w'-]*(?: [A-Z][\w'-]*)*")
_NOT_NAMES = {w.lower() for w in MONTHS} | set(WEEKDAYS) | {"i", "i'm", "i've", "i'd", "i'll"}


@dataclass(frozen=True)
class Names:
    """The names of one fact, sorted by whose they are (each list in text order)."""

    public: list[str]
    """Public entities: what an external knowledge source may describe."""
    own: list[str]
    """Names the text gives to the user's own pets, people and possessions, and companions."""
    home: list[str]
    """Places that locate the user: where they live, were born, grew up or come from."""
    workplace: list[str]
    """Organizations the user works at or joined."""


def _names(patterns: list[re.Pattern[str]], text: str) -> list[tuple[int, int, str]]:
    found = [(m.start("name"), m.end("name"), m["name"]) for p in patterns for m in p.finditer(text)]
    return sorted(found)


def _runs(text: str, skip: set[str]) -> list[tuple[int, int, str]]:
    """Capitalized runs without a sentence-opening word, cut at skipped words: (start, end, run)."""
    found = []
    for run in _RUN.finditer(text):
        words = [(run.start() + w.start(), run.start() + w.end(), w.group(0))
                 for w in re.finditer(r"\S+", run.group(0))]
        if run.start() == 0 or text[: run.start()].rstrip()[-1:] in ".!?":
            words = words[1:]
        part: list[tuple[int, int, str]] = []
        for word in [*words, None]:
            if word and word[2].lower() not in skip:
                part.append(word)
                continue
            if part:
                found.append((part[0][0], part[-1][1], " ".join(w for *_, w in part)))
            part = []
    return found


def _public_run(text: str, start: int, run: str) -> bool:
    """A multiword name with a public head, or after 'the', a place word ('in', 'visited') or a media verb.

    A run ending in a possessive ("Ana Ferreira's flat") names a person, never a public entity.
    """
    words = run.split()
    if len(words) < 2 or words[-1].endswith(("'s", "\u2019s")):
        return False
    cue = re.search(rf"\b(?:the|{_PLACE_CUE}|{_MEDIA})\s+$", text[:start], re.I)
    return words[-1] in PUBLIC_HEADS or cue is not None


def sort_names(text: str, speaker: str | None) -> Names:
    """Public entities, and the names that are the user's own or their personal context."""
    own, home, work = _names(_OWN, text), _names(_HOME, text), _names(_WORKPLACE, text)

    def claimed(start: int, end: int) -> bool:
        return any(s <= start and end <= e for s, e, _ in (*own, *home, *work))

    skip = _NOT_NAMES | ({speaker.lower(), f"{speaker.lower()}'s"} if speaker else set())
    public = [(m.start(), m.group(0)) for m in _LEXICON.finditer(text) if not claimed(m.start(), m.end())]
    public += [(s, run) for s, e, run in _runs(text, skip) if _public_run(text, s, run) and not claimed(s, e)]
    own_names = [n for *_, n in own]

    def unique(names: list[str]) -> list[str]:
        return list(dict.fromkeys(names))

    return Names(unique([n for _, n in sorted(public)]), unique(own_names),
                 unique([n for *_, n in home if n not in own_names]),
                 unique([n for *_, n in work if n not in own_names]))
