"""Offline scope classification: USER_PII > INTERNAL > EXTERNAL > GENERIC, by ordered rules.

Privacy wins ties: a fact naming both a phone number and a brand is USER_PII, one naming a son
and a brand is INTERNAL. Which names are public and which are the user's own is ``entities``' call:
a named pet, friend or possession is INTERNAL, and a home city is personal context (GENERIC, like
an occupation), never a public entity to look up.
"""

from __future__ import annotations

import re

from dmem.decisions.offline import rules
from dmem.decisions.offline.entities import sort_names
from dmem.grounding.deixis import MONTHS
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


def classify(text: str, speaker: str | None) -> tuple[Scope, bool, str]:
    """Scope, enrich flag and reason for one fact."""
    if why := _pii(text):
        return Scope.USER_PII, False, f"USER_PII: {why} must never leave the system"
    if m := FAMILY_RE.search(text) or _ORG_RE.search(text):
        kind = "family member" if FAMILY_RE.search(text) else "own organization"
        return Scope.INTERNAL, True, f"INTERNAL: {kind} ('{m.group(0)}'); other memories may describe them"
    names = sort_names(text, speaker)
    if names.own:
        return (Scope.INTERNAL, True, f"INTERNAL: the user's own pet, person or possession ('{names.own[0]}'); "
                "other memories may describe them")
    if names.workplace:
        return (Scope.INTERNAL, True,
                f"INTERNAL: own organization ('{names.workplace[0]}'); other memories may describe it")
    if names.public:
        return Scope.EXTERNAL, True, f"EXTERNAL: named public entity ('{names.public[0]}')"
    if names.home:
        return (Scope.GENERIC, False, f"GENERIC: '{names.home[0]}' is where the user lives or comes from: "
                "personal context, not an entity to look up")
    return Scope.GENERIC, False, "GENERIC: no personal data, household/organization or named entity"
