"""DENPEX_DB: a SQLite path (the default) or a postgresql:// URL, checked before anything starts; the password
never shown."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from pg.fixtures import pg_url

from bot.settings import SettingsError, load_settings

__all__ = ["pg_url"]  # a fixture, used by name

BASE = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}


def settings(tmp_path, **env):
    return load_settings(http=True, env={**BASE, "DENPEX_SPOOL_DIR": str(tmp_path / "spool"), **env})


def test_a_path_or_nothing_is_sqlite(tmp_path, monkeypatch):
    s = settings(tmp_path, DENPEX_DB=str(tmp_path / "d.db"), DENPEX_SPOOL_DIR="")
    assert not s.postgres and s.db_path == tmp_path / "d.db" and s.spool_dir == tmp_path / "denpex-spool"
    monkeypatch.chdir(tmp_path)
    assert str(settings(tmp_path).db_path) == "denpex.db"


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://denpex:s3cret@db.example.internal:5432/denpex?sslmode=require",
        "postgres://denpex:s3cret@10.0.0.7/denpex",
        "postgresql://denpex@db/denpex",  # the password from PGPASSWORD or ~/.pgpass
    ],
)
def test_a_postgresql_url_is_taken_as_it_is_and_shown_without_its_password(tmp_path, url):
    s = settings(tmp_path, DENPEX_DB=url)
    assert s.postgres and s.db_path == url
    assert "s3cret" not in s.db_name and s.db_name.split("@")[1] == url.split("@")[1]
    assert s.spool_dir == tmp_path / "spool"


def test_the_url_may_come_from_a_mounted_secret(tmp_path):
    (tmp_path / "db").write_text("postgresql://denpex:s3cret@db/denpex\n")
    s = settings(tmp_path, DENPEX_DB_FILE=str(tmp_path / "db"))
    assert s.db_path == "postgresql://denpex:s3cret@db/denpex"


@pytest.mark.parametrize(
    "value,said",
    [
        ("postgresql://denpex@db:fivefourthree/denpex", "not a valid postgresql:// URL"),
        ("postgresql://denpex@db", "names no database"),
        ("postgresql:///denpex", "names no host"),
        ("mysql://denpex@db/denpex", "mysql:// is not a database denpex uses"),
        ("/nonexistent/dir/d.db", "the directory /nonexistent/dir does not exist"),
    ],
)
def test_a_bad_database_setting_is_named_with_what_is_wrong(tmp_path, value, said):
    with pytest.raises(SettingsError, match="DENPEX_DB") as refused:
        settings(tmp_path, DENPEX_DB=value)
    assert said in str(refused.value)


def test_a_socket_directory_in_the_query_names_the_host(tmp_path):
    s = settings(tmp_path, DENPEX_DB="postgresql://denpex@/denpex?host=/run/postgresql")
    assert s.postgres


def test_the_cli_reads_a_postgresql_database_and_names_one_it_cannot_reach_without_its_password(pg_url):
    from conftest import run_denpex

    from bot.store import Store

    Store(pg_url)  # migrated: an empty bot database
    stats = run_denpex("signatures", "stats", "--db", pg_url)
    assert stats.returncode == 0 and b"No incident" in stats.stdout, stats.stderr
    hosts = run_denpex("hosts", "--db", pg_url)
    assert hosts.returncode == 0, hosts.stderr
    port = urlsplit(pg_url).port
    unreachable = f"postgresql://denpex:s3cret-pw@127.0.0.1:{port + 1 if port else 1}/denpex?connect_timeout=2"
    down = run_denpex("signatures", "stats", "--db", unreachable)
    assert down.returncode == 2 and b"denpex:" in down.stderr and b"s3cret-pw" not in down.stderr, down.stderr
