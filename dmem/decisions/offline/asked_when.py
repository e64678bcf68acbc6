"""A reply to a bare "when is it?", read through what its speaker had just told that day.

'Noor signed up for a half marathon' and 'Noor answered Theo's question "when is it?": march 3rd' are two
lines: the second holds the date but no word of "When is Noor's half marathon?", the first the topic but no
date. The reply's quoted question asks only when ("when is it?", "when?", "when does it start?"): it points
back to what was said before it, which the frame does not keep. A line of the same day whose subject is the
reply's speaker is that something; the answerer reads the reply's date for it and the offline gate links
the date to the topic through it.
"""

from __future__ import annotations

__all__ = ["anchors", "asks_only_when"]

import re

from dmem.decisions.offline import frames
from dmem.decisions.offline.rules import SENTENCE_END
from dmem.decisions.offline.spans import line_subject, parse_line
from dmem.text.lexical import content_stems, stem, tokenize
from dmem.text.words import wordset

_TIME_VERBS = frozenset(stem(w) for w in wordset("start begin end finish happen due again exactly"))
"""Words a bare when-question may hold besides its pronoun ("when does it start?", "when was that again?")."""
_WHEN = re.compile(r"\bwhen\b.*", re.I | re.S)
"""A question from its "when" on: "wow, when is it?" asks "when is it?"."""
_SPEAKER = re.compile(r"^\s*(?P<speaker>[^\"]{1,60}?) answered ")


def asks_only_when(question: str) -> bool:
    """Whether a quoted question asks when of something said before it, naming nothing of its own.

    "already?! when is it?", "wow, when is it?", "when?" and "when does it start?" do; "when is the party?"
    names its party.
    """
    asking = [m.group(0) for s in SENTENCE_END.split(question) if (m := _WHEN.search(s))]
    return bool(asking) and all(set(content_stems(s)) <= _TIME_VERBS for s in asking)


def anchors(context: list[str]) -> dict[int, list[int]]:
    """For each framed reply to a bare when-question, the other lines of its day about its speaker, in order.

    A reply and a line it may point back to have the same date tag; the line's subject (``spans.line_subject``)
    is the reply's speaker, who answered the "when" of what they had told.
    """
    parsed = [parse_line(line) for line in context]
    replies = {}
    for j, (text, tag) in enumerate(parsed):
        asked, speaker = frames.replied_to(text), _SPEAKER.match(text)
        if asked is not None and speaker is not None and tag is not None and asks_only_when(asked):
            replies[j] = tokenize(speaker["speaker"])
    found: dict[int, list[int]] = {}
    for j, name in replies.items():
        same = [u for u, (_, tag) in enumerate(parsed) if u not in replies and tag == parsed[j][1]
                and (subject := line_subject(context[u])) is not None and tokenize(subject) == name]
        if same:
            found[j] = same
    return found
