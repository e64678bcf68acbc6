"""A short question about the listener's own thing asked without "you", and the reply that answers it.

Chat drops "your" in a question as it drops "my" in a statement: "how r lessons" is "how are your lessons",
"hows the legs" "how are your legs", "name" (after a new pet) "what's its name", and a bare asking word ("how
far", "how much", "of what", "meh why") asks after what the listener was telling. ``replies`` sees only questions
that say "you", with a question mark or a question's opening, so the speaker's reply right after ("can float now",
"32 each", "lieutenant fig") was judged alone and said too little. Read as the question it answers, the reply is
the speaker's answer: one fact stating both ("Teodwin's lessons: can float now" when the question names a thing
of theirs, else 'Teodwin answered Marisole's question "how much": 32 each'), the question's turn a source.

Kept out: a longer question (it says whose thing it asks about: "how far is it to the coast", "how much are
tickets these days"), one naming the asker ("how do i look") or the listener (``replies`` reads those), "what?"
alone (a "pardon?"), a lead-in that doubts ("idk why", "not sure how"); a reply that only reacts, fills or says
yes or no, asks back, or runs long. A question naming nothing right after the speaker's own line with content
("under the fence" / "how far") asks after that line: ``followup`` joins the reply to it, not this rule; one right
after the speaker's own question ("how was your weekend?" / "why") asks why they ask.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from dmem.decisions.offline import followup, rules, telegraphic
from dmem.decisions.offline.replies import Asked, without_speaker
from dmem.state.schemas import Message
from dmem.text.asked import LEAD_INS, asks, opens_yes_no
from dmem.text.lexical import content_words, straighten
from dmem.text.verbs import IRREGULAR_PASTS
from dmem.text.words import ASKER_SAID, SECOND_PERSON_ASKED, WHAT_CHAT, alternation

# Most words of a question asked without "you": a longer one names whose thing it asks about. Chosen on the
# tuning half and batches 1-11 and 13 (batch 12 the check).
QUESTION_MAX_WORDS = 4
# Most words of the reply: a longer one is judged on what it says (chat's answer to such a question is a phrase).
REPLY_MAX_WORDS = 6
# Chat's yes and no beyond ``opens_yes_no``'s ("ye 👶"): a yes alone answers no question asking for a thing.
_YES_NO = re.compile(r"^\W*(?:ye+|yh|yas+|ya+|yea+h*|ok|k|na+h*|no+)\b", re.I)
_BE = r"(?:'s|s|\s+(?:is|are|r|was|were))"
# "how r lessons", "hows the legs", "whats the plan": a thing of the listener's with "your" dropped (one or two
# words, a determiner 'the' at most: "how is it" names nothing and is ``followup``'s).
_THING = re.compile(rf"^{LEAD_INS}(?:how|what){_BE}\s+(?P<det>the\s+)?(?P<np>(?!(?:it|that|this|they|he|she|things|"
                    r"everything|life)\b)[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)\W*$", re.I)
# "name?", "the job?": a bare noun of what a person has (``telegraphic.PERSONAL_NOUNS``) asked about alone; after a
# conjunction at most ("hi back": a greeting passed on, not a question about one's back).
_NOUNS = alternation(" ".join(sorted(telegraphic.PERSONAL_NOUNS)))
_NOUN = re.compile(rf"^(?:(?:and|so|but|ok|okay|wait)\s+)?(?:the\s+)?(?P<np>{_NOUNS})\s*\?*$", re.I)
# Words for a person or pet: alone and unmarked they address or tease the listener ("baby", "boys"), asking nothing.
_PEOPLE = frozenset(w.lower() for w in (*rules.RELATIONS, *rules.PETS))
# "how far", "of what", "meh why", "tragic how": an asking word alone, with its measure, a preposition, or one word
# before it; "what" only after a preposition ("what?", "wait what": surprise, not a question); no lead-in that
# doubts ("idk why", "not sure how": no question).
_DOUBT = r"(?:idk|dunno|not|no|know|see|wonder|sure)"
# "what" and chat's spellings of it ("doing wat", "wat u doing").
_WHAT = rf"(?:what|{alternation(WHAT_CHAT)})"
# "when u start", "where u going", "wat u doing": an asking word, the listener as subject, a verb and a word at most
# after it, no auxiliary, no mark (``asked`` reads a question by its mark or its auxiliary; chat drops both). Not
# "what u mean", "what u think", "how u know": they ask about what was just said, not the listener's own thing.
_YOU_ASKED = re.compile(rf"^{LEAD_INS}(?:{_WHAT}|when|where|which|how)\s+(?:u|you|ya)\s+"
                        r"(?!(?:mean|meant|think|thought|know|knew|reckon|say|said)\b)[a-z]+(?:\s+[a-z]+)?\s*\?*$",
                        re.I)
# "doing wat", "got wat", "going where": an echo question, a verb (an -ing or a past form) then the asking word; not
# "wait what" or "so what" (surprise, no verb), nor "what?" alone.
_PAST = alternation(" ".join(sorted(IRREGULAR_PASTS)))
_ECHO = re.compile(rf"^{LEAD_INS}(?:(?:u|you|ya)\s+)?(?:[a-z]{{2,}}ing|[a-z]{{2,}}ed|{_PAST})\s+"
                   rf"(?:{_WHAT}|where|when|who)\s*\?*$", re.I)
_BARE = re.compile(rf"^{LEAD_INS}(?:(?!{_DOUBT}\b)[\w']+\s+)?(?:(?P<prep>of|for|with|to|from|since|in|at|by)\s+)?"
                   r"(?:how(?:\s+(?:much|far|long|many|often|old|big|come|so|exactly))?|why|where|when|who|"
                   r"which(?:\s+one)?|(?(prep)what|(?!)))\s*(?:tho|then|exactly|now)?\s*\?*$", re.I)


def own_thing(question: str) -> str | None:
    """What a short question asked without "you" asks of the listener's: the thing, '' for an asking word alone.

    "how r lessons" -> 'lessons' (a bare noun of what a person has, ``telegraphic.PERSONAL_NOUNS``); "hows the
    legs", "hows work", "hows ness" (a name, likely) -> '': the fact keeps the question; "name" -> '' (whose name the
    chat before says); "how far" -> ''. None for any other line.
    """
    text = " ".join(straighten(question).split())
    words = text.split()
    if not words or len(words) > QUESTION_MAX_WORDS or ASKER_SAID.search(text):
        return None
    if _YOU_ASKED.match(text) or _ECHO.match(text):  # asks for the detail: the fact keeps the question
        return ""
    if SECOND_PERSON_ASKED.search(text):
        return None
    if m := _THING.match(text):  # a bare word of no person's things is likely a name ("hows ness"): not owned
        owned = not m["det"] and (m["np"].lower() in telegraphic.PERSONAL_NOUNS
                                  or m["np"].lower().removesuffix("s") in telegraphic.PERSONAL_NOUNS)
        return m["np"] if owned else ""
    if m := _NOUN.match(text):  # a person's word with no mark calls the listener a name ("baby"): no question
        return "" if "?" in text or m["np"].lower() not in _PEOPLE else None
    if _BARE.match(text):
        return ""
    return None


def names_nothing(question: str) -> bool:
    """Whether the question only asks (an asking word, no thing of its own): it asks after the line before."""
    return _BARE.match(" ".join(straighten(question).split())) is not None


def asked_terse(message: Message, prior: Sequence[Message], words: Callable[[str], list[str]]) -> Asked | None:
    """The other speaker's short question without "you" that ``message`` answers (``own_thing``), or None.

    The question is the other's turn just before; the reply is short and says something (an answer word that is
    no filler, no yes or no alone, no question back). A question naming nothing after the speaker's own line with
    content is left to ``followup``, and one after the speaker's own question asks about that question.
    ``words``: a text's answer words (``clauses.answer_words``).
    """
    if not prior or prior[-1].speaker == message.speaker:
        return None
    question = followup.said(prior[-1])
    thing, reply = own_thing(question), followup.said(message)
    if thing is None or not _answers(reply, words):
        return None
    if len([s for s in rules.SENTENCE_END.split(reply) if s.strip()]) > 1:
        thing = ""  # a reply in pieces stays one fact framed with its question (its pieces join there)
    if names_nothing(question) and _said_before(message, prior):
        return None
    return Asked(asker=prior[-1].speaker, question=question.rstrip(" ?") + "?", turn_id=prior[-1].turn_id,
                 thing=thing)


def _answers(reply: str, words: Callable[[str], list[str]]) -> bool:
    """Whether a reply is short and says something: a detail word, not only a yes or no, no question back."""
    if not reply or len(reply.split()) > REPLY_MAX_WORDS or asks(reply):
        return False
    details = followup.detail_words(words(reply))
    return bool(details) and not ((opens_yes_no(reply) or _YES_NO.match(reply)) and len(details) < 2)


def _said_before(message: Message, prior: Sequence[Message]) -> bool:
    """Whether the speaker's line before the asker's turns (``followup.FOLLOWUP_RUN``) asks or says something.

    An asking word alone then asks after that line: its news (``followup``'s) or its question ("how was your
    weekend?" / "why": why the speaker asks), not a thing of the speaker's.
    """
    for turn in reversed(prior[-followup.FOLLOWUP_RUN - 1:]):
        if turn.speaker == message.speaker:
            text = without_speaker(turn.text or "", turn.speaker)
            return asks(text) or bool(followup.detail_words(content_words(text)))
    return False
