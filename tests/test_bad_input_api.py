"""Each reproduction of issue 24's bad inputs: one clear dmem error, checked before anything is recorded.

Plus settings that never show a secret, dataset files that never choose a namespace, terminal
output that never obeys a control character, and hypothesis fuzzing of the API and the CLI.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dmem.api import Memory
from dmem.errors import ConfigError, DataError, DmemError, InputError
from dmem.state.context import Context
from tests.test_bad_input import GOOD, locomo, one_line

PAIR = [GOOD, {"speaker": "assistant", "text": "Nice.", "turn_id": "t1"}]
SECRET_URL = "postgresql://ana:s3cr3t-Pa55@db.example:5432/mem"


@pytest.fixture
def mem(fake: Any, memory_factory: Any) -> Memory:
    return memory_factory(fake)


def test_a_turn_whose_text_embeds_to_zeros_is_recorded_and_judged(tmp_path: Path) -> None:
    # A lone private-use symbol: hash embeddings see no token in it. The turn is recorded and admission
    # judges it; the context search of its window finds nothing instead of failing the turn.
    with Memory(tmp_path / "store", embeddings="hash") as mem:
        result = mem.add("\U00101761", user_id="ines")
        assert [e.status for e in result.exchanges] == ["nothing_admitted"]
        assert mem.store.transcript.count() == 1 and mem.pending(user_id="ines") == []
        assert mem.search("\U00101762", user_id="ines") == []


@pytest.fixture
def stored(mem: Memory) -> str:
    mem.add(PAIR, user_id="ines")
    return mem.get_all(user_id="ines")[0].id


def nothing_recorded(mem: Memory) -> bool:
    return mem.store.transcript.count() == 0 and mem.get_all(user_id="ines") == []


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"exchange_size": "2"}, "exchange_size must be a whole number, got str"),
    ({"exchange_size": 0}, "exchange_size must be 1 or more; got 0"),
    ({"exchange_size": 1.5}, "exchange_size must be a whole number"),
    ({"progress": 5}, "progress must be a function"),
    ({"config": "x"}, "config must be a RunnableConfig"),
])
def test_bad_add_arguments_record_nothing(mem: Memory, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        mem.add(PAIR, user_id="ines", **kwargs)
    assert nothing_recorded(mem)


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_turns_are_refused(mem: Memory, text: str) -> None:
    with pytest.raises(DataError, match="message 1 is empty"):
        mem.add([GOOD, {"speaker": "Ines", "text": text}], user_id="ines")
    assert nothing_recorded(mem)
    mem.add([{"speaker": "Ines", "text": " ", "image_caption": "a cat on a sofa"}], user_id="ines")  # a photo is a turn


def test_nul_in_a_turn_is_refused(mem: Memory) -> None:
    with pytest.raises(DataError, match="NUL character"):
        mem.add([GOOD, {"speaker": "Ines", "text": "bad \x00 byte"}], user_id="ines")
    assert nothing_recorded(mem)


@pytest.mark.parametrize(("call", "message"), [
    (lambda m: m.search(None, user_id="ines"), "search query must be text, got NoneType"),
    (lambda m: m.search("", user_id="ines"), "search query is empty"),
    (lambda m: m.search("tomatoes", user_id="ines", limit="5"), "limit must be a whole number, got str"),
    (lambda m: m.search("tomatoes", user_id="ines", limit=2.5), "limit must be a whole number, got float"),
    (lambda m: m.search("tomatoes", user_id="ines", limit=-1), "limit must be from 1 to 10000; got -1"),
    (lambda m: m.search("tomatoes", user_id="ines", limit=0), "limit must be from 1"),
    (lambda m: m.search("tomatoes", user_id="ines", limit=True), "got bool"),
    (lambda m: m.search("tomatoes", user_id="ines", where="x"), "where must be a dmem SearchFilter"),
    (lambda m: m.get_all(user_id="ines", where="x"), "where must be a dmem SearchFilter"),
])
def test_bad_search_arguments(mem: Memory, stored: str, call: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        call(mem)


def test_async_twins_check_the_same(mem: Memory) -> None:
    import asyncio

    with pytest.raises(InputError, match="limit"):
        asyncio.run(mem.asearch("x", user_id="ines", limit="5"))
    with pytest.raises(InputError, match="exchange_size"):
        asyncio.run(mem.aadd(PAIR, user_id="ines", exchange_size=0))
    assert nothing_recorded(mem)


@pytest.mark.parametrize(("text", "message"), [("bad \ud800", "unpaired surrogate"), ("a\x00b", "NUL"),
                                               ("  ", "is empty"), (42, "must be text")])
def test_update_with_bad_text(mem: Memory, stored: str, text: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        mem.update(stored, text, user_id="ines")
    assert mem.get(stored, user_id="ines").text != text


def test_nul_in_a_label_filter_is_a_data_error(mem: Memory, stored: str) -> None:
    with pytest.raises(DataError, match="NUL character"):
        mem.search("tomatoes", user_id="ines", metadata={"source": "a\x00b"})
    with pytest.raises(DataError, match="NUL character"):
        mem.ask("What?", user_id="ines", metadata={"source": "a\x00b"})


@pytest.mark.postgres
def test_nul_in_a_label_filter_is_the_same_error_on_postgres(fake: Any, postgres_url: str, tmp_path: Path) -> None:
    with Memory(tmp_path / "pg", llm=fake, embeddings="hash", store_url=postgres_url) as pg:
        pg.add(PAIR, user_id="ines")
        with pytest.raises(DataError, match="NUL character"):
            pg.search("tomatoes", user_id="ines", metadata={"source": "a\x00b"})
        with pytest.raises(DataError, match="NUL character"):
            pg.add([{"speaker": "Ines", "text": "x\x00y"}], user_id="ines")


def test_export_into_a_missing_folder(mem: Memory, stored: str, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        mem.export(tmp_path / "missing" / "out.json", user_id="ines")
    with pytest.raises(InputError, match="is a folder"):
        mem.export(tmp_path, user_id="ines")


def _export(mem: Memory, **changes: Any) -> dict[str, Any]:
    data = mem.export(user_id="ines")
    data["memories"][0].update(changes)
    return data


@pytest.mark.parametrize(("changes", "message"), [
    ({"text": "bad \ud800"}, "unpaired surrogate"),
    ({"text": ""}, "text of memory 0 is empty"),
    ({"text": "a\x00b"}, "NUL"),
    ({"id": "x" * 100_000}, "at most 256"),
])
def test_import_refuses_bad_records(mem: Memory, stored: str, changes: dict[str, Any], message: str) -> None:
    data = _export(mem, **changes)
    with pytest.raises(DataError, match=message):
        mem.import_(data, user_id="other")
    assert mem.get_all(user_id="other") == []


def test_import_refuses_a_bool_version(mem: Memory, stored: str) -> None:
    data = mem.export(user_id="ines")
    data["version"] = True
    with pytest.raises(DataError, match="unknown dmem export version True"):
        mem.import_(data, user_id="ines")


def test_import_of_a_file_with_a_lone_surrogate(mem: Memory, stored: str, tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    text = json.dumps(mem.export(user_id="ines")).replace("tomatoes", "tomatoes \\ud800")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match="unpaired surrogate"):
        mem.import_(path, user_id="ines")


@pytest.mark.parametrize(("kwargs", "message"), [({"llm": 42}, "llm must be"), ({"llm": object()}, "llm must be"),
                                                 ({"embeddings": 3.5}, "embeddings must be")])
def test_bad_models_are_config_errors_not_the_offline_engine(tmp_path: Path, kwargs: dict[str, Any],
                                                             message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Memory(tmp_path / "store", **kwargs)


def test_a_number_is_not_a_store_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="store path must be a folder path"):
        Memory(123)  # type: ignore[arg-type]
    assert not (tmp_path / "123").exists()


def test_settings_never_show_the_store_password() -> None:
    ctx = Context(store_url=SECRET_URL)
    for shown in (repr(ctx), str(ctx), json.dumps(ctx.model_dump()), ctx.model_dump_json()):
        assert "s3cr3t-Pa55" not in shown and "ana:***@db.example" in shown
    assert ctx.store_url == SECRET_URL  # the setting itself still works
    query = Context(store_url="postgresql://db.example/mem?user=ana&password=s3cr3t-Pa55")
    assert "s3cr3t" not in repr(query) and "password=***" in repr(query)


def test_str_of_a_memory_context_hides_the_password(mem: Memory) -> None:
    ctx = mem.context.with_overrides(store_url=SECRET_URL)
    assert "s3cr3t" not in str(ctx) and "s3cr3t" not in repr(ctx.model_dump())


def test_a_dataset_needs_an_explicit_user(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    data = locomo([{"speaker": "Ines", "dia_id": "D1:1", "text": "I planted tomatoes."}])
    data[0]["sample_id"] = "maya"  # names an existing user's namespace
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cli("--json", "ingest", str(_plain(tmp_path)), "--user-id", "maya")[0] == 0
    code, out, err = cli("--json", "ingest", str(path))
    assert "--user-id" in one_line(code, err) and out == ""
    assert json.loads(cli("--json", "users")[1]) == [{"namespace": "maya", "memories": 1, "turns": 1}]
    code, _, err = cli("--json", "ingest", str(path), "--user-id", "lab")
    assert code == 0, err
    names = {row["namespace"] for row in json.loads(cli("--json", "users")[1])}
    assert "maya" in names and any(n.startswith("lab/maya/") for n in names)


def _plain(tmp_path: Path) -> Path:
    path = tmp_path / "plain.json"
    path.write_text(json.dumps([{"speaker": "Maya", "text": "I like ferries."}]), encoding="utf-8")
    return path


ESCAPES = "\x1b[2J\x1b]0;owned\x07\x9b31m\u202eevil"


@pytest.mark.parametrize("args", [("memories",), ("search", "ferries"), ("--json", "memories")])
def test_terminal_output_neutralises_control_characters(cli: Any, tmp_path: Path, args: tuple[str, ...]) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([{"speaker": "Maya", "text": f"I like ferries {ESCAPES}"}]), encoding="utf-8")
    assert cli("ingest", str(path), "--user-id", "maya")[0] == 0
    code, out, _ = cli(*args, "--user-id", "maya")
    assert code == 0 and "ferries" in out
    assert not any(ch in out for ch in "\x1b\x07\x9b\u202e"), repr(out)


# Fuzzing --------------------------------------------------------------------------------------
ANY = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True),
                st.text(max_size=20), st.binary(max_size=8), st.lists(st.integers(), max_size=3),
                st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(query=ANY, limit=ANY, where=ANY)
def test_fuzz_search(mem: Memory, query: Any, limit: Any, where: Any) -> None:
    try:
        out = mem.search(query, user_id="ines", limit=limit, where=where)
    except DmemError:
        return
    assert isinstance(query, str) and isinstance(limit, int) and limit >= 1 and where is None
    assert isinstance(out, list)


@FUZZ
@given(messages=st.one_of(ANY, st.lists(st.dictionaries(st.sampled_from(["text", "speaker", "turn_id", "seq"]),
                                                        ANY, max_size=4), max_size=3)),
       exchange_size=ANY)
def test_fuzz_add_records_nothing_on_error(mem: Memory, messages: Any, exchange_size: Any) -> None:
    before = mem.store.transcript.count()
    try:
        mem.add(messages, user_id="ines", exchange_size=exchange_size)
    except DmemError:
        assert mem.store.transcript.count() == before
        return
    assert isinstance(exchange_size, int) and exchange_size >= 1


@FUZZ
@given(text=st.one_of(ANY, st.text(alphabet=st.characters(codec=None), max_size=20)))
def test_fuzz_update(mem: Memory, stored: str, text: Any) -> None:
    try:
        out = mem.update(stored, text, user_id="ines")
    except DmemError:
        return
    assert out.text == text.strip()


CLI_WORDS = st.sampled_from(["memories", "search", "ingest", "export", "import", "get", "delete", "update",
                             "history", "users", "ask", "--limit", "--user-id", "--where", "-5", "2.5", "x",
                             "\x00", "\ud800", "--json", "missing/file.json", ""])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=st.lists(CLI_WORDS, min_size=1, max_size=5))
def test_fuzz_cli_never_prints_a_traceback(cli: Any, args: list[str], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # 'export x' writes x: into the test's folder, never the checkout
    try:
        code, _out, err = cli(*args)
    except SystemExit as exc:  # argparse's own usage errors
        assert exc.code == 2
        return
    assert "Traceback" not in err
    assert code in (0, 1, 2, 3, 4), (code, err)
    if code:
        assert err.strip() and len(err.strip().splitlines()) <= 2, err


def test_an_undecodable_argument_is_one_json_error_line(cli: Any) -> None:
    """A lone surrogate reaches argv from bytes the locale cannot decode (``$'\\xff'`` becomes ``\\udcff``)."""
    for word in ("\ud800", "\udcff"):
        code, out, err = cli("memories", word, "--json")
        assert code == 2 and out == "", (code, out, err)
        [line] = err.strip().splitlines()
        error = json.loads(line)
        assert error["kind"] == "usage" and word in error["error"]


def test_errors_are_one_type_each() -> None:
    assert issubclass(InputError, DataError) and issubclass(ConfigError, DmemError)


@pytest.mark.parametrize(("turn", "message"), [({"speaker": "Ines", "text": "  ", "turn_id": "t9"}, "is empty"),
                                               ({"speaker": "Ines", "text": "a\x00b", "turn_id": "t9"}, "NUL")])
def test_the_ingestion_graph_checks_turns_like_add(mem: Memory, turn: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        mem.ingestion_graph.invoke({"turns": [turn], "user_id": "ines"})
    with pytest.raises(InputError, match="NUL"):
        mem.ingestion_graph.invoke({"messages": [{"role": "user", "content": "a\x00b"}], "user_id": "ines"})
    assert nothing_recorded(mem)
