"""Person rewriting and reference resolution for standalone facts, under the grounding constraint.

First person becomes the speaker ("I adopted" -> "Maya adopted", "my" -> "Maya's", with
present-tense verbs agreed: "I love" -> "Maya loves"); 'we/our/us' become "<speaker> and
others"/"<speaker>'s"; 'you/your' become the listener when the window names one. A clause-initial
'he/she/they' binds to the most recent compatible relation named in the window ("my son" ->
"Maya's son"). With no antecedent it never invents one: an age ("he is seven") gives
"<speaker>'s child", anything else "someone <speaker> knows" ("people <speaker> knows" for 'they').
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dmem.decisions.offline import register, rules
from dmem.text.nouns import indefinite
from dmem.text.verbs import IRREGULAR_PASTS
from dmem.text.words import wordset

_NO_AGREEMENT = wordset(
    "can could will would shall should must might may can't couldn't won't wouldn't shouldn't didn't "
    "wasn't used also and or too myself wanna gonna gotta does has is was"
)
_COUNT_WORDS = wordset("two three four five six seven eight nine ten few several many some own")
_AGREE = {"have": "has", "do": "does", "go": "goes", "am": "is", "be": "is", "don't": "doesn't",
          "haven't": "hasn't", "'m": "is"}
_ADVERB = (r"(?:just|also|always|never|still|often|even|now|finally|sometimes|usually|already|really|actually|"
           r"recently|totally|absolutely|definitely|honestly|personally|truly|seriously|mostly|currently|"
           r"newly|only|certainly|generally|especially|rarely|occasionally|regularly)")
_I_VERB = re.compile(rf"\b[Ii]\b(?P<adv>(?:\s+{_ADVERB})*)\s+(?P<verb>[A-Za-z']+)")
_CONTRACTIONS = [  # (pattern, replacement template) applied before the general "I <verb>" rule
    (r"\b[Ii](?:'|\u2019)m\b|\b[Ii] am\b", "{s} is"), (r"\b[Ii](?:'|\u2019)ve\b", "{s} has"),
    (r"\b[Ii](?:'|\u2019)d\b", "{s} would"), (r"\b[Ii](?:'|\u2019)ll\b", "{s} will"),
    (r"\b[Ww]e(?:'|\u2019)re\b", "{s} and others are"), (r"\b[Ww]e(?:'|\u2019)ve\b", "{s} and others have"),
    (r"\b(?:[Mm]y|[Mm]ine|[Oo]ur|[Oo]urs)\b", "{s}'s"), (r"\b[Mm]yself\b", "{s}"), (r"\b[Mm]e\b", "{s}"),
    (r"\b[Ww]e\b", "{s} and others"), (r"\bus\b", "{s} and others"),
]
# "I've had my Vespa": the owner is the subject, so the possessive is dropped ("has had a Vespa").
_OWNED = re.compile(r"\b(?P<lead>[Ii](?:'|\u2019)ve\s+(?:had|owned|got)|[Ii]\s+(?:have\s+had|have\s+owned|own|"
                    r"owned|bought))\s+my\s+(?P<next>[\w'-]+)")
# "did I mention my son started school": a lead-in that only frames the news after it ("Noor's son started school").
_TOLD = re.compile(r"^(?P<head>\W*)(?:did|have)\s+I\s+(?:ever\s+)?(?:mention(?:ed)?|tell\s+you|told\s+you)"
                   r"(?:\s+that)?\s+(?!(?:about|of|how|what|when|where|why|who|which|anything|something)\b)(?=\w)",
                   re.I)
# "did I mention", "don't you love it", "didnt u fail": an auxiliary before its subject (a question) agrees with
# the name that replaces "I" or "you" ("doesn't Theo love it"), and the verb after it stays bare.
_B40_AUX = "do did have had am are was were will would can could should shall may might must"
_B40_ASKING = re.compile(r"(?<!\b[Ii]\s)(?<![\w'\u2019])(?:(?P<irregular>won|can|shan)['\u2019]?t|"
                         rf"(?P<aux>{'|'.join(_B40_AUX.split())})(?P<neg>n['\u2019]?t)?)\s+(?P<subject>I|you)\b"
                         r"(?!['\u2019]|\s+(?:and|guys|all|both|two)\b)", re.I)  # not "you're", "you and Mia"
_AUX_AGREED = {"do": "does", "have": "has", "am": "is", "are": "is", "were": "was"}
_B40_AUXILIARIES = wordset(f"{_B40_AUX} does has is won't wont can't cant cannot shan't") | {
    f"{a}n{q}t" for a in wordset(f"{_B40_AUX} does has is") for q in ("'", "", "\u2019")}
"""Auxiliaries, negated with or without the apostrophe: the verb after one is bare ("didn't Theo fail")."""
# What may come before a question's auxiliary in its clause: lead-ins, a wh-word and its words ("how long", "what
# kind of music"); not a subject of the auxiliary's own ("I'll have you know", "when the kids have you over").
_B40_QUESTION_LEAD = re.compile(
    r"^\s*(?:(?:and|so|but|or|also|then|oh|ok|okay|wait|hey|well|lol|anyway|btw|now)\s+)*"
    r"(?:(?:what|where|when|why|how|who|whom|which|whose)(?:\s+(?!(?:i|we|they|he|she|it|"
    r"the|a|an|my|your|his|her|their|our|this|that)\b)[\w'-]+){0,3})?\s*$", re.I)
_PLURAL_TAIL = {"ve": " have", "m": " are", "d": " would", "ll": " will"}
# "how you use it" -> "how Theo uses it"; not after an auxiliary or a preposition ("did you use").
_YOU_VERB = re.compile(rf"(?P<prev>\b\w+\s+)?\b[Yy]ou(?P<adv>(?:\s+{_ADVERB})*)\s+(?P<verb>[a-z]+)\b")
_NOT_AFTER = _B40_AUXILIARIES | wordset("to for with at of about thank thanks tell told let see saw love miss make "
                                        "made help want wish")
_NOT_VERBS = wordset("guys all too both two and or so are were was is the a an who that about to in on at for with "
                     "from of by into onto over under off out up down back there here again now then later tonight "
                     "today tomorrow this these those next last my your his her our their some any if when "
                     "because but as than not ok okay alright good fine sure ready free home")
"""Words after 'you' that show it is an object or ends a phrase ("drive you to work"), not a verb's subject."""
_LISTENER = [
    (r"\b[Yy]ou(?:'|\u2019)re\b|\b[Yy]ou are\b", "{l} is"), (r"\b[Yy]ou(?:'|\u2019)ve\b", "{l} has"),
    (r"\b[Yy]our(?:s)?\b", "{l}'s"), (r"\b[Yy]ourself\b|\b[Yy]ou\b", "{l}"),
]
_SUBJECT = re.compile(r"(?:^|(?<=\band )|(?<=\bbecause )|(?<=\bso )|(?<=\bbut ))(?P<p>[Hh]e|[Ss]he|[Tt]hey)\b"
                      r"(?P<rest>\s+(?:is|was|are|were|turned|turns|has|have|loves|likes)\b[^,.;]*)")
_AGE = re.compile(r"^\s+(?:is|was|turned|turns|just turned)\s+(?:\d{1,2}|one|two|three|four|five|six|seven|"
                  r"eight|nine|ten|eleven|twelve|\w+teen)\b", re.I)
_RELATION = re.compile(r"\b(?P<owner>[Mm]y|[A-Z][\w-]*'s)\s+(?P<rel>" + "|".join(rules.RELATIONS) + r")\b"
                       r"(?:\s+(?P<name>[A-Z][a-z]+))?")

# Someone else's words quoted after a verb of saying ("he say 'tell her i want chips'", "Mum goes: \"you're late\""):
# their I and you are the quoted person's and listener's, so the quote is written as said. The speaker's own quoted
# words ("I told him 'I'm out'") are not masked: their I is the speaker.
_QUOTED = re.compile(r"\b(?P<who>[\w']+)\s+(?:\w+ly\s+)?(?:say|says|said|tell|tells|told|ask|asks|asked|write|writes|"
                     r"wrote|text|texts|texted|goes|went|shout|shouts|shouted|was\s+like|is\s+like)\b(?:\s+\w+)?"
                     r"[,:]?\s*(?P<q>\"[^\"]+\"|\u201c[^\u201d]+\u201d|(?<![\w'])'(?:[^']|(?<=\w)'(?=\w))+'(?!\w)|"
                     r"\u2018[^\u2019]+\u2019)")


def _masked(text: str) -> tuple[str, list[str]]:
    """``text`` with each quote of someone else's words swapped for a placeholder no rewrite touches, and the quotes."""
    quotes: list[str] = []

    def mask(m: re.Match[str]) -> str:
        if m["who"].lower() in ("i", "we"):
            return m.group(0)
        quotes.append(m["q"])
        return m.group(0)[: m.start("q") - m.start()] + f"\ue000{chr(0xE100 + len(quotes) - 1)}"

    return _QUOTED.sub(mask, text), quotes


def agree(verb: str) -> str:
    """Third-person singular present of a base-form verb; past forms and modals unchanged."""
    low = verb.lower()
    if low in _AGREE:
        return _AGREE[low]
    if low in _NO_AGREEMENT or low in IRREGULAR_PASTS or low.endswith(("ed", "n't")) or "'" in low:
        return verb
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _article(m: re.Match[str]) -> str:
    """'a'/'an' before a singular noun; nothing before a number or a plural ('my two cats' -> 'two cats')."""
    following = m["next"]
    low = following.lower()
    if low in _COUNT_WORDS or low[:1].isdigit():
        return f"{m['lead']} {following}"
    return f"{m['lead']} {indefinite(following)}"


def _cased(said: str, written: str) -> str:
    return written[:1].upper() + written[1:] if said[:1].isupper() else written


def _listener_verb(m: re.Match[str], listener: str) -> str:
    prev = (m["prev"] or "").strip().lower()
    if prev in _NOT_AFTER or m["verb"] in _NOT_VERBS or m["verb"].endswith("ing"):
        return m.group(0)
    return f"{m['prev'] or ''}{listener}{m['adv']} {agree(m['verb'])}"


def _asking(m: re.Match[str], speaker: str, listener: str | None) -> str:
    """An auxiliary before 'I' or 'you' agreed with the name ("do you" -> "does Theo"); 'you' only in a question."""
    subject = m["subject"]
    lead = re.split(r"[,.;:!?\n]|\b(?:and|or|but)\b", m.string[: m.start()])[-1]  # the clause before the auxiliary
    if subject.lower() == "you" and (not listener or not _B40_QUESTION_LEAD.match(lead)):
        return m.group(0)
    if m["irregular"]:
        aux = m.group(0)[: -len(subject)].rstrip()
    else:
        aux = _cased(m["aux"], _AUX_AGREED.get(m["aux"].lower(), m["aux"])) + ("n't" if m["neg"] else "")
    return f"{aux} {speaker if subject.lower() == 'i' else listener}"


def rewrite_person(text: str, speaker: str, listener: str | None = None) -> str:
    """Name the speaker (and listener) instead of first and second person pronouns.

    Chat's second person ('u', 'ur', 'r u') names the listener as 'you' does, in statements and questions alike.
    Someone else's quoted words keep their own I and you (``_QUOTED``).
    """
    text, quotes = _masked(text)
    if listener:
        text = register.spoken_to(text)
    text = _TOLD.sub(lambda m: m["head"], text)
    text = _OWNED.sub(_article, text)
    # "My dad and I": a plural subject, so nothing agrees with the speaker alone ("have", not "has").
    text = rules.PAIR_SUBJECT.sub(lambda m: f"{m['pair']} and {speaker}{_PLURAL_TAIL.get((m['tail'] or '')[1:], '')}",
                                  text, count=1)
    text = _B40_ASKING.sub(lambda m: _asking(m, speaker, listener), text)
    for pattern, template in _CONTRACTIONS[:4]:
        text = re.sub(pattern, template.format(s=speaker), text)
    text = _I_VERB.sub(lambda m: f"{speaker}{m['adv']} {agree(m['verb'])}", text)
    text = re.sub(r"\b[Ii]\b", speaker, text)
    for pattern, template in _CONTRACTIONS[4:]:
        text = re.sub(pattern, template.format(s=speaker), text)
    if listener:
        text = _YOU_VERB.sub(lambda m: _listener_verb(m, listener), text)
        for pattern, template in _LISTENER:
            text = re.sub(pattern, template.format(l=listener), text)
    return re.sub("\ue000(.)", lambda m: quotes[ord(m[1]) - 0xE100], text) if quotes else text


@dataclass(frozen=True)
class Antecedent:
    """A person a later pronoun may point to, as it should read in a fact."""

    phrase: str
    gender: str
    """'m', 'f', 'n' (either) or 'p' (plural)."""


def _gender(rel: str) -> str:
    if rel in rules.PLURAL:
        return "p"
    return "m" if rel in rules.MALE else "f" if rel in rules.FEMALE else "n"


def antecedents(text: str, speaker: str) -> list[Antecedent]:
    """Relations named in one utterance ('my son Max' -> "Max"; 'my sister' -> "Maya's sister")."""
    found: list[Antecedent] = []
    for m in _RELATION.finditer(text):
        owner = speaker if m["owner"].lower() == "my" else m["owner"][:-2]
        phrase = m["name"] or f"{owner}'s {m['rel']}"
        found.append(Antecedent(phrase, _gender(m["rel"])))
    return found


def _fits(pronoun: str, ante: Antecedent) -> bool:
    if pronoun == "they":
        return ante.gender == "p"
    return ante.gender in ("n", "m" if pronoun == "he" else "f")


def resolve_subjects(text: str, speaker: str, known: list[Antecedent]) -> str:
    """Bind clause-initial he/she/they to the latest fitting antecedent, or a generic form."""

    def bind(m: re.Match[str]) -> str:
        pronoun = m["p"].lower()
        match = next((a for a in reversed(known) if _fits(pronoun, a)), None)
        if match:
            who = match.phrase
        elif pronoun != "they" and _AGE.match(m["rest"]):
            who = f"{speaker}'s child"
        else:
            who = f"people {speaker} knows" if pronoun == "they" else f"someone {speaker} knows"
        return who + m["rest"]

    return _SUBJECT.sub(bind, text)
