"""Who a message names, and whose they are: the people and pets of either speaker's life.

``mentions`` lists the people a message names, each with whose they are: "my sister", "my cat Pesto",
a capitalized "Dad"/"Mum" or chat's bare "mum" (the speaker's), "your dad" (the listener's), a name said with
"me and", "with" or a relation (the speaker's), a name in "you and Sam" or in a question to the listener ("how's
Leila's cup situation?": the listener's). Which words may be names is ``name_readers``; ``known_people`` gives the
names stored memories give a relation ("Idris's friend Bo"). ``person_clauses`` reads a clause's he/she or name
against them.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import replace

from dmem.decisions.offline import rules, telegraphic
from dmem.decisions.offline.chat_names import acts_on_speaker, asks_after, writes_capitals
from dmem.decisions.offline.name_readers import names_in
from dmem.decisions.offline.person import (
    GENDER,
    KIN,
    MAY_BE_SUBJECT,
    MODS,
    NAME,
    NOT_NAMES,
    OBJECT_PRONOUN,
    Person,
    opens,
)
from dmem.decisions.offline.roles import Role, role_phrases
from dmem.state.schemas import Message
from dmem.text.asked import asks
from dmem.text.words import alternation

_RELATION = re.compile(rf"\b(?P<own>my|our|your|ur)\s+{MODS}(?P<rel>{KIN})\b(?!'(?!s\b))"
                       rf"(?:,?\s+(?P<name>{NAME})\b)?", re.I)
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
_MINE = re.compile(rf"\b(?:me|i)\s+and\s+(?P<a>{NAME})|(?P<b>{NAME})\s+and\s+(?:i|me)\b|\bwith\s+(?P<c>{NAME})",
                   re.I)
_MINE_LOWER = re.compile(r"\b(?:me|i)\s+and\s+(?P<a>[a-z]{3,})\b")  # an all-lowercase line's "me and tomek"
_YOURS = re.compile(rf"\b(?:you|u)\s+and\s+(?P<a>{NAME})|(?P<b>{NAME})\s+and\s+(?:you|u)\b", re.I)
# "I met the new intern", "we hired a nanny": the speaker's own verb puts the role in their life, as "my" does.
# "i just fed the cat": the speaker's own verb of tending a pet (``_cared_for``); "i saw the dog" says no whose.
_TENDS = re.compile(r"\b(?:i|we)\s+(?:just\s+|already\s+)?(?:fed|feed|walked|walk|bathed|groomed|brushed)\s+$", re.I)
_FIRST_PERSON_VERB = re.compile(r"\b(?:i|we)\s+(?:\w+ly\s+|just\s+|finally\s+)?[a-z]+\s+$", re.I)


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
        found.append((m.start(), Person(key, phrase, owner, GENDER[rel], turn_id)))
    for m in (*_BARE_KIN.finditer(text), *_CHAT_KIN.finditer(text)):
        if m.re is _CHAT_KIN and _OTHER_OWNER.search(text[: m.start()]):
            continue
        rel = m["rel"].lower()
        found.append((m.start(), Person(rel, f"my {rel}", speaker, GENDER[rel], turn_id)))
    # "my neighbour's kid", "our new intern", "the lady downstairs knocked": someone named by role, where no kin is
    # a role of either gender takes the one the line gives it ("the vet was lovely, she gave him a biscuit")
    found += [(r.start, Person(r.key, r.phrase, r.owner, r.gender if r.gender != "n" else _gender(text, r.end),
                               turn_id))
              for r in (_cared_for(text, r, speaker) for r in roles)
              if not any(r.start <= start < r.end for start, _ in found) and not _acts_on_another(text, r.end)
              and (r.possessed or opens(text, r.start) or MAY_BE_SUBJECT.match(text[r.end:])
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
    asked = asks(text) or asks_after(text)
    for start, word, named in names_in(text, {speaker, *([listener] if listener else [])},
                                       set(known) | set(names)):
        key = word.lower()
        if key in claimed:
            continue
        subject = bool(MAY_BE_SUBJECT.match(text[start + len(word):]))
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
