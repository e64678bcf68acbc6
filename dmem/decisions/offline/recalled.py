"""The person a he/she line means, named or described a few lines before by either speaker.

"the roofer came to quote. Gwilym." ... "he says half the slates are shot": the line names no one, and the person
was named a few lines back, often by the listener or by a role with no "my" ("the roofer", "Mr Pendry"), so
the people reader (``person_clauses``, which writes only the speaker's own people) binds nothing and admission
rejects the line as no personal fact. ``read`` writes the he/she out when it is safe:

1. the clause opens with a he/she as its subject (after chat's lead-in: "and he can't start till the 22nd");
2. the lines before, up to ``WINDOW`` of them and the message's own earlier clauses, name exactly one third person
   the pronoun fits (``candidates``): a name with a title ("mr pendry", "Dr Adeyemi"), a capitalised name a
   person's verb follows or a role or relation opens ("The night nurse is a man, Cai"), a lowercase name before a
   person's verb in an all-lowercase line ("pelham came btw"), a role or relation ("the roofer", "my dad's
   carer", "her mum", "a guy"); a gender comes from the title or kin word, else from the he/she words its own line
   goes on with. Two candidates, or one that is a stranger ("a guy") or the listener's person ("your sister", the
   listener's "my dad"; not their "our dad", both speakers' in a family chat), leave the line as it was;
3. the clause says nothing to or of the listener or the speaker, asks nothing and says enough (``described``).

The fact names the person as the lines said them, never with an invented name: the name (with its role when one
goes with it: "the roofer Gwilym"), or the role phrase with its owner ("my instructor" when the speaker's own,
"Rhian's dad's carer" when the listener said "our dad's carer"). Admission uses it only when nothing else admits
the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from dmem.decisions.offline.circle import Circle
from dmem.decisions.offline.described import NO_ONE, Described, says_enough
from dmem.decisions.offline.person import GENDER, LEAD, NOT_NAMES, Person, capitalised, fits
from dmem.decisions.offline.roles import ROLES, TRADES, phrase_pattern, phrases, role_phrases
from dmem.state.schemas import Message
from dmem.text.words import HE_SHE, alternation, third_person, whole_words

# Lines before the message searched for the person a he/she means: the ingestion window's ``history_messages``.
WINDOW = 8
# Answer words the clause needs besides its he/she ("and he can't start till the 22nd"): fewer than a described
# clause, whose name is new, since the lines before said who the pronoun is.
MIN_WORDS = 2
# People named by what they do for the speaker's household: ``roles.ROLES`` (read by ``role_phrases``) and the
# trades beyond them (``roles.TRADES``): "the roofer came to quote".
_TRADE = phrase_pattern(TRADES, "the|my|our|your", r"(?:[a-z]+\s+)?", r"\b")
_SUBJECT = re.compile(rf"(?P<p>{alternation(HE_SHE)})(?P<s>'s)?\b(?=\s+\w)", re.I)
# The he/she an earlier clause of the thread opens with: "she'd love that".
_OPENER = re.compile(rf"(?P<p>{alternation(HE_SHE)})(?:'[a-z]+)?\b", re.I)
_TITLES = {"mr": "m", "mrs": "f", "ms": "f", "miss": "f", "dr": "n", "auntie": "f", "aunty": "f", "uncle": "m"}
# A title that is also a common noun names someone only before a capital: "Nurse Adaeze", not "the doctor said".
_NOUN_TITLES = {"doctor": "n", "nurse": "n", "sister": "f", "father": "m", "coach": "n"}
_TITLED = re.compile(rf"\b(?:(?P<t>(?i:{'|'.join(_TITLES)}))\.?\s+(?P<n>(?i:next\s+door)|[A-Za-z][a-z]{{2,}})|"
                     rf"(?P<u>(?i:{'|'.join(_NOUN_TITLES)}))\s+(?P<c>[A-Z][a-z]{{2,}}))\b")
# A name given: "a man called Ivo", "the new one is called mr tolland".
_CALLED = re.compile(r"\b(?:called|named)\s+(?P<n>[A-Za-z][a-z]{2,})\b", re.I)
# Words a person stands for only with a role or a place ("the man from number 30"): a stranger, as "a guy" is.
_ANYONE = frozenset(("man", "woman", "lady", "guy", "bloke", "lad", "person", "mate", "boy", "girl"))
_APPOSED = re.compile(rf"\b(?:{'|'.join(sorted({*ROLES, *GENDER, *_ANYONE}, key=len, reverse=True))})\s*,\s*$", re.I)
# What follows a name that makes it someone: a verb people do, an auxiliary before one, a 's before an -ing.
_PERSON_VERB = re.compile(r"(?:'s\s+\w+ing\b|\s+(?:(?:just|still|also|finally|never|always)\s+)?"
                          r"(?:says|said|told|asked|rang|texted|called|came|comes|reckons|thinks|thought|wants|"
                          r"wanted|promised|decided|laughed|cried|loves|hates|brought|bought|needs|is\s+coming|"
                          r"was\s+here|went|left|sent|signed|sings|danced|turned)\b)", re.I)
_LOWER = re.compile(r"(?:^|[.!?,:]\s+|\b(?:and|with|but)\s+)(?P<n>[a-z]{3,})(?=\s)")
_OPENS = re.compile(r"(?:^|[.!?]\s+|^\W+)$")
_HE, _SHE = whole_words(third_person("m")), whole_words(third_person("f"))
_PARTICIPLE = re.compile(r"^\s+(?:been|got|gone|done|had|made|told|sent|left|brought|bought|found|[a-z]+ed)\b")


@dataclass(frozen=True)
class Candidate:
    """A third person a line before names, as the lines said them."""

    key: str
    phrase: str
    """How the fact writes them: the name, 'the roofer Gwilym', 'my instructor' (the judged speaker's own)."""
    gender: str
    """'m', 'f' or 'n' (either or unknown)."""
    at: int
    """Where in its line the mention starts (a name right after a role is the role's)."""
    stranger: bool = False
    """'a guy', 'her mum': someone a he/she may mean, but no one the fact can name."""
    owner: str | None = None
    """Whose person the lines make them: the listener's ("your sister", "my dad" said by the listener) is theirs."""


def _gender_after(text: str, end: int, stop: int) -> str:
    """'m' or 'f' from the he/she words of ``text[end:stop]`` (the line going on of who it named), else 'n'."""
    said = text[end:stop]
    male, female = bool(_HE.search(said)), bool(_SHE.search(said))
    return "m" if male and not female else "f" if female and not male else "n"


def _no_one(word: str, speakers: set[str]) -> bool:
    key = word.lower()
    return key in NOT_NAMES or key in NO_ONE or key in ROLES or key in GENDER or key in speakers


def _names(text: str, speakers: set[str]) -> list[tuple[int, int, str, str]]:
    """(start, end, name as written, gender) of the names ``text`` says (rule 2's readings)."""
    found: dict[int, tuple[int, int, str, str]] = {}
    for m in _TITLED.finditer(text):
        title, word = (m["t"], m["n"]) if m["t"] else (m["u"], m["c"])
        if not _no_one(word.split()[0], speakers) or word.lower().startswith("next"):
            name = f"{title.capitalize()} {word if ' ' in word else word.capitalize()}"
            found[m.start()] = (m.start(), m.end(), name, {**_TITLES, **_NOUN_TITLES}[title.lower()])
    for m in _CALLED.finditer(text):
        if not _no_one(m["n"], speakers) and not any(s <= m.start("n") < e for s, e, _, _ in found.values()):
            found[m.start("n")] = (m.start("n"), m.end("n"), m["n"].capitalize(), "n")
    taken = [(s, e) for s, e, _, _ in found.values()]
    for m in capitalised(text, speakers):  # roles, kin and NO_ONE's words are no one here either (``_no_one``)
        word, start = m["n"], m.start()
        if any(s <= start < e for s, e in taken) or _no_one(word, speakers):
            continue
        alone = bool(_OPENS.search(text[:start])) and bool(re.match(r"\s*[.!]", text[m.end():]))
        gender = _gender_after(text, m.end(), len(text))
        if _PERSON_VERB.match(text, m.end()) or _APPOSED.search(text[:start]) or (alone and gender != "n"):
            found[start] = (start, m.end(), word, "n" if not alone else "?")  # "Gwilym. he's": a role's, by the he
    if not any(c.isupper() for c in text):
        for m in _LOWER.finditer(text):
            if not _no_one(m["n"], speakers) and _PERSON_VERB.match(text, m.end("n")) \
                    and not any(s <= m.start("n") < e for s, e in taken):
                found[m.start("n")] = (m.start("n"), m.end("n"), m["n"].capitalize(), "n")
    return sorted(found.values())


def _owned(det: str, rest: str, said_by: str, speaker: str, listener: str | None) -> tuple[str, str | None]:
    """A role phrase as the judged speaker's fact writes it, and whose it is.

    'my instructor', 'the roofer', "Rhian's dad's carer" (the listener's "our dad's carer": both speakers', None).
    """
    owner = said_by if det == "my" else (listener if said_by == speaker else speaker) if det == "your" \
        else said_by if det == "our" else None
    if owner is None:
        return f"the {rest}", None
    return (f"my {rest}" if owner == speaker else f"{owner}'s {rest}"), None if det == "our" else owner


def _line(message: Message, speaker: str, listener: str | None, speakers: set[str]) -> list[Candidate]:
    """The third persons one line before names, in order (a name right after a role joins it)."""
    text, said_by = message.text or "", message.speaker
    other = listener if said_by == speaker else speaker
    roles: list[Candidate] = []
    for r in role_phrases(text, said_by, other):
        det, rest = r.phrase.split(" ", 1)
        # "the cousin thing", "the man": a kin word or anyone after "the" is no one in particular, unless placed
        anyone = det == "the" and r.key not in ROLES and not re.search(r"\b(?:next door|downstairs|upstairs)", rest)
        phrase = (f"my {rest}" if r.owner == speaker else f"{r.owner}'s {rest}") if r.possessed and r.owner \
            else r.phrase
        shared = re.match(r"(?i:our)\b", text[r.start:])  # "our best friend": both speakers' in a family chat
        roles.append(Candidate(r.key, phrase, r.gender, r.start, stranger=det not in ("my", "the") or anyone,
                               owner=None if shared else r.owner))
    for p in phrases(_TRADE, text):
        phrase, owner = _owned(p.det, p.rest, said_by, speaker, listener)
        roles.append(Candidate(p.head, phrase, "n", p.start, owner=owner))
    out = list(roles)
    names = _names(text, speakers)
    for i, (start, end, name, gender) in enumerate(names):
        stop = names[i + 1][0] if i + 1 < len(names) else len(text)
        role = next((c for c in roles if c in out and 0 <= start - c.at <= len(c.phrase) + 20), None)
        alone = gender == "?" and role is None  # "Lovely. He played", "Perpetua!": a name only as a role's
        gender = gender if gender not in ("n", "?") else _gender_after(text, end, stop)
        if alone:
            out.append(Candidate(name.lower(), name, gender, start, stranger=True))  # it may be someone: it blocks
            continue
        phrase = name
        if role is not None:  # "the roofer came to quote. Gwilym." / "a man called Ivo"
            out.remove(role)
            head = role.phrase.split()[-1]
            phrase = name if role.stranger or head in GENDER or head in _ANYONE else f"{role.phrase} {name}"
            gender = gender if gender != "n" else role.gender
        out.append(Candidate(name.split()[-1].lower(), phrase, gender, start, owner=role.owner if role else None))
    return sorted(out, key=lambda c: c.at)


def _said(person: Person, speaker: str, lines: dict[str, str]) -> Candidate:
    """A person the people readers found (``circle``), as the judged speaker's fact writes them.

    A relation is written as someone's only where its line says whose ("my nan", "nan danced" opening a line):
    "barneys mum" is no one's the fact can name.
    """
    phrase, text = person.phrase, lines.get(person.turn_id or "", "")
    whose = rf"(?:\b(?:my|our|your)\s+(?:\w+\s+)?|(?:^|[.!?]\s+)\W*){re.escape(person.key)}\b"
    owned = not phrase.startswith("my ") or re.search(whose, text, re.I)
    if person.owner and person.owner != speaker and phrase.startswith("my "):
        phrase = f"{person.owner}'s {phrase[3:]}"
    first = phrase.split()[0].lower()
    stranger = not person.sure or not owned or first in ("a", "an", "this", "that") \
        or (first == "the" and person.key not in ROLES)  # "the cousin thing": no one in particular
    shared = re.search(rf"\bour\s+(?:\w+\s+)*?(?:\w+,\s+)?{re.escape(person.key)}\b", text, re.I)
    return Candidate(person.key, phrase, person.gender, -1, stranger=stranger,
                     owner=None if shared else person.owner)


def candidates(circle: Circle, before: str = "") -> dict[str, Candidate]:
    """The third persons the lines before name, by key; the latest reading of each, its gender the surest one."""
    speaker = circle.message.speaker
    speakers = {w.lower() for s in circle.speakers for w in s.split()}
    lines = [*circle.prior[-WINDOW:], circle.message.model_copy(update={"text": before})] if before \
        else list(circle.prior[-WINDOW:])
    said = {m.turn_id: m.text or "" for m in circle.prior}
    found = {p.key: _said(p, speaker, said) for p in (*circle.earlier, *circle.people) if p.key not in speakers}
    for message in lines:
        for c in _line(message, speaker, circle.listener, speakers):
            was = found.get(c.key)
            gender = c.gender if c.gender != "n" or was is None else was.gender
            found[c.key] = Candidate(c.key, c.phrase, gender, c.at, c.stranger and (was is None or was.stranger),
                                     c.owner or (was.owner if was else None))
    # the listener's person ("your sister", their "my dad"): no fact of the speaker's life, so it only blocks
    return {k: replace(c, stranger=True) if c.owner and c.owner == circle.listener else c for k, c in found.items()}


def _same_thread(before: str, pronoun: str) -> bool:
    """Whether each earlier clause of the message opens with the same he/she.

    None may then name someone else the he/she means ("cadog felt bad. he took the van back" is cadog's).
    """
    for clause in (c.strip() for c in re.split(r"[.!?;]+", before)):
        lead = LEAD.match(clause)
        m = _OPENER.match(clause, lead.end() if lead else 0)
        if clause and (m is None or m["p"].lower() != pronoun.lower()):
            return False
    return True


def read(text: str, circle: Circle, before: str = "") -> Described | None:
    """``text`` (a clause of the circle's message) with its opening he/she written as the one person it can mean.

    ``before``: the message's text before the clause, which may name them.
    """
    lead = LEAD.match(text)
    start = lead.end() if lead else 0
    m = _SUBJECT.match(text, start)
    if m is None or not says_enough(text[m.end():], "", MIN_WORDS) or not _same_thread(before, m["p"]):
        return None
    fit = [c for c in candidates(circle, before).values() if fits(m["p"], Person(c.key, c.phrase, None, c.gender))]
    if len(fit) != 1 or fit[0].stranger:
        return None
    person = fit[0]
    rest = text[m.end():]
    if m["s"]:
        rest = (" has" if _PARTICIPLE.match(rest) else " is") + rest
    return Described(text[:start] + person.phrase + rest,
                     Person(person.key, person.phrase, circle.message.speaker, person.gender))
