"""PostgreSQL for the tests: the cluster ./run-tests started (DENPEX_TEST_PG_URL), else one started here for the
session when PostgreSQL is installed, else a skip with the reason (under CI=true, a failure: CI must run them).
Every test gets a database of its own, dropped afterwards.

Test modules take the fixtures by importing them (`from pg.fixtures import pg_url, store_url`)."""

from __future__ import annotations

import atexit
import os
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

from pg import cluster

_lock = threading.Lock()
_server: dict[str, str] = {}  # url, or the reason there is none


def server_url() -> str:
    """The test cluster's URL (its `postgres` database); skips (or fails under CI) when there is none."""
    with _lock:
        if not _server:
            _server.update(_find_or_start())
    if "url" not in _server:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the PostgreSQL tests: {_server['reason']}")
        pytest.skip(_server["reason"])
    return _server["url"]


def _find_or_start() -> dict[str, str]:
    given = os.environ.get("DENPEX_TEST_PG_URL", "").strip()
    if given:
        return {"url": given}
    try:
        url, where = cluster.start()
    except cluster.PostgresUnavailable as exc:
        return {"reason": str(exc)}
    atexit.register(cluster.stop, Path(where))
    return {"url": url}


def with_database(url: str, name: str) -> str:
    return urlsplit(url)._replace(path="/" + name).geturl()


def create_database() -> str:
    """A new empty database on the test cluster; its URL."""
    url = server_url()
    name = "t_" + secrets.token_hex(6)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return with_database(url, name)


def drop_database(url: str) -> None:
    name = urlsplit(url).path.strip("/")
    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test."""
    url = create_database()
    yield url
    drop_database(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path) -> Iterator[str]:
    """The same test on both databases: a SQLite file's path, then a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "denpex.db")
        return
    url = create_database()
    yield url
    drop_database(url)
