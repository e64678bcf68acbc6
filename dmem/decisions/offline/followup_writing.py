"""The facts of a reply going on with the speaker's news (``followup``): written with the memory the news formed.

'Osric moved in; cold; boiler makes a noise' when the news formed a stored memory, else
'Osric added to "Osric failed the test": roundabout'; the news, the question asked after it and the reply are the
sources (after a bare yes, the news quoted is the line the yes confirmed: 'Quill added to "Quill booked the bike
test": when? mon; 9am'). ``followup`` judges the unit; this module only writes it. A terse piece going on with the
speaker's own fact of the same thread (``threads``) is written the same way, from the fact's line and the piece.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dmem.decisions.offline import confirmed, followup, frames, register, rules, threads
from dmem.decisions.offline.clauses import Clause, utterance_text
from dmem.decisions.offline.fact_text import categorize, drop_vocative, tidy, trim
from dmem.decisions.offline.pronouns import rewrite_person
from dmem.decisions.offline.replies import restore_subject
from dmem.state.schemas import Category, Message, Provenance
from dmem.state.verdicts import FactDraft
from dmem.text.asked import question_sentences
from dmem.text.lexical import content_stems, first_word
from dmem.text.quotes import shorten


def followup_fact(unit: followup.FollowUp, pooled: list[Clause], message: Message, listener: str | None,
                  memories: Sequence[str]) -> FactDraft:
    """A reply going on with the speaker's news (``followup``), written with the memory the news formed.

    'Osric moved in; cold; boiler makes a noise', else 'Osric added to "Osric failed the test": roundabout';
    the news, the question asked after it and the reply are its sources.
    """
    return _on_news(detail(pooled, message.speaker, listener), unit, message, listener, memories,
                    any(rules.HEDGE.search(c.text) for c in pooled))


def thread_fact(thread: threads.Thread, said: str, message: Message, listener: str | None,
                memories: Sequence[str], hedged: bool) -> FactDraft:
    """A piece going on with the speaker's fact of the same thread (``threads``), written with the memory it formed.

    'Corwen: van failed inspection; brakes + rust' (the stored memory holding every word of the fact's line, which
    the lifecycle then updates, else the fact restated, never framed); the fact's line and the piece are its sources.
    ``said``: what the piece says, in the third person (``detail``).
    """
    speaker, sources = message.speaker, [thread.fact.turn_id, message.turn_id]
    told, asked = utterance_text(thread.fact), thread.asked
    question = _question(asked, speaker) if asked else ""
    stems = set(content_stems(f"{question} {told}")) - set(content_stems(speaker))
    if stems and (memory := followup.own_memory(stems, speaker, memories, len(stems))):
        text = f"{memory.strip().rstrip('.')}{frames.JOIN}{_run_said(thread, said, memory, speaker, listener)}"
    elif asked and question:  # the fact's line answered the listener's question, which gave it its topic (h57f)
        answer = trim(rewrite_person(told, speaker, asked.speaker))
        said = _run_said(thread, said, answer, speaker, listener)
        text = frames.answered(speaker, asked.speaker, question, f"{answer}{frames.JOIN}{said}")
    else:  # no memory to write it with: the fact restated, the piece joined to it (never framed)
        earlier = _restated(told, speaker, listener)
        if first_word(speaker).lower() not in earlier.lower():
            earlier = f"{speaker}: {earlier}"
        text = f"{earlier.rstrip('.')}{frames.JOIN}{_run_said(thread, said, earlier, speaker, listener)}"
    if asked:
        sources.insert(0, asked.turn_id)
    if thread.kind is not None:  # the listener's "how many" the piece answers
        sources.insert(-1, thread.kind.turn_id)
    for piece in thread.between:  # a run's pieces between that formed nothing ("all together")
        sources.insert(-1, piece.turn_id)
    return FactDraft(text=tidy(text), speaker=speaker, source_turn_ids=sources, categories=categorize(said),
                     provenance=Provenance.HEDGED if hedged else Provenance.STATED, language="en")


def _run_said(thread: threads.Thread, said: str, held: str, speaker: str, listener: str | None) -> str:
    """The piece after a run's pieces between (``runs``) that ``held`` does not hold yet: one memory tells the run.

    'the beans go in the water' + "same pot" / "potato too": '...; same pot; potato too', not '...; potato too'.
    """
    held_stems = set(content_stems(held))
    pieces = [p for p in (_restated(utterance_text(m), speaker, listener) for m in thread.between
                          if not threads.reaction(followup.said(m)))  # "wow" between says no piece
              if p and not set(content_stems(p)) <= held_stems]
    return frames.JOIN.join([*pieces, said])


def _question(asked: Message, speaker: str) -> str:
    """The listener's question the fact's line answered, its last question sentence in the speaker's third person."""
    questions = question_sentences(utterance_text(asked))
    return rewrite_person(questions[-1], asked.speaker, speaker).replace('"', "'") if questions else ""


def detail(pooled: list[Clause], speaker: str, listener: str | None) -> str:
    """What the pooled clauses say, each in the third person, joined: 'cold; boiler makes a noise'."""
    return frames.JOIN.join(trim(rewrite_person(drop_vocative(c.text, listener), speaker, listener)) for c in pooled)


def with_news(drafts: list[FactDraft], unit: followup.FollowUp, message: Message, listener: str | None,
              memories: Sequence[str]) -> list[FactDraft]:
    """The reply's lines framed with the question naming nothing, or told plainly, written with the news instead.

    'Osric answered Wren's question "what happened?": clutch' and 'Osric: clutch; 640 to fix' say nothing of what
    happened to what: after "car died today" they read 'Osric added to "my car died today": clutch; 640 to fix'.
    """
    out: list[FactDraft] = []
    said: list[str] = []
    at, categories, hedged = 0, list[Category](), False
    for draft in drafts:
        question, prefix = frames.replied_to(draft.text), f"{message.speaker}: "
        if question is not None and followup.names_nothing(question):
            piece = frames.said(draft.text)
        elif draft.text.startswith(prefix) and draft.source_turn_ids in ([message.turn_id],
                                                                           [unit.question.turn_id, message.turn_id]):
            piece = draft.text.removeprefix(prefix)
        else:
            out.append(draft)
            continue
        at = at if said else len(out)
        said += [_as_said(p, message.text) for p in piece.split(frames.JOIN)]
        categories += [c for c in draft.categories if c not in categories]
        hedged = hedged or draft.provenance == Provenance.HEDGED
    if said:  # one memory: the news and all the reply goes on with it
        fact = _on_news(frames.JOIN.join(said), unit, message, listener, memories, hedged)
        out.insert(at, fact.model_copy(update={"categories": categories}))
    return out


def _as_said(piece: str, text: str | None) -> str:
    """A piece with its first word in the case the message wrote it ('Muddy' back to 'muddy'), else as is."""
    first = first_word(piece)
    said = re.search(rf"\b{re.escape(first)}\b", text or "", re.I)
    return f"{piece[:1].lower()}{piece[1:]}" if said and said[0].islower() and first != "I" else piece


def _on_news(said: str, unit: followup.FollowUp, message: Message, listener: str | None, memories: Sequence[str],
             hedged: bool) -> FactDraft:
    """What the reply says, written with the memory the speaker's news formed, else after the news quoted.

    The news, the question asked after it and the reply are its sources.
    """
    speaker, news = message.speaker, utterance_text(unit.news)
    sources = [*(t.turn_id for t in unit.confirms), unit.news.turn_id, unit.question.turn_id, message.turn_id]
    if threads.asks_kind(question := followup.said(unit.question), said):  # "when" / "end of the month"
        said = f"{threads.asked_words(question)}? {said}"
    if unit.confirms:  # "did you book the bike test?" / "yep": the news is what the yes confirmed
        news = _confirmed(unit, speaker, listener)
    if memory := followup.news_memory(news, speaker, memories):
        text = f"{memory.strip().rstrip('.')}{frames.JOIN}{said}"
    else:
        told = news if unit.confirms else _restated(news, speaker, listener)
        text = frames.added(speaker, shorten(told, 100), said)
    return FactDraft(text=tidy(text), speaker=speaker, source_turn_ids=sources, categories=categorize(said),
                     provenance=Provenance.HEDGED if hedged else Provenance.STATED, language="en")


def _confirmed(unit: followup.FollowUp, speaker: str, listener: str | None) -> str:
    """What a bare yes told, in the third person: the question it answered as the fact, else the lines it confirmed.

    'Quill booked the bike test' for "did you book the bike test?"; "11 a kilo now, from 9.50" for a number checked.
    """
    lines = [rewrite_person(followup.said(t), t.speaker, listener if t.speaker == speaker else speaker)
             for t in unit.confirms]
    if stated := confirmed.confirmed_statement(lines[-1], followup.said(unit.news), speaker):
        return stated
    return ", ".join(trim(line.replace('"', "'")).rstrip(" ?!.") for line in lines)


def _restated(news: str, speaker: str, listener: str | None) -> str:
    """The speaker's earlier message as a statement about them: standard spelling, third person, no double quotes."""
    told = register.standard(news) or news
    told = (told.lower() if told.isupper() else told).replace('"', "'")  # the frame quotes it
    return trim(rewrite_person(restore_subject(told), speaker, listener))
