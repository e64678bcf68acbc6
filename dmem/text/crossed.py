"""Which earlier question a chat reply answers when both people type at once (crossed messages).

In chat an answer need not come right after its question: the asker may send another message
before the reply arrives ("What did you cook last night?" then "I'm starving"), and the replier may
send one of their own first, typed before the question was read. A reply is linked to a question
across such messages only when who spoke and what they said allow it:

- at most ``ASKER_AFTER`` of the asker's own messages stand after the question, and at most
  ``REPLIER_BEFORE`` of the replier's, in any order (no third person's);
- the replier's message in between must not take the question up itself (the question is answered
  there, not in the later message);
- a later question of the asker that the reply takes up is the one answered (the search goes back
  to an earlier question only past one the reply does not take up);
- a reply right after the question, or after messages of filler only ("lol", "haha"), takes it up by
  ``reply_answers``' rules; after a message that says something of its own, the reply must also share
  a topic word with the question sentence itself: a bare "yes" or an "I ..." may answer that message.

Both decision engines read it (``dmem.decisions.offline.replies``, ``dmem.decisions.model.checks``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from dmem.text.asked import real_questions, reply_answers, topic_stems

# The asker's own messages that may follow a question before the reply that answers it (0: none, the
# question must be the asker's last message). Set by turn-taking, not fitted: one crossed message each way.
ASKER_AFTER = 1
# The replier's own messages that may come between the question and the reply (0: none).
REPLIER_BEFORE = 1

# Words of a message that says nothing a reply could answer instead: laughter and bare reactions.
_FILLER = re.compile(r"(?:a?(?:ha|he|hi|ah)+h?|lo+l+|lmf?ao+|rofl|omg|ok(?:ay)?|k+|hm+|um+|uh+|ugh|oops|wait|aw+|"
                     r"yay|wo+w|oh+|ah+|yes|yeah|yep|no|nope|nah|xd)", re.I)
_T = TypeVar("_T")
Said = tuple[str, str]
"""A message as (speaker, text), the text without a leading 'Speaker:' label."""


def readable(prior: Sequence[_T]) -> Sequence[_T]:
    """The last messages of ``prior`` that ``replied_question`` may read: the question and what may cross it."""
    return prior[-(ASKER_AFTER + REPLIER_BEFORE + 1):]


def replied_question(reply: Said, prior: Sequence[Said]) -> int | None:
    """The position in ``prior`` of the other speaker's real question ``reply`` answers, else None.

    ``prior`` are the messages before the reply, in order; only the last few are read (see the module).
    """
    speaker, text = reply
    asker: str | None = None
    between: list[str] = []  # what was said after the question, latest first
    own: list[str] = []  # the replier's own messages among them
    for j in range(len(prior) - 1, -1, -1):
        who, said = prior[j]
        if who == speaker:
            if len(own) == REPLIER_BEFORE:
                return None
            own.append(said)
            between.append(said)
            continue
        if asker is not None and who != asker:
            return None  # a third person: not a crossing of two
        asker = who
        if real_questions(said) and _takes_up(said, text, between, (speaker, who)):
            return None if any(reply_answers(said, o, (speaker, who)) for o in own) else j
        if len(between) - len(own) == ASKER_AFTER:
            return None
        between.append(said)
    return None


def _takes_up(asked: str, reply: str, between: Sequence[str], names: tuple[str, str]) -> bool:
    """Whether ``reply`` takes up the question turn ``asked`` across the messages ``between`` them."""
    if not reply_answers(asked, reply, names):
        return False
    if not any(_says_something(t, names) for t in between):
        return True  # nothing in between a reply could answer instead
    return bool(topic_stems(" ".join(real_questions(asked)), names) & topic_stems(reply, names))


def _says_something(text: str, names: tuple[str, str]) -> bool:
    """Whether a message carries a topic word, not only laughter or a reaction ("lol", "haha ok")."""
    return any(not _FILLER.fullmatch(stem) for stem in topic_stems(text, names))
