"""The words that go with a special-category finding: what a rewrite carries when it drops the cue word.

"I was diagnosed with Crohn's disease" is found by 'diagnosed'; a model's "Tove noted Crohn's"
is not. A sentence holding a special-category finding therefore gives up its content words (not
function words or everyday verbs) as values to scrub from traces; two-letter capitals ('AB', 'NA')
go with the word after them.
"""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"[^.!?\n]+")
_TOKEN = re.compile(r"[A-Za-z0-9$£€][\w'’$£€,./-]*[\w$£€]|[A-Za-z0-9]")
_CAPS_PAIR = re.compile(r"\b[A-Z]{2}\s+[A-Za-z][\w'-]+")
COMMON = frozenset(str.split("""
    the a an and or but if of to in on at for with from by about as into onto over under after before since until
    during through than then so too very not no nor yet also just still even only again ever never always often
    i me my mine we us our ours you your yours he him his she her hers they them their theirs it its this that
    these those there here who whom whose which what when where why how all any both each every few more most
    some such own same other another one two three four five six seven eight nine ten first last next
    is am are was were be been being have has had having do does did doing will would shall should can could
    may might must get got gets getting go goes going went gone come came comes make made makes take took
    taken say said says tell told see saw seen know knew known think thought want wanted like liked feel felt
    keep kept let put give gave use used try tried need needed start started stop stopped
    day days week weeks month months year years time times today yesterday tomorrow tonight morning evening
    night weekend spring summer autumn fall winter monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december
    home work house family friend friends people thing things lot lots bit kind sort way back now new old
    good bad great little big long short well really much many because while though although
    up down out off away around together ago later soon early late again once twice
    i'm i've i'd i'll we're we've you're they're it's that's don't can't won't didn't isn't wasn't
    mum mom dad mother father sister brother partner wife husband son daughter kids children child
    """))


MAX_KINDS = 2
"""A sentence naming more special categories than this is a list of them (a prompt, a policy), not a disclosure."""
MAX_WORDS = 40
"""Longer sentences are text, not a disclosure: their words are not carried."""


def sentence_at(text: str, offset: int) -> tuple[int, int]:
    """Bounds of the sentence (or line) holding the offset."""
    m = next((m for m in _SENTENCE.finditer(text) if m.start() <= offset < m.end()), None)
    return (m.start(), m.end()) if m else (offset, offset)


def content_words(text: str, bounds: tuple[int, int]) -> list[str]:
    """Content words of text[bounds], and capital pairs ('AB positive'); none for a long sentence."""
    body = text[bounds[0]:bounds[1]]
    tokens = _TOKEN.findall(body)
    if len(tokens) > MAX_WORDS:
        return []
    words = [t for t in tokens if len(t) >= 3 and t.lower().strip("'’") not in COMMON]
    return words + _CAPS_PAIR.findall(body)
