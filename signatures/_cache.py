"""A compiled-library cache, so that `denpex diagnose` starts in a fraction of a second.

Loading 180 signature files means parsing TOML, validating with pydantic and
compiling Hyperscan databases: about 0.3 s on every run. The compiled Matcher
is pickled into the user's cache directory under a key made of the content of
every library file, the taxonomy, and the versions involved, so any edit to a
signature (or an upgrade) builds a fresh one. A cache that cannot be read or
written is ignored (with a log line): it only ever costs the time it was meant to save.

Unpickling runs code, so a cache file is trusted only when it carries an HMAC made
with a key that only this user can read (`key`, mode 0600, beside it), and only in a
directory that nobody else can write: anyone who could plant a file there could also
replace the key. Otherwise the library is compiled afresh.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import pickle
import secrets
import stat
import sys
import tempfile
from pathlib import Path

import hyperscan

from ._engine import Matcher
from ._library import TAXONOMY_FILE, load_library

CACHE_FORMAT = 2  # 2: an HMAC-SHA256 of the pickle precedes it
ENV_CACHE_DIR = "DENPEX_CACHE_DIR"
MAC_BYTES = 32

log = logging.getLogger("denpex.cache")


def cache_dir() -> Path | None:
    """$DENPEX_CACHE_DIR (empty: no cache), else $XDG_CACHE_HOME/denpex, else ~/.cache/denpex."""
    if ENV_CACHE_DIR in os.environ:
        value = os.environ[ENV_CACHE_DIR]
        return Path(value) if value else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "denpex"


def fingerprint(directories: list[Path]) -> str:
    digest = hashlib.sha256()
    version = hyperscan.__version__  # type: ignore[attr-defined]  # set by the module, missing from its stub
    digest.update(f"{CACHE_FORMAT}|{sys.version}|{version}|{Path(__file__).parent}".encode())
    for engine_file in sorted(Path(__file__).parent.glob("_*.py")):  # a code change invalidates too
        digest.update(engine_file.read_bytes())
    digest.update(TAXONOMY_FILE.read_bytes())
    for directory in directories:
        for path in sorted(Path(directory).rglob("*.toml")):
            digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:40]


def _private(path: Path, mask: int) -> str | None:
    """Why `path` cannot be trusted (owned by someone else, or open to others by `mask`), or None."""
    st = path.lstat()
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link"
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return "belongs to another user"
    if st.st_mode & mask:
        return f"is open to others (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def _key(where: Path) -> bytes | None:
    """This user's cache key, made on first use; None when the directory or key cannot be trusted."""
    where.mkdir(parents=True, exist_ok=True, mode=0o700)
    why = _private(where, stat.S_IWGRP | stat.S_IWOTH)
    if why:
        log.warning("not using the compiled-library cache: %s %s", where, why)
        return None
    path = where / "key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
    except FileExistsError:
        pass
    why = _private(path, 0o077)
    if why:
        log.warning("not using the compiled-library cache: %s %s", path, why)
        return None
    return path.read_bytes()


def cached_matcher(directories: list[Path]) -> Matcher:
    """The Matcher for these library directories, from the cache when it is current and authentic."""
    where = cache_dir()
    if where is None:
        return Matcher(load_library(directories))
    try:
        key = _key(where)
    except OSError as exc:
        log.warning("not using the compiled-library cache in %s: %s", where, exc)
        key = None
    if key is None:
        return Matcher(load_library(directories))
    path = where / f"matcher-{fingerprint(directories)}.pickle"
    try:
        blob = path.read_bytes()
        mac, payload = blob[:MAC_BYTES], blob[MAC_BYTES:]
        if hmac.compare_digest(mac, hmac.new(key, payload, hashlib.sha256).digest()):
            matcher = pickle.loads(payload)
            if isinstance(matcher, Matcher):
                return matcher
        log.warning("ignoring %s: its signature does not match this user's cache key", path)
    except FileNotFoundError:
        pass  # the first run after a change: build it
    except Exception as exc:  # truncated, unreadable, an old format: rebuild
        log.warning("ignoring the compiled-library cache %s: %s", path, exc)
    matcher = Matcher(load_library(directories))
    try:
        for old in where.glob("matcher-*.pickle"):
            old.unlink(missing_ok=True)
        payload = pickle.dumps(matcher, protocol=pickle.HIGHEST_PROTOCOL)
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(hmac.new(key, payload, hashlib.sha256).digest() + payload)
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("cannot write the compiled-library cache %s: %s", path, exc)
    return matcher
