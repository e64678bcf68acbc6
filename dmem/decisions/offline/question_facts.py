"""When a clause is a question, and when a question carries a fact about someone though it asks.

A question presupposes the game in "did you finish the game I lent you?" (``presuppose``); a longer one naming
someone's thing, the asker's own doing or a time is quoted whole, and so is one asking how the listener's own event
went ("How did your driving test go?"). One only asking for news or a taste ("any books you look for at the
library?") carries none.
"""

from __future__ import annotations

import re

from dmem.decisions.offline import presuppose, rules
from dmem.decisions.offline.clauses import answer_words
from dmem.text.asked import asks
from dmem.text.quotes import shorten

# Answer words a question needs to carry a fact (with a presupposing word); chosen on the tuning half.
QUESTION_FACT_MIN_WORDS = 5
# "How did your driving test go?", "How was the trip to the coast?", "Did you finish the quilt you started?":
# a question about how the listener's own event or thing went names it. Words chosen on the tuning half.
ASKS_HOW_MIN_WORDS = 2
_ASKS_HOW_IT_WENT = re.compile(
    r"\bhow\s+(?:did|was|were|is|are|'s)\s+(?:your|ur|the|that)\s+(?!day\b|week\b|weekend\b|morning\b|evening\b)"
    r"[\w'-]+(?:\s+[\w'-]+){0,5}?\s+(?:go|going|went|goes|been|turn\s+out|turning\s+out|come\s+along|coming\s+along)\b"
    r"|\bhow\s+(?:was|were|did\s+you\s+like|did\s+you\s+enjoy)\s+(?:your|ur|the|that)\s+(?!day\b|week\b|weekend\b)\w+"
    r"|\b(?:did|have)\s+you\s+(?:finish|finished|start|started|get|got|move|moved|hear\s+back|sell|sold|fix|fixed)\s+"
    r"(?:your|ur|the|that)\s+\w+", re.I)
# A question presupposes a fact when it names someone's thing, the asker's own doing or a time: "the game
# I lent you", "your trip", "the match last week". "The" or "that" alone does not: "any books you look for
# at the library?", "a dish that you cook for guests?" only ask for news or tastes (ARTICLES_PRESUPPOSE 1
# counts them, as before; 0 was chosen leaving one conversation out, tuning half only).
ARTICLES_PRESUPPOSE = 0
_PRESUPPOSES = re.compile(r"\b(?:your|my|our|his|her|their)\s+\w+|\b(?:i|we)\s+\w+|"
                          r"\b(?:yesterday|last\s+\w+|ago|tonight|tomorrow|today)\b", re.I)
_ARTICLE = re.compile(r"\b(?:the|that)\s+\w+", re.I)


def is_question(text: str) -> bool:
    """Whether a clause asks (``asks``) or opens as a question without its mark (``rules.opens_question``)."""
    return asks(text) or rules.opens_question(text)


def carries_fact(text: str, then: str | None = None) -> str | None:
    """The words by which a question presupposes something definite about someone, or None.

    'the game I lent you', 'your new puppy' (``presuppose``); a longer question naming someone's thing or a
    time, or asking how the listener's own event went ("How did your driving test go?"), is quoted whole.
    """
    if said := presuppose.presupposed(text, then):
        return said
    words = len(answer_words(text))
    if words >= QUESTION_FACT_MIN_WORDS and (_PRESUPPOSES.search(text)
                                             or (ARTICLES_PRESUPPOSE and _ARTICLE.search(text))):
        return shorten(text, 60)
    return shorten(text, 60) if words >= ASKS_HOW_MIN_WORDS and _ASKS_HOW_IT_WENT.search(text) else None
