"""Who the lines before a message name, and whose people they are: the circle a clause is read against.

``Circle`` holds the lines before the judged message and reads them only when a clause needs it: the people the last
``V_PRONOUN_TURNS`` lines name with their owners (``named_people``), those up to ``V_PRONOUN_FAR_TURNS`` back, the names
stored memories give an owner (``known_people``), and each line's name words, read once (``name_readers``). A name
the speaker said and the listener echoes stays the speaker's; a bare reply to "what's it called?" or a role that
answers "who's X?" names the replier's person, and so does a "how was X" the reply answers by he/she.
``person_clauses`` reads a clause against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cached_property, partial

from dmem.decisions.offline.chat_names import (
    PET_NEAR_TURNS,
    answered_name,
    answered_role,
    asked_how_was,
    pet_named,
)
from dmem.decisions.offline.known_people import registry
from dmem.decisions.offline.name_readers import context_names, line_names, said_names
from dmem.decisions.offline.named_people import mentions
from dmem.decisions.offline.person import NOT_NAMES, NameAt, Person
from dmem.state.schemas import Message

V_PRONOUN_TURNS = 6  # prior messages searched for the person a he/she means
# Prior messages searched when those name no one the he/she fits: a thread's person carries over a short exchange
# about them ("mum's bday thing" ... "tickets for smth" / "she hates crowds"). The ingestion window's
# ``history_messages`` default; chosen on batch 15 and checked on batches 12-14 and the tuning half.
V_PRONOUN_FAR_TURNS = 8


class Circle:
    """What the turns before a message say about whose people are whom; read only when a clause needs it."""

    def __init__(self, message: Message, prior: Sequence[Message], listener: str | None,
                 memories: Sequence[str] = ()) -> None:
        self.message, self.listener, self.memories = message, listener, memories
        self.window = prior[-V_PRONOUN_TURNS:]
        self.far = prior[-V_PRONOUN_FAR_TURNS:-V_PRONOUN_TURNS] if len(prior) > V_PRONOUN_TURNS else ()
        self.speakers = {message.speaker, *(m.speaker for m in prior)}
        self.prior = prior
        self._read: dict[int, list[NameAt]] = {}  # each line's ``line_names``, by the line's place in ``prior``

    def line_names(self, at: int) -> list[NameAt]:
        """The words of ``prior[at]`` that may name a person, read once however many questions ask them."""
        if at not in self._read:
            self._read[at] = line_names(self.prior[at].text or "", self.speakers)
        return self._read[at]

    @cached_property
    def known(self) -> dict[str, Person]:
        """Names the stored memories give a relation and an owner."""
        return registry(self.memories, self.speakers)

    @cached_property
    def names(self) -> frozenset[str]:
        """Names said inside a sentence in the window, the message or the memories."""
        return frozenset(context_names([*(m.text or "" for m in self.window), self.message.text or "",
                                        *self.memories]))

    @cached_property
    def people(self) -> tuple[Person, ...]:
        """The people the last ``V_PRONOUN_TURNS`` turns name, in order, with their owners."""
        return self._named(self.window, len(self.prior) - len(self.window))

    @cached_property
    def earlier(self) -> tuple[Person, ...]:
        """The people the turns before the window name, up to ``V_PRONOUN_FAR_TURNS`` back."""
        return self._named(self.far, max(0, len(self.prior) - V_PRONOUN_FAR_TURNS))

    def _pet_near(self, question: Message) -> bool:
        """Whether the question or the few lines before it speak of a pet ("she got a dog" ... "what's it called?")."""
        at = next((i for i, m in enumerate(self.prior) if m is question), len(self.prior))
        return any(pet_named(m.text or "") for m in self.prior[max(0, at - PET_NEAR_TURNS): at + 1])

    def _named(self, turns: Sequence[Message], first: int) -> tuple[Person, ...]:
        """The people ``turns`` (``prior`` from ``first`` on) name, in order, with their owners.

        A name the speaker said first where it may be any word and the listener then repeats is the speaker's
        person ("Thorold made a paper crown" / "I like Thorold more and more"): the echo shows it is a person, not
        that it is the listener's. One the speaker's line already made a person is left to the latest-person
        reading ("obsessed with Gumbrell" / "Gumbrell is a celebrity" / "he brings him strawberries").
        """
        people: list[Person] = []
        own: set[str] = set()  # names the speaker said in these turns so far
        speaker = self.message.speaker
        for at, (before, m) in enumerate(zip((None, *turns), turns, strict=False), start=first):
            other = self.listener if m.speaker == speaker else speaker
            named = mentions(m, m.text or "", other, self.known, self.names, own_line=m.speaker == speaker)
            if before is not None and before.speaker != m.speaker \
                    and (answer := answered_name(before.text or "", m.text or "", NOT_NAMES,
                                                 partial(self._pet_near, before))):
                named = [Person(answer[0].lower(), answer[0], m.speaker, answer[1], m.turn_id)]  # "fitzroy"
            elif before is not None and before.speaker != m.speaker \
                    and (role := answered_role(before.text or "", m.text or "", NOT_NAMES)) and role.owner is None:
                named = [Person(role.name.lower(), f"{role.phrase} {role.name}", m.speaker, role.gender, m.turn_id)]
            reply = self.prior[at + 1] if at + 1 < len(self.prior) else self.message
            if reply.speaker != m.speaker and (how := asked_how_was(m.text or "", reply.text or "", NOT_NAMES)):
                named = [*named, Person(how[0], how[0][:1].upper() + how[0][1:], reply.speaker, how[1], m.turn_id)]
            if m.speaker == speaker:  # a name the speaker's line already made a person competes with no echo
                own |= said_names(self.line_names(at)) - {p.key for p in named if p.sure}
            else:
                named = [replace(p, owner=speaker, sure=True) if p.key in own and p.owner == m.speaker else p
                         for p in named]
            people += named
        return tuple(people)
