"""A list or recipe told one piece per line: a short line goes on with the speaker's run of lines just before it.

Terse chat tells a list or the steps of a recipe one item per line, seconds apart: "the beans go in the water" /
"with the pasta" / "same pot" / "potato too" / "then pesto"; "what did you cook today?" / "the lamb" / "rosemary" /
"roast potatoes". Judged alone each later line says too little; the thread rule (``threads``) takes a piece after the
speaker's fact, but its run breaks at an earlier piece that opens like a reply ("same pot") and it leaves an answer's
pieces after the first ("the lamb" / "rosemary" / "roast potatoes": the question gives only the first its topic).
Here the run is read as one statement: a short line (``threads.may_continue``, or the same with a reply's opening
"same" before what it names: "same pot" says the pot is the same one, it replies to no one) goes on with
the nearest line of the run that formed a fact with a topic (``threads.has_topic``: its own words, or an answer's
question), when every line between is the speaker's own short piece asking nothing, at most ``RUN_TURNS`` lines back,
each line within ``RUN_GAP`` of the next; the listener's turn between may only react ("ha", "ooh"). The piece joins
that fact (``followup_writing.thread_fact``: with the memory it formed, which the lifecycle updates; no memory of its
own), and the speaker's pieces between that formed nothing ("all together") are its sources too (``Thread.between``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from dmem.decisions.offline import threads
from dmem.decisions.offline.followup import said
from dmem.state.schemas import Message
from dmem.text.asked import asks, ends_asking

# Most lines from the piece back to the run's head. The thread rule's reach (``threads.THREAD_TURNS``), kept.
RUN_TURNS = threads.THREAD_TURNS
# Longest pause between two successive lines of a run: one item per line is typed seconds to a few minutes apart.
# The thread rule's pause (``threads.THREAD_GAP``), kept.
RUN_GAP = threads.THREAD_GAP
# A possessive's ending, dropped before the piece's words are read ("grandma's" is the word "grandma").
_POSSESSIVE = re.compile(r"'s\b", re.I)
# "same" opening a piece before what it names ("same pot", "same oven"): the run's thing is the same one.
_SAME = re.compile(r"^\W*same\s+(?P<rest>\w.*)$", re.I)


def continues(message: Message, prior: Sequence[Message], texts: Sequence[str], pooled: tuple[int, ...],
              formed: Callable[[Message, Sequence[Message]], bool]) -> threads.Thread | None:
    """The run's head that ``message``'s ``pooled`` clauses (of ``texts``) go on with, as a thread; or None.

    ``formed``: whether a line formed a fact of its own, judged with the turns before it (the rules, passed in).
    """
    if not pooled or not may_join(message, prior):
        return None
    found = run_of(message, prior, formed)
    if found is None:
        return None
    head, asked, between = found
    details = [_POSSESSIVE.sub("", texts[i]) for i in pooled]  # "his grandma's": the grandma's recipe, a detail
    if all(threads.reaction(d) for d in details):
        return None
    earlier = said(head)
    if not threads.carries_content(details, earlier):
        return None  # only the head's words again, or no word that says something
    return threads.Thread(head, pooled, asked, None, between)


def run_of(message: Message, prior: Sequence[Message], formed: Callable[[Message, Sequence[Message]], bool]
           ) -> tuple[Message, Message | None, tuple[Message, ...]] | None:
    """The run's head, the question that gives it its topic (or None), and the speaker's unformed pieces between.

    None when a line of the run is a question or a long one, the listener says more than a reaction, a pause of
    ``RUN_GAP`` falls between two of its lines, or no line of the run formed a fact with a topic.
    """
    later, between = message, list[Message]()
    for at in range(len(prior) - 1, max(-1, len(prior) - 1 - RUN_TURNS), -1):
        turn = prior[at]
        if not (later.timestamp and turn.timestamp) or abs(later.timestamp - turn.timestamp) >= RUN_GAP:
            return None  # untimed lines, or a pause: no run to read
        later, text = turn, said(turn)
        if turn.speaker != message.speaker:
            if not threads.reaction(text):
                return None  # the listener said something: the run ends there
            continue
        question = prior[at - 1] if at else None
        if formed(turn, prior[:at]) and threads.has_topic(text, threads.question_topic(turn, question)):
            return turn, None if threads.has_topic(text) else question, tuple(reversed(between))
        if asks(text) or ends_asking(text) or len(text.split()) > threads.THREAD_MAX_WORDS:
            return None  # the speaker's own question or a line of its own: no run through it
        between.append(turn)
    return None


def may_join(message: Message, prior: Sequence[Message]) -> bool:
    """Whether a line may be a run's piece: after the speaker's own line, a thread's piece or "same" and a noun.

    After the speaker's own line, "same pot" says the pot is the same one; it is no reply's "same" (``takeup``).
    """
    if not prior or prior[-1].speaker != message.speaker:
        return False
    if threads.may_continue(message):
        return True
    same = _SAME.match(said(message))
    return same is not None and threads.may_continue(message.model_copy(update={"text": same["rest"]}))
