"""The compiled-library cache runs no code it did not write: HMAC-checked, in a private directory only."""

import os
import pickle

import pytest
from conftest import RULES_LIBRARY

from signatures import LIBRARY_DIR, Matcher, cached_matcher
from signatures._cache import fingerprint


@pytest.fixture
def cache(tmp_path, monkeypatch):
    where = tmp_path / "cache"
    monkeypatch.setenv("DENPEX_CACHE_DIR", str(where))
    return where


class Planted:
    """What an attacker would leave: unpickling it runs a command."""

    def __reduce__(self):
        return (os.system, (f"touch {os.environ['PLANTED_MARK']}",))


def test_the_cache_is_written_signed_and_read_back(cache):
    first = cached_matcher([RULES_LIBRARY])
    files = list(cache.glob("matcher-*.pickle"))
    assert len(files) == 1 and (cache / "key").stat().st_mode & 0o777 == 0o600
    assert cache.stat().st_mode & 0o022 == 0
    again = cached_matcher([RULES_LIBRARY])
    assert isinstance(again, Matcher) and again is not first
    assert [s.id for s in again.library.signatures] == [s.id for s in first.library.signatures]


def test_a_planted_pickle_is_never_loaded(cache, tmp_path, monkeypatch, caplog):
    mark = tmp_path / "pwned"
    monkeypatch.setenv("PLANTED_MARK", str(mark))
    cached_matcher([RULES_LIBRARY])
    path = cache / f"matcher-{fingerprint([RULES_LIBRARY])}.pickle"
    path.write_bytes(b"\0" * 32 + pickle.dumps(Planted()))  # no valid HMAC
    matcher = cached_matcher([RULES_LIBRARY])
    assert isinstance(matcher, Matcher) and not mark.exists()
    assert "does not match" in caplog.text


def test_a_directory_others_can_write_is_not_used(cache, tmp_path, monkeypatch, caplog):
    mark = tmp_path / "pwned"
    monkeypatch.setenv("PLANTED_MARK", str(mark))
    cache.mkdir()
    cache.chmod(0o777)
    matcher = cached_matcher([RULES_LIBRARY])
    assert isinstance(matcher, Matcher) and not list(cache.glob("matcher-*"))
    assert "open to others" in caplog.text


def test_a_key_others_can_read_is_not_used(cache, caplog):
    cached_matcher([RULES_LIBRARY])
    (cache / "key").chmod(0o644)
    cached_matcher([RULES_LIBRARY])
    assert "open to others" in caplog.text


def test_the_bundled_library_round_trips(cache):
    assert cached_matcher([LIBRARY_DIR]).library.by_id() == cached_matcher([LIBRARY_DIR]).library.by_id()
