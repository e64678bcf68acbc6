"""Contact details: e-mail addresses, phone numbers and postal addresses.

E-mails may be disguised ('maya (at) example (dot) com'), phone numbers spelled out ('five five
five, ...'); addresses are a house number and street, a unit, a PO box, a postcode or 'I live at ...'.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dmem.privacy.numbers import NUMBER_WORDS, Clues, spelled_digits, spelled_runs

Found = tuple[str, int, int]
MIN_PHONE_DIGITS = 7  # digits a number needs to count as a phone number

_TLDS = ("com", "org", "net", "edu", "gov", "io", "co", "uk", "de", "fr", "es", "it", "nl", "me", "info",
         "biz", "us", "ca", "au", "dev", "app", "ai", "mail", "eu", "ch", "se", "no", "pt", "br", "in", "jp")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_LOCAL = r"[A-Za-z0-9][\w.+-]*"
_LABEL = r"[A-Za-z0-9][\w-]*"
_AT_WORD = r"\s*[(\[{<]\s*at\s*[)\]}>]\s*|\s+at\s+|\s+@\s*|\s*@\s+"
_DOT_WORD = r"\s*[(\[{<]\s*dot\s*[)\]}>]\s*|\s+dot\s+"
_OBFUSCATED = re.compile(
    rf"(?P<local>{_LOCAL})(?P<at>{_AT_WORD})(?P<domain>{_LABEL}(?:(?:{_DOT_WORD}|\.){_LABEL})*)"
    rf"(?P<dot>{_DOT_WORD}|\.)(?P<tld>{'|'.join(_TLDS)})\b",
    re.IGNORECASE,
)
_EMAIL_CUE = re.compile(r"\b(?:e-?mail|mail|address|reach|write|contact|message)\w*\b[^.!?\n]{0,40}$", re.I)

_POSTCODE_WORDS = frozenset({"zip", "postal", "post", "postcode"})
_PHONE = re.compile(r"(?<![\w-])\+?\(?\d[\d\s().-]{5,}\d\b")
_STREET_SUFFIX = (r"Street|St\.?|Avenue|Ave\.?|Road|Rd\.?|Boulevard|Blvd\.?|Lane|Ln\.?|Drive|Dr\.?|Court|Ct\.?|"
                  r"Way|Place|Pl\.?|Terrace|Square|Sq\.?|Crescent|Close|Highway|Hwy\.?|Parkway|Pkwy\.?|"
                  r"Circle|Trail|Row|Alley|Walk|Gardens|Grove|Mews")
_ADDRESSES = [
    re.compile(rf"\b\d{{1,5}}[A-Za-z]?,?\s+(?:[A-Z][\w'.-]*\s+){{1,3}}(?:{_STREET_SUFFIX})(?![\w])"),
    re.compile(r"\b\d{1,5}[A-Za-z]?\s+(?:[a-z]+\s+){1,2}(?:street|avenue|boulevard|lane)\b"),
    re.compile(r"\b(?:Rua|Rue|Via|Calle|Avenida|Strada|Piazza|Carrer)\s+(?:[\w'-]+\s+){0,4}?\d{1,5}\b"),
    re.compile(r"\b\d{1,5},?\s+(?:rue|via|calle|avenida|rua)\s+(?:[\w'-]+\s*){1,4}", re.IGNORECASE),
    re.compile(r"\b[A-Z][a-zäöüß]+(?:stra(?:ß|ss)e|weg|gasse|platz|allee|ring)\s+\d{1,4}[a-z]?\b"),
    re.compile(r"\b(?:apt|apartment|suite|flat)\.?\s*#?\s*\d+[A-Za-z]?\b", re.IGNORECASE),
    re.compile(r"\bP\.?\s?O\.?\s+Box\s+\d+\b", re.IGNORECASE),
    re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b"),  # UK postcode
    re.compile(r"\b(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|"
               r"NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY)\s+\d{5}(?:-\d{4})?\b"),
    re.compile(r"\b(?:zip|postal|post)\s*code\s*(?:is|:)?\s*[A-Z0-9][A-Z0-9 -]{2,8}\b", re.IGNORECASE),
    re.compile(r"\b(?:(?:my|the|her|his|their|our)\s+(?:home\s+)?address\s+is|address:|(?:live|lives|lived|living|"
               r"stay|stays|staying)\s+at)\s+\d{1,5}[^.;!?\n]*", re.IGNORECASE),
]


def emails(text: str) -> Iterator[Found]:
    """Plain and obfuscated e-mail addresses."""
    for m in _EMAIL.finditer(text):
        yield "e-mail address", m.start(), m.end()
    for m in _OBFUSCATED.finditer(text):
        if "@" in m.group(0) and _EMAIL.fullmatch(m.group(0)):
            continue
        words = bool(re.search(r"\bdot\b|[(\[{<]", m.group("at") + m.group("dot") + m.group("domain"), re.I))
        handle = bool(re.search(r"[\d._+]", m.group("local")))
        cue = bool(_EMAIL_CUE.search(text[: m.start()]))
        if words or handle or cue or "@" in m.group("at"):
            yield "e-mail address", m.start(), m.end()


def phones(c: Clues) -> Iterator[Found]:
    """Digit runs of phone length and spelled-out numbers (dates and ids masked)."""
    if c.digits:
        for m in _PHONE.finditer(c.masked):
            if sum(ch.isdigit() for ch in m.group(0)) >= MIN_PHONE_DIGITS:
                yield "phone number", m.start(), m.end()
    if not c.words.isdisjoint(NUMBER_WORDS):
        for m in spelled_runs(c.masked):
            if spelled_digits(m.group(0)) >= MIN_PHONE_DIGITS:
                yield "phone number", m.start(), m.end()


def addresses(masked: str) -> Iterator[Found]:
    """Street addresses, units, PO boxes, postcodes and 'I live at <number> ...' (dates masked)."""
    for pattern in _ADDRESSES:
        for m in pattern.finditer(masked):
            yield "street address", m.start(), m.end()


def find(c: Clues) -> Iterator[Found]:
    """Every contact detail in a prepared text, as (kind, start, end)."""
    if "@" in c.text or "at" in c.words:
        yield from emails(c.text)
    if c.numeric:
        yield from phones(c)
    if c.digits or not c.words.isdisjoint(_POSTCODE_WORDS):
        yield from addresses(c.masked)
