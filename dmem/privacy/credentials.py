"""Credentials and account numbers: passwords, PINs, codes, keys, tokens, account and ID numbers.

Codes may be spelled out; account numbers include card, IBAN and identity-document numbers.

A credential is a keyword *with a value* ("my PIN is 4821", "the wifi password: sunflower42");
"Maya keeps her passwords in a password manager" names no secret and is not flagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dmem.privacy.numbers import DIGIT_WORDS, Clues

Found = tuple[str, int, int, int]
"""(kind, start, end, value start): the span with its keyword, and where the secret value itself begins."""

_SECRET_KEYS = (r"(?:wi-?fi\s+)?password|passcode|passphrase|passwd|pass\s+code|login|user\s*name|"
                r"api[\s_-]?key|api\s+token|access\s+token|auth(?:entication)?\s+token|bearer\s+token|"
                r"secret\s+key|client\s+secret|private\s+key|recovery\s+(?:phrase|codes?)|seed\s+phrase")
_CODE_KEYS = (r"pin(?:\s+code|\s+number)?|security\s+code|door\s+code|gate\s+code|alarm\s+code|garage\s+code|"
              r"entry\s+code|access\s+code|lock\s+combination|combination|cvv|cvc|one-time\s+code|"
              r"verification\s+code|2fa\s+code|otp")
_ABOUT = (r"(?:\s+(?:for|to|of|on|at|in)\s+(?:the\s+|my\s+|her\s+|his\s+|their\s+|our\s+|a\s+)?"
          r"[\w'-]+(?:\s+[\w'-]+){0,2}){0,2}")
_CONNECT = (r"(?:\s+(?:that\s+|which\s+)?(?:I|we|you|they|he|she|it|(?:the\s+|my\s+|our\s+)?[\w'-]+)\s+"
            r"(?:sent|gave|texted|emailed|e-mailed|mailed|told|set|chose|picked|used|made|wrote|assigned|issued|"
            r"gets?|got|uses?|have|had)(?:\s+(?:me|us|him|her|them))?)?"
            r"\s*(?:\b(?:is|was|are|were|now|became|set\s+to|changed\s+to|reset\s+to|starts\s+with|"
            r"begins\s+with|ends\s+(?:with|in))\b\s*|[:=]\s*|->\s*)+")
_QUOTED = r"[\"'\u201c\u2018`](?P<quoted>[^\"'\u201d\u2019`\n]{3,64})[\"'\u201d\u2019`]"
_VALUE = (rf"(?:{_QUOTED}|(?P<spelled>{DIGIT_WORDS})|(?P<digits>\d(?:(?:[ ./#*-]|\s+dash\s+)?\d){{2,}})\b"
          rf"|(?P<token>[^\s,;\"'\u201d\u2019]{{3,}}))")
_SECRET = re.compile(rf"\b(?P<key>{_SECRET_KEYS}){_ABOUT}{_CONNECT}{_VALUE}", re.IGNORECASE)
_CODE = re.compile(rf"\b(?P<key>{_CODE_KEYS}){_ABOUT}(?:{_CONNECT}|\s*#?\s*){_VALUE}", re.IGNORECASE)
_PUBLIC_CODES = (r"error|status|http|exit|country|area|dialling|dialing|source|promo|promotional|discount|coupon|"
                 r"voucher|referral|dress|postal|zip|post|qr|bar|morse|colou?r|airport|course|class|product|"
                 r"style|tax|zone|station|stock|ticker|time|cheat|game|fault|diagnostic|machine|byte")
_PLAIN_CODE = re.compile(rf"\b(?P<key>(?:codes?|combo|padlock|lock|safe)){_ABOUT}{_CONNECT}{_VALUE}", re.IGNORECASE)
_PUBLIC_BEFORE = re.compile(rf"\b(?:{_PUBLIC_CODES})\s*$", re.IGNORECASE)
_WITH_SECRET = re.compile(rf"\b(?:with|using|uses|used|via|by|use|set|typed|entered|chose|picked|changed|reset|"
                          rf"enter|type)"
                          rf"\s+(?:the\s+|my\s+|her\s+|his\s+|their\s+|our\s+|a\s+|an\s+|new\s+|old\s+)*"
                          rf"(?P<key>{_SECRET_KEYS}|{_CODE_KEYS}|code){_ABOUT}(?:\s+to)?\s+{_VALUE}", re.IGNORECASE)
_SECURITY = re.compile(
    r"\b(?P<key>(?:mother'?s|mum'?s|mom'?s)\s+maiden\s+name|maiden\s+name|first\s+pet(?:'s\s+name)?|"
    r"(?:name\s+of\s+)?(?:my|her|his|their)\s+first\s+(?:pet|school|teacher|street)(?:'s\s+name)?|"
    r"(?:best\s+)?childhood\s+(?:nickname|best\s+friend|friend|hero|street|pet)|street\s+(?:I|she|he|we|they)\s+grew\s+up\s+on|"
    r"(?:security|secret)\s+(?:question|answer)|memorable\s+(?:word|place|name|date)|"
    r"city\s+(?:where\s+)?(?:my\s+)?parents\s+met|father'?s\s+middle\s+name|dad'?s\s+middle\s+name)"
    r"(?:\s+\w+){0,4}?\s*(?:\b(?:is|was|are|were)\b\s*|[:=]\s*)+(?:(?:called|named|a|an|the)\s+)*[\"'\u201c]?"
    r"(?P<value>[\w'-]+(?:\s+[A-Z][\w'-]+)?)",
    re.IGNORECASE)
_SECRET_HINTS = frozenset({"password", "passcode", "passphrase", "passwd", "pass", "login", "username", "user",
                           "api", "access", "auth", "authentication", "bearer", "secret", "private", "recovery",
                           "seed"})
_CODE_HINTS = frozenset({"pin", "code", "combination", "cvv", "cvc", "otp", "codes", "combo", "padlock", "lock",
                         "safe"})
_SECURITY_HINTS = frozenset({"maiden", "first", "childhood", "grew", "security", "secret", "memorable", "parents",
                             "middle"})
_NOT_VALUES = frozenset(str.split("""
    the a an too very not easy hard long short weak strong same different wrong correct changed expired required
    needed stored saved in on at for my her his their our your still also now being written somewhere secret
    complicated simple reset forgotten lost new old set locked always never just only case-sensitive available
    missing shared private safe unsafe something nothing fine broken working slow"""))

_RAW_SECRETS = [
    re.compile(r"\bsk-(?:proj-)?[A-Za-z0-9_-]{16,}"),
    re.compile(r"\b(?:ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{20,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
]
_HIGH_ENTROPY = re.compile(r"(?<![\w/+=-])[A-Za-z0-9_+/=-]{24,}(?![\w/+=-])")
_ID_KEYS = (r"account\s+(?:number|no\.?)|acct\.?|routing\s+number|sort\s+code|iban|card\s+number|"
            r"(?:credit|debit)\s+card(?:\s+number)?|social\s+security(?:\s+number)?|ssn|passport(?:\s+(?:number|no\.?))?|"
            r"driver'?s\s+licen[cs]e(?:\s+number)?|national\s+(?:id|insurance)(?:\s+number)?|tax\s+(?:id|number)|"
            r"member(?:ship)?\s+number|policy\s+number|licen[cs]e\s+plate|plate\s+number|student\s+id|employee\s+id|"
            r"patient\s+id|medical\s+record\s+number")
_ID = re.compile(rf"\b(?P<key>{_ID_KEYS}){_ABOUT}(?:{_CONNECT}|\s*#?\s*)(?P<value>[A-Z0-9][A-Z0-9 -]{{2,30}}[A-Z0-9]"
                 rf"|{DIGIT_WORDS})", re.IGNORECASE)
_CARD = re.compile(r"\b(?:\d[ -]?){12,18}\d\b")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b")
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")


def _value_span(m: re.Match[str], *, need_digits: bool) -> tuple[int, int, int] | None:
    """(start, end, value start), or None when the 'value' is an ordinary word ('is too short')."""
    for group in ("quoted", "spelled", "digits", "token"):
        value = m.group(group)
        if value is None:
            continue
        if group == "token":
            value = value.rstrip(".!?)")
            if value.lower() in _NOT_VALUES or (need_digits and not re.search(r"\d", value)):
                return None
            return m.start(), m.start(group) + len(value), m.start(group)
        return m.start(), m.end(group), m.start(group)
    return None


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def secrets(c: Clues) -> Iterator[Found]:
    """Passwords, PINs, codes, keys and tokens given with their value, and raw secrets by shape."""
    keyed = ((_SECRET, "password or key", False, _SECRET_HINTS), (_CODE, "PIN or code", True, _CODE_HINTS),
             (_PLAIN_CODE, "PIN or code", True, _CODE_HINTS))
    for pattern, kind, need_digits, hints in keyed:
        if c.words.isdisjoint(hints):
            continue
        for m in pattern.finditer(c.text):
            if pattern is _PLAIN_CODE and _PUBLIC_BEFORE.search(c.text[:m.start()]):
                continue  # an error code, a promo code, a dress code
            if (span := _value_span(m, need_digits=need_digits)) is not None:
                yield kind, *span
    if not c.words.isdisjoint(_SECRET_HINTS | _CODE_HINTS):
        for m in _WITH_SECRET.finditer(c.text):
            code = re.match(rf"(?:{_CODE_KEYS}|code)$", m.group("key"), re.IGNORECASE) is not None
            if (span := _value_span(m, need_digits=code)) is not None:
                yield ("PIN or code" if code else "password or key"), m.start("key"), span[1], span[2]
    if not c.words.isdisjoint(_SECURITY_HINTS):
        for m in _SECURITY.finditer(c.text):
            if m.group("value").lower() not in _NOT_VALUES:
                yield "security answer", m.start(), m.end("value"), m.start("value")
    if not c.long_token and "-----BEGIN" not in c.text:
        return
    for pattern in _RAW_SECRETS:
        for m in pattern.finditer(c.text):
            yield "API key or token", m.start(), m.end(), m.start()
    for m in _HIGH_ENTROPY.finditer(c.masked):
        token = m.group(0)
        if re.search(r"[a-z]", token) and re.search(r"[A-Z]", token) and sum(c.isdigit() for c in token) >= 3:
            yield "API key or token", m.start(), m.end(), m.start()


def numbers(masked: str) -> Iterator[Found]:
    """Account, card, IBAN, social security and identity-document numbers (dates and ids masked)."""
    for m in _ID.finditer(masked):
        value = m.group("value")
        if sum(c.isdigit() for c in value) >= 4 or re.search(DIGIT_WORDS, value, re.IGNORECASE):
            yield "account or ID number", m.start(), m.end(), m.start("value")
    for m in _CARD.finditer(masked):
        digits = re.sub(r"\D", "", m.group(0))
        if 13 <= len(digits) <= 19 and _luhn(digits):
            yield "payment card number", m.start(), m.end(), m.start()
    for m in _IBAN.finditer(masked):
        yield "bank account number", m.start(), m.end(), m.start()
    for m in _SSN.finditer(masked):
        yield "national ID number", m.start(), m.end(), m.start()


def find(c: Clues) -> Iterator[Found]:
    """Every credential or account number in a prepared text, as (kind, start, end)."""
    yield from secrets(c)
    if c.numeric:
        yield from numbers(c.masked)
