"""Turning what the user gave (paths, archives, stdin) into byte streams.

Formats are recognised by their magic bytes, not their names, so a gzip file
called `train.log` still works. Archives are read as streams: a tarball is
never unpacked to disk and a member is never held whole in memory.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import shutil
import stat
import sys
import tarfile
import tempfile
import time
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, cast

from ._lines import host_from_path, rank_from_path
from ._unwrap import padded_width, quoted, unpadded, unquoted, unwrapped, wrap_width

SNIFF = 8192
SPOOL_IN_MEMORY = 8 << 20
MAX_NESTING = 6  # archives inside archives (compression layers are not counted)
DEFAULT_MAX_INPUT_BYTES = 20 << 30  # decompressed bytes one input may expand to
DEFAULT_MAX_JOB_BYTES = 50 << 30  # ... and all inputs of one job together
DEFAULT_MAX_SECONDS = 3600.0  # reading everything may take this long
BINARY_SHARE = 0.10  # control bytes (NUL included) beyond this share of the head: not a text log


class InputError(Exception):
    """The input cannot be read as a log. The message says which input and why."""


@dataclass
class Source:
    name: str
    stream: IO[bytes]
    size: int | None
    rank_hint: int | None
    host_hint: str | None
    head: bytes = b""  # first bytes, already read off `stream` while sniffing
    note: str | None = None  # how it was read, when not as it came (a paste's wrapped lines rejoined)


def _plain(name: str, stream: IO[bytes], size: int | None, head: bytes) -> Source:
    """A text source; a paste hard-wrapped at a fixed width is read with its cut lines rejoined, a terminal's
    padding stripped, a markdown quote's marks dropped (see _unwrap)."""
    raw_head = head
    whole = len(head) < SNIFF
    quote = quoted(head, whole)
    if quote:
        head = b"\n".join(unquoted(line) for line in head.split(b"\n"))  # judged unquoted; the stream reads it so
    pad = padded_width(head, whole)
    width = wrap_width(head if pad is None else unpadded(head), whole)
    if width is None and pad is None and b" \n" in head:  # padded in part (a terminal pads some lines, not all)
        pad = width = wrap_width(unpadded(head), whole)
    if width is None and pad is None and not quote:
        return Source(name, stream, size, rank_from_path(name), host_from_path(name), head)
    # the stream from its start again (quote marks and all: Unwrapped strips them line by line)
    joined = unwrapped(cast(IO[bytes], _Peeked(raw_head, stream)), width, strip=pad is not None, quote=quote)
    padding = f"padded with spaces to {pad} columns (a terminal's screen)" if pad is not None else ""
    wrapped = f"wrapped at {width} columns" if width is not None else ""
    quoting = 'quoted as markdown ("> ")' if quote else ""
    what = " and ".join(x for x in (quoting, padding, wrapped) if x)
    note = f"its lines were {what} and are read " + (
        "rejoined (line numbers count the rejoined lines)"
        if width is not None
        else "with the padding stripped"
        if pad is not None
        else "without the quote marks"
    )
    return Source(name, joined, size, rank_from_path(name), host_from_path(name), joined.read(SNIFF), note)


def _kind(head: bytes) -> str:
    if head[:2] == b"\x1f\x8b":
        return "gzip"
    if head[:4] == b"PK\x03\x04" or head[:4] == b"PK\x05\x06":
        return "zip"
    if head[:3] == b"BZh":
        return "bz2"
    if head[:6] == b"\xfd7zXZ\x00":
        return "xz"
    if len(head) >= 262 and head[257:262] == b"ustar":
        return "tar"
    return "plain"


def looks_binary(head: bytes) -> bool:
    """True for data that is not a text log: many control bytes. A few NULs (a log whose writer crashed
    and left a zero-filled block, a C string printed raw) do not make a log binary; a share of them does."""
    if not head:
        return False
    sample = head[:SNIFF]
    control = sample.count(0) + sum(1 for b in sample if 0 < b < 9 or 13 < b < 27 or 27 < b < 32)
    return control > len(sample) * BINARY_SHARE


class Budget:
    """Bounds on what reading a job's inputs may cost: decompressed bytes per input and in all, and time.

    One Budget is shared by every source of a job; each leaf stream is wrapped so the bound holds
    however deep the archive and whatever the compression ratio (a 1 MB gzip of zeros can expand to
    100 GB). When a bound is hit the read fails with an InputError naming the bound and its setting."""

    def __init__(
        self,
        max_input_bytes: int = DEFAULT_MAX_INPUT_BYTES,
        max_job_bytes: int = DEFAULT_MAX_JOB_BYTES,
        max_seconds: float = DEFAULT_MAX_SECONDS,
    ):
        self.max_input_bytes, self.max_job_bytes, self.max_seconds = max_input_bytes, max_job_bytes, max_seconds
        self.deadline = time.monotonic() + max_seconds
        self.total = 0

    def wrap(self, name: str, stream: IO[bytes]) -> IO[bytes]:
        return cast(IO[bytes], _Bounded(name, stream, self))  # an io.RawIOBase: typeshed does not count it as IO

    def charge(self, name: str, n: int, so_far: int) -> None:
        self.total += n
        if so_far > self.max_input_bytes:
            raise InputError(
                f"{name}: decompresses to more than {_size(self.max_input_bytes)} "
                "(the per-input limit, max_input_bytes): not read further"
            )
        if self.total > self.max_job_bytes:
            raise InputError(
                f"{name}: the inputs decompress to more than {_size(self.max_job_bytes)} in all "
                "(the per-job limit, max_job_bytes): not read further"
            )
        if time.monotonic() > self.deadline:
            raise InputError(
                f"{name}: reading took longer than {self.max_seconds:g} s (the time limit, "
                "max_read_seconds): not read further"
            )


def _size(n: int) -> str:
    return f"{n / (1 << 30):g} GiB" if n >= 1 << 30 else f"{n / (1 << 20):g} MiB"


class _Bounded(io.RawIOBase):
    """A read-only stream that charges every byte it hands out to a Budget."""

    def __init__(self, name: str, stream: IO[bytes], budget: Budget):
        self.name, self._stream, self._budget, self._read = name, stream, budget, 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        data = self._stream.read(len(b))
        n = len(data)
        b[:n] = data
        if n:
            self._read += n
            self._budget.charge(self.name, n, self._read)
        return n


class _Peeked(io.RawIOBase):
    """A stream whose first bytes were already read: gives them back first."""

    def __init__(self, head: bytes, rest: IO[bytes]):
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        if self._head:
            n = min(len(b), len(self._head))
            b[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.read(len(b))
        b[: len(data)] = data
        return len(data)


def _read_head(stream: IO[bytes], name: str) -> bytes:
    try:
        return stream.read(SNIFF)
    except (OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
        raise InputError(f"{name}: cannot read: {exc}") from None


def _decompressor(kind: str, stream: IO[bytes]) -> IO[bytes]:
    # the decompressors are io.BufferedIOBase: file objects that typeshed does not count as typing.IO
    if kind == "gzip":
        return cast(IO[bytes], gzip.GzipFile(fileobj=stream))
    if kind == "bz2":
        return cast(IO[bytes], bz2.BZ2File(stream))
    return cast(IO[bytes], lzma.LZMAFile(stream))


def _expand_stream(
    name: str, stream: IO[bytes], size: int | None, budget: Budget, depth: int = 0, layers: int = 0
) -> Iterator[Source]:
    """`depth` counts archives (tar, zip) around this stream; `layers` counts compression around it."""
    head = _read_head(stream, name)
    kind = _kind(head)
    whole = _Peeked(head, stream)
    if kind in ("gzip", "bz2", "xz"):
        if layers >= MAX_NESTING:
            raise InputError(f"{name}: compressed more than {MAX_NESTING} times over: not read")
        inner = _decompressor(kind, io.BufferedReader(whole))
        yield from _expand_stream(name, budget.wrap(name, inner), None, budget, depth, layers + 1)
        return
    if kind in ("tar", "zip"):
        if depth >= MAX_NESTING:
            raise InputError(
                f"{name}: archives nested more than {MAX_NESTING} deep: not read (unpack the outer ones first)"
            )
        if kind == "tar":
            yield from _expand_tar(name, io.BufferedReader(whole), budget, depth + 1)
        else:
            yield from _expand_zip(name, stream, head, budget, depth + 1)
        return
    yield _plain(name, stream, size, head)


def _expand_tar(name: str, stream: IO[bytes], budget: Budget, depth: int) -> Iterator[Source]:
    try:
        with tarfile.open(fileobj=stream, mode="r|") as tar:
            for member in tar:
                if not member.isfile():
                    continue
                fh = tar.extractfile(member)
                if fh is None:
                    continue
                yield from _expand_stream(f"{name}:{member.name}", fh, member.size, budget, depth)
    except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        raise InputError(f"{name}: broken tar archive: {exc}") from None


def _seekable_file(stream: IO[bytes]) -> bool:
    """A regular file on disk: seeking is real. (A tar member or a decompressor only pretends: gzip
    "seeks" back by decompressing again from a start it may not be able to rewind to.)"""
    try:
        return (
            isinstance(stream, (io.BufferedReader, io.FileIO))
            and stream.seekable()
            and stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
        )
    except (OSError, AttributeError, ValueError):
        return False


def _expand_zip(name: str, stream: IO[bytes], head: bytes, budget: Budget, depth: int) -> Iterator[Source]:
    # zip's directory is at the end: it needs a seekable file. A zip arriving as a
    # stream (stdin, inside a tarball, decompressed) is spooled to a temporary file, not to memory;
    # the copy is charged to the budget like any other read.
    try:
        if _seekable_file(stream):
            stream.seek(0)
            seekable = stream
        else:
            seekable = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)
            seekable.write(head)
            shutil.copyfileobj(budget.wrap(name, stream), seekable, 1 << 20)
            seekable.seek(0)
        archive = zipfile.ZipFile(seekable)
        infos = sorted((i for i in archive.infolist() if not i.is_dir()), key=lambda i: i.filename)
        for info in infos:
            with archive.open(info) as fh:
                yield from _expand_stream(
                    f"{name}:{info.filename}", budget.wrap(f"{name}:{info.filename}", fh), info.file_size, budget, depth
                )
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error, OSError, NotImplementedError) as exc:
        raise InputError(f"{name}: broken zip archive: {exc}") from None


def open_sources(inputs: list[str], budget: Budget | None = None) -> Iterator[Source]:
    """Yield each log inside the inputs, in a stable order. Raises InputError."""
    if not inputs:
        raise InputError("no input given: pass log files, directories, archives, or - for stdin")
    budget = budget or Budget()
    empty: list[str] = []  # directories with no files: an error only when no input holds anything
    for item in inputs:
        if item == "-":
            yield from _expand_stream("<stdin>", budget.wrap("<stdin>", sys.stdin.buffer), None, budget)
            continue
        path = Path(item)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
            if not files:
                empty.append(item)
                continue
            for file in files:
                yield from _open_file(file, str(file), budget)
            continue
        yield from _open_file(path, item, budget)
    if empty and len(empty) == len(inputs):
        raise InputError(f"{empty[0]}: directory has no files")
    for item in empty:  # beside other inputs: read the rest, and say so (a torchrun --log-dir without --tee or
        # --redirects holds only its attempt directories: the workers' output went to the console)
        hollow = source_from_bytes(item.rstrip("/") + "/", b"")
        hollow.note = "directory has no files, so nothing in it was read (the rest of the input was)"
        yield hollow


def open_path(path: Path, display: str, budget: Budget | None = None) -> Iterator[Source]:
    """Like open_sources for one file, shown under another name (an upload's original file name)."""
    yield from _open_file(path, display, budget or Budget())


_NOT_REGULAR = [
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a block device"),
]


def _cannot_open(display: str, exc: OSError) -> InputError:
    if isinstance(exc, FileNotFoundError):
        return InputError(f"{display}: no such file")
    if isinstance(exc, IsADirectoryError):
        return InputError(f"{display}: is a directory")
    if isinstance(exc, PermissionError):
        return InputError(f"{display}: permission denied")
    return InputError(f"{display}: cannot open: {exc.strerror}")


def _open_file(path: Path, display: str, budget: Budget) -> Iterator[Source]:
    try:
        mode = os.stat(path).st_mode  # before open(): opening a FIFO blocks until someone writes to it
        for test, what in _NOT_REGULAR:
            if test(mode):
                raise InputError(
                    f"{display}: is {what}, not a file: save the log to a file, or pipe it to `denpex diagnose -`"
                )
        fh = open(path, "rb")
    except OSError as exc:
        raise _cannot_open(display, exc) from None
    with fh:
        size = os.fstat(fh.fileno()).st_size
        if size > budget.max_input_bytes:
            raise InputError(
                f"{display}: is {_size(size)}, more than {_size(budget.max_input_bytes)} (the per-input "
                "limit, max_input_bytes)"
            )
        yield from _expand_stream(display, fh, size, budget)


def source_from_bytes(name: str, data: bytes) -> Source:
    """An in-memory log (a pasted log, a signature's case)."""
    stream = io.BytesIO(data)
    return _plain(name, stream, len(data), stream.read(SNIFF))
