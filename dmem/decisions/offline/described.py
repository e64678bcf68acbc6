"""A person the message names and goes on describing by he/she: "kirsty is from fife, she does nursing, ...".

A long chat message often introduces someone of the speaker's life and describes them clause by clause: "kirsty is
from fife, she does nursing, she bakes at like 2am", "Ottoline is the new manager. She ran a cafe in Leith". No
clause says "I", and the name may be new to the chat (lowercase too), so the people reader (``person_clauses``) binds
nothing and admission rejects the line as no personal fact. ``read`` reads such a clause as a fact about that person:

1. the clause opens with a name before a verb (``person.MAY_BE_SUBJECT``) and it or the rest of the message goes on
   of them by he/she; or it opens with a he/she and an earlier clause of the same message opened with such a name,
   or, when it is the message's first, the speaker's own message just before did (chat splits one turn);
2. every he/she/his/him or she/her of the message from the name on is of one gender (two people are two
   readings), and the message names nobody else there (a second name, a relation, a role);
3. the clause says nothing to or of the listener (no "you": advice, a reaction), asks nothing and says enough
   (``MIN_WORDS`` answer words besides the name);
4. the name is not a speaker's, not a common word (``person.NOT_NAMES``), never the listener's person in the lines
   before ("your kirsty", a name only the listener said there) and, lowercase, only in a line that writes no
   capitals (chat's all-lowercase register).

The fact names the person with the relation the speaker gave them in the lines before or in stored memories ("my
flatmate Kirsty"), else by the name alone: never "<speaker>'s Kirsty", whose owner the offline answer would take
for the value. Admission uses it only when nothing else admits the line (``admission.judged_utterance``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dmem.decisions.offline import rules
from dmem.decisions.offline.chat_names import writes_capitals
from dmem.decisions.offline.circle import Circle
from dmem.decisions.offline.named_people import mentions
from dmem.decisions.offline.person import GENDER, LEAD, MAY_BE_SUBJECT, NOT_NAMES, Person
from dmem.decisions.offline.roles import ROLES
from dmem.text.lexical import content_words
from dmem.text.words import SECOND_PERSON, wordset

# Answer words a described clause needs besides the person's name; the least that tells something of them.
MIN_WORDS = 3
_NAMED = re.compile(r"(?P<name>[A-Za-z][a-z]{2,})\b")
_OPENING_PRONOUN = re.compile(r"(?P<p>he|she)(?:'s|\s+(?:is|was|has|had|does|did|works|lives|studies|plays|loves|"
                              r"hates|can|will|used|always|never|still|also|just|[a-z]+s|[a-z]+ed)\b)", re.I)
_MALE = re.compile(r"\b(?:he|he's|his|him|himself)\b", re.I)
_FEMALE = re.compile(r"\b(?:she|she's|her|hers|herself)\b", re.I)
# Words that open a clause before a verb and are no one, beyond ``NOT_NAMES``: "everyone likes her", "work is mad".
NO_ONE = wordset("everyone everybody everything someone somebody anyone anybody nobody nothing things life work "
                  "school uni college business weather food today tonight tomorrow yesterday "
                  # chat's contractions written without the apostrophe: "shes started", "thats", "dont"
                  "shes hes hed shed theyre its thats theres heres whats hows whos lets dont cant wont didnt "
                  "doesnt isnt wasnt im ive ill id youre youve")
# "my flatmate odalie", "my new boss Idris": a relation the speaker gave a name (a kin word or role, ``_RELATIONS``).
_RELATED = re.compile(r"\bmy\s+(?P<rel>(?:[a-z]+\s+)?[a-z]+)\s+(?P<name>[A-Za-z][a-z]{2,})\b", re.I)
_RELATIONS = frozenset(GENDER) | frozenset(ROLES)


@dataclass(frozen=True)
class Described:
    """A clause read as a fact about the person its message names and describes."""

    text: str
    """The clause with its opening name or he/she written as the speaker's person ('my flatmate Kirsty is ...')."""
    person: Person


def _gender(text: str) -> str | None:
    """'m' or 'f' from the he/she words of ``text``, None when it has both or neither."""
    male, female = bool(_MALE.search(text)), bool(_FEMALE.search(text))
    return "m" if male and not female else "f" if female and not male else None


def _opening_name(text: str, circle: Circle) -> re.Match[str] | None:
    """The name opening the clause before a verb, when it may be someone (rule 4's word checks)."""
    lead = LEAD.match(text)
    m = _NAMED.match(text, lead.end() if lead else 0)
    if m is None or not MAY_BE_SUBJECT.match(text, m.end()):
        return None
    word = m["name"]
    key = word.lower()
    if key in NOT_NAMES or key in NO_ONE or key in ROLES or key in rules.INTERJECTIONS \
            or key in {w.lower() for s in circle.speakers for w in s.split()}:
        return None
    if word.islower() and writes_capitals(circle.message.text or ""):
        return None
    return m


def _others(text: str, key: str, circle: Circle) -> bool:
    """Whether ``text`` names someone besides ``key`` (a name, a relation, a role)."""
    named = mentions(circle.message, text, circle.listener, circle.known, circle.names, own_line=False)
    return any(p.key != key for p in named)


def _phrase(key: str, word: str, circle: Circle) -> str | None:
    """How the speaker's person ``key`` is written: the relation the lines before gave them, else the name.

    None when the lines before make them the listener's: owned so, or said there by the listener alone.
    """
    speaker = circle.message.speaker
    found = [p for p in circle.people if p.key == key] or ([circle.known[key]] if key in circle.known else [])
    if any(p.owner not in (None, speaker) for p in found):
        return None
    said = {m.speaker for m in circle.window if re.search(rf"\b{re.escape(key)}\b", (m.text or "").lower())}
    if said and speaker not in said:
        return None
    name = word[:1].upper() + word[1:]
    related = next((p.phrase for p in reversed(found) if p.owner == speaker and p.phrase.lower() != key), None)
    if related is None:  # "my flatmate odalie is back": a role read without its lowercase name
        lines = [m.text or "" for m in circle.window if m.speaker == speaker] + [circle.message.text or ""]
        given = (_RELATED.search(t) for t in lines)
        related = next((f"my {g['rel'].lower()} {name}" for g in given
                        if g and g["name"].lower() == key and g["rel"].split()[-1].lower() in _RELATIONS), None)
    return related or name


def says_enough(text: str, key: str, least: int = MIN_WORDS) -> bool:
    """Rule 3: nothing to or of the listener, no question, at least ``least`` words besides the name."""
    if SECOND_PERSON.search(text) or rules.FIRST_PERSON.search(text) or text.rstrip().endswith("?"):
        return False
    return len([w for w in content_words(text) if w != key and w not in rules.INTERJECTIONS]) >= least


def read(text: str, circle: Circle, before: str = "", after: str = "") -> Described | None:
    """``text`` (a clause of the circle's message) as a fact about the person its message names and describes.

    ``before``: the message's text before the clause, whose opening name a clause opening with he/she goes on of;
    ``after``: its text after the clause, which may go on of the clause's opening name ("Ottoline is the new
    manager. She ran a cafe").
    """
    if m := _opening_name(text, circle):
        key, said = m["name"].lower(), text[m.end():]
        gender = _gender(f"{said} {after}")
        if gender is None or _others(f"{said} {after}", key, circle) or not says_enough(said, key):
            return None
        phrase = _phrase(key, m["name"], circle)
        return Described(text[: m.start()] + phrase + text[m.end():], Person(key, phrase, circle.message.speaker,
                                                                             gender)) if phrase else None
    lead = LEAD.match(text)
    start = lead.end() if lead else 0
    pronoun = _OPENING_PRONOUN.match(text, start)
    before = before.strip()
    if not before and circle.prior and circle.prior[-1].speaker == circle.message.speaker:
        before = circle.prior[-1].text or ""  # chat splits a turn: "kirsty is from fife" / "she does nursing"
    opened = _opening_name(before, circle) if before else None
    if pronoun is None or opened is None:
        return None
    key = opened["name"].lower()
    gender = _gender(before + " " + text)
    if gender != ("m" if pronoun["p"].lower() == "he" else "f") or _others(before[opened.end():], key, circle) \
            or _others(text, key, circle) or not says_enough(text, key):
        return None
    phrase = _phrase(key, opened["name"], circle)
    if phrase is None:
        return None
    rest = text[start + len(pronoun["p"]):]
    if rest.startswith("'s"):
        rest = " is" + rest[2:]
    return Described(text[:start] + phrase + rest, Person(key, phrase, circle.message.speaker, gender))
