"""Extractive answering of the offline engine: the context lines that can answer, then the span asked for.

A line can answer when it shares the question's topic (a topic word or its concept class) or its
focused cosine stands out from the other lines', when it adds something the question lacks, and,
when the question names people found in the context, when it names one of them. Lines are judged
whole (a deliberation fact's sentences explain each other); the span comes from their best sentences.
A framed line ('Theo answered Maya's question "...": ...') is ranked whole but judged, and its span
taken, on what was said (``frames``): the frame is never the answer. A line holding pieces joined because
they point back ('...; it took all summer') ranks by the fact they lean on when that is closer (``leaning.head``).
When the question names a period ('in March 2024'), a line clearly outside it gives way to a close one
inside it (``periods.within``). A framed reply that only says yes ('yep') is read as the question it
confirms (``confirmed_pieces``); a number question whose close lines hold no number reads the next lines
within ANSWER_TYPED_REACH before it takes new words, and a when-question whose close lines say no date
(``spans.said_date``: 'last tuesday', 'the 21st of August', 'thursday is her birthday') reads them for one
before it takes the best line's own date; a month said alone ('in may') answers only when none of those lines
says a day. Each sentence is grounded once for all three (``spans.said_spans``). A two-part question ('When and
where...?', 'Who is Ansel, and where did he go?') is answered part by part (``both_answers``).
"""

from __future__ import annotations

import re
from datetime import date

from langchain_core.embeddings import Embeddings

from dmem.decisions.offline import asked_when, frames, leaning, lists, members, spans
from dmem.decisions.offline.frames import said
from dmem.decisions.offline.periods import period_words, within
from dmem.decisions.offline.rules import SENTENCE_END
from dmem.decisions.offline.spans import NO_INFO
from dmem.decisions.offline.spoken_days import names_bare_day
from dmem.decisions.offline.topics import (
    focused_signals,
    relevance,
    shares,
    standouts,
    strip_vocatives,
    topic_terms,
    topical_names,
)
from dmem.state.verdicts import AnswerDraft, is_no_info
from dmem.text.lexical import content_stems
from dmem.text.names import mentions, question_names
from dmem.text.questions import asks_for_list, two_questions
from dmem.text.words import wordset

ANSWER_TYPED_LINES = 5  # lines searched for a typed span (date, place, name, number) before the best line's words
ANSWER_MARGIN = 0.15  # ...and only lines within this relevance of the best one
ANSWER_TYPED_REACH = 0.3  # a number question with no number in those lines reads the next ones within this
REACHING_KINDS = ("count", "duration", "when")  # question kinds whose typed span is searched that far
LIST_MAX_ITEMS = 4  # a list question's answer joins at most this many distinct spans
ANSWER_LIST_MAX_ITEMS = 6  # ...and at most this many items of the type it asks for (places, names, titles)

CONFIRMING = wordset("yes yeah yep yup yea ya aye sure of course definitely exactly right correct indeed true "
                     "absolutely totally mostly oh ah well that's it is")
"""Words of a reply that only confirms the question it answers."""

Line = tuple[str, date | None]


def _questions_only(text: str) -> bool:
    """Every sentence with content words asks something ('Wow! What do you bake?')."""
    return all(s.rstrip().endswith("?") for s in SENTENCE_END.split(text) if content_stems(s))


def ranked_lines(embeddings: Embeddings, question: str, lines: list[Line],
                 context: list[str]) -> list[tuple[int, float]]:
    """(index, relevance) of the lines that can answer, best first; a line that only asks cannot."""
    texts = [text for text, _ in lines]
    also = period_words(question, lines)
    signals = focused_signals(embeddings, question, texts, families=True, also=also)
    stand = standouts([c for c, _ in signals])
    scores = [relevance(cos, lex) for cos, lex in signals]
    heads = [leaning.head(text) for text in texts]
    if heads != texts:  # a line ranks by its head when the pieces leaning on it dilute it
        scores = [max(s, relevance(cos, lex)) for s, (cos, lex)
                  in zip(scores, focused_signals(embeddings, question, heads, families=True, also=also), strict=True)]
    people = [n for n in question_names(question) if any(mentions(t, [n]) for t in context)]
    topical = topical_names(question, texts, [s for s in map(spans.line_subject, context) if s])
    usable = []
    for i, (text, tag) in enumerate(lines):
        if (spans.on_topic(question, text, stand[i] or mentions(text, topical))
                and spans.adds_information(question, said(text), tag) and not _questions_only(said(text))
                and (not people or mentions(context[i], people))):
            usable.append((i, scores[i]))
    ranked = sorted(usable, key=lambda p: -p[1])
    # The time a question names decides among the lines that can answer; a when-question asks for it.
    return ranked if spans.question_kind(question) == "when" else within(question, lines, ranked, ANSWER_MARGIN)


def sentences(embeddings: Embeddings, question: str, text: str) -> list[str]:
    """The line's statements that share the question's topic, most relevant first (the best one at least).

    A framed line's statements are those of what was said, not of its frame; replies joined under one
    question are statements of their own.
    """
    line, pieces = text, confirmed_pieces(text)
    text = said(text)
    parts = [s.strip() for piece in pieces for s in SENTENCE_END.split(piece)
             if s.strip(" .!?,") and not s.rstrip().endswith("?")]
    if len(parts) < 2:
        return parts or [text]
    # Joined replies are each judged with the question they answer, as the lines they were before joining.
    asked = frames.replied_to(line) if len(pieces) > 1 else None
    judged = [f"{asked} {p}" for p in parts] if asked else parts
    scores = [relevance(c, lex) for c, lex in focused_signals(embeddings, question, judged, families=True)]
    order = sorted(range(len(parts)), key=lambda i: -scores[i])
    topic = topic_terms(question)
    return [parts[i] for i in order if i == order[0] or shares(topic, content_stems(parts[i]))]


def confirmed_pieces(text: str) -> list[str]:
    """``frames.pieces``, where a bare yes ('yep', 'of course') to a quoted question is that question, confirmed.

    'Theo answered Maya's question "the lake house, right?": yep' says where in the question: the
    reply alone would answer 'yep'.
    """
    asked = frames.replied_to(text)
    return [asked.strip().rstrip("?").strip() if asked and confirms(p) else p for p in frames.pieces(text)]


def confirms(reply: str) -> bool:
    """Whether a reply only says yes ('yep', 'of course', 'yes, exactly!'): no word of its own."""
    words = re.findall(r"[a-z']+", reply.lower())
    return bool(words) and all(w in CONFIRMING for w in words)


def answer(embeddings: Embeddings, question: str, context: list[str]) -> AnswerDraft:
    """The typed span of the best close line that has one, else the best line's new words.

    A list question ('What books...', 'Which cities...') gets the distinct spans of its close lines; a
    two-part question ('When and where...?', '..., and how many?') the answers of both parts (``both_answers``).
    """
    if pair := two_questions(question):
        return both_answers(embeddings, question, pair, context)
    return extracted(embeddings, question, context)[0]


def extracted(embeddings: Embeddings, question: str, context: list[str]) -> tuple[AnswerDraft, bool]:
    """The answer of a one-part question, and whether it is the span of the kind asked (or a typed list)."""
    names = question_names(question)
    if gathered := category_answer(question, context):
        return gathered, True
    lines = [(strip_vocatives(text, names), tag) for text, tag in map(spans.parse_line, context)]
    ranked = ranked_lines(embeddings, question, lines, [strip_vocatives(c, names) for c in context])
    if not ranked:
        return AnswerDraft(reasoning=f"none of the {len(context)} lines shares the question's topic, names its "
                           "people and adds to it", answer=NO_INFO), False
    top = ranked[0][1]
    close = [i for i, score in ranked[:ANSWER_TYPED_LINES] if score >= top - ANSWER_MARGIN]
    listed = asks_for_list(question)
    if listed and (kind := lists.list_type(question)) and \
            (typed_list := typed_list_answer(embeddings, question, kind, [lines[i] for i in close], close)):
        return typed_list, True
    if listed and (len(close) > 1 or len(frames.pieces(lines[close[0]][0])) > 1):
        return list_answer(embeddings, question, [lines[i] for i in close], close), False
    asked = spans.question_kind(question)
    parts = [(i, s) for i in close for s in sentences(embeddings, question, lines[i][0])]
    if asked == "when":  # a full date said in a sentence first, then one said otherwise ("last tuesday")
        parts.sort(key=lambda p: spans.date_span(p[1], None) is None)

    def typed_in(pairs: list[tuple[int, str]]) -> tuple[int, str] | None:
        return next(((i, span) for i, s in pairs if (span := spans.typed_span(question, s, lines[i][1]))), None)

    read: dict[tuple[int, str], spans.WhenSpans] = {}  # each sentence is grounded once

    def when_spans(i: int, s: str) -> spans.WhenSpans:
        if (i, s) not in read:
            read[i, s] = spans.said_spans(question, s, lines[i][1])
        return read[i, s]

    def said_in(pairs: list[tuple[int, str]], *, months: bool = False) -> tuple[int, str] | None:
        for i, s in pairs:
            day, month, _ = when_spans(i, s)
            if span := day or (month if months else None):
                return i, span
        return None

    def dated_in(pairs: list[tuple[int, str]]) -> tuple[int, str] | None:  # ``typed_in`` for a when-question
        return next(((i, span) for i, s in pairs if (span := when_spans(i, s).typed)), None)

    # A date said in a sentence ("last tuesday", "the 21st of August") beats the date it was said on; the lines
    # past the close ones are read (and their sentences ranked) only when no close line has the span.
    # A framed line's date may be said in its quoted question or earlier message: it dates the line too.
    whole = [(i, lines[i][0]) for i in close]
    hit = said_in(parts) or said_in(whole) if asked == "when" else typed_in(parts)
    # A close line naming a day it leaves unplaced (undated: "back on the 18th") has the date: no further line has.
    unplaced = asked == "when" and any(names_bare_day(s) for _, s in parts)
    reach = [] if hit or unplaced else reached(embeddings, question, asked, lines, ranked, close)
    told = told_when(context, lines, close) if asked == "when" and not hit else []
    # A reply to a bare "when is it?" dates a close line's news next; a month said alone ("in may") is the vaguest
    # date: read only when no line within reach says a day.
    hit = hit or (said_in(reach) or said_in(told) or said_in(parts + whole + reach, months=True) or dated_in(parts)
                  if asked == "when" else typed_in(reach))
    # No typed span: the first sentence that adds words; one that only restates the question gives way.
    fresh = ((i, spans.new_span(question, s)) for i, s in parts)
    best, found = hit or next(((i, span) for i, span in fresh if span), (ranked[0][0], None))
    best_sentence = next(s for i, s in parts + reach + told if i == best)
    scores = dict(ranked)
    why = f"relevance {scores[best]:.2f}" if best in scores else "its date, asked right after a close line"
    return AnswerDraft(reasoning=f"line {best + 1} ({why}, {asked} question): {context[best].strip()}",
                       used=[best + 1], answer=found or spans.free_span(question, best_sentence)), hit is not None


def category_answer(question: str, context: list[str]) -> AnswerDraft | None:
    """A category question's members, gathered from the lines of the people it names (``members``); None if none."""
    if not (found := members.gathered(question, context)):
        return None
    used = sorted({i + 1 for i, _ in found.items})
    return AnswerDraft(reasoning=f"{found.category} of {', '.join(found.people)}: members named in lines "
                       f"{', '.join(map(str, used))}", used=used, answer=", ".join(item for _, item in found.items))


def told_when(context: list[str], lines: list[Line], close: list[int]) -> list[tuple[int, str]]:
    """(line, what it says) of each reply to a bare "when is it?" said the day a close line's subject told it.

    'Noor answered Theo's question "when is it?": march 3rd' dates 'Noor signed up for a half marathon'
    (``asked_when.anchors``); the reply shares no word with the question, so it is never a close line itself.
    """
    return [(j, said(lines[j][0])) for j, of in asked_when.anchors(context).items() if j not in close
            and any(u in close for u in of)]


def both_answers(embeddings: Embeddings, question: str, pair: tuple[str, str], context: list[str]) -> AnswerDraft:
    """A two-part question's answer: its parts' answers joined, each once.

    The second part's span is looked for first in the line that answered the first ('sowed them on 14 March;
    24 pots' answers when and how many). A part that asks for a kind (a date, a place, a number) joins only
    with a span of that kind; a 'what' part joins with its words. When no part joins, the question is
    answered whole, as one question.
    """
    first, typed = extracted(embeddings, pair[0], context)
    drafts = [(pair[0], first, typed), (pair[1], *(shared_span(pair[1], first, context)
                                                   or extracted(embeddings, pair[1], context)))]
    given = [(part, d) for part, d, typed in drafts if not is_no_info(d.answer)
             and (typed or spans.question_kind(part) == "other")]
    kept = [(part, d) for k, (part, d) in enumerate(given)
            if not any(d.answer.lower() in o.answer.lower() for j, (_, o) in enumerate(given) if j < k)]
    # Only the words of a 'what' part, the part of a kind having none: the split found nothing the whole does not.
    if not kept or (len(kept) == 1 and spans.question_kind(kept[0][0]) == "other"):
        return extracted(embeddings, question, context)[0]
    return AnswerDraft(reasoning=" / ".join(f'"{part}": {d.reasoning}' for part, d in kept),
                       used=list(dict.fromkeys(n for _, d in kept for n in d.used)),
                       answer=", ".join(d.answer for _, d in kept))


def shared_span(part: str, other: AnswerDraft, context: list[str]) -> tuple[AnswerDraft, bool] | None:
    """The span ``part`` asks for in the line that answered the other part; for a date, one the line says.

    Any statement of the line is read: the other part's words may be in only one ('...; 24 pots').
    """
    asked = spans.question_kind(part)
    for n in other.used if asked != "other" else []:
        text, tag = spans.parse_line(context[n - 1])
        for sentence in (s for piece in confirmed_pieces(text) for s in SENTENCE_END.split(piece) if s.strip()):
            if span := (spans.said_span if asked == "when" else spans.typed_span)(part, sentence, tag):
                return AnswerDraft(reasoning=f"line {n}, as the other part: {context[n - 1].strip()}", used=[n],
                                   answer=span), True
    return None


def reached(embeddings: Embeddings, question: str, asked: str, lines: list[Line], ranked: list[tuple[int, float]],
            close: list[int]) -> list[tuple[int, str]]:
    """(line, sentence) a number question reads past its close lines: the next within ANSWER_TYPED_REACH.

    ``asked`` is the question's kind (``spans.question_kind``). Searched for a typed span only after the
    close lines, so a number there still wins; a free span never comes from them.
    """
    if asked not in REACHING_KINDS:
        return []
    top = ranked[0][1]
    return [(i, s) for i, score in ranked[:ANSWER_TYPED_LINES] if i not in close and score >= top - ANSWER_TYPED_REACH
            for s in sentences(embeddings, question, lines[i][0])]


def list_answer(embeddings: Embeddings, question: str, lines: list[Line], numbers: list[int]) -> AnswerDraft:
    """A list question's answer: the distinct spans of its close lines (typed, else new words), best first."""
    items = []
    for text, tag in lines:
        said = sentences(embeddings, question, text)
        # Replies joined under one question give an item each, as the lines they were before joining.
        for best in said if len(frames.pieces(text)) > 1 else said[:1]:
            items.append(spans.typed_span(question, best, tag) or spans.free_span(question, best))
    chosen = list(dict.fromkeys(i for i in items if i))[:LIST_MAX_ITEMS]
    return AnswerDraft(reasoning=f"list question: spans of lines {', '.join(str(n + 1) for n in numbers)}",
                       used=[n + 1 for n in numbers] if chosen else [], answer=", ".join(chosen) or NO_INFO)


def typed_list_answer(embeddings: Embeddings, question: str, kind: lists.ListType, lines: list[Line],
                      numbers: list[int]) -> AnswerDraft | None:
    """The items of the asked type that the close lines' topical sentences name, each once; None if none does."""
    items: dict[str, str] = {}
    used = []
    for (text, _), n in zip(lines, numbers, strict=True):
        found = [item for s in sentences(embeddings, question, text) for item in lists.list_items(kind, question, s)]
        for item in found:
            items.setdefault(item.lower(), item)
        used += [n + 1] if found else []
    if not items:
        return None
    chosen = list(items.values())[:ANSWER_LIST_MAX_ITEMS]
    return AnswerDraft(reasoning=f"list of {kind} items: from lines {', '.join(map(str, used))}", used=used,
                       answer=", ".join(chosen))
