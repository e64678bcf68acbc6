"""System 1 ranks a memory also by the turns of its thread: a terse fragment whose topic was said a few lines up."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from dmem.evidence import hybrid, threads
from dmem.evidence.indexes import EvidenceIndexes
from dmem.evidence.search import RRF_K
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import MemoryRecord, Message
from dmem.store import open_store
from dmem.store.namespaces import Routing

EMB = HashEmbeddings(64)
DAY = datetime(2025, 6, 2, 19, 0)
LINES = [  # (speaker, text): Ilka asks about Noor's test; Noor's answers never say what they are about
    ("Ilka", "your driving test?!"), ("Noor", "ya"), ("Ilka", "where"), ("Noor", "the barnhollow centre"),
    ("Ilka", "nice"), ("Noor", "baked bread"), ("Ilka", "sourdough?"), ("Noor", "rye"), ("Ilka", "yum"),
    ("Noor", "ok"), ("Noor", "got the keys"), ("Ilka", "which flat"), ("Noor", "the top one"),
]


def turns(day: datetime = DAY) -> list[Message]:
    return [Message(conversation_id="chat", turn_id=f"t{i}", speaker=s, text=x,
                    timestamp=day + timedelta(minutes=i), seq=i) for i, (s, x) in enumerate(LINES)]


def memory(i: int, text: str, *sources: str) -> MemoryRecord:
    return MemoryRecord(id=f"m{i}", namespace="noor", text=text, source_turn_ids=list(sources),
                        conversation_id="chat", created_at=DAY, updated_at=DAY)


MEMORIES = [memory(0, "Noor answered Ilka's question \"where\": the barnhollow centre", "t2", "t3"),
            memory(1, "Noor baked rye bread", "t5", "t7"),
            memory(2, "Noor got the keys of the top flat", "t10", "t12")]


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "store", dim=64)
    yield s
    s.close()


def fill(store, messages, records=MEMORIES):
    store.transcript.append(Routing.of("noor"), list(messages))
    for r in records:
        store.vectors.add(r, EMB.embed_query(r.text))


def test_a_fragment_ranks_by_the_topic_said_just_before_it(store):
    fill(store, turns())
    indexes = EvidenceIndexes(store)
    ranked = threads.thread_ranking(hybrid.nameless_query("Where did Noor take the driving test?"),
                                    indexes.memories("noor"), indexes.transcript("noor"))
    assert ranked[0] == 0
    assert threads.thread_ranking("What did the vet say?", indexes.memories("noor"), indexes.transcript("noor")) == []


def test_the_thread_reaches_back_only_before_turns_and_stays_in_its_day(store):
    fill(store, turns())
    indexes = EvidenceIndexes(store)
    index, transcript = indexes.memories("noor"), indexes.transcript("noor")
    assert 2 not in threads.thread_ranking("driving test", index, transcript)  # t0 is 10 turns before t10
    assert 2 in threads.thread_ranking("driving test", index, transcript, before=10)
    assert threads.thread(transcript, [3], 2) == {1, 2}  # the source turns are the memory's own document
    assert threads.thread(transcript, [3, 10], 1) == {2, 9}
    assert threads.thread(transcript, [2, 3], 6) == {0, 1}


def test_a_turn_of_another_day_is_not_the_thread(store):
    first, second = turns()[:3], turns(DAY + timedelta(days=1))[3:]
    fill(store, first + second, [memory(0, "Noor: the barnhollow centre", "t3")])
    indexes = EvidenceIndexes(store)
    transcript = indexes.transcript("noor")
    assert threads.thread(transcript, [3], 6) == set()
    assert threads.thread_ranking("driving test", indexes.memories("noor"), transcript) == []


def test_the_thread_ranking_lifts_the_fragment_in_the_fusion(store):
    fill(store, turns())
    indexes = EvidenceIndexes(store)
    question = "Where did Noor take the driving test?"
    index, vector = hybrid.memory_query(question, indexes, "noor", EMB.embed_documents, None)
    dense = store.vectors.search(["noor"], vector, 10)
    thread = hybrid.thread_query(question, store, indexes, "noor", index)
    assert thread[0] == 0
    plain = dict((r.id, s) for r, s in hybrid.fused_memories(question, index, vector, dense, 3, EMB.embed_documents))
    lifted = dict((r.id, s) for r, s in hybrid.fused_memories(question, index, vector, dense, 3, EMB.embed_documents,
                                                              thread=thread))
    assert lifted["m0"] - plain["m0"] == pytest.approx(hybrid.TERSE_THREAD_WEIGHT / (RRF_K + 1))
    assert hybrid.memories(question, store, indexes, "noor", 1, EMB.embed_documents)[0][0].id == "m0"


def test_the_thread_s_first_place_weighs_as_much_as_the_dense_signal_s(store):
    # Half weight left a fragment its thread ranks first below the K kept of a long namespace (RESULTS, h58e).
    fill(store, turns())
    indexes = EvidenceIndexes(store)
    question = "Where did Noor take the driving test?"
    index, vector = hybrid.memory_query(question, indexes, "noor", EMB.embed_documents, None)
    top = [h for h in store.vectors.search(["noor"], vector, 10) if h.record.id == "m0"]
    by_dense = dict((r.id, s) for r, s in hybrid.fused_memories(question, index, vector, top, 3, EMB.embed_documents))
    by_thread = dict((r.id, s) for r, s in hybrid.fused_memories(question, index, vector, [], 3, EMB.embed_documents,
                                                                 thread=[0]))
    assert by_thread["m0"] == pytest.approx(by_dense["m0"])


def test_a_longer_line_is_lifted_by_its_thread_at_half_weight(store):
    # A line of more than TERSE_WORDS words says its own topic; lifted fully it pushes list answers out.
    long_line = "we drove out past the old mill and the lake and finally found the place at the end"
    lines = [*turns()[:3], Message(conversation_id="chat", turn_id="t3", speaker="Noor", text=long_line,
                                   timestamp=DAY + timedelta(minutes=3), seq=3), *turns()[4:]]
    fill(store, lines)
    indexes = EvidenceIndexes(store)
    question = "Where did Noor take the driving test?"
    index, vector = hybrid.memory_query(question, indexes, "noor", EMB.embed_documents, None)
    assert hybrid.terse(index, [0, 1, 2]) == {1, 2}
    top = [h for h in store.vectors.search(["noor"], vector, 10) if h.record.id == "m0"]
    by_dense = dict((r.id, s) for r, s in hybrid.fused_memories(question, index, vector, top, 3, EMB.embed_documents))
    by_thread = dict((r.id, s) for r, s in hybrid.fused_memories(question, index, vector, [], 3, EMB.embed_documents,
                                                                 thread=[0]))
    assert by_dense["m0"] - by_thread["m0"] == pytest.approx((1 - hybrid.THREAD_WEIGHT) / (RRF_K + 1))
    assert hybrid.THREAD_WEIGHT < hybrid.TERSE_THREAD_WEIGHT


def test_the_async_path_ranks_as_the_sync_path(store):
    fill(store, turns())
    indexes = EvidenceIndexes(store)
    question = "Where did Noor take the driving test?"
    sync = [(r.id, s) for r, s in hybrid.memories(question, store, indexes, "noor", 3, EMB.embed_documents)]
    done = asyncio.run(hybrid.amemories(question, store, indexes, "noor", 3, EMB.embed_documents))
    assert [(r.id, s) for r, s in done] == sync


def test_a_long_line_before_bounds_the_thread(store):
    said = turns()
    said[1] = said[1].model_copy(update={"text": " ".join(["and then the whole family came round"] * 6)})
    fill(store, said)
    indexes = EvidenceIndexes(store)
    transcript = indexes.transcript("noor")
    assert threads.thread(transcript, [3], 6) == {2}  # the 42 words of t1 pass the budget: t1 and t0 stay out
    assert threads.thread(transcript, [3], 6, words=0) == {0, 1, 2}
    assert threads.thread_ranking("driving test", indexes.memories("noor"), transcript) == []


def test_a_memory_that_says_the_question_s_words_is_not_lifted_by_its_thread(store):
    fill(store, turns())
    indexes = EvidenceIndexes(store)
    index, transcript = indexes.memories("noor"), indexes.transcript("noor")
    question = "Which flat did Noor pick?"  # t11 'which flat' is in the thread of m2, which says 'flat' itself
    assert 11 in threads.thread(transcript, transcript.positions.of(index.records[2]), threads.BEFORE)
    assert 11 in transcript.docs.lexical(hybrid.nameless_query(question), threads.POOL)
    assert threads.saying(hybrid.nameless_query(question), index) == {2}
    assert threads.thread_ranking(hybrid.nameless_query(question), index, transcript) == []
    assert threads.saying(hybrid.nameless_query("Where did Noor take the driving test?"), index) == set()


def test_saying_reads_the_question_as_given_its_caller_leaves_the_names_out(store):
    fill(store, turns())
    index = EvidenceIndexes(store).memories("noor")
    # every memory of Noor's namespace names her: one place leaves the names out, the caller (``nameless_query``)
    assert threads.saying("Noor", index) == set(range(len(index.records)))
    assert threads.saying(hybrid.nameless_query("Where did Noor take the driving test?"), index) == set()


PIM_LINES = [("Noor", "baked bread"), ("Ilka", "rye?"), ("Noor", "yes"), ("Ilka", "and Pim?"),
             ("Noor", "moved to Leeds, finally"), ("Ilka", "whoa")]


def pim_turns() -> list[Message]:
    return [Message(conversation_id="chat", turn_id=f"t{i}", speaker=s, text=x,
                    timestamp=DAY + timedelta(minutes=i), seq=i) for i, (s, x) in enumerate(PIM_LINES)]


def test_the_thread_query_leaves_out_the_speakers_names_only(store):
    fill(store, [*pim_turns(), Message(conversation_id="chat", turn_id="t9", speaker="Ilka Varga", text="ok",
                                       timestamp=DAY + timedelta(minutes=9), seq=9)])
    transcript = EvidenceIndexes(store).transcript("noor")
    assert transcript.speaker_words == {"noor", "ilka", "varga"}
    assert threads.speakerless_query("What did Noor tell Ilka Varga about Pim?", transcript) == \
        "What did tell about Pim?"
    assert threads.speakerless_query("Noor?", transcript) == "Noor?"  # nothing left: the question as asked


def test_a_third_person_the_question_names_ranks_the_fragment_answering_about_them(store):
    # 'Pim' is said only two lines up: the memory's own words ('moved to Leeds') share nothing with the question.
    fill(store, pim_turns(), [memory(0, "Noor baked rye bread", "t0", "t2"),
                              memory(1, "Noor: moved to Leeds, finally", "t4")])
    indexes = EvidenceIndexes(store)
    question = "What happened with Pim?"
    assert hybrid.thread_query(question, store, indexes, "noor", indexes.memories("noor")) == [1]
    assert hybrid.thread_query("What happened with Noor?", store, indexes, "noor", indexes.memories("noor")) == []
    assert hybrid.memories(question, store, indexes, "noor", 1, EMB.embed_documents)[0][0].id == "m1"
