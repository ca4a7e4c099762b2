"""The failed run against the last good one (issue 14, item 3): the first lines the failed run printed that the
good run never did, per rank, once what differs from run to run is masked.

The good run is kept as a Bloom filter of its masked messages: a fixed BLOOM_BYTES of memory whatever its size
(a false positive, about 1 in 10^5 lines at 10 million distinct messages, hides a new line; nothing is ever
reported new that the good run printed). Masking takes off the line's prefixes (labels, ranks, timestamps,
levels, NCCL's host:pid:tid) and turns numbers, hex ids, UUIDs, dates, paths and host names into placeholders,
so `step 3000 loss 2.41` in one run is `step 3100 loss 2.38` in the other.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import compress
from typing import cast

from ._draft import _VOLATILE_RE, message_of
from ._lines import parse_prefix, strip_ansi
from ._sources import Source

BLOOM_BYTES = 8 << 20  # 2^26 bits
BLOOM_HASHES = 4
NEW_BLOOM_BYTES = 1 << 20
PER_RANK = 5  # new lines kept per rank ...
TOTAL = 40  # ... and in all
READ_BYTES = 1 << 20
MEMO_SHAPES = 200_000
_ZERO = bytes.maketrans(b"0123456789", b"0000000000")
TEXT_CHARS = 300
_HOSTLIKE = re.compile(r"\b[A-Za-z][\w-]*?\d+[\w-]*\b")  # gpu-node-07, ip-10-0-0-12, worker3
_SPACES = re.compile(r"\s+")
_MARKERS = re.compile(r"^[\^~ ]+$")  # Python 3.11+ markers under a frame's code


def mask(line: str) -> str:
    """The line as two runs of one program would both print it: prefixes off, what varies between runs masked."""
    text = message_of(line)
    text = _VOLATILE_RE.sub("#", text)
    text = _HOSTLIKE.sub("@", text)
    return _SPACES.sub(" ", text).strip()


class Bloom:
    """A set of strings in fixed memory that may say "seen" of a string it never saw, never the reverse."""

    def __init__(self, size: int = BLOOM_BYTES, hashes: int = BLOOM_HASHES):
        self.bits = bytearray(size)
        self.mask = size * 8 - 1
        assert size & (size - 1) == 0, "a power of two"
        self.hashes = hashes

    def _positions(self, text: str) -> Iterator[int]:
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8 * self.hashes).digest()
        for i in range(self.hashes):
            yield int.from_bytes(digest[8 * i : 8 * i + 8], "little") & self.mask

    def add(self, text: str) -> None:
        for pos in self._positions(text):
            self.bits[pos >> 3] |= 1 << (pos & 7)

    def __contains__(self, text: str) -> bool:
        return all(self.bits[pos >> 3] & (1 << (pos & 7)) for pos in self._positions(text))


def source_chunks(source: Source) -> Iterator[tuple[list[bytes], list[bytes]]]:
    """A source's lines a megabyte at a time, with their shapes (digits zeroed): (lines, shapes)."""
    carry = source.head
    while True:
        chunk = source.stream.read(READ_BYTES)
        data = carry + chunk
        cut = data.rfind(b"\n") + 1 if chunk else len(data)
        carry = data[cut:]
        whole = data[:cut]
        if whole:
            if whole.endswith(b"\n"):
                whole = whole[:-1]
            yield whole.split(b"\n"), whole.translate(_ZERO).split(b"\n")
        if not chunk:
            return


@dataclass
class NewLine:
    source: str
    line: int
    rank: int | None
    text: str


@dataclass
class BaselineDiff:
    good: list[str]  # the good run's sources
    good_lines: int
    new: list[NewLine] = field(default_factory=list)  # the first new lines, per rank up to PER_RANK, TOTAL in all
    new_total: int = 0  # distinct masked messages of the failed run that the good run never printed


class Baseline:
    """A good run, as what it printed: build it once, compare failed runs of the same program with it.

    Lines are masked by shape (digits zeroed; masking turns numbers into placeholders anyway): a log repeats a
    few shapes, so each distinct one is masked once (MEMO_SHAPES at most are remembered at a time)."""

    def __init__(self, sources: Iterable[Source], size: int = BLOOM_BYTES):
        self.seen = Bloom(size)
        self.names: list[str] = []
        self.lines = 0
        done: set[bytes] = set()  # shapes already added
        for source in sources:
            self.names.append(source.name)
            for lines, shapes in source_chunks(source):
                self.lines += len(lines)
                fresh = set(shapes).difference(done)
                if len(done) + len(fresh) > MEMO_SHAPES:
                    done.clear()
                done |= fresh
                for shape in fresh:
                    masked = mask(shape.decode("utf-8", "replace"))
                    if masked:
                        self.seen.add(masked)

    def compare(self, sources: Iterable[Source], per_rank: int = PER_RANK, total: int = TOTAL) -> BaselineDiff:
        """The failed run's lines that the good run never printed (masked), the first of each rank first."""
        diff = BaselineDiff(self.names, self.lines)
        told = Bloom(NEW_BLOOM_BYTES)  # new messages already counted: the same one on another rank is not news
        kept: dict[int | None, int] = {}
        news: dict[bytes, str | None] = {}  # shape -> its masked message if the good run never printed it, else None
        frames: set[bytes] = set()  # shapes of traceback frames: the line below one is its code
        for source in sources:
            number, above = 0, b""
            for lines, shapes in source_chunks(source):
                if len(news) > MEMO_SHAPES:
                    news.clear()
                    frames.clear()
                for shape in set(shapes).difference(news):
                    masked = mask(shape.decode("utf-8", "replace"))
                    if masked.startswith('File "'):
                        frames.add(shape)
                    new = masked and masked not in self.seen and not _MARKERS.match(masked)
                    news[shape] = masked if new and shape not in frames else None
                verdicts = list(map(news.__getitem__, shapes))
                for i in compress(range(len(shapes)), verdicts):
                    masked = cast(str, verdicts[i])
                    if (shapes[i - 1] if i else above) in frames or masked in told:
                        continue  # a frame's code is context: the traceback's header and exception are the news
                    told.add(masked)
                    diff.new_total += 1
                    if len(diff.new) >= total:
                        continue
                    text = strip_ansi(lines[i].decode("utf-8", "replace"))
                    rank = parse_prefix(text[:160]).rank
                    rank = source.rank_hint if rank is None else rank
                    if kept.get(rank, 0) < per_rank:
                        kept[rank] = kept.get(rank, 0) + 1
                        diff.new.append(NewLine(source.name, number + i + 1, rank, text[:TEXT_CHARS]))
                number, above = number + len(shapes), shapes[-1]
        return diff
