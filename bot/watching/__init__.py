"""Watching a running job's logs as they grow: an incremental reader, detectors with state kept
between polls, and typed alerts. `bot/watch.py` is its command line; the bot's watches call `Watcher`."""

from .alerts import KINDS, NOTICES, Alert
from .tail import Chunk, FileTail, Tails
from .watcher import STATE_VERSION, Watcher

__all__ = ["Alert", "Chunk", "FileTail", "KINDS", "NOTICES", "STATE_VERSION", "Tails", "Watcher"]
