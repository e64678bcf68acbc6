"""Hybrid System 1 retrieval: BM25 over memory + source-turn text, name and time cues, fusion, index lifetime."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, timedelta

import numpy as np
import pytest

from dmem.evidence import hybrid
from dmem.evidence.bm25 import BM25Index, terms
from dmem.evidence.cues import TimeCue, time_cues
from dmem.evidence.indexes import EvidenceIndexes
from dmem.evidence.search import RRF_K, fuse
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import MemoryRecord, Message
from dmem.store import open_store
from dmem.store.namespaces import Routing

EMB = HashEmbeddings(64)
T0 = datetime(2024, 3, 4, 18, 30)


def record(i: int, text: str, ns: str = "noor", turns: tuple[str, ...] = (), when: datetime | None = None):
    return MemoryRecord(id=f"m{i}", namespace=ns, text=text, source_turn_ids=list(turns), event_time=when,
                        conversation_id="chat", created_at=T0, updated_at=T0)


def turn(i: int, text: str, speaker: str = "Noor", when: datetime = T0) -> Message:
    return Message(conversation_id="chat", turn_id=f"t{i}", speaker=speaker, text=text, timestamp=when, seq=i)


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "store", dim=64)
    yield s
    s.close()


def fill(store, records, messages=(), ns="noor"):
    store.transcript.append(Routing.of(ns), list(messages))
    for r in records:
        store.vectors.add(r, EMB.embed_query(r.text))


def ask(store, indexes, question, k, ns="noor"):
    return [r.id for r, _ in hybrid.memories(question, store, indexes, ns, k, EMB.embed_documents)]


def test_bm25_scores_only_documents_with_query_terms_and_prefers_rare_ones():
    index = BM25Index([terms(t) for t in ["the violin recital", "a violin lesson", "grocery list", "recital hall"]])
    assert index.top(terms("violin recital"), 4) == [0, 1, 3]
    assert index.idf("recit") > 0 and index.idf("unknown") == 0
    assert index.top(terms("weather"), 3) == []


def test_time_cues_keep_their_precision():
    assert time_cues("What did Noor cook on 14 March 2024?") == [TimeCue(2024, 3, 14)]
    assert time_cues("Where did Noor travel in August 2023?") == [TimeCue(2023, 8)]
    assert time_cues("What happened in 2022?") == [TimeCue(2022)]
    assert time_cues("What did Noor plant last April?") == [TimeCue(None, 4)]
    assert TimeCue(2024, 3, 14).distance(date(2024, 3, 16)) == 2
    assert TimeCue(2024, 3, 14).distance(date(2024, 3, 30)) is None
    assert TimeCue(None, 4).distance(date(2019, 4, 2)) == 0


def test_time_cues_read_a_day_without_its_year_a_span_and_a_part_of_the_month():
    assert time_cues("What did Noor bake on 4 June?") == [TimeCue(None, 6, 4)]
    assert time_cues("What is the plan for the morning of 14 May?") == [TimeCue(None, 5, 14)]
    assert time_cues("Where was Noor on June 4th?") == [TimeCue(None, 6, 4)]
    assert time_cues("Why did the fair move to 14-16 May?") == [TimeCue(None, 5, days=(14, 16))]
    assert time_cues("What happened to Noor's aunt in early April?") == [TimeCue(None, 4, days=(1, 10))]
    assert time_cues("Why was Noor tired at the end of September 2023?") == [TimeCue(2023, 9, days=(21, 31))]
    assert time_cues("What did Noor cook on the 3rd of March 2024?") == [TimeCue(2024, 3, 3)]
    assert time_cues("Did Noor sleep on 31 February?") == []
    assert time_cues("Noor may 4 times a week swim") == []  # 'may' the verb, lower case, before a number


def test_a_day_without_a_year_matches_that_day_in_any_year_and_a_part_its_days():
    assert TimeCue(None, 6, 4).distance(date(2031, 6, 4)) == 0
    assert TimeCue(None, 6, 4).distance(date(2019, 6, 6)) == 2
    assert TimeCue(None, 6, 4).distance(date(2031, 6, 20)) is None
    assert TimeCue(None, 1, 2).distance(date(2030, 12, 31)) == 2  # across New Year
    early = TimeCue(None, 4, days=(1, 10))
    assert early.distance(date(2032, 4, 7)) == 0 and early.distance(date(2032, 4, 12)) == 2
    assert early.distance(date(2032, 4, 25)) is None
    assert TimeCue(2024, 2, days=(21, 31)).distance(date(2024, 2, 29)) == 0  # 'late' ends on the month's last day
    assert TimeCue(2024, 2, days=(21, 31)).distance(date(2024, 3, 2)) == 2


def test_fusion_rewards_items_ranked_well_by_several_signals():
    fused = [item for item, _ in fuse([["a", "b", "c"], ["c", "b"], ["b"]])]
    assert fused[0] == "b" and set(fused) == {"a", "b", "c"}


def test_fusion_weighs_each_list_by_its_weight():
    plain = dict(fuse([["a", "b"], ["b", "a"]]))
    weighed = dict(fuse([["a", "b"], ["b", "a"]], [1.0, 0.5]))
    assert plain["a"] == plain["b"] and weighed["a"] > weighed["b"]
    assert weighed["a"] == 1.0 / (RRF_K + 1) + 0.5 / (RRF_K + 2)


def test_source_turn_text_finds_a_memory_its_own_words_miss(store):
    records = [record(0, "Noor adopted a dog", turns=("t0",))]
    records += [record(i, f"Noor mentioned errand number {i} of the week") for i in range(1, 12)]
    fill(store, records, [turn(0, "We finally brought home a greyhound named Biscuit from the shelter")])
    indexes = EvidenceIndexes(store)
    assert ask(store, indexes, "Which shelter greyhound did Noor bring home?", k=1) == ["m0"]


def test_time_cues_rank_memories_dated_where_the_question_points(store):
    months = [3, 6, 9]
    records = [record(i, "Noor went hiking with her cousin", when=datetime(2024, m, 10)) for i, m in enumerate(months)]
    fill(store, records)
    assert ask(store, EvidenceIndexes(store), "Who did Noor go hiking with in June 2024?", k=1) == ["m1"]


@pytest.mark.parametrize(("question", "days"), [
    ("Who did Noor go hiking with on the 4th of June?", [(6, 20), (6, 4), (6, 27)]),
    ("Who did Noor go hiking with in early June?", [(6, 25), (6, 3), (6, 16)]),
])
def test_a_day_or_part_of_a_month_without_a_year_ranks_the_memories_dated_then(store, question, days):
    # The same line on three days: only the time cue tells them apart; the one dated then is second in the store.
    line = "Noor went hiking with her cousin"
    fill(store, [record(i, line, when=datetime(2031, m, d)) for i, (m, d) in enumerate(days)])
    assert ask(store, EvidenceIndexes(store), question, k=1) == ["m1"]


def test_a_rare_name_in_the_question_finds_the_memory_that_names_it(store):
    records = [record(i, f"Noor baked bread on day {i}") for i in range(8)]
    records.append(record(8, "Noor's neighbour Teodora lends her a ladder"))
    fill(store, records)
    assert ask(store, EvidenceIndexes(store), "What does Teodora lend?", k=1) == ["m8"]


def test_indexes_are_reused_until_the_store_changes(store):
    fill(store, [record(0, "Noor plays the cello")])
    indexes = EvidenceIndexes(store)
    ask(store, indexes, "What does Noor play?", k=3)
    memory_index = indexes.memories("noor")
    ask(store, indexes, "Which instrument?", k=3)
    assert indexes.memories("noor") is memory_index
    # each question also brings the transcript index up to date (the thread signal, ``threads``): one build each
    assert indexes.builds == 3
    fill(store, [record(1, "Noor sings in a choir")])
    assert "m1" in ask(store, indexes, "Where does Noor sing?", k=3)
    assert indexes.builds == 5 and indexes.memories("noor") is not memory_index


def test_many_namespaces_keep_only_the_indexes_asked_about(store):
    for n in range(30):
        fill(store, [record(100 + n, f"user {n} likes tea", ns=f"user-{n}")], ns=f"user-{n}")
    indexes = EvidenceIndexes(store, max_entries=8)  # a namespace asked about keeps its memories and transcript
    for n in range(6):
        assert ask(store, indexes, "Who likes tea?", k=1, ns=f"user-{n}") == [f"m{100 + n}"]
    assert indexes.builds == 12 and len(indexes._entries) == 8
    ask(store, indexes, "Who likes tea?", k=1, ns="user-5")
    assert indexes.builds == 13  # the memory index still cached (the most recent stay); the transcript refreshed


def test_transcript_index_follows_the_transcript(store):
    messages = [turn(i, f"line {i}", when=T0 + timedelta(minutes=i)) for i in range(5)]
    indexes = EvidenceIndexes(store)
    first = indexes.turns(["noor"], messages)
    assert indexes.turns(["noor"], list(messages)) is first
    edited = [*messages[:4], messages[4].model_copy(update={"text": "line four, corrected"})]
    assert indexes.turns(["noor"], edited) is not first


def test_raw_turn_hits_follow_the_topic_not_the_person_addressed(store):
    # Sami greets Noor by name all the time; the one turn about the question's topic names nobody.
    chat = [turn(i, f"Noor, good morning! Did you sleep well, Noor? Weather note {i}.", speaker="Sami",
                 when=T0 + timedelta(minutes=i)) for i in range(8)]
    chat += [turn(8, "I started pottery lessons at the studio on Tuesdays.", when=T0 + timedelta(minutes=8))]
    chat += [turn(9 + i, f"Just a quick weather note {i}.", speaker="Sami", when=T0 + timedelta(minutes=9 + i))
             for i in range(30)]
    index = EvidenceIndexes(store).turns(["noor"], chat)
    assert hybrid.nameless_query("What lessons did Noor start at Blue Heron?") == "What lessons did start at ?"
    assert hybrid.turns("What pottery lessons did Noor start?", index, EMB.embed_documents, 3)[0] == 8


def test_turns_said_by_the_person_the_question_names_rank_first(store):
    # Both talk about bread; the question asks what Noor baked, so Noor's own turns are the evidence.
    chat = [turn(0, "I baked a rye loaf with caraway seeds.", speaker="Sami"),
            turn(1, "I baked a rye loaf with fennel seeds.", speaker="Noor"),
            *[turn(2 + i, f"Quick note {i} about the weather.", speaker="Sami") for i in range(6)]]
    index = EvidenceIndexes(store).turns(["noor"], chat)
    order = list(range(len(chat)))
    assert hybrid.spoken_by_named(index, "What loaf did Noor bake?", order) == [1]
    assert hybrid.spoken_by_named(index, "What loaf did Sami bake?", order) == [0, 2, 3, 4, 5, 6, 7]
    assert hybrid.spoken_by_named(index, "What did Noor and Sami bake?", order) == []  # everyone: no signal
    assert hybrid.spoken_by_named(index, "What loaf was baked?", order) == []
    assert hybrid.turns("What rye loaf did Noor bake?", index, EMB.embed_documents, 2)[0] == 1
    assert hybrid.turns("What rye loaf did Sami bake?", index, EMB.embed_documents, 2)[0] == 0


def test_memories_lead_seeds_to_turns_whose_own_text_the_question_does_not_resemble(store):
    # The evidence is a long greeting that never says "adopt" or "dog"; the fact formed from it does.
    chat = [turn(i, f"Quick note {i} about the weather and the traffic.", speaker=("Sami", "Noor")[i % 2],
                 when=T0 + timedelta(minutes=i)) for i in range(40)]
    chat[21] = turn(21, "Hey! Long week. The kids had a recital, and we finally brought Juniper home from the "
                        "shelter.", when=T0 + timedelta(minutes=21))
    fill(store, [record(1, "Noor adopted a greyhound dog from the shelter", turns=("t21",)),
                 record(2, "Sami likes the traffic report", ns="noor", turns=("t4",))], chat)
    index = EvidenceIndexes(store).turns(["noor"], chat)
    question = "What dog did Noor adopt?"
    told = hybrid.told_turns(question, store, ["noor"], index, EMB.embed_documents)
    assert told[0] == 21 and set(told) == {21, 4}
    without = hybrid.turns(question, index, EMB.embed_documents, 40)
    with_told = hybrid.turns(question, index, EMB.embed_documents, 40, told)
    assert without.index(21) >= 10 and with_told.index(21) < 6  # one more ranking, not a veto over the others


def test_memories_lead_to_their_own_conversation_and_labels(store):
    # Two conversations reuse turn ids; a memory names its conversation, so it leads to its own turn.
    chat = [turn(i, f"Small talk {i}.") for i in range(3)]
    trip = [m.model_copy(update={"conversation_id": "trip", "text": f"Trip plans {m.seq}.",
                                 "timestamp": T0 + timedelta(days=1, minutes=m.seq)}) for m in chat]
    messages = [*chat, *trip]
    tagged = record(1, "Noor booked a ferry to the islands", turns=("t1",)).model_copy(
        update={"conversation_id": "trip", "metadata": {"source": "import"}})
    untagged = record(2, "Noor booked a table at the noodle bar", turns=("t2",))
    fill(store, [tagged, untagged], messages)
    index = EvidenceIndexes(store).turns(["noor"], messages)
    assert sorted(hybrid.told_turns("What did Noor book?", store, ["noor"], index, EMB.embed_documents)) == [2, 4]
    assert hybrid.told_turns("What did Noor book?", store, ["noor"], index, EMB.embed_documents,
                             {"source": "import"}) == [4]
    assert hybrid.told_turns("What did Noor book?", store, ["sami"], index, EMB.embed_documents) == []



def _asked(store, answered: bool):
    """A question kept as asked, the fact that answers it (when ``answered``), and unrelated lines."""
    records = [record(0, 'Noor asked Theo: "Which trail did Theo hike on Saturday?"', turns=("t0",))]
    if answered:
        records.append(record(1, "Theo hiked the Ridge Loop trail on Saturday with his sister", turns=("t1",)))
    records += [record(i, f"Theo mentioned errand number {i} of the week", turns=(f"t{i}",)) for i in range(2, 12)]
    fill(store, records, [turn(0, "Which trail did you hike on Saturday?"),
                          turn(1, "The Ridge Loop, with my sister!", speaker="Theo")])


def test_a_question_kept_as_asked_yields_to_the_fact_that_answers_it(store):
    _asked(store, answered=True)
    found = ask(store, EvidenceIndexes(store), "Which trail did Theo hike on Saturday?", k=12)
    assert found[0] == "m1" and "m0" in found



def test_only_a_question_kept_as_asked_loses_weight():
    lines = ['Noor asked Theo: "Which trail?"', 'Theo answered Noor\'s question "Which trail?": the Ridge Loop',
             "Did Theo hike?", "Theo hikes"]
    weighed = hybrid.asked_last([(record(i, text), 1.0 - i / 10) for i, text in enumerate(lines)])
    assert [(r.id, round(score, 2)) for r, score in weighed] == [("m1", 0.9), ("m2", 0.8), ("m3", 0.7), ("m0", 0.5)]



def _topic_embed(texts: list[str]) -> np.ndarray:
    """Vectors by topic: 'bake' lines on one axis, lines greeting Ilka close to it, the rest on another."""
    def one(text: str) -> list[float]:
        return [1.0, 0.0] if "bake" in text else [0.9, 0.4] if "Ilka" in text else [0.0, 1.0]
    return np.asarray([one(t) + [0.0] * 62 for t in texts], dtype=np.float32)


def test_a_name_only_a_greeting_carries_counts_once_not_as_a_signal_of_its_own(store):
    # Two lines match the question by one word each, equally for BM25; the topic line is closer in
    # meaning. The greeting's match is Sami calling Noor 'Ilka': a name settles whom, not what.
    records = [record(0, "Noor did the thing on the list", turns=("t0",)),
               record(1, "Noor did the thing on the list", turns=("t1",))]
    records += [record(2 + i, f"Noor did chore {i}", turns=(f"t{2 + i}",)) for i in range(6)]
    messages = [turn(0, "the bake sale went fine"),  # the greeting a day later: not the bake line's thread (threads)
                turn(1, "Ilka said it went fine", speaker="Sami", when=T0 + timedelta(days=1))]
    messages += [turn(2 + i, f"chore {i} went fine") for i in range(6)]
    store.transcript.append(Routing.of("noor"), messages)
    for r in records:
        store.vectors.add(r, _topic_embed([messages[int(r.source_turn_ids[0][1:])].text])[0].tolist())
    found = [r.id for r, _ in hybrid.memories("Did Ilka bake?", store, EvidenceIndexes(store), "noor", 2,
                                              _topic_embed)]
    assert found == ["m0", "m1"]


def _two_people(store):
    """Per-speaker namespaces of one chat: Maya's memories name Maya, Theo's name Theo (and Maya now and then)."""
    fill(store, [record(i, f"Maya bakes loaf number {i}", ns="maya") for i in range(10)], ns="maya")
    theo = [record(20 + i, f"Theo repairs bicycle number {i}", ns="theo") for i in range(8)]
    theo += [record(30, "Theo answered Maya's question about the ferry", ns="theo"),
             record(31, "Theo lent Maya a tent", ns="theo")]
    fill(store, theo, ns="theo")


def _shares(question, indexes, namespaces, k):
    return hybrid.shares(question, [indexes.memories(ns) for ns in namespaces], k)


def test_a_question_about_one_person_takes_more_from_that_persons_namespace(store):
    _two_people(store)
    indexes = EvidenceIndexes(store)
    assert _shares("What does Maya bake?", indexes, ["maya", "theo"], 30) == [45, 15]
    assert _shares("What does Theo repair?", indexes, ["maya", "theo"], 30) == [15, 45]
    assert _shares("What does Theo repair?", indexes, ["maya", "theo"], 5) == [2, 8]


def test_equal_shares_unless_the_question_names_some_namespaces_person_only(store):
    _two_people(store)
    indexes = EvidenceIndexes(store)
    both = ["maya", "theo"]
    assert _shares("What do Maya and Theo share?", indexes, both, 30) == [30, 30]
    assert _shares("What happened at the fair?", indexes, both, 30) == [30, 30]
    assert _shares("Where did Ottoline go?", indexes, both, 30) == [30, 30]  # nobody's person
    assert _shares("What does Maya bake?", indexes, ["maya"], 30) == [30]
    # Theo's memories name Maya too (2 of 10), but less often than hers: the name is her namespace's alone.
    assert _shares("What did Maya lend?", indexes, both, 30) == [45, 15]



def test_the_chats_people_a_question_names_are_the_names_some_namespace_is_about(store):
    _two_people(store)
    indexes = EvidenceIndexes(store)
    both = ["maya", "theo"]

    def people(question, namespaces=both):
        return hybrid.plan(question, indexes, namespaces, 30, EMB.embed_documents).people

    assert people("What do Maya and Theo share?") == ("Maya", "Theo")
    assert people("What did Theo lend Ottoline?") == ("Theo",)  # Ottoline is nobody's namespace's person
    assert people("What happened at the fair?") == ()
    assert people("What do Maya and Theo share?", ["maya"]) == ()  # one namespace: nothing to tell apart


def _name_or_topic(texts: list[str]) -> np.ndarray:
    """Vectors where the name Maya outweighs the topic: a 'trip' axis and a heavier 'Maya' one."""
    def one(text: str) -> list[float]:
        return [1.0 if "trip" in text else 0.0, 1.5 if "Maya" in text else 0.0, 0.1]
    return np.asarray([one(t) + [0.0] * 61 for t in texts], dtype=np.float32)


def test_a_speakers_name_leaves_every_namespaces_dense_query(store):
    # Theo's namespace names Maya in the lines of their exchanges; "Maya and Theo" asks about both, so in
    # Theo's namespace her name would lift the exchange over the line about the trip.
    fill(store, [record(i, f"Maya bakes loaf number {i}", ns="maya") for i in range(4)], ns="maya")
    theo = [record(10, "Theo answered Maya's question: yes Maya, see you Maya", ns="theo"),
            record(11, "Theo packed the tent for the trip to the lakes", ns="theo")]
    theo += [record(12 + i, f"Theo repairs bicycle number {i}", ns="theo") for i in range(4)]
    for r in theo:
        store.vectors.add(r, _name_or_topic([r.text])[0].tolist())
    indexes = EvidenceIndexes(store)
    question = "What will Maya and Theo take on the trip?"
    planned = hybrid.plan(question, indexes, ["maya", "theo"], 1, _name_or_topic)
    assert planned.people == ("Maya", "Theo")
    kept = hybrid.memories(question, store, indexes, "theo", 1, _name_or_topic)
    assert [r.id for r, _ in kept] == ["m10"]  # the name left in: the exchange comes first
    found = hybrid.memories(question, store, indexes, "theo", 1, _name_or_topic, people=planned.people)
    assert [r.id for r, _ in found] == ["m11"]
    done = asyncio.run(hybrid.amemories(question, store, indexes, "theo", 1, _name_or_topic, people=planned.people))
    assert [r.id for r, _ in done] == ["m11"]


def test_name_shares_are_scanned_once_per_index_version_and_versions_read_once_per_namespace(store):
    _two_people(store)
    indexes = EvidenceIndexes(store)
    reads: list[str] = []
    version = store.version
    store.version = lambda ns: reads.append(ns) or version(ns)
    planned = hybrid.plan("What does Maya bake?", indexes, ["maya", "theo"], 30, EMB.embed_documents)
    assert [share for _, share in planned.held] == [45, 15]
    assert sorted(reads) == ["maya", "theo"]
    maya = indexes.memories("maya")
    assert maya.named == {"maya": 1.0}
    maya.named["maya"] = 0.0  # a kept share is read back, not scanned again
    assert _shares("What does Maya bake?", indexes, ["maya", "theo"], 30) == [30, 30]  # nobody owns the name now
    fill(store, [record(40, "Maya bakes rye", ns="maya")], ns="maya")
    assert _shares("What does Maya bake?", indexes, ["maya", "theo"], 30) == [45, 15]  # a new version scans again
