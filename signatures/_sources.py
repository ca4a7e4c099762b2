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
import sys
import tempfile
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

from ._lines import host_from_path, rank_from_path

SNIFF = 8192
SPOOL_IN_MEMORY = 8 << 20


class InputError(Exception):
    """The input cannot be read as a log. The message says which input and why."""


@dataclass
class Source:
    name: str
    stream: BinaryIO
    size: int | None
    rank_hint: int | None
    host_hint: str | None
    head: bytes = b""  # first bytes, already read off `stream` while sniffing


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
    """True for data that is not a text log: NUL bytes, or mostly control bytes."""
    if not head:
        return False
    sample = head[:SNIFF]
    if b"\x00" in sample:
        return True
    control = sum(1 for b in sample if b < 9 or 13 < b < 27 or 27 < b < 32)
    return control > len(sample) // 10


class _Peeked(io.RawIOBase):
    """A stream whose first bytes were already read: gives them back first."""

    def __init__(self, head: bytes, rest: BinaryIO):
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


def _read_head(stream: BinaryIO, name: str) -> bytes:
    try:
        return stream.read(SNIFF)
    except (OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
        raise InputError(f"{name}: cannot read: {exc}") from None


def _decompressor(kind: str, stream: BinaryIO) -> BinaryIO:
    if kind == "gzip":
        return gzip.GzipFile(fileobj=stream)
    if kind == "bz2":
        return bz2.BZ2File(stream)
    return lzma.LZMAFile(stream)


def _expand_stream(name: str, stream: BinaryIO, size: int | None, depth: int = 0) -> Iterator[Source]:
    head = _read_head(stream, name)
    kind = _kind(head)
    whole = _Peeked(head, stream)
    if kind in ("gzip", "bz2", "xz") and depth < 3:
        inner = _decompressor(kind, io.BufferedReader(whole))
        yield from _expand_stream(name, inner, None, depth + 1)  # keep the name the user knows
        return
    if kind == "tar" and depth < 3:
        yield from _expand_tar(name, io.BufferedReader(whole), depth)
        return
    if kind == "zip" and depth < 3:
        yield from _expand_zip(name, stream, head, depth)
        return
    yield Source(name, stream, size, rank_from_path(name), host_from_path(name), head)


def _expand_tar(name: str, stream: BinaryIO, depth: int) -> Iterator[Source]:
    try:
        with tarfile.open(fileobj=stream, mode="r|") as tar:
            for member in tar:
                if not member.isfile():
                    continue
                fh = tar.extractfile(member)
                if fh is None:
                    continue
                yield from _expand_stream(f"{name}:{member.name}", fh, member.size, depth + 1)
    except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        raise InputError(f"{name}: broken tar archive: {exc}") from None


def _expand_zip(name: str, stream: BinaryIO, head: bytes, depth: int) -> Iterator[Source]:
    # zip's directory is at the end: it needs a seekable file. A zip arriving as a
    # stream (stdin, inside a tarball) is spooled to a temporary file, not to memory.
    try:
        if stream.seekable():
            stream.seek(0)
            seekable = stream
        else:
            seekable = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)
            seekable.write(head)
            shutil.copyfileobj(stream, seekable, 1 << 20)
            seekable.seek(0)
        archive = zipfile.ZipFile(seekable)
        infos = sorted((i for i in archive.infolist() if not i.is_dir()), key=lambda i: i.filename)
        for info in infos:
            with archive.open(info) as fh:
                yield from _expand_stream(f"{name}:{info.filename}", fh, info.file_size, depth + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error, OSError, NotImplementedError) as exc:
        raise InputError(f"{name}: broken zip archive: {exc}") from None


def open_sources(inputs: list[str]) -> Iterator[Source]:
    """Yield each log inside the inputs, in a stable order. Raises InputError."""
    if not inputs:
        raise InputError("no input given: pass log files, directories, archives, or - for stdin")
    for item in inputs:
        if item == "-":
            yield from _expand_stream("<stdin>", sys.stdin.buffer, None)
            continue
        path = Path(item)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
            if not files:
                raise InputError(f"{item}: directory has no files")
            for file in files:
                yield from _open_file(file, display=str(file))
            continue
        yield from _open_file(path, display=item)


def open_path(path: Path, display: str) -> Iterator[Source]:
    """Like open_sources for one file, shown under another name (an upload's original file name)."""
    yield from _open_file(path, display)


def _open_file(path: Path, display: str) -> Iterator[Source]:
    try:
        fh = open(path, "rb")
    except FileNotFoundError:
        raise InputError(f"{display}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{display}: is a directory") from None
    except PermissionError:
        raise InputError(f"{display}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{display}: cannot open: {exc.strerror}") from None
    with fh:
        size = os.fstat(fh.fileno()).st_size
        yield from _expand_stream(display, fh, size)


def source_from_bytes(name: str, data: bytes) -> Source:
    """An in-memory log (a pasted log, a signature's case)."""
    stream = io.BytesIO(data)
    head = stream.read(SNIFF)
    return Source(name, stream, len(data), rank_from_path(name), host_from_path(name), head)
