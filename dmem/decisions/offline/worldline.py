"""The default for a chat line: a declarative line that carries a specific detail tells the speaker's world.

Friends in a two-person chat tell their own world without a first-person word in the sentence that holds it:
fragments that answer or go on ("Marigold. The grey one. Osric is gutted, he found the gate open"), an event
at home ("a stoat got one of the ducks last night"), bare details ("green tandem. 2019. 340"), a long line
explaining their pet, place or family. Judged clause by clause, each piece is "vague" or "no personal fact".
So when no clause of a line formed a fact on its own, the line is judged as one unit: the clauses no marker
claims for something else pool their words (a fragment borrows the subject of the line), and the line is
the speaker's world when the pool carries a specific detail:
- a number, date, price, weekday or time, or a name (``reusable.anchor``, a name the chat wrote before, a
  capitalised word standing alone as a sentence), with ``LINE_ANCHOR_WORDS`` answer words; or
- ``LINE_MIN_WORDS`` answer words (a concrete noun phrase: "mould behind the wardrobe").
A marker claims a clause (it adds nothing to the pool) when it is about the listener ("you" as its subject),
an order or advice, a general statement (a generic present with a bare subject and no time, everyone/always,
news, sport or prices in general), a reaction to or an evaluation of what the listener said ("that sounds
fun", "absolutely"), an impression, filler, a question, a transient state or a hypothetical.
A line too short for that is still the speaker's world when it is one plain statement of theirs with
``LINE_LOOSE_WORDS`` answer words ("the boiler packed in"; ``short_statement``): the dial of how loose the default is.
A line of two or three words telling an event with its day said relatively ("doctor tomorrow", "got in yesterday")
is the speaker's dated event (``dated_event``), as the model path admits it.
"Vague" then means what it says: a line with no informative word at all. The line forms one fact naming
the speaker, its pooled clauses joined ("Rosa: Marigold; the grey one; Osric is gutted, ..."), not one each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from dmem.decisions.offline import news, reusable, rules
from dmem.decisions.offline.dated_event import dated_event
from dmem.decisions.offline.markers import claimed
from dmem.decisions.offline.register import progressive
from dmem.text.lexical import STOPWORDS, first_word
from dmem.text.words import I_FORMS, LISTENER_SAID, WH_OPENING, alternation

# Answer words a line's pool needs with an anchor (a number, date or name and a word saying what of it), and
# without one. Chosen on invented batches 1-2 and the tuning half's drafts; batch 3 is reported as the check.
LINE_ANCHOR_WORDS = 2
LINE_MIN_WORDS = 3
# The dial of how loose the default is for a short line (``short_statement``): the answer words a line needs when
# it has no anchor and fewer than LINE_MIN_WORDS, as long as it is one plain statement with a verb. At
# LINE_MIN_WORDS the tier is off (the stop-46 default); 2 keeps "the boiler packed in"; 1 keeps "its draughty".
# 2 was chosen on the tuning half and invented batches 1-4 (1 cost 4-5 % more memories for few evidence turns).
LINE_LOOSE_WORDS = 2
# A line opening with an agreement, a greeting or a remark on the listener answers what they said.
REPLY_OPENING = re.compile(r"^\W*(?:yes|yeah|yep|yup|yea|ya|sure|true|totally|absolutely|exactly|agreed|indeed|"
                            r"definitely|right|hey|hi|hello|glad|appreciate|thanks|thank|mm+|aww*|wow|oh|haha\w*|lol|"
                            r"omg|good\s+(?:luck|job|point|idea|call)|great|nice|congrats\w*|so\s+true|for\s+sure)\b"
                            r"|\b(?:you're|you've|you\s+(?:are|have|got|did|found|made|seem))\b", re.I)
# A clause that only thanks the listener: a reply, but the line's other clauses may still tell the speaker's news
# ("Thank you. Found it. It is ticking again.").
_THANKS_ALONE = re.compile(r"^\W*(?:(?:oh|aw+|ok|okay)\W+)*(?:thanks|thank\s*(?:you+|u+|ya))"
                           r"(?:\s+(?:so\s+much|very\s+much|a\s+lot|loads|again|x+))?\W*$", re.I)
# What a thing tasted or smelled like ("it tasted good", "they smelled amazing"): the speaker tasted it, so the
# clause tells their own experience, never a reaction to what the listener showed or said (that "looks"/"sounds").
_TASTED = re.compile(r"^\W*(?:it|they)\s+(?:\w+\s+)?(?:tasted|smelled|smelt)\b", re.I)
# Claims on a line's opening clause that make the whole line a reply to what the listener said.
_REPLYING = frozenset({"emotional", "phatic", "a reaction", "about the listener"})
# What keeps a short line from stating the speaker's world: the listener, a question without its mark ("hows
# mungo"), a demonstrative subject pointing at what was just said ("thats what she says"), a stage direction.
_NOT_STATING = re.compile(rf"{LISTENER_SAID.pattern}|{WH_OPENING.pattern}"
                          r"|^\W*(?:that|this|thats|that's|this's)\b|^\s*[\[(].*[\])]\W*$", re.I)
_LONE_NAME = re.compile(r"^\W*(?P<name>[A-Z][a-z]+)\W*$")
# A clause the speaker says of themselves with "I" and a verb ("i threw up", "I don't fly"): "I" is a subject, the
# word after it (past a negation or an adverb) a verb. Not a verb of knowing, seeing, meaning, liking or promising,
# which answers what the listener said ("i know", "i saw that", "i mean", "i love it", "i promise"): a closed class.
_I_NEGATED = r"(?:do\s+not|don'?t|dont|didn'?t|didnt|can'?t|cant|won'?t|wont)"
_I_STATES = re.compile(rf"^\W*(?:{alternation(I_FORMS)})\s+(?:(?:{_I_NEGATED}|never|just|also|still|really|"
                       r"literally)\s+)*(?!(?:know|knew|guess|think|thought|mean|meant|see|saw|seen|promise|swear|"
                       r"agree|bet|hope|wish|suppose|reckon|wonder|feel|love|like|hate|miss|do|did|am|was|will|would|"
                       rf"can|could|{_I_NEGATED})\b)[a-z]{{2,}}", re.I)


@dataclass(frozen=True)
class LineVerdict:
    """How a line with no clause admitted alone was judged as one unit."""

    admit: bool
    reason: str
    pooled: tuple[int, ...] = ()
    """Indexes of the clauses whose words the line's fact joins."""


def line_anchor(texts: Sequence[str], known: frozenset[str], people: set[str]) -> str | None:
    """The pool's specific anchor: a number, date or name, a name the chat wrote before, or a lone name."""
    for text in texts:
        if (found := reusable.anchor(text) or news.anchor(text, known)) and found.lower() not in people:
            return found
        if (m := _LONE_NAME.match(text)) and (word := m["name"].lower()) not in STOPWORDS \
                and word not in people and word not in rules.INTERJECTIONS and not rules.PHATIC.fullmatch(word):
            return m["name"]
    return None


def judge_line(texts: Sequence[str], kinds: Sequence[str], foreign: Sequence[bool],
               words: Callable[[str], list[str]], known: frozenset[str], people: set[str],
               listeners: Callable[[str], bool] = lambda _: False, replying: bool = False,
               topic: bool = False) -> LineVerdict | None:
    """The line's verdict as one unit, or None when its pool says nothing (the clauses' own reasons stand).

    ``texts``/``kinds``/``foreign``: each clause, its rejection kind and whether it is about someone else's
    person; ``listeners``: whether a clause's subject is the listener's thing; ``words``: a clause's answer
    words; ``known``: names the chat wrote before; ``people``: the speakers' names, lowercased (no detail);
    ``replying``: the line replies to the listener's question just before (the answer and follow-up rules judge
    a short line then); ``topic``: the thread just before gives the line a topic (``threads.topic_given``), so a
    line of one answer word said with "I" and a verb ("i threw up", "i dont fly") states something of the speaker's.
    """
    if len(texts) > 1 and _THANKS_ALONE.match(texts[0]):  # the thanks is the reply; the rest is judged as the line
        rest = judge_line(texts[1:], kinds[1:], foreign[1:], words, known, people, listeners, replying, topic)
        return replace(rest, pooled=tuple(i + 1 for i in rest.pooled)) if rest else None
    claims = [claimed(t, k, f, known, listeners) for t, k, f in zip(texts, kinds, foreign, strict=True)]
    claims = [None if why == "a reaction" and _TASTED.match(t) else why for t, why in zip(texts, claims, strict=True)]
    pooled = tuple(i for i, why in enumerate(claims) if why is None)
    if not pooled:
        return None
    said = [texts[i] for i in pooled]
    told = [w for t in said for w in words(t) if w not in people]
    if not told:
        return None  # no detail at all: vague, or the reaction or filler its clauses are
    opening = next((i for i, t in enumerate(texts) if words(t) or kinds[i] != "vague"), 0)
    if REPLY_OPENING.search(texts[0]) or claims[opening] in _REPLYING:  # the rest goes on about it
        quoted = texts[0] if REPLY_OPENING.search(texts[0]) else texts[opening]
        return LineVerdict(False, f"rejected: a reply to what the listener said ('{quoted}')")
    if sum(why not in (None, "vague") for why in claims) > len(pooled):
        return LineVerdict(False, "rejected: mostly not the speaker's world (advice, general statements, the listener)")
    anchor = line_anchor(said, known, people)
    if not any(reusable.states(t) for t in said):  # fragments only: a name alone is a title or a reaction
        if all(_capitalised(w, said) for w in told):
            return LineVerdict(False, f"rejected: a title or a name alone ('{' '.join(said)}')")
        anchor = anchor if anchor and reusable.detail(anchor) else None
    if (anchor and len(told) >= LINE_ANCHOR_WORDS) or len(told) >= LINE_MIN_WORDS:
        detail = anchor or " ".join(told[:LINE_MIN_WORDS])
        return LineVerdict(True, f"admitted: a chat line telling the speaker's world ('{detail}')", pooled)
    if len(told) >= LINE_LOOSE_WORDS and not replying and short_statement(texts, claims, told):
        return LineVerdict(True, f"admitted: a short chat line stating the speaker's world ('{' '.join(told)}')",
                           pooled)
    if topic and not replying and len(texts) == 1 and claims[0] is None and _I_STATES.match(texts[0]) \
            and not (_NOT_STATING.search(texts[0]) or _doing_now(texts[0])):
        return LineVerdict(True, f"admitted: a first-person line on the thread's topic ('{' '.join(told)}')", pooled)
    if len(texts) == 1 and claims[0] is None and not _NOT_STATING.search(texts[0]) \
            and (event := dated_event(texts[0])):  # "doctor tomorrow": the speaker's event and its day
        return LineVerdict(True, f"admitted: a dated event of the speaker's ('{event}')", pooled)
    return LineVerdict(False, f"rejected: too little detail to tell ('{' '.join(told)}')")


def short_statement(texts: Sequence[str], claims: Sequence[str | None], told: Sequence[str]) -> bool:
    """Whether a line too short for the default is still one plain statement of the speaker's world.

    Every clause is the speaker's (no marker claims one: no reaction, question, advice or listener), one has a
    verb (``reusable.states``: "solid plan" has none), and no answer word is said twice ("night night").
    """
    return all(why is None for why in claims) and any(reusable.states(t) for t in texts) \
        and len(set(told)) == len(told) and not any(_NOT_STATING.search(t) or _doing_now(t) for t in texts)


def _doing_now(text: str) -> bool:
    """Whether the clause opens with a progressive whose "I'm" chat dropped: what the speaker is doing right now.

    "eating lunch", "sending it now" are transient states; a habit or a dated plan got its subject back before.
    """
    return progressive(first_word(text).lower().strip("\"'(,.!?"))


def _capitalised(word: str, texts: Sequence[str]) -> bool:
    """Whether the answer word is written capitalised (not all capitals) in the line: part of a name or title."""
    return any(re.search(rf"\b{re.escape(word[:1].upper() + word[1:])}", t) and not t.isupper() for t in texts)
