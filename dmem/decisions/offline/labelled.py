"""A reply that names the piece of the other's long message it answers: "the test: CONGRATS 🎉", "gwilym: good call.".

The other often sends several pieces of news at once, one a line ("The Danish test - I passed!", "Dorotea called: the
wedding is June, by a lake", "Gwilym asked if I want to come back. I said no."), and the listener answers them one
at a time, each reply opened by a label naming its piece. Judged alone the reply is a reaction or an opinion about
nothing said; read with the piece, it takes up the other's news and adds to it. The piece is the line of the other's
latest long message (a sentence when it is one paragraph) sharing the most of the label's words, or, when the label
names the listener's thing ("re your sister - june by a lake"), of the rest's too (the line says "June", "lake"); the
fact states both ('Bartek replied to
Henrike's "Dorotea called: ... June next year, by a lake": re your sister - june by a lake, even better'), both
turns its sources (``Asked.stance`` 'named', written by ``clause_facts.answer_fact``).

Kept out: a label that is a speaker's name, the speaker's own ("my news:") or a clock time, a long line opened by a
label, a reply with no long message of several pieces of the other's among the last turns of the session (a reaction
to a short line is ``takeup``'s), and a label sharing no word with any piece.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline.replies import Asked, without_speaker
from dmem.state.schemas import Message
from dmem.text.lexical import content_stems

# "the test: ...", "gwilym: ...", "re your sister - ...": a label of at most LABEL_MAX_WORDS words, then ':' or a dash;
# the whole reply at most REPLY_MAX_WORDS words (a longer line opened by a label says enough of its own).
LABEL_MAX_WORDS = 4
REPLY_MAX_WORDS = 12
_LABELLED = re.compile(
    r"^\W*(?P<label>(?:re\s+)?[^\W\d][^:\n\-\u2013\u2014]*?)\s*(?::|\s[-\u2013\u2014])\s+(?P<rest>\S.*)$", re.I | re.S)
# Words of a label that name no piece ("re your sister": "sister" names it).
_LABEL_FILLER = frozenset({"re", "your", "ur", "u", "the", "about", "and", "also", "ps", "btw"})
# A label opened by these is the speaker's own topic ("my news:", "our plan -"), not a piece of the other's.
_OWN = frozenset({"my", "our", "i", "me", "mine", "we"})
# A label opened by these names the listener's thing ("re your sister"): the rest may name the piece ("june by a lake").
_THEIRS = frozenset({"re", "your", "ur", "u"})
# Turns searched back for the other's long message: a run of replies, the other's short answers between them.
WINDOW = 8
# Pieces a message needs for its reader to answer one of them (lines, or sentences of one paragraph), and its words.
MIN_PIECES = 3
LONG_MIN_WORDS = 20
_LINE = re.compile(r"[^\n]+")
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


def labelled(message: Message, prior: Sequence[Message]) -> Asked | None:
    """The piece of the other's last long message that a labelled reply names (``Asked.stance`` 'named').

    None when the reply has no label (``_LABELLED``) or a long one, the label is the speaker's own ("my news:") or
    names a speaker, no long message of the other's is near (``_message_answered``), or no piece shares a word of
    the label (of the rest too when the label names the listener's thing: "re your sister").
    """
    reply = without_speaker(message.text or "", message.speaker)
    m = _LABELLED.match(reply)
    if m is None or len(m["label"].split()) > LABEL_MAX_WORDS or len(reply.split()) > REPLY_MAX_WORDS:
        return None
    names = {message.speaker.lower(), *(t.speaker.lower() for t in prior)}
    words = re.findall(r"[^\W\d_]+", m["label"].lower())
    label = [w for w in words if w not in _LABEL_FILLER]
    if not label or " ".join(label) in names or words[0] in _OWN:
        return None
    turn = _message_answered(message, prior)
    if turn is None:
        return None
    label_stems = set(content_stems(" ".join(label)))
    told = label_stems | (set(content_stems(m["rest"])) if words[0] in _THEIRS else set())
    pieces = _pieces(without_speaker(turn.text or "", turn.speaker))
    best = max(pieces, key=lambda p: (len(label_stems & set(content_stems(p))), len(told & set(content_stems(p)))))
    if not told & set(content_stems(best)):
        return None
    return Asked(asker=turn.speaker, question=best.strip(), turn_id=turn.turn_id, stance="named")


def _message_answered(message: Message, prior: Sequence[Message]) -> Message | None:
    """The other's latest long message of several pieces among the last ``WINDOW`` turns of the same session."""
    session = _session(message.turn_id)
    for turn in list(reversed(prior))[:WINDOW]:
        if _session(turn.turn_id) != session:
            return None
        text = without_speaker(turn.text or "", turn.speaker)
        if turn.speaker != message.speaker and len(text.split()) >= LONG_MIN_WORDS and len(_pieces(text)) >= MIN_PIECES:
            return turn
    return None


def _session(turn_id: str) -> str:
    """The session part of a turn id ("D6" of "D6:3"); the whole id when it has none."""
    return turn_id.rsplit(":", 1)[0]


def _pieces(text: str) -> list[str]:
    """A message's pieces: its lines when it has several, else its sentences."""
    lines = [line for line in _LINE.findall(text) if re.search(r"\w", line)]
    return lines if len(lines) >= MIN_PIECES else [s for s in _SENTENCE.findall(text) if re.search(r"\w", s)]
