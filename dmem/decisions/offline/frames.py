"""The framed memories formation writes, and the part of each that carries information.

The offline splitter keeps a short reply with the question it answers, a message continuing the
speaker's own one with what it continues, and a question that carries a fact as asked
(``splitting``): 'Theo answered Maya's question "Which film?": the one with the lighthouse',
'Noor added to "Noor just started at the art school": it is right by the ferry pier',
'Maya asked Theo: "How is the new puppy settling in?"'. The frame ('answered Maya's question',
'added to', 'asked Theo') tells how a line was said, not what happened: an answer span taken from
it is noise ("answered Maya's question" for 'What film does Theo like?'). The quoted question or
earlier message still says what the line is about, so a line is ranked whole and its span comes
from what was said.
"""

from __future__ import annotations

__all__ = ["said"]

import re

_NAME = r"[^\"]{1,60}?"
_REPLY = re.compile(rf"^\s*{_NAME} answered {_NAME}'s question \"[^\"]*\":\s*(?P<said>\S.*)$", re.S)
_ADDED = re.compile(rf"^\s*{_NAME} added to \"[^\"]*\":\s*(?P<said>\S.*)$", re.S)
_ASKED = re.compile(rf"^\s*{_NAME} asked {_NAME}:\s*\"(?P<said>[^\"]*\?)\"\s*$", re.S)


def said(text: str) -> str:
    """What a framed line says (the reply, the addition, the question as asked); other lines whole.

    A question kept as asked ends with its question mark, so a line that only asks still reads as one.
    """
    for frame in (_REPLY, _ADDED, _ASKED):
        if m := frame.match(text):
            return m["said"].strip()
    return text
