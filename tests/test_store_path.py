"""``MemoryStore.path`` says where a store lives, and a PostgreSQL URL's password never shows in it."""

from __future__ import annotations

import logging
from pathlib import Path

import psycopg
import pytest

from dmem.api import Memory
from dmem.cli import main
from dmem.errors import ConfigError, StoreError
from dmem.services import Resources
from dmem.state.context import Context, build_context
from dmem.store import open_any_store, open_store
from dmem.store.postgres import open_postgres_store

DIM = 8


def with_password(url: str) -> tuple[str, str]:
    """The URL with a password (the test server trusts local users, so any is accepted) and the password."""
    given = psycopg.conninfo.conninfo_to_dict(url).get("password")
    if given:
        return url, str(given)
    secret = "pw-h28-not-for-logs"
    return f"{url}{'&' if '?' in url else '?'}password={secret}", secret


def test_a_local_store_s_path_is_its_absolute_directory(tmp_path: Path) -> None:
    with open_store(tmp_path / "s" / ".." / "store", dim=DIM) as store:
        assert store.path == str((tmp_path / "store").resolve())
        assert store.info().path == store.path and repr(store).startswith(f"LocalStore({store.path!r}")


@pytest.mark.postgres
def test_a_postgres_store_s_path_is_its_url_without_the_password(postgres_url: str) -> None:
    url, secret = with_password(postgres_url)
    assert psycopg.conninfo.conninfo_to_dict(url)["password"] == secret
    with open_any_store(url, dim=DIM) as store:
        assert store.path.startswith("postgresql://") and secret not in store.path
        assert store.info().path == store.path and secret not in repr(store)


@pytest.mark.postgres
def test_resources_log_and_refuse_with_the_path_only(postgres_url: str, tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    url, secret = with_password(postgres_url)
    caplog.set_level(logging.INFO, logger="dmem")
    owner = Resources(build_context(store_dir=str(tmp_path), store_url=url, embedding_model="hash"))
    try:
        where = owner.store.path
        with pytest.raises(ConfigError) as refused:
            owner.services(Context(hnsw_m=8))
        assert f"({where})" in str(refused.value) and secret not in str(refused.value)
    finally:
        owner.close()
    logged = caplog.text
    assert f"opened the store in {where}" in logged and f"closed the store in {where}" in logged
    assert secret not in logged


def test_a_store_handed_in_serves_runs_that_name_its_directory(tmp_path: Path) -> None:
    with open_store(tmp_path / "store", dim=DIM) as store:
        owner = Resources(build_context(store_dir=str(tmp_path / "store"), embedding_model="hash"), store=store)
        assert owner.store is store
        assert owner.store_for(build_context(store_dir=str(tmp_path / "x" / ".." / "store"))) is store
        owner.close()
        assert not store.closed  # a store handed in stays the caller's to close


def test_a_store_handed_in_must_be_the_one_the_settings_name(tmp_path: Path) -> None:
    # Else a run naming the settings' store would open another one, and memories would go there.
    with open_store(tmp_path / "store", dim=DIM) as store:
        with pytest.raises(ConfigError, match="set store_dir to the store's directory"):
            Resources(build_context(store_dir=str(tmp_path / "other"), embedding_model="hash"), store=store)
        with pytest.raises(ConfigError, match="leave store_url unset") as refused:
            Resources(build_context(store_dir=str(tmp_path / "store"), store_url="postgresql://u:s3cret-pw@db:5432/x",
                                    embedding_model="hash"), store=store)
        assert "s3cret-pw" not in str(refused.value)
    assert not (tmp_path / "other").exists()


@pytest.mark.postgres
def test_a_postgres_store_handed_in_serves_runs_that_name_its_url(postgres_url: str, tmp_path: Path) -> None:
    url, secret = with_password(postgres_url)
    with open_any_store(url, dim=DIM) as store:
        with pytest.raises(ConfigError, match="set store_url") as refused:  # not a local store beside it
            Resources(build_context(store_dir=str(tmp_path), embedding_model="hash"), store=store)
        assert secret not in str(refused.value)
        owner = Resources(build_context(store_dir=str(tmp_path), store_url=url, embedding_model="hash"), store=store)
        assert owner.store is store and owner.store_for(build_context(store_url=url)) is store
        owner.close()
        assert not store.closed


@pytest.mark.postgres
def test_the_cli_never_shows_the_password(postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          caplog: pytest.LogCaptureFixture) -> None:
    url, secret = with_password(postgres_url)
    with Memory(tmp_path, embeddings="hash", store_url=url) as mem:  # the read commands need the store to exist
        mem.add([{"speaker": "Ann", "text": "I paddle a blue canoe."}], user_id="lake")
    caplog.set_level(logging.INFO, logger="dmem")
    assert main(["--store-url", url, "--embeddings", "hash", "-v", "search", "canoe", "--user-id", "lake"]) == 0
    shown = capsys.readouterr()
    logged = shown.err + caplog.text  # the CLI logs to its own stderr handler (-v: INFO)
    assert "opened the store in postgresql://" in logged and secret not in shown.out + logged
    unreachable = "postgresql://dmem:pw-h28-unreachable@127.0.0.1:1/dmem?connect_timeout=2"
    assert main(["--store-url", unreachable, "--embeddings", "hash", "users"]) == 2
    shown = capsys.readouterr()
    assert "postgresql://dmem@127.0.0.1:1/dmem" in shown.err
    assert "pw-h28-unreachable" not in shown.out + shown.err + caplog.text


def test_a_url_of_another_database_is_refused_without_its_password() -> None:
    with pytest.raises(StoreError, match="got a 'mysql' URL") as refused:
        open_postgres_store("mysql://dmem:pw-h28-mysql@db.internal/dmem")
    assert "pw-h28" not in str(refused.value)
