"""The speaker's news asked for: they announce it, the listener asks them to go on, and they tell it.

Terse chat often gives news in three turns: the speaker says there is some ("guess what", "news", "ugh",
"disaster"), the listener asks for it with a prompt naming nothing ("?", "go on", "what?", "spill"), and the speaker
tells it in a fragment ("climbing", "rash. everywhere", "got the job"). Judged alone, the fragment says too little
to tell. But the exchange shows it is the news: the speaker announced it, the listener asked for it, and the line
is what they said when asked. So the line is re-judged as the speaker's news, as a take-up (``takeup``) and a line
opening the chat (``opening``) are, and forms one fact of theirs, written as a line told as their world
('Idony: got the job'), the line its only source (the announcement and the prompt say none of its words).
Kept out: an announcement longer than ``ANNOUNCE_MAX_WORDS`` (it says something of its own and is judged so), one
that asks or replies to the listener; a prompt naming something (``followup.names_nothing``: it asks about that);
a line that formed something, asks, replies, stands for a picture, goes on with a sentence ("and one pole is") or
says who knows ("everyone knows": how they know is no news), or was rejected for more than a lack of content
(the rules' own claims: a reaction, a greeting, advice, the listener); a line with no detail word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dmem.decisions.offline import followup, opening, takeup, worldline
from dmem.decisions.offline.followup import said
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import content_words

# Most words of the announcement: "guess what", "big news", "ugh" say there is news and not what. A longer line
# says something of its own and is judged on it. Not tuned: chat's announcements are one or two words.
ANNOUNCE_MAX_WORDS = 3
# A line going on with a sentence ("and one pole is"; a conjunction opens it) or saying who knows ("everyone knows",
# "a mother knows": it answers how they know) tells no news: closed-class words, each by its meaning.
_NOT_NEWS = re.compile(r"^\W*(?:and|but|or|so|because|cos|coz)\b|\b(?:know|knows|knew)\b", re.I)


@dataclass(frozen=True)
class Announced:
    """The speaker's line told when the listener asked for the news they announced."""

    announcement: Message
    """The speaker's line announcing the news ("guess what")."""
    prompt: Message
    """The listener's prompt asking for it ("?", "go on")."""
    told: takeup.Unformed
    """The line judged as news: the clauses the fact says (no marker claims them) and their language."""


def announces(text: str) -> bool:
    """Whether a line may announce news without telling it: a few words, asking nothing, replying to nothing.

    A line asking to go on without its mark ("what happened") is the listener's question, not an announcement.
    """
    words = text.split()
    return 0 < len(words) <= ANNOUNCE_MAX_WORDS and not asks(text) and not followup.names_nothing(text) \
        and not replies(text)


def announces_news(text: str) -> bool:
    """Whether a short line (``announces``) says there is news with a word saying so ("news tho", "guess what").

    Such a line starts something new: the news follows it, it is no detail of what was said before (h57g).
    """
    return announces(text) and any(w in opening.ANNOUNCES for w in content_words(text))


def replies(text: str) -> bool:
    """Whether a line answers the listener (an agreement, a laugh, thanks) or stands for a picture it does not say."""
    return bool(worldline.REPLY_OPENING.search(text) or takeup.REPLYING.search(text) or takeup.STANDS_FOR.match(text))


def announced(message: Message, prior: Sequence[Message], told: takeup.Told) -> Announced | None:
    """``message`` as the news the speaker announced and the listener asked for, or None.

    ``told`` judges a line in its place without this rule's help (None when it formed something).
    """
    if len(prior) < 2:
        return None
    prompt, announcement = prior[-1], prior[-2]
    if prompt.speaker == message.speaker or announcement.speaker != message.speaker:
        return None
    line = said(message)
    if not followup.names_nothing(said(prompt)) or not announces(said(announcement)) \
            or not line or asks(line) or replies(line) or _NOT_NEWS.search(line) or not opening.details(message):
        return None
    news = takeup.content_poor_news(told(message, prior), opening.is_empty)
    return Announced(announcement, prompt, news) if news else None
