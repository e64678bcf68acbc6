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
"Vague" then means what it says: a line with no informative word at all. The line forms one fact naming
the speaker, its pooled clauses joined ("Rosa: Marigold; the grey one; Osric is gutted, ..."), not one each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dmem.decisions.offline import news, reusable, rules
from dmem.decisions.offline.markers import claimed
from dmem.text.lexical import STOPWORDS

# Answer words a line's pool needs with an anchor (a number, date or name and a word saying what of it), and
# without one. Chosen on invented batches 1-2 and the tuning half's drafts; batch 3 is reported as the check.
LINE_ANCHOR_WORDS = 2
LINE_MIN_WORDS = 3
# A line opening with an agreement, a greeting or a remark on the listener answers what they said.
_REPLY_OPENING = re.compile(r"^\W*(?:yes|yeah|yep|yup|yea|ya|sure|true|totally|absolutely|exactly|agreed|indeed|"
                            r"definitely|right|hey|hi|hello|glad|appreciate|thanks|thank|mm+|aww*|wow|oh|haha\w*|lol|"
                            r"omg|good\s+(?:luck|job|point|idea|call)|great|nice|congrats\w*|so\s+true|for\s+sure)\b"
                            r"|\b(?:you're|you've|you\s+(?:are|have|got|did|found|made|seem))\b", re.I)
# Claims on a line's opening clause that make the whole line a reply to what the listener said.
_REPLYING = frozenset({"emotional", "phatic", "a reaction", "about the listener"})
_LONE_NAME = re.compile(r"^\W*(?P<name>[A-Z][a-z]+)\W*$")


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
               listeners: Callable[[str], bool] = lambda _: False) -> LineVerdict | None:
    """The line's verdict as one unit, or None when its pool says nothing (the clauses' own reasons stand).

    ``texts``/``kinds``/``foreign``: each clause, its rejection kind and whether it is about someone else's
    person; ``listeners``: whether a clause's subject is the listener's thing; ``words``: a clause's answer
    words; ``known``: names the chat wrote before; ``people``: the speakers' names, lowercased (no detail).
    """
    claims = [claimed(t, k, f, known, listeners) for t, k, f in zip(texts, kinds, foreign, strict=True)]
    pooled = tuple(i for i, why in enumerate(claims) if why is None)
    if not pooled:
        return None
    said = [texts[i] for i in pooled]
    told = [w for t in said for w in words(t) if w not in people]
    if not told:
        return None  # no detail at all: vague, or the reaction or filler its clauses are
    opening = next((i for i, t in enumerate(texts) if words(t) or kinds[i] != "vague"), 0)
    if _REPLY_OPENING.search(texts[0]) or claims[opening] in _REPLYING:  # the rest goes on about it
        quoted = texts[0] if _REPLY_OPENING.search(texts[0]) else texts[opening]
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
    return LineVerdict(False, f"rejected: too little detail to tell ('{' '.join(told)}')")


def _capitalised(word: str, texts: Sequence[str]) -> bool:
    """Whether the answer word is written capitalised (not all capitals) in the line: part of a name or title."""
    return any(re.search(rf"\b{re.escape(word[:1].upper() + word[1:])}", t) and not t.isupper() for t in texts)
