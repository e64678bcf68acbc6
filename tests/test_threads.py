"""A terse line goes on with the speaker's own fact of the same thread, across the listener's interjections (h54b).

"the van failed inspection" / "oh no" / "brakes + rust": the last line says too little alone, but it is a piece of
the fact two turns before. It is written with that fact (with the memory it formed, which the lifecycle updates;
within one exchange joined to its draft; else joined to the fact restated), the fact's line and the piece its
sources. The listener's news or own question between, a new topic (a verb of its own), a dated event of its own,
a line about the listener, thanks or farewells, a session break and a thread too long ago join nothing. The case
with no turn between (h52b's extension) is the same rule. Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from dmem import Memory
from dmem.decisions.offline import threads
from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.lifecycle_rules import decide, goes_on
from dmem.decisions.offline.splitting import facts_from_message, split_messages
from dmem.state.schemas import Fact, MemoryRecord, Message, Operation
from tests.conftest import chat_turn

START = datetime(2025, 9, 12, 19, 0)
turn = functools.partial(chat_turn, session="D7", when=START)
OPENING = (("Corwen", "evening!"), ("Ilse", "hey hey"))
GOES_ON = "admitted: goes on with the speaker's fact"


def turns_of(*lines: tuple[str, str]) -> list[Message]:
    return [turn(text, who, i + 1) for i, (who, text) in enumerate((*OPENING, *lines))]


def judged(*lines: tuple[str, str], memories: tuple[str, ...] = ()) -> tuple[bool, str, list[tuple[str, list[str]]]]:
    """The last line's verdict, reason and facts (text, sources) after the lines before it."""
    turns = turns_of(*lines)
    ok, reason = judge_utterance(turns[-1], turns[:-1], memories)
    facts = facts_from_message(turns[-1], turns, [], gated=True, memories=memories) if ok else []
    return ok, reason, [(f.text, f.source_turn_ids) for f in facts]


@pytest.mark.parametrize(("lines", "written", "sources"), [
    ((("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "brakes + rust")),
     "Corwen: the van failed inspection; brakes + rust", ["D7:3", "D7:5"]),
    ((("Corwen", "sold the van 😢"), ("Ilse", "nooo"), ("Corwen", "900")), "Corwen sold the van; 900",
     ["D7:3", "D7:5"]),
    ((("Corwen", "the dog escaped the garden"), ("Ilse", "WHAT"), ("Corwen", "under the fence"), ("Ilse", "how far"),
      ("Corwen", "next door")), "Corwen: the dog escaped the garden; how far? next door", ["D7:3", "D7:6", "D7:7"]),
    ((("Corwen", "im best man"), ("Ilse", "OMG"), ("Corwen", "speech 😰")), "Corwen: im best man; speech",
     ["D7:3", "D7:5"]),
    ((("Corwen", "I need new tyres on the van"), ("Corwen", "fronts")),  # no turn between (h52b's case)
     "Corwen need new tyres on the van; fronts", ["D7:3", "D7:4"]),
])
def test_a_terse_piece_goes_on_with_the_speakers_fact(lines: tuple[tuple[str, str], ...], written: str,
                                                      sources: list[str]) -> None:
    ok, reason, facts = judged(*lines)
    assert ok and reason.startswith(GOES_ON)
    assert facts == [(written, sources)]


def test_a_fragment_told_alone_is_written_with_its_thread() -> None:
    """'Corwen: brakes + rust' said nothing on its own; the piece now joins the fact it goes on with."""
    for piece in ("Brakes. Rust.", "garage next door"):
        _, _, facts = judged(("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", piece))
        assert len(facts) == 1 and facts[0][0].startswith("Corwen: the van failed inspection; ")
        assert "D7:3" in facts[0][1] and "D7:5" in facts[0][1]


def test_the_piece_is_written_with_the_memory_the_fact_formed() -> None:
    _, _, facts = judged(("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "brakes + rust"),
                         memories=("Ilse failed her driving test", "Corwen: the van failed inspection"))
    assert facts == [("Corwen: the van failed inspection; brakes + rust", ["D7:3", "D7:5"])]


def test_a_memory_sharing_only_part_of_the_fact_is_not_the_one_it_formed() -> None:
    _, _, facts = judged(("Corwen", "the dog escaped the garden"), ("Ilse", "oh no"), ("Corwen", "under the fence"),
                         memories=("Corwen: the dog sleeps on the sofa",))
    assert facts == [("Corwen: the dog escaped the garden; under the fence", ["D7:3", "D7:5"])]


def test_within_one_exchange_the_piece_joins_the_facts_draft() -> None:
    turns = turns_of(("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "brakes + rust"))
    drafts = split_messages(turns[2:], turns[:2], gated=True)
    assert [(d.text, d.source_turn_ids) for d in drafts] == [
        ("Corwen: The van failed inspection; brakes + rust", ["D7:3", "D7:4", "D7:5"])]  # "oh no" a source (h66b)


@pytest.mark.parametrize("lines", [
    # the listener's news, or a question about a topic of its own, between
    (("Corwen", "the van failed inspection"), ("Ilse", "my sister had her baby"), ("Corwen", "brakes + rust")),
    (("Corwen", "the van failed inspection"), ("Ilse", "how r the lessons"), ("Corwen", "brakes + rust")),
    (("Corwen", "the van failed inspection"), ("Ilse", "did Bram call"), ("Corwen", "brakes + rust")),
    # the piece opens something of its own, is the speaker's word to the listener, or about them
    (("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "got a ferret")),
    (("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "they want 600")),
    (("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "dentist tomorrow")),
    (("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "ur keys r in ur bag")),
    (("Corwen", "the van failed inspection"), ("Ilse", "ill drive u"), ("Corwen", "ty")),
    (("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "with which garage")),
    (("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "sorry, rant over")),
    # the head is the listener's, or no fact, or a question
    (("Ilse", "the van failed inspection"), ("Corwen", "oh no"), ("Ilse", "lol"), ("Corwen", "brakes + rust")),
    (("Corwen", "lol"), ("Ilse", "oh no"), ("Corwen", "brakes + rust")),
    (("Corwen", "did the van fail inspection?"), ("Ilse", "oh no"), ("Corwen", "brakes + rust")),
    # a long fact's line: what comes after the listener's turn is no piece of one of its things
    (("Corwen", "the van failed inspection and the landlord is selling the flat and my knee is bad again "
                "so not a great week"), ("Ilse", "oh no"), ("Corwen", "brakes + rust")),
    # too long ago
    (("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "lol"), ("Ilse", "oh"),
     ("Corwen", "lol"), ("Ilse", "haha"), ("Corwen", "lol"), ("Ilse", "ok"), ("Corwen", "brakes + rust")),
])
def test_no_thread_to_go_on_with(lines: tuple[tuple[str, str], ...]) -> None:
    _, reason, facts = judged(*lines)
    assert not reason.startswith(GOES_ON)
    assert not any("inspection;" in text for text, _ in facts)


def test_a_session_break_ends_the_thread() -> None:
    opening = turns_of(("Corwen", "the van failed inspection"), ("Ilse", "oh no"))
    soon = turn("brakes + rust", "Corwen", 5).model_copy(update={"timestamp": START + timedelta(minutes=2)})
    late = soon.model_copy(update={"timestamp": START + threads.THREAD_GAP + timedelta(minutes=1)})
    formed = functools.partial(judge_utterance, threaded=False)

    def told(message: Message, before: list[Message]) -> bool:
        return formed(message, before)[0]

    assert threads.thread_of(soon, opening, told) == (opening[2], True, None)
    assert threads.thread_of(late, opening, told) is None
    assert not judge_utterance(late, opening)[1].startswith(GOES_ON)


@pytest.mark.parametrize(("line", "interjects"), [
    ("oh no", True), ("OMG", True), ("😂😂", True), ("how far", True), ("where", True), ("lol not far", True),
    ("for the van?", True),  # one word, the thread's
    ("how r lessons", False), ("dresscode?", False), ("did Bram call", False), ("my sister had her baby", False),
    ("that is so so unfair honestly", False),
    ("i mean the time", False), ("meant the van", False),  # the listener restating their question
])
def test_what_interjects(line: str, interjects: bool) -> None:
    assert threads.interjects(line, {"van", "inspect"}) is interjects


@pytest.mark.parametrize(("piece", "fragment"), [
    ("brakes + rust", True), ("900", True), ("next door", True), ("in the kitchen", True),
    ("got a ferret", False), ("they sing now", False), ("its fine", False), ("can float now", False),
    ("need help lifting", False),
])
def test_a_fragment_has_no_verb_or_subject_of_its_own(piece: str, fragment: bool) -> None:
    assert threads.fragment(piece) is fragment


@pytest.mark.parametrize(("detail", "carries"), [
    ("fronts", True), ("40", True), ("nurse", True), ("finally", False), ("v", False), ("totally", False),
    ("tyres", False),  # a word of the fact
])
def test_a_piece_carries_a_content_word_of_its_own(detail: str, carries: bool) -> None:
    assert threads.carries_content([detail], "I need new tyres on the van") is carries


def test_the_threaded_memory_is_updated_not_stored_twice(tmp_path: Path) -> None:
    first = turns_of(("Corwen", "the van failed inspection"), ("Ilse", "oh no"))
    piece = [turn("brakes + rust", "Corwen", len(first) + 1)]
    spaces = {"Corwen": "corwen", "Ilse": "ilse"}
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        mem.add(first, user_id="u", conversation_id="c1", speaker_namespaces=spaces)
        mem.add(piece, user_id="u", conversation_id="c1", speaker_namespaces=spaces)
        corwen = [(r.text, r.source_turn_ids) for r in mem.get_all(user_id="corwen")]
        ilse = [r.text for r in mem.get_all(user_id="ilse")]
    van = [(text, sources) for text, sources in corwen if "inspection" in text]
    assert len(van) == 1  # the memory was updated, not stored twice
    assert van[0][0].endswith("brakes + rust") and "D7:5" in van[0][1]
    assert not any("brakes" in t for t in ilse)


def test_the_model_prompts_say_the_same() -> None:
    from dmem.prompts.formation import ADMIT_SYSTEM, SPLIT_SYSTEM

    assert "Terse chat tells one fact over several turns" in ADMIT_SYSTEM
    assert "'got a ferret' opens something new" in ADMIT_SYSTEM
    assert "a reaction ('phew', 'oops', 'not funny'), a new announcement ('news tho'" in ADMIT_SYSTEM
    assert "'Corwen: the van failed inspection; brakes + rust'" in SPLIT_SYSTEM


def _memory(text: str, sources: list[str]) -> MemoryRecord:
    return MemoryRecord(id="m", namespace="corwen", text=text, speaker="Corwen", source_turn_ids=sources,
                        created_at=START, updated_at=START)


@pytest.mark.parametrize(("memory", "fact", "joined"), [
    ("Corwen sold the van", "Corwen sold the van; 900", "Corwen sold the van; 900"),
    ("Corwen sold the van; 900", "Corwen sold the van; to a student", "Corwen sold the van; 900; to a student"),
    ("Corwen sold the van; 900", "Corwen sold the van; 900", None),  # nothing new: the repeat rule
])
def test_the_lifecycle_joins_a_pieces_words_to_the_memory_of_its_first_turn(memory: str, fact: str,
                                                                            joined: str | None) -> None:
    new = Fact(text=fact, namespace="corwen", speaker="Corwen", source_turn_ids=["D7:3", "D7:9"])
    assert goes_on(new, _memory(memory, ["D7:3"])) == joined
    assert goes_on(new, _memory(memory, ["D7:1"])) is None  # another turn's memory
    if joined:
        decision = decide(new, [_memory(memory, ["D7:3"])], [0.99])  # close enough to count as a repeat
        assert decision.operation == Operation.UPDATE and decision.text == joined


@pytest.mark.parametrize("lines", [
    # the head asks without its mark (an offer): the speaker's question states no fact of theirs
    (("Corwen", "want me to bring the big van"), ("Ilse", "ya"), ("Corwen", "tuesday")),
    # the piece stands for a picture the line does not say
    (("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "pic")),
    (("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "[photo]")),
    # a question with chat's spelling of "what"
    (("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "wat then")),
    # the listener restating their question: the reply answers that, no piece of the speaker's fact
    (("Corwen", "my legs are dead after the run"), ("Ilse", "i mean the time"), ("Corwen", "hills everywhere")),
])
def test_no_wrong_join(lines: tuple[tuple[str, str], ...]) -> None:
    _, reason, facts = judged(*lines)
    assert not reason.startswith(GOES_ON)
    assert not any(";" in text for text, _ in facts)


def test_the_same_thread_still_joins_without_those() -> None:
    ok, reason, facts = judged(("Corwen", "the van failed inspection"), ("Ilse", "oh no"), ("Corwen", "brakes + rust"))
    assert ok and reason.startswith(GOES_ON) and facts[0][0].endswith("; brakes + rust")
    ok, reason, _ = judged(("Corwen", "my legs are dead after the run"), ("Ilse", "oh no"),
                           ("Corwen", "hills everywhere"))
    assert ok and reason.startswith(GOES_ON)


FIRST_PERSON = "admitted: a first-person line on the thread's topic"


@pytest.mark.parametrize(("lines", "written"), [
    ((("Corwen", "the ferry back tho"), ("Ilse", "🤢"), ("Corwen", "i threw up")), "Corwen threw up"),
    ((("Ilse", "I thought Portugal. Flying."), ("Corwen", "i dont fly")), "Corwen doesn't fly"),
])
def test_a_first_person_line_on_the_threads_topic_states_the_speakers_own(lines: tuple[tuple[str, str], ...],
                                                                          written: str) -> None:
    ok, reason, facts = judged(*lines)
    assert ok and reason.startswith(FIRST_PERSON)
    assert [text for text, _ in facts] == [written]


@pytest.mark.parametrize("lines", [
    (("Corwen", "i threw up"),),  # no topic before it: greetings only
    (("Corwen", "the ferry back tho"), ("Ilse", "🤢"), ("Corwen", "i know")),  # knowing, seeing, promising, liking
    (("Corwen", "the ferry back tho"), ("Ilse", "🤢"), ("Corwen", "i saw that")),
    (("Corwen", "the ferry back tho"), ("Ilse", "🤢"), ("Corwen", "i promise")),
    (("Corwen", "the ferry back tho"), ("Ilse", "🤢"), ("Corwen", "i guess")),
    (("Corwen", "the ferry back tho"), ("Ilse", "🤢"), ("Corwen", "i wont")),  # a negation, no verb
    (("Corwen", "the ferry back tho?"), ("Ilse", "🤢"), ("Corwen", "i threw up")),  # the speaker's question
    (("Corwen", "the ferry back tho"), ("Ilse", "my sister had her baby"), ("Corwen", "i cried")),  # the listener's
])
def test_no_topic_or_a_reply_to_the_listener_is_no_first_person_fact(lines: tuple[tuple[str, str], ...]) -> None:
    _, reason, _ = judged(*lines)
    assert not reason.startswith(FIRST_PERSON)


def test_a_line_whose_i_was_restored_is_not_read_as_said_with_i() -> None:
    assert threads.said_with_i(turn("i threw up", "Corwen", 1))
    assert not threads.said_with_i(turn("threw up", "Corwen", 1))
    assert not threads.said_with_i(turn("i threw up on the ferry back from the island", "Corwen", 1))


def test_right_after_the_speakers_own_line_the_thread_reads_a_first_person_line() -> None:
    """No turn between: the adjacent case joins it to the fact, the first-person rule does not take it alone."""
    _, reason, facts = judged(("Corwen", "never got the van tested tho"), ("Corwen", "i just avoid it"))
    assert not reason.startswith(FIRST_PERSON)
    turns = turns_of(("Corwen", "never got the van tested tho"), ("Corwen", "i just avoid it"))
    assert not threads.topic_given(turns[-1], turns[:-1])


ASKED_SATURDAY = ("Ilse", "what are you up to saturday?")


@pytest.mark.parametrize(("lines", "written", "sources"), [
    ((ASKED_SATURDAY, ("Corwen", "market"), ("Ilse", "oh nice"), ("Corwen", "jam stall")),
     'Corwen answered Ilse\'s question "what is Corwen up to saturday?": market; jam stall',
     ["D7:3", "D7:4", "D7:6"]),
    ((("Ilse", "still on for the regatta sunday?"), ("Corwen", "ya"), ("Corwen", "crewing")),
     'Corwen answered Ilse\'s question "still on for the regatta sunday?": ya; crewing', ["D7:3", "D7:4", "D7:5"]),
    ((("Ilse", "a new job? tell me everything"), ("Corwen", "bakery"), ("Ilse", "wow"), ("Corwen", "sourdough")),
     'Corwen answered Ilse\'s question "a new job?": bakery; sourdough', ["D7:3", "D7:4", "D7:6"]),
])
def test_a_short_answer_takes_its_topic_from_the_question_and_its_pieces_join_it(
        lines: tuple[tuple[str, str], ...], written: str, sources: list[str]) -> None:
    """h57f: "market" alone has one content word, no topic; answering "what are you up to saturday?" it has one."""
    ok, reason, facts = judged(*lines)
    assert ok and reason.startswith(GOES_ON)
    assert facts == [(written, sources)]


def test_a_piece_of_a_short_answer_joins_the_memory_the_answer_formed() -> None:
    stored = 'Corwen answered Ilse\'s question "what is Corwen up to saturday?": market'
    _, reason, facts = judged(ASKED_SATURDAY, ("Corwen", "market"), ("Ilse", "oh nice"), ("Corwen", "jam stall"),
                              memories=(stored,))
    assert reason.startswith(GOES_ON)
    assert [text for text, _ in facts] == [f"{stored}; jam stall"]


@pytest.mark.parametrize("lines", [
    (("Ilse", "should I get the blue kayak?"), ("Corwen", "ya"), ("Corwen", "faster")),  # the asker's own topic
    (("Ilse", "how was it?"), ("Corwen", "good"), ("Corwen", "long")),  # a question naming nothing gives no topic
    (("Ilse", "the market is busy"), ("Corwen", "stall"), ("Corwen", "jam")),  # a remark, not a question
    (ASKED_SATURDAY, ("Corwen", "market"), ("Ilse", "oh nice"), ("Corwen", "got a new van")),  # a verb of its own
    (("Ilse", "still on for the regatta sunday?"), ("Corwen", "ya"), ("Corwen", "mostly"), ("Ilse", "hmm"),
     ("Corwen", "news")),  # the speaker's other pieces after a short answer have moved on from its question
])
def test_an_answer_gets_no_topic_from_the_asker_a_bare_question_or_a_remark(lines: tuple[tuple[str, str], ...]) -> None:
    _, reason, _ = judged(*lines)
    assert not reason.startswith(GOES_ON)


def test_the_question_words_that_give_an_answer_its_topic() -> None:
    turns = turns_of(ASKED_SATURDAY, ("Corwen", "market"))
    assert threads._asked(turns[-1], turns[-2]) == ["saturday"]
    assert threads._asked(turns[-1], turns[-1]) == []  # the speaker's own line: no question of the listener's
    mine = turns_of(("Ilse", "should we take my car?"), ("Corwen", "ya"))
    assert threads._asked(mine[-1], mine[-2]) == []


@pytest.mark.parametrize("piece", ["phew", "shush", "oops lol", "not funny", "not that bad", "news tho", "guess what"])
def test_a_reaction_or_an_announcement_after_a_short_answer_joins_nothing(piece: str) -> None:
    """h57g: "phew" and "not funny" say how the speaker feels; "news tho" starts something new."""
    _, reason, _ = judged(("Ilse", "still on for the regatta sunday?"), ("Corwen", "ya"), ("Ilse", "great"),
                          ("Corwen", piece))
    assert not reason.startswith(GOES_ON)


def test_after_a_told_fact_a_negated_evaluation_joins_nothing_but_a_detail_does() -> None:
    lines = (("Corwen", "van failed inspection"), ("Ilse", "lol"))
    assert not judged(*lines, ("Corwen", "not funny"))[1].startswith(GOES_ON)
    assert judged(*lines, ("Corwen", "brakes + rust"))[1].startswith(GOES_ON)


@pytest.mark.parametrize(("clause", "reacts"), [
    ("phew", True), ("ugh", True), ("not funny", True), ("not so great", True), ("not bad!", True),
    ("not the van", False), ("not ready", False), ("rescue", False), ("jam stall", False),
])
def test_what_only_reacts(clause: str, reacts: bool) -> None:
    assert threads.reaction(clause) is reacts
