"""The listener's take-up: the other speaker's next turn shows that a short line of the speaker's was news.

Judged alone, "keys today" or "vet at 3" says too little to tell, or nothing personal. But the listener says what
was news by taking it up in the next turn: a follow-up question naming nothing of its own ("wait when??", "which
one?"), a reaction only news gets ("congrats!!", "oh no", "sorry to hear"), or an echo of one of its content words
("the vet? how come"). Those are dialogue acts, not words of the line, so this is evidence from the exchange:
the line (A's) is re-judged as A's news when B's turn just after A's lines takes it up, and it forms one fact of
A's, written as a line told as A's world ('Nadia: keys today'), the line its source; a reaction's turn is a source
too (it says how the listener took the news: "congrats!!", "oh no poor her"; a question or an echo only asks).
Kept out: a line that formed something (the take-up is about that), a rejection that is no lack of content (a
question to the listener, a reaction to their news, filler, a greeting, advice or a general statement: the rules'
own claims), a line with no detail word but filler, and a take-up turn stating the listener's own news ("I got
mine too"). Only the first take-up of B's run counts, so a line is formed once.
A reaction addressed to the speaker for their doing ("congrats!! you did it", "well done", "so sorry to hear")
says more than that the line was news: it was the speaker's own. So the line's clauses that a marker claimed only as
the world's or as a general statement ("the results came out this morning": whose results the line does not say)
are its news's detail, judged as the line after a silence is (``opening.UNANSWERING``'s lift); "omg", "yay" or
"whoa" follow world news too and lift nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from dmem.decisions.offline import confirmed, followup, rules, worldline
from dmem.decisions.offline.clauses import Clause
from dmem.decisions.offline.followup import said
from dmem.state.schemas import Message
from dmem.text.lexical import content_words, stem
from dmem.text.words import SECOND_PERSON, WH, alternation, wordset

# The speaker's lines before the take-up turn it may reach back over (the nearest with content is taken up), and
# the listener's lines of the take-up run (the first, or the one after a line that took nothing up). Chosen on
# the tuning half and invented batches 1-6; reported on batches 7-9 apart.
TAKEUP_BACK = 2
TAKEUP_RUN = 2
# Most words of a take-up turn: a longer line says something of its own.
TAKEUP_MAX_WORDS = 8
# Most words of a follow-up question that names a word of its own ("how old", "where from"; "which one?" names none).
FOLLOWUP_SHORT_WORDS = 2
# Shortest word an echo may take up ("vet", "keys"): shorter ones are chat's function words ("ok", "ya").
ECHO_MIN_CHARS = 3
# Rejections that mean "too little content", which a take-up overrides: the line said something, only briefly.
CONTENT_POOR = ("rejected: no personal fact", "rejected: too little detail", "rejected: vague content",
                "rejected: a title or a name alone")
# Reactions addressed to the speaker for their own doing or loss ("congrats", "well done", "good for you", "sorry to
# hear"), among ``_NEWS_REACTION``'s: the line reacted to was the speaker's news, not the world's ("omg", "yay",
# "whoa" follow both).
_PERSONAL = (r"congrats\w*|congratulations|(?:so\s+)?sorry\s+to\s+hear|so\s+sorry|well\s+done|"
             r"good\s+for\s+(?:you|u)")
# An evaluation only news gets, said of it ("amazing", "that is so good", "how awful"): joy or sympathy; not "great",
# "nice", "good" or "lovely" alone, which answer a plan or a joke as well.
_SAID_OF_IT = r"(?:that'?s|thats|that\s+is|how|so|what\s+a)\s+(?:so\s+|really\s+)?"
_EVALUATION = (rf"(?:{_SAID_OF_IT}(?:good|great|sad|lovely|rough|scary|exciting)|(?:{_SAID_OF_IT})?"
               r"(?:amazing|brilliant|wonderful|fantastic|awesome|incredible|awful|terrible|horrible|gutting|brutal))")
# Reactions that only news gets (not "lol", "ok", "nice", "haha", which follow anything): joy, shock, sympathy,
# relief ("phew"), pity for the speaker's person ("poor her"), an evaluation of the news, after a shouted "WHAT" too
# ("WHAT. That is so good!"; "WHAT" alone asks what: a follow-up question).
_NEWS_REACTION = re.compile(
    rf"^\W*(?:(?:wait|oh|ah|aw+|o+h+|omg+|wow+|(?-i:WHA+T+))\W+)*(?:{_PERSONAL}|yay+|woo+(?:hoo+)?|hooray|finally|"
    rf"wh?oa+h?|yikes|omg+|omfg|no+\s+way|oh\s+no+|oh\s+dear|about\s+time|y+e+s+s{{2,}}|a{{3,}}h*|phew+|"
    rf"poor\s+(?:her|him|them|thing|guy|girl|lad|kid|baby|boy|love)|{_EVALUATION})\b", re.I)
_PERSONAL_REACTION = re.compile(rf"^\W*(?:(?:wait|oh|ah|aw+|o+h+|omg+)\W+)?(?:{_PERSONAL})\b", re.I)
# Markers' claims a line the listener congratulated or consoled cannot bear: it was the speaker's news, so a clause
# they claim as the world's or as a general statement is its detail ("the results came out": the speaker's results).
OWN_NEWS_LIFT = frozenset({"the world at large", "a general statement or a reaction"})
# A reaction naming what it reacts to as news ("Tam! That is wonderful news."); asked, it offers news of one's own.
_CALLED_NEWS = re.compile(r"\b(?:great|good|wonderful|amazing|brilliant|fantastic|exciting|sad|terrible|awful)\s+"
                          r"news\b(?![^?]*\?)", re.I)
# A follow-up question asks after the news with an asking word opening it ("wait when??", "which one?", "how
# come"); a bare mark ("??", "really?") is surprise or a check, and a line naming the listener asks about them.
_ASKS_AFTER = re.compile(rf"^\W*(?:(?:wait|and|so|but|oh|omg|n+o+)\W+)?(?:{alternation(f'{WH} whens wheres whos')})\b",
                         re.I)
# A line replying to the listener is no news of its own: an agreement, a laugh or a greeting opening it
# (``worldline.REPLY_OPENING``) or one of chat's short concessions ("ha, fair enough", "same").
REPLYING = re.compile(r"^\W*(?:ha+|heh|fair\s+enough|same|me\s+too|makes\s+sense)\b", re.I)
# A line that stands for a picture or a file it does not say ("pic", "[photo]", "sending"): asking for one or
# sending one, it is no news and no piece of a thread (``threads``).
STANDS_FOR = re.compile(r"^\W*(?:\[[^\]]*\]|(?:pics?|photos?|pictures?|selfies?|vids?|videos?|sending)\W*)\W*$", re.I)
# Farewells and greetings: "night x" echoed "night x" is no news.
GREETING = wordset("night nite goodnight morning evening bye goodbye later cya hi hey hello hiya xx")
# Words an echo never takes up: asking and generic words (``followup``), chat filler.
_NO_ECHO = wordset("got get gets getting going gonna today tonight tomorrow yesterday now really just still one")


@dataclass(frozen=True)
class TakeUp:
    """The speaker's earlier line the listener's turn takes up, and how."""

    news: Message
    """The speaker's line (A's) that formed nothing alone."""
    turn: Message
    """The listener's take-up turn (B's)."""
    how: str
    """What the take-up is: a follow-up question, a reaction to news, or an echo ('vet')."""
    told: Unformed
    """The news judged in its place: the clauses the fact says (no marker claims them) and their language."""


@dataclass(frozen=True)
class Unformed:
    """A line that formed nothing, judged in its place: what a fact of it would say, as admission cut and judged it."""

    reason: str
    """Its rejection reason."""
    pooled: tuple[Clause, ...]
    """Its clauses a fact would say (no marker claims them, each with an answer word)."""
    details: list[str]
    """The pooled clauses' detail words (the chat's speakers' names aside)."""
    language: str
    """The language its clauses were cut in."""


FOLLOWUP_QUESTION = "a follow-up question"
"""The take-up that asks after the news ("how warm", "wait when??"): what the speaker says next answers it."""

Told = Callable[[Message, Sequence[Message]], "Unformed | None"]
"""A line judged in its place: what it says as news, or None when it formed something."""


def signal(text: str, details: Sequence[str]) -> str | None:
    """How a short line takes up news with ``details`` (its detail words): the dialogue act, or None."""
    if not text or len(text.split()) > TAKEUP_MAX_WORDS or rules.FIRST_PERSON.search(text):
        return None
    if _NEWS_REACTION.search(text) or _CALLED_NEWS.search(text):
        return "a reaction to news"
    if _ASKS_AFTER.search(text) and not SECOND_PERSON.search(text) \
            and (followup.names_nothing(text) or _short_ask(text)):
        return FOLLOWUP_QUESTION
    stems = {stem(w) for w in details if len(w) >= ECHO_MIN_CHARS and w not in _NO_ECHO}
    words = content_words(text)
    echoed = [w for w in words if stem(w) in stems]
    own = [w for w in words if stem(w) not in stems and w not in rules.INTERJECTIONS and w not in _NO_ECHO
           and followup.detail_words([w])]
    # an echo takes the word up (asked back, "a SPOONBILL", "yes midwife"); one saying more of its own goes on
    return f"an echo ('{echoed[0]}')" if echoed and (not own or text.rstrip().endswith("?")) else None


def owns_news(text: str) -> bool:
    """Whether a take-up turn congratulates or consoles the speaker: the line it takes up was their own news."""
    return bool(_PERSONAL_REACTION.search(text))


def _short_ask(text: str) -> bool:
    """An asking word and at most one word more, no name: "how old", "where from" ask after what was just said."""
    words = text.split()
    return len(words) <= FOLLOWUP_SHORT_WORDS and bool(_ASKS_AFTER.match(text)) and not followup.NAMED.search(text[1:])


def _run_start(message: Message, prior: Sequence[Message]) -> int | None:
    """Index in ``prior`` after the speaker's lines just before the listener's run holding ``message``, or None."""
    at, run = len(prior), 1
    while at and prior[at - 1].speaker == message.speaker:
        at, run = at - 1, run + 1
    return at if at and run <= TAKEUP_RUN else None


def taken_up(message: Message, prior: Sequence[Message], told: Told, widened: Told | None = None) -> TakeUp | None:
    """The other speaker's line that ``message`` takes up as news, or None (``told`` judges a line in its place).

    The listener's run before ``message`` must have taken it up in no line already (it is formed once); the
    speaker's lines just before the run are looked at nearest first, skipping pure filler; one that formed
    something ends the search. ``widened`` judges a line as ``told`` does with ``OWN_NEWS_LIFT`` lifted; it is
    asked only when ``message`` congratulates or consoles (``owns_news``) and ``told`` pooled nothing.
    """
    at = _run_start(message, prior)
    if at is None:
        return None
    speaker, run, text = prior[at - 1].speaker, prior[at:], said(message)
    for back in range(1, TAKEUP_BACK + 1):
        if at - back < 0 or prior[at - back].speaker != speaker:
            return None
        news = prior[at - back]
        line = said(news)
        if not followup.detail_words(content_words(line)):
            continue  # "lol", "😂": filler, not the line taken up
        if worldline.REPLY_OPENING.search(line) or REPLYING.search(line) or STANDS_FOR.match(line):
            return None  # a reply to the listener (what is taken up is theirs), or a picture asked for or sent
        if signal(text, content_words(line)) is None:
            return None  # no take-up of any of its words: the line is not judged again
        told_news = content_poor_news(told(news, prior[: at - back]), GREETING.__contains__)
        if told_news is None and widened is not None and owns_news(text):
            told_news = content_poor_news(widened(news, prior[: at - back]), GREETING.__contains__)
        return None if told_news is None else _taking(message, run, news, told_news)
    return None


def content_poor_news(judged: Unformed | None, empty: Callable[[str], bool]) -> Unformed | None:
    """A line ``told`` judged, as news: it with its detail words besides the ``empty`` ones, or None.

    None when it formed something (a line is formed once), was rejected for more than a lack of content (a rule's
    own claim: a greeting, a reaction, advice, the listener), pools no clause, or says no detail word besides the
    ``empty`` ones (greetings for a take-up; ``opening`` adds announcements and stretched function words).
    """
    if judged is None:
        return None
    details = [w for w in judged.details if not empty(w)]
    if not judged.reason.startswith(CONTENT_POOR) or not judged.pooled or not followup.detail_words(details):
        return None
    return replace(judged, details=details)


def _taking(message: Message, run: Sequence[Message], news: Message, told: Unformed) -> TakeUp | None:
    """The take-up of ``news`` by ``message``, when no earlier line of the run took it up and no clarifying ask."""
    if any(signal(said(m), told.details) for m in run):
        return None  # taken up already, by the run's earlier line
    text = said(message)
    if confirmed.thing_asked(text) and len(said(news).split()) <= confirmed.ASKED_BACK_MAX_WORDS:
        return None  # "THE JOB???": the answer to it forms the line (``confirmed.clarified``)
    how = signal(text, told.details)
    return TakeUp(news, message, how, told) if how else None
