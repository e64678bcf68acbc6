"""Who a message names, and whose they are: the people and pets of either speaker's life.

``mentions`` lists the people a message names, each with whose they are: "my sister", "my cat Pesto",
a capitalized "Dad"/"Mum" or chat's bare "mum" (the speaker's), "your dad" (the listener's), a name said with
"me and", "with" or a relation (the speaker's), a name in "you and Sam" or in a question to the listener ("how's
Leila's cup situation?": the listener's). ``registry`` adds the names stored memories give a relation ("Idris's
friend Bo"). ``circle`` reads a clause's he/she or name against them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from dmem.decisions.offline import rules, telegraphic
from dmem.decisions.offline.chat_names import acts_on_speaker, lower_names, person_news, writes_capitals
from dmem.decisions.offline.entities import BRANDS, PLACES
from dmem.decisions.offline.roles import Role, role_phrases
from dmem.grounding.deixis import MONTHS, WEEKDAYS
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.lexical import STOPWORDS
from dmem.text.words import alternation, wordset

_MUM = (*rules.MUMS, "mama", "nana")  # "mama", "nana": kin after my/your/our or a name's, no role ("the nana")
_DAD = ("papa", "grandad", "granddad")
_GENDER = {**{r: "m" for r in (*rules.MALE, *_DAD)}, **{r: "f" for r in (*rules.FEMALE, *_MUM)},
           **{r: "n" for r in (*rules.NEUTRAL, *rules.PETS)}, **{r: "p" for r in rules.PLURAL}, "bf": "m", "gf": "f"}
_KIN = "|".join(sorted(_GENDER, key=len, reverse=True))
_MODS = r"(?:(?:new|little|big|older|younger|baby|best|old|twin|step|late)\s+)?"
_NAME = r"(?-i:[A-Z][a-z]+)"
_RELATION = re.compile(rf"\b(?P<own>my|our|your|ur)\s+{_MODS}(?P<rel>{_KIN})\b(?!'(?!s\b))"
                       rf"(?:,?\s+(?P<name>{_NAME})\b)?", re.I)
_LOWER_AFTER_RELATION = re.compile(r",?\s+(?P<name>[a-z]{3,})(?=\s+(?:has|had|is|was|got|gets|will|can|did|does|"
                                   r"says|said|started|starts|wants|loves)\b)")
_BARE_KIN = re.compile(r"(?<!\bmy )(?<!\byour )(?<!\bour )\b(?-i:(?P<rel>Dad|Mum|Mom|Mam|Mother|Father|Grandma|"
                       r"Grandpa|Gran|Granny|Nan|Grandad))\b(?!\s+[A-Z])")
# Chat's bare kin noun, lowercase with no determiner ("mum's bday thing", "dad says hi"): the speaker's, as a
# capitalised "Mum" is. A word before it that gives it another owner ("ur mum", "jo's dad", "the mum") rules it out.
# Written all in capitals for news ("DAD HAS NEWS") it is the same word.
_CHAT_KIN_WORDS = (*rules.MUMS, "mom", "dad", "grandma", "grandpa", "grandad")
_CHAT_KIN = re.compile(r"(?<![\w'])(?-i:(?P<rel>" + alternation(" ".join(_CHAT_KIN_WORDS)) + "|"
                       + alternation(" ".join(w.upper() for w in _CHAT_KIN_WORDS)) + r"))(?![\w-])")
_OTHER_OWNER = re.compile(r"(?:\b(?:my|our|your|ur|yr|ya|his|her|their|the|a|an|whose|every|some|any|no)|\w's|s')\s+$",
                          re.I)
_WORD = re.compile(r"\b[A-Z][a-z]+\b")
# Chat words that open a line capitalised and are no one: greetings, reactions, "Tell", "Let's" (a suggestion).
NOT_NAMES = (wordset(" ".join(m.lower() for m in MONTHS)) | set(WEEKDAYS) | STOPWORDS | rules.INTERJECTIONS
              | frozenset(_GENDER) | {p.lower() for p in (*PLACES, *BRANDS)}
              | wordset("ok okay lol haha omg yes yeah no hey hi hello thanks sorry also and but so oh wow "
                        "tell random unrelated honestly anyway ha aww yay nope god let"))
# "Italian cooking class", "Spanish food": a nationality before a noun, not a person.
_ADJECTIVE = re.compile(r"[A-Z][a-z]+(?:ian|ese|ish|ch)\s+(?!(?:is|was|has|had|said|says|will|can|did)\b)"
                        r"[a-z]+\b(?<!s)(?<!ed)")
_PLACE_BEFORE = re.compile(r"\b(?:in|at|to|from|near|on|the|a|an|called|named)\s+$", re.I)
_MINE = re.compile(rf"\b(?:me|i)\s+and\s+(?P<a>{_NAME})|(?P<b>{_NAME})\s+and\s+(?:i|me)\b|\bwith\s+(?P<c>{_NAME})",
                   re.I)
_MINE_LOWER = re.compile(r"\b(?:me|i)\s+and\s+(?P<a>[a-z]{3,})\b")  # an all-lowercase line's "me and tomek"
_YOURS = re.compile(rf"\b(?:you|u)\s+and\s+(?P<a>{_NAME})|(?P<b>{_NAME})\s+and\s+(?:you|u)\b", re.I)
_MEMORY_REL = re.compile(rf"\b(?P<owner>{_NAME})'s\s+{_MODS}(?P<rel>{_KIN})\s+(?P<name>{_NAME})\b")
_MEMORY_ROLE = re.compile(rf"^(?P<name>{_NAME})\s+is\s+(?P<owner>{_NAME})'s\s+(?P<role>[^,.;]+)")
_MEMORY_PAIR = re.compile(rf"^(?P<owner>{_NAME})\s+and\s+(?P<name>{_NAME})\b")
LEAD = re.compile(r"^(?P<lead>(?:(?:oh|and|but|so|yeah|ya|yes|lol|haha|ok|okay|well|also|plus|honestly)\b[,!.]?\s+)*)",
                   re.I)
# What follows a word that may stand as a clause's subject, read loosely (case-sensitive): a 's of any kind, an
# auxiliary, a common verb or any -ed word. A sentence-start capital before one may be a name ("Vasquelin first
# painted"), a role before one may be someone ("the vet says"); a capital that may be anyone leaves a he/she unread.
# ``circle._IS_SUBJECT`` is the strict reading, for a known person's name whose clause it writes out.
_MAY_BE_SUBJECT = re.compile(r"(?:'s|\s+(?:\w+ly\s+|just\s+|first\s+|still\s+|also\s+)?"
                             r"(?:[a-z]+ed|is|was|has|had|says|said|told|wants|thinks|loves|did|does|will|can|would))\b")
# The auxiliary or wh-word that opens a question about someone: "Is Pebbles still alive?", "How's Wren's violin?".
_ASKING = wordset("is was are were does did do has have had will would can could should how's what's where's")
# What may follow a him/her that is an object ("told her", "gave him a lift", "took her home tonight"): the end, a
# mark, a preposition, article, particle or time; a noun makes "her" a possessive ("her keys"). One list for every
# reader of an object pronoun (``_acts_on_another`` here, the object ``circle`` writes out).
_AFTER_OBJECT = alternation("to for at in on with about a an the some back home up out off over round around today "
                            "yesterday tonight tomorrow again too so and but now there this every all")
OBJECT_PRONOUN = re.compile(rf"\b(?P<p>him|her)(?=\s*(?:[.,!?;:]|$|\s+(?:{_AFTER_OBJECT})\b))", re.I)
"""A him or her that is an object: its follower is in ``_AFTER_OBJECT``."""
# "I met the new intern", "we hired a nanny": the speaker's own verb puts the role in their life, as "my" does.
# "i just fed the cat": the speaker's own verb of tending a pet (``_cared_for``); "i saw the dog" says no whose.
_TENDS = re.compile(r"\b(?:i|we)\s+(?:just\s+|already\s+)?(?:fed|feed|walked|walk|bathed|groomed|brushed)\s+$", re.I)
_FIRST_PERSON_VERB = re.compile(r"\b(?:i|we)\s+(?:\w+ly\s+|just\s+|finally\s+)?[a-z]+\s+$", re.I)


NameAt = tuple[int, str, bool]
"""A word of a line that may name a person: where it starts, the word, and whether it surely names one."""


@dataclass(frozen=True)
class Person:
    """Someone (or a pet) a message names, and whose life they belong to."""

    key: str
    """What later mentions match: the name, lowercased, else the relation word ('dad')."""
    phrase: str
    """How the owner would say it: 'my dad', 'my friend Bo', 'Leila'."""
    owner: str | None
    """The speaker whose person it is, or None when the text does not say."""
    gender: str
    """'m', 'f', 'n' (either, or unknown) or 'p' (plural)."""
    turn_id: str | None = None
    """The turn that named them."""
    sure: bool = True
    """Whether the text shows a person: a relation, a gender, 'me and', 'with', or a question about them.
    A bare name ("Harbourview is ...", "Note: ...") is not one, and a pronoun after it is left unread."""


def fits(pronoun: str, person: Person) -> bool:
    """Whether a he/him or she/her can mean ``person`` (a person of either or unknown gender fits both)."""
    return person.gender in ("n", "m" if pronoun.lower() in ("he", "him") else "f")


def _relations(text: str, speaker: str, listener: str | None, turn_id: str | None) -> list[tuple[int, Person]]:
    found = []
    roles = role_phrases(text, speaker, listener)
    for m in _RELATION.finditer(text):
        if any(r.start == m.start() and r.end > m.end() for r in roles) or _owned_by(text, m.start(), m.end()):
            continue  # "my neighbour's kid": the kid is the one named (a role below), not the neighbour
        owner = speaker if m["own"].lower() in ("my", "our") else listener
        rel = m["rel"].lower()
        name = m["name"] or _lowercase_name(text, m.end())
        phrase = f"my {rel}" + (f" {name[:1].upper()}{name[1:]}" if name else "")
        key = name.lower() if name else rel
        found.append((m.start(), Person(key, phrase, owner, _GENDER[rel], turn_id)))
    for m in (*_BARE_KIN.finditer(text), *_CHAT_KIN.finditer(text)):
        if m.re is _CHAT_KIN and _OTHER_OWNER.search(text[: m.start()]):
            continue
        rel = m["rel"].lower()
        found.append((m.start(), Person(rel, f"my {rel}", speaker, _GENDER[rel], turn_id)))
    # "my neighbour's kid", "our new intern", "the lady downstairs knocked": someone named by role, where no kin is
    # a role of either gender takes the one the line gives it ("the vet was lovely, she gave him a biscuit")
    found += [(r.start, Person(r.key, r.phrase, r.owner, r.gender if r.gender != "n" else _gender(text, r.end),
                               turn_id))
              for r in (_cared_for(text, r, speaker) for r in roles)
              if not any(r.start <= start < r.end for start, _ in found) and not _acts_on_another(text, r.end)
              and (r.possessed or _opens(text, r.start) or _MAY_BE_SUBJECT.match(text[r.end:])
                   or _FIRST_PERSON_VERB.search(text[: r.start]))]
    return found


def _lowercase_name(text: str, end: int) -> str:
    """An all-lowercase line's name right after a relation, before a verb ("my daughter pim has her recital")."""
    m = _LOWER_AFTER_RELATION.match(text, end)
    if not m or m["name"] in NOT_NAMES or writes_capitals(text):
        return ""
    return m["name"]


def _cared_for(text: str, role: Role, speaker: str) -> Role:
    """"I just fed the cat", "we walked the dog": the pet the speaker's own verb tends is the speaker's."""
    if role.owner is None and role.key in rules.PETS and role.phrase.startswith("the ") \
            and _TENDS.search(text[: role.start]):
        return replace(role, owner=speaker, phrase="my " + role.phrase[4:])
    return role


def _owned_by(text: str, start: int, end: int) -> bool:
    """Whether "my X's" ends a clause whose he/she is its subject ("he was my grandad's").

    That he/she is the one the line speaks of, the X only their former owner.
    """
    if not re.match(r"'s\s*(?:[.,!?;]|$)", text[end:]):
        return False
    clause = re.split(r"[.,!?;]", text[:start])[-1]
    return bool(re.match(r"\s*(?:he|she)\b", clause, re.I))


def _opens(text: str, start: int) -> bool:
    """Whether a sentence (or chat's lead-in 'oh', 'lol') opens at ``start``."""
    head = text[:start].rstrip()
    return not head or head[-1] in ".!?" or (start < 40 and bool(LEAD.fullmatch(text[:start])))


def _names(text: str, speakers: set[str], known: set[str]) -> list[NameAt]:
    """Capitalized words that may name a person, with whether they surely do.

    One word (a full name is often someone public), not a common word, place, nationality or speaker; at a
    sentence start only surely when the context names it elsewhere (``known``): "Element arrived" is any word.
    """
    out = []
    for m in _WORD.finditer(text):
        word = m.group(0)
        if word.lower() in NOT_NAMES or word in speakers:
            continue
        near = text[max(0, m.start() - 24): m.start()]  # the words just before it: 'in', 'the', another capital
        after = text[m.end(): m.end() + 40]
        # a capital before it makes a two-word name ("Dr Osmunda"), not a question's opening auxiliary ("Is Pebbles")
        prev = re.search(r"([A-Z][\w'-]*)\s+$", near)
        if _PLACE_BEFORE.search(near) or (prev and prev[1].lower() not in _ASKING) or re.match(r"\s+[A-Z]", after):
            continue
        if _vocative(text, m.start(), m.end()) or _ADJECTIVE.match(word + after):
            continue
        out.append((m.start(), word, not _opens(text, m.start()) or word.lower() in known))
    return sorted([*out, *((start, word, True) for start, word in lower_names(text, NOT_NAMES | set(speakers)))])


def _vocative(text: str, start: int, end: int) -> bool:
    """'Tamsin!', 'How about you, Odile?', 'Jo, guess what': a name said to the listener, not of someone."""
    bounded = _opens(text, start) or text[:start].rstrip().endswith(",")
    return bounded and bool(re.match(r"\s*(?:[,.!?]|$)", text[end:]))


def context_names(texts: Sequence[str]) -> set[str]:
    """Names said inside a sentence somewhere in ``texts`` (lowercased): a sentence-start word is one too."""
    return {w.lower() for t in texts for _, w, sure in _names(t, set(), set()) if sure}


def line_names(text: str, speakers: set[str]) -> list[NameAt]:
    """The words of ``text`` that may name a person (``_names`` with no context known as names).

    A caller that asks several questions of a line (``thread_openers``, ``named_here``, ``said_names``) reads it once.
    """
    return _names(text, speakers, set())


def thread_openers(text: str, names: Sequence[NameAt]) -> list[str]:
    """Words of ``text`` that may name a person and stand as a clause's subject ("Odile got the job!!").

    A capital before news only a person has or a verb only people do (``chat_names.person_news``), or a lowercase
    name of an all-lowercase line, which stands there or in "me and tomek" already; ``circle`` follows a he/she
    thread back to one. A capital before any other verb may be anything ("Harbourview is ..."), and one inside a
    clause may be someone public ("the actor Tellen got married"). ``names``: the line's ``line_names``.
    """
    return [w for start, w, _ in names
            if w.islower() or (_opens(text, start) or text[:start].rstrip().endswith(","))
            and person_news(text[start + len(w):])]


def named_here(text: str, names: Sequence[NameAt]) -> set[str]:
    """Names ``text`` says (lowercased): inside a sentence, or opening one before a verb ("and Maudlyn is coming").

    A sentence-start capital before no verb ("Congrats to her") is any word. ``names``: the line's ``line_names``.
    """
    return {w.lower() for start, w, sure in names
            if sure or _MAY_BE_SUBJECT.match(text[start + len(w):])}


def verb_subject(text: str, speakers: set[str]) -> list[str]:
    """The word opening a line before an auxiliary ("Pim was amazing", "imre's back"), when it may be a name.

    Lowercase only in an all-lowercase line. The caller has a reply that speaks of it by a he/she ("wasn't she?",
    "what happened to her?"), which shows the word is a person.
    """
    m = re.match(r"^\W*(?P<w>[A-Za-z]{3,})(?:'s|\s+(?:was|is|did|has|does))\b", text)
    if not m or m["w"].lower() in NOT_NAMES or m["w"] in speakers \
            or (m["w"].islower() and writes_capitals(text)):
        return []
    return [m["w"]]


def said_names(names: Sequence[NameAt]) -> set[str]:
    """Every word of a line's ``line_names`` (lowercased), a sentence-start one too."""
    return {w.lower() for _, w, _ in names}


def _acts_on_another(text: str, end: int) -> bool:
    """Whether the first he/she word after a role, in its own sentence, is an object: someone else of the line.

    "The vet put him on a new diet and he lost two kilos": the "him" is not the vet, and the "he" that follows
    goes on about the same one, so the role is no antecedent of the line ("the vet was lovely, she gave him a
    biscuit" is: its first he/she word is the subject "she").
    """
    sentence = re.split(r"[.!?]", text[end:], maxsplit=1)[0]
    m = re.search(r"\b(?:he|his|him|she|her)\b", sentence, re.I)
    return m is not None and (m[0].lower() == "him" or bool(OBJECT_PRONOUN.match(sentence, m.start())))


def _gender(text: str, start: int) -> str:
    """A name's gender from the first he/his/him or she/her after it in the same text, else 'n'."""
    m = re.search(r"\b(?P<m>he|his|him)\b|\b(?P<f>she|her)\b", text[start:], re.I)
    return "n" if not m else "m" if m["m"] else "f"


def mentions(message: Message, text: str, listener: str | None, known: dict[str, Person],
             names: Collection[str] = (), own_line: bool = True) -> list[Person]:
    """The people ``text`` (of ``message``) names, in order, each with its owner where the text says it.

    ``own_line``: whether the line is an earlier line of the judged speaker's; only there does a sentence-start name
    the line calls he/she become a person (the listener's "Tasmyn is delightful. She asked ..." gives whose she is
    no owner, and the judged line's own earlier sentences keep their reading: "Biscuit is doing better. He ..."
    stays one fact about the speaker's Biscuit).
    """
    speaker, tid = message.speaker, message.turn_id
    # "Dog had surgery this morning": chat's dropped 'my' put back (``telegraphic``) names the speaker's dog
    owned = " ".join(telegraphic.restore_owner(s, (), speaker) for s in rules.SENTENCE_END.split(text))
    found = _relations(owned, speaker, listener, tid)
    claimed = {p.key for _, p in found}
    mine = {n.lower() for m in (*_MINE.finditer(text), *_MINE_LOWER.finditer(text)) for n in m.groups() if n}
    yours = {n.lower() for m in _YOURS.finditer(text) for n in m.groups() if n}
    asked = asks(text)
    for start, word, named in _names(text, {speaker, *([listener] if listener else [])}, set(known) | set(names)):
        key = word.lower()
        if key in claimed:
            continue
        subject = bool(_MAY_BE_SUBJECT.match(text[start + len(word):]))
        # it did something to the speaker ("oriane told me something"): someone of their life
        shown = acts_on_speaker(text[start + len(word):])
        # a capital that may be anyone ("Vasquelin first painted"): a pronoun after it is left unread, unless the
        # same message goes on of it by he/she ("Pelloquin is limping, he must have done something"): a person
        if not named and not (own_line and subject and (shown or _gender(text, start) != "n")):
            if subject:
                found.append((start, Person(key, word, None, "n", tid, sure=False)))
            continue
        if key in known and known[key].owner:
            person = replace(known[key], turn_id=tid)
        elif key in yours or (asked and key not in mine):
            person = Person(key, word, listener, _gender(text, start), tid)
        else:
            gender = _gender(text, start)
            person = Person(key, word, speaker, gender, tid, sure=key in mine or gender != "n" or shown)
        found.append((start, person))
    return [p for _, p in sorted(found, key=lambda x: x[0])]


def registry(memories: Sequence[str], speakers: set[str]) -> dict[str, Person]:
    """Names the stored memories give an owner: 'Idris's friend Bo', 'Ilse is Idris's old boss', 'Idris and Sam ...'.

    'Idris's friend Bo' is Bo, Idris's friend; 'Ilse is Idris's old boss from the bakery' is Ilse, Idris's old boss.
    """
    known: dict[str, Person] = {}
    for memory in memories:
        for m in _MEMORY_REL.finditer(memory):
            if m["owner"] in speakers and m["name"] not in speakers:
                rel = m["rel"].lower()
                known.setdefault(m["name"].lower(), Person(m["name"].lower(), f"my {rel} {m['name']}", m["owner"],
                                                            _GENDER[rel]))
    for memory in memories:  # "Ilse is Idris's old boss from the bakery" (a reply to "who's Ilse?"): by role
        if (role := _MEMORY_ROLE.match(memory)) and role["owner"] in speakers and role["name"] not in speakers \
                and (roles := role_phrases(f"my {role['role']}", role["owner"], None)) and roles[0].start == 0:
            known.setdefault(role["name"].lower(), Person(role["name"].lower(), f"{roles[0].phrase} {role['name']}",
                                                           role["owner"], roles[0].gender))
    for memory in memories:  # "Idris and Sam both came": a companion of the speaker's, relation unknown
        for m in _MEMORY_PAIR.finditer(memory):
            if m["owner"] in speakers and m["name"] not in speakers:
                known.setdefault(m["name"].lower(), Person(m["name"].lower(), m["name"], m["owner"], "n"))
    return known
