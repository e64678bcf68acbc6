"""Offline scope classification: USER_PII > INTERNAL > EXTERNAL > GENERIC, by ordered rules.

Privacy wins ties: a fact naming both a phone number and a brand is USER_PII, one naming a son
and a brand is INTERNAL.
"""

from __future__ import annotations

import re

from dmem.decisions.offline import rules
from dmem.grounding.deixis import MONTHS, WEEKDAYS
from dmem.state.schemas import Scope

MIN_PHONE_DIGITS = 7  # digits a number needs to count as a phone number
_PII: list[tuple[str, re.Pattern[str]]] = [
    ("e-mail address", re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")),
    ("national ID number", re.compile(r"\b\d{3}-\d{2}-\d{4}\b")),
    ("payment card number", re.compile(r"\b(?:\d[ -]?){12,18}\d\b")),
    ("phone number", re.compile(r"(?<![\w-])\+?\(?\d[\d\s().-]{5,}\d\b")),
    ("street address", re.compile(
        r"\b\d{1,5}\s+(?:[A-Z][\w.]*\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|"
        r"Dr|Court|Ct|Way|Place|Pl|Terrace|Square)\b")),
    ("identity document", re.compile(rules.words(
        "passport", "social security", "ssn", "driver's license", "drivers license", "id number", "national id",
        "credit card", "bank account", "iban", "account number", "tax id"), re.I)),
    ("date of birth", re.compile(r"\b(?:date of birth|dob|birthday is|born on)\b|\bborn\s+in\s+(?:\d{4}|"
                                 + "|".join(MONTHS) + r")\b", re.I)),
]
_DATE_LIKE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{4}\s*[-\u2013]\s*\d{4}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}")
_FAMILY = tuple(r for r in rules.RELATIONS if r not in {"friend", "friends", "colleague", "colleagues",
                                                         "coworker", "coworkers", "neighbor", "neighbour",
                                                         "mentor", "roommate", "boy", "girl"})
FAMILY_RE = re.compile(rules.words(*_FAMILY, "family", "grandkids", "in-laws"), re.I)
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


def _is_phone(candidate: str) -> bool:
    """Enough digits, and not a date (2023-05-07) or a year range (2019-2023)."""
    digits = sum(c.isdigit() for c in candidate)
    return digits >= MIN_PHONE_DIGITS and not _DATE_LIKE.fullmatch(candidate.strip())


def _pii(text: str) -> str | None:
    for label, pattern in _PII:
        m = pattern.search(text)
        if m and label == "phone number" and not _is_phone(m.group(0)):
            continue
        if m:
            return f"{label} ('{m.group(0).strip()}')"
    return None


def named_entities(text: str, speaker: str | None) -> list[str]:
    """Brands and places from the lexicons, and capitalized multiword names not opening a sentence."""
    skip = _NOT_NAMES | ({speaker.lower(), f"{speaker.lower()}'s"} if speaker else set())
    found = [m.group(0) for m in _KNOWN_RE.finditer(text)]
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


def classify(text: str, speaker: str | None) -> tuple[Scope, bool, str]:
    """Scope, enrich flag and reason for one fact."""
    if why := _pii(text):
        return Scope.USER_PII, False, f"USER_PII: {why} must never leave the system"
    if m := FAMILY_RE.search(text) or _ORG_RE.search(text):
        kind = "family member" if FAMILY_RE.search(text) else "own organization"
        return Scope.INTERNAL, True, f"INTERNAL: {kind} ('{m.group(0)}'); other memories may describe them"
    if entities := named_entities(text, speaker):
        return Scope.EXTERNAL, True, f"EXTERNAL: named public entity ('{entities[0]}')"
    return Scope.GENERIC, False, "GENERIC: no personal data, household/organization or named entity"
