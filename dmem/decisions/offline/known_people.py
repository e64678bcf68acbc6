"""Names the stored memories give an owner: "Idris's friend Bo", "Ilse is Idris's old boss", "Idris and Sam ...".

``circle`` reads them once a clause needs them, so a name told in an earlier session is still the speaker's person.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from dmem.decisions.offline.person import GENDER, KIN, MODS, NAME, NOT_NAMES, Person
from dmem.decisions.offline.roles import role_phrases

_MEMORY_REL = re.compile(rf"\b(?P<owner>{NAME})'s\s+{MODS}(?P<rel>{KIN})\s+(?P<name>{NAME})\b")
_MEMORY_ROLE = re.compile(rf"^(?P<name>{NAME})\s+is\s+(?P<owner>{NAME})'s\s+(?P<role>[^,.;]+)")
_MEMORY_PAIR = re.compile(rf"^(?P<owner>{NAME})\s+and\s+(?P<name>{NAME})\b")
# Someone the speaker was with or got in touch with: "Idris was out with Bo after", "Idris is texting Bo now".
_MEMORY_CONTACT = re.compile(rf"\b(?:with|texting|texted|messaging|messaged|phoning|phoned|rang|ringing)\s+"
                             rf"(?P<name>{NAME})\b(?!\s+{NAME})")
# Someone who did something to the speaker: "Bo made Idris watch a film", "Bo told Idris ...", "Bo called Idris".
_MEMORY_ACTS = re.compile(rf"^(?P<name>{NAME})\s+(?:just\s+|also\s+)?(?:told|texted|messaged|emailed|rang|called|"
                          rf"asked|thanked|invited|made|took|helped|gave)\s+(?P<owner>{NAME})\b")
_OWNER = re.compile(rf"^(?P<owner>{NAME})\b")
_QUOTED = re.compile(r'"[^"]*"')


def registry(memories: Sequence[str], speakers: set[str]) -> dict[str, Person]:
    """Names the stored memories give an owner: 'Idris's friend Bo', 'Ilse is Idris's old boss', 'Idris and Sam ...'.

    'Idris's friend Bo' is Bo, Idris's friend; 'Ilse is Idris's old boss from the bakery' is Ilse, Idris's old boss;
    'Idris was out with Sam', 'Idris is texting Sam' or 'Sam made Idris watch a film' makes Sam someone of Idris's,
    relation unknown.
    """
    known: dict[str, Person] = {}
    for memory in memories:
        for m in _MEMORY_REL.finditer(memory):
            if m["owner"] in speakers and m["name"] not in speakers:
                rel = m["rel"].lower()
                known.setdefault(m["name"].lower(), Person(m["name"].lower(), f"my {rel} {m['name']}", m["owner"],
                                                            GENDER[rel]))
    for memory in memories:  # "Ilse is Idris's old boss from the bakery" (a reply to "who's Ilse?"): by role
        if (role := _MEMORY_ROLE.match(memory)) and role["owner"] in speakers and role["name"] not in speakers \
                and (roles := role_phrases(f"my {role['role']}", role["owner"], None)) and roles[0].start == 0:
            known.setdefault(role["name"].lower(), Person(role["name"].lower(), f"{roles[0].phrase} {role['name']}",
                                                           role["owner"], roles[0].gender))
    for name, owner in _companions(memories, speakers):
        known.setdefault(name.lower(), Person(name.lower(), name, owner, "n"))
    return known


def _companions(memories: Sequence[str], speakers: set[str]) -> Iterator[tuple[str, str]]:
    """(name, speaker) for each name a memory puts with a speaker, relation unknown.

    First every pair ("Idris and Sam both came") and everyone who did something to a speaker ("Sam made Idris watch
    a film"), then every companion or contact ("Idris was out with Sam after"), outside any quoted question.
    """
    for memory in memories:
        for m in (*_MEMORY_PAIR.finditer(memory), *_MEMORY_ACTS.finditer(memory)):
            if m["owner"] in speakers and m["name"] not in speakers and m["name"].lower() not in NOT_NAMES:
                yield m["name"], m["owner"]
    for memory in memories:
        owner = _OWNER.match(memory)
        if owner is None or owner["owner"] not in speakers:
            continue
        for m in _MEMORY_CONTACT.finditer(_QUOTED.sub("", memory)):
            if m["name"] not in speakers and m["name"].lower() not in NOT_NAMES:
                yield m["name"], owner["owner"]
