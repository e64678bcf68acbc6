"""Forms of an English verb: the simple past and the past participle of a base form.

One table of irregular verbs for every rule that writes a verb in another tense: a confirmed question
("did you get the job?" + "yep" -> "got the job"), a presupposed one ("have you ridden ..." -> "has ridden");
the rules that read a word as a past ("went") and the stemmer ("went" matches "go") take their forms from it.
Regular verbs take -ed (-d after e, -ied after a consonant and y).
"""

from __future__ import annotations

__all__ = ["IRREGULAR_PASTS", "PAST_STEMS", "irregular_past", "participle", "past"]

# One row a verb: base, simple past (a second one after '/'), past participle, and the rules that use it:
# w = written in another tense (``past``, ``participle``, ``irregular_past``); p = read as a past
# (``IRREGULAR_PASTS``: subjectless and pronoun rules); s = its past stemmed to its base (``PAST_STEMS``,
# for lexical matching), S = its past and participle stemmed. A verb joins a rule only when that rule
# is measured with it: "broke" and "bit" read as pasts (h53c) made "bit sore" an act and a third
# person's "broke her wrist" the speaker's, so they stay out of p.
_TABLE = """
begin began begun wsp       break broke broken w          bring brought brought wsp   build built built wsp
buy bought bought wsp       catch caught caught wsp       choose chose chosen wsp     do did done wsp
draw drew drawn wsp         drive drove driven wsp        eat ate eaten wsp           feel felt felt wsp
find found found wsp        fly flew flown wsp            get got gotten wsp          give gave given wsp
go went gone wSp            have had had wsp              hear heard heard wsp        hold held held wp
keep kept kept wsp          knit knitted knitted w        leave left left wsp         lose lost lost wsp
make made made wsp          meet met met wsp              pay paid paid wsp           ride rode ridden wp
run ran run wsp             see saw seen wSp              sell sold sold wsp          send sent sent wsp
sew sewed sewn w            sing sang sung wsp            sit sat sat wp              speak spoke spoken wp
swim swam swum wsp          take took taken wsp           teach taught taught wsp     tell told told wsp
think thought thought wsp   win won won wsp               write wrote written wsp     spend spent spent wsp
lend lent lent wp           quit quit quit wp             fall fell fallen wp         forget forgot forgotten wp
wake woke woken wp          sleep slept slept wp          steal stole stolen w        say said said sp
know knew known sp          come came come sp             grow grew grown sp          become became become sp
read read read p            be was/were been p            put put put p               set set set p
stand stood stood p         throw threw thrown p          understand understood understood p
wear wore worn p            hide hid hidden p             hang hung hung p            lead led led p
let let let p               light lit lit p               mean meant meant p          ring rang rung p
rise rose risen p           shoot shot shot p             shut shut shut p            tear tore torn p
"""


def _rows() -> list[tuple[str, list[str], str, str]]:
    """(base, simple pasts, participle, uses) of each row of the table."""
    items = _TABLE.split()
    return [(base, pasts.split("/"), part, uses) for base, pasts, part, uses in zip(*[iter(items)] * 4, strict=True)]


_IRREGULAR: dict[str, tuple[str, str]] = {base: (pasts[0], part) for base, pasts, part, uses in _rows() if "w" in uses}
"""base: (simple past, past participle) of the verbs the tense rules write."""
IRREGULAR_PASTS = frozenset(p for _, pasts, _, uses in _rows() if "p" in uses for p in pasts)
"""Simple pasts of irregular verbs that the rules read as a past ('went', 'had', 'was')."""
PAST_STEMS = {form: base for base, pasts, part, uses in _rows() if "s" in uses.lower()
              for form in pasts + ([part] if "S" in uses else [])}
"""Irregular past forms and the base they stem to, so "went" matches "go" the way "moved" matches "move"."""


def _regular(verb: str) -> str:
    low = verb.lower()
    if low.endswith("e"):
        return verb + "d"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def past(verb: str) -> str:
    """The simple past of a base-form verb, lower-cased ('get' -> 'got', 'pass' -> 'passed', 'try' -> 'tried')."""
    low = verb.lower()
    return _IRREGULAR[low][0] if low in _IRREGULAR else _regular(low)


def participle(verb: str) -> str:
    """The past participle of a base-form verb ('ride' -> 'ridden'); a regular one keeps its case."""
    low = verb.lower()
    return _IRREGULAR[low][1] if low in _IRREGULAR else _regular(verb)


def irregular_past(word: str) -> bool:
    """Whether a word is the simple past of an irregular verb of the table ('got', 'went'; not 'get')."""
    return word.lower() in _PASTS


_PASTS = frozenset(forms[0] for forms in _IRREGULAR.values())
