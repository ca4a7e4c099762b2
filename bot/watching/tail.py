"""Reading growing log files: each look reads only the bytes written since the last one.

Per file the state is the offset of the last complete line, the number of lines before it, the
file's identity (inode, device) and a few bytes before the read position, so a truncated,
rotated or rewritten file is noticed and read again from the start. The state is a small dict:
stored between polls (or across a restart), the partial last line and the context are read
again from the file itself.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

BLOCK = 32 << 20  # bytes read and handed on at a time: memory stays bounded however far behind
CONTEXT_LINES = 200  # lines kept before new output, so a traceback cut by a poll is still whole
CONTEXT_BYTES = 256 << 10  # ... and at most this many bytes of them
MAX_PARTIAL = 1 << 20  # an unfinished line longer than this keeps only its last MiB
FINGERPRINT = 32  # bytes before the read position compared when the file grew: a rewrite is seen
LOG_SUFFIXES = (".log", ".out", ".err", ".txt")
LOG_NAMES = ("stdout", "stderr")
DIR_DEPTH = 4
DIR_MAX_FILES = 4096


@dataclass
class Chunk:
    path: str
    data: bytes  # complete new lines, each ending with a newline (may be empty)
    context: bytes  # up to CONTEXT_LINES complete lines read before `data`
    first_line: int  # the number (from 1) in the file of the first line of `data`
    tail: bytes  # the unfinished last line so far (a progress bar redrawn with \r lives there)
    backlog: bool  # the bytes were in the file before the watch first looked: when they were written is unknown
    generation: int  # how many times the file was read again from the start

    @property
    def context_first_line(self) -> int:
        return self.first_line - self.context.count(b"\n")


def tail_lines(buf: bytes, n: int, limit: int) -> bytes:
    """The last `n` complete lines of `buf` (which starts a line and ends with a newline), in at most `limit` bytes."""
    floor = max(0, len(buf) - limit)
    end = len(buf) - 1
    for _ in range(n):
        newline = buf.rfind(b"\n", floor, end)
        if newline < 0:
            return buf if floor == 0 else buf[end + 1 :]
        end = newline
    return buf[end + 1 :]


def is_log_name(name: str) -> bool:
    """Files of a watched directory that are read: logs by name (not checkpoints, not rotated .gz copies)."""
    return name.endswith(LOG_SUFFIXES) or name in LOG_NAMES


class FileTail:
    """One file, read incrementally."""

    def __init__(self, path: str, backlog: bool, saved: dict | None = None):
        self.path = path
        self.backlog = backlog  # at the next look, what the file holds was written before the watch
        self.offset = 0  # end of the last complete line read
        self.read_to = 0  # bytes read so far (offset + the partial line)
        self.lines = 0  # complete lines before `offset`
        self.partial = b""
        self.context = b""
        self.identity: tuple[int, int] | None = None
        self.fingerprint = b""  # the bytes before `read_to`
        self.backlog_end = 0
        self.generation = 0
        self.size = 0
        self.last_growth: float | None = None
        self.reset: str | None = None  # why the last look started over, to be said
        self.resumed = saved is not None
        if saved:
            self.offset = self.read_to = saved["offset"]
            self.lines = saved["lines"]
            self.identity = tuple(saved["identity"]) if saved.get("identity") else None
            self.fingerprint = bytes.fromhex(saved["fingerprint"])
            self.generation = saved["generation"]
            self.last_growth = saved["last_growth"]

    def state(self) -> dict:
        return {
            "offset": self.offset,
            "lines": self.lines,
            "identity": list(self.identity) if self.identity else None,
            "fingerprint": self.context[-FINGERPRINT:].hex(),
            "generation": self.generation,
            "last_growth": self.last_growth,
        }

    def read(self, now: float) -> Iterator[Chunk]:
        """The complete lines written since the last look; `reset` says whether it started over."""
        self.reset = None
        try:
            if not stat.S_ISREG(os.stat(self.path).st_mode):
                return
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            return
        try:
            self.reset = self._look(fd, os.fstat(fd))
            yield from self._chunks(fd, now)
        finally:
            os.close(fd)

    def _look(self, fd: int, st: os.stat_result) -> str | None:
        """Compare the file with what was read; start over when it was truncated, replaced or rewritten."""
        identity = (st.st_ino, st.st_dev)
        reason = None
        if self.identity is not None and identity != self.identity:
            reason = "was replaced (a new file under the same name)"
        elif st.st_size < self.read_to:
            reason = f"shrank from {self.read_to} to {st.st_size} bytes (truncated)"
        elif (
            st.st_size > self.read_to
            and self.fingerprint
            and os.pread(fd, len(self.fingerprint), self.read_to - len(self.fingerprint)) != self.fingerprint
        ):
            reason = "was rewritten (its bytes before the read position changed)"
        self.identity = identity
        self.size = st.st_size
        if reason:
            self._start_over()
        else:
            if self.backlog:
                self.backlog_end = st.st_size
            if self.resumed:
                self._reread_context(fd)
        self.backlog = self.resumed = False
        return reason

    def _start_over(self) -> None:
        self.offset = self.read_to = self.lines = self.backlog_end = 0
        self.partial = self.context = self.fingerprint = b""
        self.generation += 1

    def _reread_context(self, fd: int) -> None:
        """After a restart: the lines before the offset come from the file (the partial line is read again)."""
        start = max(0, self.offset - CONTEXT_BYTES)
        buf = os.pread(fd, self.offset - start, start)
        if start:
            buf = buf[buf.find(b"\n") + 1 :]
        self.context = tail_lines(buf, CONTEXT_LINES, CONTEXT_BYTES)

    def _chunks(self, fd: int, now: float) -> Iterator[Chunk]:
        end = self.size
        while self.read_to < end:
            start = self.read_to
            raw = os.pread(fd, min(BLOCK, end - start), start)
            if not raw:
                break
            self.read_to = start + len(raw)
            self.fingerprint = (self.fingerprint + raw[-FINGERPRINT:])[-FINGERPRINT:]
            self.last_growth = now
            newline = raw.rfind(b"\n")
            if newline < 0:
                self.partial = (self.partial + raw)[-MAX_PARTIAL:]
                data = b""
            else:
                data = self.partial + raw[: newline + 1]
                self.partial = raw[newline + 1 :][-MAX_PARTIAL:]
                self.offset = start + newline + 1
            chunk = Chunk(
                self.path, data, self.context, self.lines + 1, self.partial, start < self.backlog_end, self.generation
            )
            if data:
                self.lines += data.count(b"\n")
                self.context = tail_lines(
                    data if len(data) >= CONTEXT_BYTES else self.context + data, CONTEXT_LINES, CONTEXT_BYTES
                )
            yield chunk


class Tails:
    """Every file under the watched paths: named files, and log files in named directories (new ones too)."""

    def __init__(self, paths: list[str], saved: dict | None = None):
        self.roots = list(dict.fromkeys(paths))
        self.first_look = saved is None
        self.files: dict[str, FileTail] = {
            path: FileTail(path, False, entry) for path, entry in (saved or {}).items() if self._watched(path)
        }

    def _watched(self, path: str) -> bool:
        """A file of a saved state that the paths watched now still cover."""
        return any(path == root or path.startswith(os.path.join(root, "")) for root in self.roots)

    def missing(self) -> list[str]:
        return [root for root in self.roots if not os.path.exists(root)]

    def state(self) -> dict:
        return {path: tail.state() for path, tail in self.files.items()}

    def catch_up(self) -> None:
        """Resumed after a long pause: when what was written meanwhile was written is unknown."""
        for tail in self.files.values():
            tail.backlog = True

    def discover(self) -> list[str]:
        """Start following files that appeared; returns their paths (not on the first look, when all are new)."""
        new = []
        for root in self.roots:
            for path in self._files_under(root):
                if path not in self.files:
                    self.files[path] = FileTail(path, self.first_look)
                    new.append(path)
        appeared = [] if self.first_look else new
        self.first_look = False
        return appeared

    @staticmethod
    def _files_under(root: str) -> list[str]:
        try:
            mode = os.stat(root).st_mode
        except OSError:
            return []
        if stat.S_ISREG(mode):
            return [root]
        if not stat.S_ISDIR(mode):
            return []
        found: list[str] = []
        base = Path(root)
        for dirpath, dirnames, filenames in os.walk(root):
            depth = len(Path(dirpath).relative_to(base).parts)
            if depth >= DIR_DEPTH:
                dirnames.clear()
            dirnames.sort()
            found += [os.path.join(dirpath, name) for name in sorted(filenames) if is_log_name(name)]
            if len(found) >= DIR_MAX_FILES:
                return found[:DIR_MAX_FILES]
        return found
