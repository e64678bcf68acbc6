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

Further back (up to ``LINK_ASKER_FAR`` of the asker's messages after the question and ``LINK_REPLIER_FAR`` of the
replier's), a reply is linked only when nobody took turns in between (no message of the replier after one of the
asker's that says something: it would reply to that) and the reply plausibly answers the question
(``plausibly_answers``): a topic word of the question that no message in between says, a yes/no echo of a
yes/no question, or the kind of answer asked (``dmem.text.answers``); and its first sentence does not ask.
Two or more questions in a row answered in a row pair up in order: the first reply answers the first question
when it plausibly does, the second the second.

Both decision engines read it (``dmem.decisions.offline.replies``, ``dmem.decisions.model.checks``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, TypeVar

from dmem.text.answers import is_kind_asked, yes_no_echo
from dmem.text.asked import hedged_answer, question_sentences, real_questions, reply_answers, topic_stems

# The asker's own messages that may follow a question before the reply that answers it (0: none, the
# question must be the asker's last message). Set by turn-taking, not fitted: one crossed message each way.
ASKER_AFTER = 1
# The replier's own messages that may come between the question and the reply (0: none).
REPLIER_BEFORE = 1
# Further back, when nobody took turns in between and the reply plausibly answers the question: at most this many
# of the asker's messages after it, and of the replier's own. Not fitted: the design's values (three follow-ups, two
# "sorry, was driving" messages). On batch 1 of benchmarks/data/reply_links.json 2 or 3 asker messages tie and 4
# links a wrong question; 2 or 3 replier messages tie and 1 misses links.
LINK_ASKER_FAR = 3
LINK_REPLIER_FAR = 2
# A first sentence of at most this many words that gives the kind of answer asked hedges it ("like 40?"), not asks.
LINK_HEDGED_WORDS = 3

# Words of a message that says nothing a reply could answer instead: laughter and bare reactions.
_FILLER = re.compile(r"(?:a?(?:ha|he|hi|ah)+h?|lo+l+|lmf?ao+|rofl|omg|ok(?:ay)?|k+|hm+|um+|uh+|ugh|oops|wait|aw+|"
                     r"yay|wo+w|oh+|ah+|yes|yeah|yep|no|nope|nah|xd)", re.I)
_T = TypeVar("_T")
Said = tuple[str, str]
"""A message as (speaker, text), the text without a leading 'Speaker:' label."""


def _asker_reach() -> int:
    """The asker's messages after a question that any rule reads past (near or far)."""
    return max(ASKER_AFTER, LINK_ASKER_FAR)


def _replier_reach() -> int:
    """The replier's own messages between a question and the reply that any rule reads past (near or far)."""
    return max(REPLIER_BEFORE, LINK_REPLIER_FAR)


def readable(prior: Sequence[_T]) -> Sequence[_T]:
    """The last messages of ``prior`` that ``replied_question`` may read: the question and what may cross it."""
    return prior[-(_asker_reach() + _replier_reach() + 1):]


def replied_question(reply: Said, prior: Sequence[Said]) -> int | None:
    """The position in ``prior`` of the other speaker's real question ``reply`` answers, else None.

    ``prior`` are the messages before the reply, in order; only the last few are read (see the module).
    """
    paired = _in_order(reply, prior)
    if paired is not None:
        return paired
    speaker, text = reply
    asker: str | None = None
    between: list[Said] = []  # what was said after the question, latest first
    own: list[str] = []  # the replier's own messages among them
    for j in range(len(prior) - 1, -1, -1):
        who, said = prior[j]
        if who == speaker:
            if len(own) == _replier_reach():
                return None
            own.append(said)
            between.append((who, said))
            continue
        if asker is not None and who != asker:
            return None  # a third person: not a crossing of two
        asker = who
        names = (speaker, who)
        reach = _answers_across(said, text, between, len(own), names) if asks_at(prior, j) else None
        if reach == "near":
            return None if any(reply_answers(said, o, names) for o in own) else j
        if reach == "far":  # the replier's own messages answered it only if they plausibly did
            return None if any(plausibly_answers(said, o, [], names) for o in own) else j
        if len(between) - len(own) == _asker_reach():
            return None
        between.append((who, said))
    return None


def asks_at(prior: Sequence[Said], j: int) -> bool:
    """Whether message ``j`` of ``prior`` asks a real question, not a hedged answer to the other's question before it.

    "favourite food?" / "probably sushi?" / "probably? jaja": the last line asks back about the answer, not about sushi.
    """
    return bool(real_questions(prior[j][1])) and not hedged_at(prior, j)


def hedged_at(prior: Sequence[Said], j: int) -> bool:
    """Whether message ``j`` of ``prior`` is a hedged answer (``hedged_answer``) to the other's line just before it."""
    return j > 0 and prior[j - 1][0] != prior[j][0] and hedged_answer(prior[j - 1][1], prior[j][1])


def plausibly_answers(asked: str, reply: str, between: Sequence[str], names: tuple[str, str]) -> bool:
    """Whether ``reply`` plausibly answers the question turn ``asked`` with ``between`` said after it.

    It shares a topic word with the question that no message in between says, echoes a yes/no question, or
    gives the kind of answer asked; and its first sentence does not ask.
    """
    questions = real_questions(asked)
    first = re.match(r"[^.!?\n]*[.!?]*", reply.strip())
    if first and question_sentences(first[0]) and not (len(first[0].split()) <= LINK_HEDGED_WORDS and any(
            is_kind_asked(q, first[0]) for q in questions)) and not hedged_answer(asked, first[0]):
        return False  # "like 40?" and "probably sushi?" hedge an answer; "which lamp?" asks
    said = set().union(*(topic_stems(t, names) for t in between))
    if (topic_stems(" ".join(questions), names) & topic_stems(reply, names)) - said:
        return True
    return any(yes_no_echo(q, reply) or is_kind_asked(q, reply) for q in questions)


def _answers_across(asked: str, reply: str, between: Sequence[Said], own: int,
                    names: tuple[str, str]) -> Literal["near", "far"] | None:
    """How ``reply`` answers the question turn ``asked``: by the near rule in the near window, or far; else None."""
    said = [t for _, t in between]
    if own <= REPLIER_BEFORE and len(between) - own <= ASKER_AFTER and _takes_up(asked, reply, said, names):
        return "near"
    if own > LINK_REPLIER_FAR or len(between) - own > LINK_ASKER_FAR or _took_turns(between, names[0]):
        return None
    return "far" if plausibly_answers(asked, reply, said, names) else None


def _took_turns(between: Sequence[Said], replier: str) -> bool:
    """Whether the replier said something after a message of the asker's that says something (latest first)."""
    asker_spoke = False
    for who, said in reversed(between):  # in the order said
        names = (replier, who)
        if who != replier:
            asker_spoke = asker_spoke or _says_something(said, names)
        elif asker_spoke and _says_something(said, names):
            return True
    return False


def _in_order(reply: Said, prior: Sequence[Said]) -> int | None:
    """Questions asked in a row, replies given in a row: the k-th reply answers the k-th question, if plausibly.

    ``prior`` ends with the asker's run of question messages and then the replier's earlier replies (each of
    which plausibly answered its question in turn); None when the pattern does not hold.
    """
    speaker = reply[0]
    k = 0
    while k < len(prior) and prior[len(prior) - 1 - k][0] == speaker:
        k += 1
    end = len(prior) - k  # the asker's run ends before here
    start = end
    while start > 0 and prior[start - 1][0] != speaker and asks_at(prior, start - 1) \
            and prior[start - 1][0] == prior[end - 1][0]:
        start -= 1
    run = end - start
    if run < 2 or k >= run or k > _replier_reach() \
            or run - 1 - k > _asker_reach():
        return None
    asker = prior[end - 1][0]
    answers = [t for _, t in prior[end:]] + [reply[1]]
    for i, text in enumerate(answers):
        between = [t for _, t in prior[start + i + 1:end]] + answers[:i]
        if not plausibly_answers(prior[start + i][1], text, between, (speaker, asker)):
            return None
    return start + k


def _takes_up(asked: str, reply: str, between: Sequence[str], names: tuple[str, str]) -> bool:
    """Whether ``reply`` takes up the question turn ``asked`` across the messages ``between`` them."""
    if not reply_answers(asked, reply, names, right_after=not between):
        return False
    if not any(_says_something(t, names) for t in between):
        return True  # nothing in between a reply could answer instead
    return bool(topic_stems(" ".join(real_questions(asked)), names) & topic_stems(reply, names))


def _says_something(text: str, names: tuple[str, str]) -> bool:
    """Whether a message carries a topic word, not only laughter or a reaction ("lol", "haha ok")."""
    return any(not _FILLER.fullmatch(stem) for stem in topic_stems(text, names))
