"""A compiled-library cache, so that `denpex diagnose` starts in a fraction of a second.

Loading 180 signature files means parsing TOML, validating with pydantic and
compiling Hyperscan databases: about 0.3 s on every run. The compiled Matcher
is pickled into the user's cache directory under a key made of the content of
every library file, the taxonomy, and the versions involved, so any edit to a
signature (or an upgrade) builds a fresh one. A cache that cannot be read or
written is ignored: it only ever costs the time it was meant to save.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path

import hyperscan

from ._engine import Matcher
from ._library import TAXONOMY_FILE, load_library

CACHE_FORMAT = 1
ENV_CACHE_DIR = "DENPEX_CACHE_DIR"


def cache_dir() -> Path | None:
    """$DENPEX_CACHE_DIR (empty: no cache), else $XDG_CACHE_HOME/denpex, else ~/.cache/denpex."""
    if ENV_CACHE_DIR in os.environ:
        value = os.environ[ENV_CACHE_DIR]
        return Path(value) if value else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "denpex"


def fingerprint(directories: list[Path]) -> str:
    digest = hashlib.sha256()
    digest.update(f"{CACHE_FORMAT}|{sys.version}|{hyperscan.__version__}|{Path(__file__).parent}".encode())
    for engine_file in sorted(Path(__file__).parent.glob("_*.py")):  # a code change invalidates too
        digest.update(engine_file.read_bytes())
    digest.update(TAXONOMY_FILE.read_bytes())
    for directory in directories:
        for path in sorted(Path(directory).rglob("*.toml")):
            digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:40]


def cached_matcher(directories: list[Path]) -> Matcher:
    """The Matcher for these library directories, from the cache when it is current."""
    where = cache_dir()
    if where is None:
        return Matcher(load_library(directories))
    path = where / f"matcher-{fingerprint(directories)}.pickle"
    try:
        with open(path, "rb") as fh:
            matcher = pickle.load(fh)
        if isinstance(matcher, Matcher):
            return matcher
    except Exception:  # absent, stale format, truncated, unreadable: rebuild
        pass
    matcher = Matcher(load_library(directories))
    try:
        where.mkdir(parents=True, exist_ok=True)
        for old in where.glob("matcher-*.pickle"):
            old.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(matcher, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass
    return matcher
