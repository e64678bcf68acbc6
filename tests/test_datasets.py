"""Dataset loaders: every format quirk pinned on our own fixtures, then the real files if present."""

import json
from datetime import datetime
from pathlib import Path

import pytest

from dmem.datasets import datasets, formats
from dmem.datasets.datasets import (
    IMAGE_MARKER,
    Conversation,
    Dataset,
    detect_kind,
    load_dataset,
    load_locomo,
    load_realtalk,
    parse_datetime,
)
from dmem.errors import DataError
from dmem.state.schemas import Message

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LOCOMO_FIXTURE = FIXTURES / "locomo_mini.json"
REALTALK_FIXTURES = FIXTURES / "realtalk"
SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
LOCOMO_DEV = SHARED_DATA / "locomo" / "locomo-dev6.json"
REALTALK_DIR = SHARED_DATA / "realtalk"


def _by_turn(conv: Conversation) -> dict[str, Message]:
    return {m.turn_id: m for m in conv.messages}


@pytest.fixture(scope="module")
def locomo() -> Dataset:
    return load_locomo(LOCOMO_FIXTURE)


@pytest.fixture(scope="module")
def realtalk() -> Dataset:
    return load_realtalk(REALTALK_FIXTURES)


# --- dates -------------------------------------------------------------------------------------


def test_parse_datetime_formats() -> None:
    assert parse_datetime("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56)
    assert parse_datetime("12:09 am on 1 January, 2024") == datetime(2024, 1, 1, 0, 9)
    # Day first: 02.01 is the 2nd of January, not the 1st of February.
    assert parse_datetime("02.01.2024, 09:05:00") == datetime(2024, 1, 2, 9, 5)
    assert parse_datetime("29.12.2023, 22:42:04") == datetime(2023, 12, 29, 22, 42, 4)
    assert parse_datetime("sometime in spring") is None
    assert parse_datetime(None) is None


# --- LoCoMo fixture ----------------------------------------------------------------------------


def test_locomo_sessions_in_numeric_order_with_offsets(locomo: Dataset) -> None:
    conv = locomo.conversations[0]
    assert conv.conversation_id == "fx-1"
    assert conv.speakers == ["Ann", "Bob"]
    # session_10 comes before session_2 in the file, but after it in the conversation.
    assert [m.turn_id for m in conv.messages] == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2", "D10:1"]
    assert [m.seq for m in conv.messages] == list(range(6))
    stamps = [m.timestamp for m in conv.messages]
    assert stamps[:3] == [datetime(2023, 5, 8, 13, 56, s) for s in (0, 1, 2)]
    assert stamps[5] == datetime(2023, 7, 1, 9, 0)
    assert all(s is not None and s.tzinfo is None for s in stamps)
    assert all(a < b for a, b in zip(stamps, stamps[1:], strict=False))  # type: ignore[operator]


def test_locomo_image_turns_keep_caption(locomo: Dataset) -> None:
    turns = _by_turn(locomo.conversations[0])
    dog = turns["D1:2"]
    assert dog.image_caption == "a photo of a dog on a beach"
    assert dog.text == "Look at my dog!"
    assert "[shares a photo: a photo of the colosseum]" in turns["D2:2"].render()
    assert turns["D1:1"].image_caption is None


def test_locomo_date_without_session_is_noted(locomo: Dataset) -> None:
    conv = locomo.conversations[0]
    assert conv.issue_counts["session_without_turns"] == 2
    assert any("[3, 11]" in line for line in conv.issues)


def test_locomo_qa_answers_and_categories(locomo: Dataset) -> None:
    qa = locomo.conversations[0].qa
    assert len(qa) == 6  # the item without a category is skipped ...
    assert locomo.conversations[0].issue_counts["malformed_qa"] == 1  # ... and noted
    assert qa[0].answer == "2022" and qa[0].category == 2  # int answer cast to str
    adversarial = qa[2]
    assert (adversarial.category, adversarial.answer, adversarial.adversarial_answer) == (5, "", "Yes")
    assert (qa[5].answer, qa[5].adversarial_answer) == ("No", "Yes")
    assert qa[0].adversarial_answer is None


def test_locomo_evidence_split_validated_and_counted(locomo: Dataset) -> None:
    conv = locomo.conversations[0]
    qa = conv.qa
    assert qa[1].evidence == ["D1:1", "D2:1"]  # "D1:1; D2:1" holds two ids
    assert qa[3].evidence == ["D1:3"]  # 'D8:', 'D:1:3' and 'D' dropped
    assert qa[4].evidence == ["D10:1"]  # 'D9:9' points to no turn
    assert conv.issue_counts["malformed_evidence"] == 3
    assert conv.issue_counts["missing_evidence"] == 1
    assert "qa 3: evidence 'D8:' is malformed" in conv.issues
    assert "qa 4: evidence 'D9:9' points to no turn" in conv.issues


def test_locomo_bad_date_bad_turn_and_speaker_case(locomo: Dataset) -> None:
    conv = locomo.conversations[1]
    assert [m.turn_id for m in conv.messages] == ["D1:1", "D1:2"]
    assert [m.speaker for m in conv.messages] == ["Cy", "Di"]  # 'di' -> 'Di'
    assert all(m.timestamp is None for m in conv.messages)  # "sometime in spring" does not parse
    assert conv.issue_counts == {"bad_date": 1, "speaker_case": 1}


def test_locomo_summary(locomo: Dataset) -> None:
    summary = locomo.summary()
    assert summary["conversations"] == 2
    assert summary["messages"] == 8
    assert summary["questions"] == 6
    assert summary["questions_by_category"] == {1: 1, 2: 1, 3: 1, 4: 1, 5: 2}
    assert summary["issues"]["malformed_evidence"] == 3


# --- RealTalk fixtures -------------------------------------------------------------------------


def test_realtalk_directory_in_natural_order(realtalk: Dataset) -> None:
    assert [c.conversation_id for c in realtalk.conversations] == ["Chat_1_Ann_bo", "Chat_10_Cy_Di"]
    single = load_realtalk(REALTALK_FIXTURES / "Chat_10_Cy_Di.json")
    assert [c.conversation_id for c in single.conversations] == ["Chat_10_Cy_Di"]


def test_realtalk_per_turn_timestamps_and_session_order(realtalk: Dataset) -> None:
    conv = realtalk.conversations[0]
    assert [m.turn_id for m in conv.messages] == ["D1:1", "D1:3", "D1:4", "D1:5", "D2:1"]
    stamps = [m.timestamp for m in conv.messages]
    assert stamps == [
        datetime(2023, 12, 29, 22, 42, 4),
        datetime(2023, 12, 30, 0, 38, 42),  # the turn's own time, not the session's
        datetime(2023, 12, 30, 0, 39, 0),
        datetime(2024, 1, 2, 9, 5, 0),  # no date_time: falls back to its session's date
        datetime(2024, 1, 2, 9, 6, 0),
    ]
    assert any("D1:5: has no date_time, used the session date" in line for line in conv.issues)


def test_realtalk_speakers_normalised_case_insensitively(realtalk: Dataset) -> None:
    conv = realtalk.conversations[0]
    assert conv.speakers == ["Ann", "bo"]
    assert [m.speaker for m in conv.messages] == ["Ann", "bo", "bo", "Ann", "Ann"]
    assert conv.issue_counts["speaker_case"] == 3
    other = realtalk.conversations[1]
    assert other.messages[1].speaker == "Eve"  # unknown speakers are kept, and noted
    assert other.issue_counts == {"unknown_speaker": 1}


def test_realtalk_images_and_empty_text(realtalk: Dataset) -> None:
    turns = _by_turn(realtalk.conversations[0])
    assert turns["D1:3"].text == IMAGE_MARKER
    assert turns["D1:3"].image_caption is None
    assert turns["D1:4"].image_caption == "a cat on a sofa"
    assert turns["D2:1"].text == ""
    assert realtalk.conversations[0].issue_counts["empty_text"] == 1


def test_realtalk_qa(realtalk: Dataset) -> None:
    conv = realtalk.conversations[0]
    assert [(q.category, q.answer) for q in conv.qa] == [(1, "Italy"), (2, "2"), (3, "Probably")]
    assert conv.qa[0].evidence == ["D1:1"]  # 'D1:2' is a gap in the dia_ids
    assert conv.qa[1].evidence == ["D1:3", "D1:4"]  # "D1:3. D1:4" holds two ids
    assert conv.qa[2].evidence == []  # "D17;39" is malformed
    assert conv.issue_counts["missing_evidence"] == 1
    assert conv.issue_counts["malformed_evidence"] == 1


# --- dispatch, detection, errors ---------------------------------------------------------------


def test_detect_kind_and_dispatch(tmp_path: Path) -> None:
    assert detect_kind(LOCOMO_FIXTURE) == "locomo"
    assert detect_kind(REALTALK_FIXTURES) == "realtalk"
    assert detect_kind(REALTALK_FIXTURES / "Chat_1_Ann_bo.json") == "realtalk"
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps([{"role": "user", "content": "hi"}]))
    assert detect_kind(plain) is None
    text = tmp_path / "notes.txt"
    text.write_text("not json")
    assert detect_kind(text) is None
    assert detect_kind(tmp_path) is None
    assert load_dataset("locomo", LOCOMO_FIXTURE).name == "locomo"
    assert load_dataset("realtalk", REALTALK_FIXTURES).name == "realtalk"


def test_unreadable_inputs_raise_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="file not found"):
        load_locomo(tmp_path / "missing.json")
    with pytest.raises(DataError, match="file not found"):
        detect_kind(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("[{")
    with pytest.raises(DataError, match="not valid JSON"):
        load_locomo(broken)
    with pytest.raises(DataError, match="not a LoCoMo file"):
        load_locomo(REALTALK_FIXTURES / "Chat_1_Ann_bo.json")
    with pytest.raises(DataError, match="not a RealTalk chat"):
        load_realtalk(LOCOMO_FIXTURE)
    with pytest.raises(DataError, match="no Chat_"):
        load_realtalk(tmp_path)
    with pytest.raises(DataError, match="unknown dataset kind"):
        load_dataset("msc", LOCOMO_FIXTURE)  # type: ignore[arg-type]


def test_a_folder_without_chat_files_reads_each_json_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chats under other names are found by their content, and loading does not parse a file a second time."""
    for source in sorted(REALTALK_FIXTURES.glob("Chat_*.json")):
        (tmp_path / source.name.replace("Chat_", "Made_up_")).write_text(source.read_text())
    (tmp_path / "notes.json").write_text("[1, 2]")
    expected = [c.conversation_id.replace("Chat_", "Made_up_") for c in load_realtalk(REALTALK_FIXTURES).conversations]
    reads: list[str] = []
    real_read = formats.read_json

    def counting(path: Path) -> object:
        reads.append(path.name)
        return real_read(path)

    monkeypatch.setattr(formats, "read_json", counting)
    monkeypatch.setattr(datasets, "read_json", counting)
    loaded = load_realtalk(tmp_path)
    assert [c.conversation_id for c in loaded.conversations] == expected
    assert sorted(reads) == sorted(p.name for p in tmp_path.glob("*.json"))


# --- the real benchmark files (skipped without ../shared/data) ---------------------------------


@pytest.mark.data
@pytest.mark.skipif(not LOCOMO_DEV.exists(), reason="needs ../shared/data/locomo/locomo-dev6.json")
def test_real_locomo_dev6() -> None:
    data = load_locomo(LOCOMO_DEV)
    summary = data.summary()
    assert summary["conversations"] == 6
    assert summary["messages"] == 3435
    by_cat = summary["questions_by_category"]
    assert sum(by_cat[c] for c in (1, 2, 3, 4)) == 885
    assert by_cat == {1: 172, 2: 180, 3: 53, 4: 480, 5: 272}
    assert summary["issues"] == {"malformed_evidence": 2, "missing_evidence": 1, "session_without_turns": 16}
    for conv in data.conversations:
        stamps = [m.timestamp for m in conv.messages]
        assert all(s is not None for s in stamps)
        assert all(a < b for a, b in zip(stamps, stamps[1:], strict=False))  # type: ignore[operator]
        assert {m.speaker for m in conv.messages} == set(conv.speakers)
    assert sum(1 for c in data.conversations for m in c.messages if m.image_caption) == 758
    assert "2022" in {q.answer for c in data.conversations for q in c.qa}


@pytest.mark.data
@pytest.mark.skipif(not REALTALK_DIR.exists(), reason="needs ../shared/data/realtalk")
def test_real_realtalk() -> None:
    data = load_realtalk(REALTALK_DIR)
    summary = data.summary()
    assert summary["conversations"] == 5
    assert summary["messages"] == 3309
    assert summary["questions_by_category"] == {1: 151, 2: 152, 3: 57}
    first = data.conversations[0]
    # Chats come in their files' natural order (Chat_2 before Chat_10), each named by its file.
    numbers = [int(c.conversation_id.split("_")[1]) for c in data.conversations]
    assert numbers == sorted(numbers) and first.conversation_id.startswith("Chat_1_")
    assert first.messages[0].timestamp == datetime(2023, 12, 29, 22, 42, 4)
    for conv in data.conversations:
        assert {m.speaker for m in conv.messages} <= set(conv.speakers)
        stamps = [m.timestamp for m in conv.messages]
        assert all(s is not None for s in stamps)
        assert all(a <= b for a, b in zip(stamps, stamps[1:], strict=False))  # type: ignore[operator]
        # Turns carry their own times: far more distinct times than sessions.
        assert len(set(stamps)) > len(conv.messages) // 2
    assert summary["issues"].get("bad_date", 0) == 0
    assert summary["issues"]["malformed_evidence"] == 1
    assert summary["issues"]["missing_evidence"] == 49
