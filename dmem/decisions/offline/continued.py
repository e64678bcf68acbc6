"""A short line starting "and" that adds an item to a line just before it, kept with that line.

"so from may: you cook mon wed fri, tobiah tue thu sat" / "and sunday", "yeah monday and tuesday" / "and today",
"glass is monday, paper thursday" / "and the garden waste". Judged alone the reply names one thing of nothing; with
the line it adds to it is that line's list or plan one item longer ('Quill added to Maren's "Quill cooks mon wed
fri": sunday'), both turns its sources (``Asked.stance`` 'continued').

The line added to is the latest of the last ``LINES_BACK`` turns (either speaker's) with ``LINE_MIN_TOPIC`` topic words
that is no "and" line itself (so "and today 😭" echoing the other's "and today" adds to the line both continue);
a question answered by it goes with it ("you walked the dog twice this week? yeah monday and tuesday"). Kept out: "and"
with nothing after it ("AND", "and..."), an item of more than ``ITEM_MAX_WORDS`` words or with a verb of its own ("and
she bought a lamp" is judged on what it says), a question ("and you?"), and a reply when no line before has topic
enough.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline import reusable
from dmem.decisions.offline.pronouns import rewrite_person
from dmem.decisions.offline.replies import Asked, without_speaker
from dmem.state.schemas import Message
from dmem.text.asked import asks, topic_stems
from dmem.text.words import SECOND_PERSON

# "and today", "and the garden waste 😭", "And sunday?" is a question and left out.
_AND = re.compile(r"^\W*and\s+(?P<item>[^?]+?)\W*$", re.I)
# Most words of the item after "and": a longer one says enough to be judged on its own.
ITEM_MAX_WORDS = 4
# Turns searched back for the line the item adds to.
LINES_BACK = 3
# Topic words the line added to needs: a list or plan, not "ok" or "😂".
LINE_MIN_TOPIC = 2


def continued(message: Message, prior: Sequence[Message]) -> Asked | None:
    """The line just before that a short "and <item>" line adds to (``Asked.stance`` 'continued'), or None.

    ``Asked.question`` is the line in the third person already (it may be the speaker's own, so the fact writer
    cannot tell whose "I" it is), with the question it answers before it when the turn before it asks one.
    """
    reply = without_speaker(message.text or "", message.speaker).strip()
    m = _AND.match(reply)
    if m is None or asks(reply):
        return None
    item = m["item"]
    names = [message.speaker, *(t.speaker for t in prior[-LINES_BACK:])]
    if not topic_stems(item, names) or len(item.split()) > ITEM_MAX_WORDS or reusable.states(item):
        return None  # "AND", "and she bought a lamp": nothing added, or a line of its own
    for back in range(1, min(LINES_BACK, len(prior)) + 1):
        turn = prior[-back]
        line = without_speaker(turn.text or "", turn.speaker).strip()
        if _AND.match(line) or len(topic_stems(line, names)) < LINE_MIN_TOPIC \
                or turn.speaker == message.speaker and SECOND_PERSON.search(item):
            continue  # "and you on a laptop" to the speaker's own guest list: the fact would name the speaker
        listener = next((t.speaker for t in reversed(prior) if t.speaker != turn.speaker), message.speaker)
        said = rewrite_person(line, turn.speaker, listener).rstrip(" .!")
        before = prior[-back - 1] if back < len(prior) else None
        if before is not None and before.speaker != turn.speaker and asks(text := without_speaker(
                before.text or "", before.speaker).strip()):
            said = f"{rewrite_person(text, before.speaker, turn.speaker).rstrip()} {said}"
        return Asked(asker=turn.speaker, question=said, turn_id=turn.turn_id, stance="continued")
    return None
