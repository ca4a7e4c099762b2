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

from ._draft import _VOLATILE_RE, message_of
from ._lines import parse_prefix, strip_ansi
from ._sources import Source

BLOOM_BYTES = 8 << 20  # 2^26 bits
BLOOM_HASHES = 4
NEW_BLOOM_BYTES = 1 << 20
PER_RANK = 5  # new lines kept per rank ...
TOTAL = 40  # ... and in all
READ_BYTES = 1 << 20
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
        self.added = 0

    def _positions(self, text: str) -> Iterator[int]:
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8 * self.hashes).digest()
        for i in range(self.hashes):
            yield int.from_bytes(digest[8 * i : 8 * i + 8], "little") & self.mask

    def add(self, text: str) -> None:
        for pos in self._positions(text):
            self.bits[pos >> 3] |= 1 << (pos & 7)
        self.added += 1

    def __contains__(self, text: str) -> bool:
        return all(self.bits[pos >> 3] & (1 << (pos & 7)) for pos in self._positions(text))


def source_lines(source: Source) -> Iterator[str]:
    """The lines of a source, decoded (undecodable bytes replaced), a megabyte read at a time."""
    carry = source.head
    while True:
        chunk = source.stream.read(READ_BYTES)
        *whole, carry = (carry + chunk).split(b"\n")
        for raw in whole:
            yield raw.decode("utf-8", "replace")
        if not chunk:
            if carry:  # the last line, without its newline
                yield carry.decode("utf-8", "replace")
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
    """A good run, as what it printed: build it once, compare failed runs of the same program with it."""

    def __init__(self, sources: Iterable[Source], size: int = BLOOM_BYTES):
        self.seen = Bloom(size)
        self.names: list[str] = []
        self.lines = 0
        for source in sources:
            self.names.append(source.name)
            for line in source_lines(source):
                self.lines += 1
                masked = mask(line)
                if masked:
                    self.seen.add(masked)

    def compare(self, sources: Iterable[Source], per_rank: int = PER_RANK, total: int = TOTAL) -> BaselineDiff:
        """The failed run's lines that the good run never printed (masked), the first of each rank first."""
        diff = BaselineDiff(self.names, self.lines)
        told = Bloom(NEW_BLOOM_BYTES)  # new messages already counted: the same one on another rank is not news
        kept: dict[int | None, int] = {}
        for source in sources:
            frame = False  # the line above was a traceback frame: this one is its code
            for number, line in enumerate(source_lines(source), 1):
                masked = mask(line)
                code, frame = frame, masked.startswith('File "')
                if not masked or frame or code or _MARKERS.match(masked) or masked in self.seen or masked in told:
                    continue  # frames and their code are context: the traceback's header and exception are the news
                told.add(masked)
                diff.new_total += 1
                rank = parse_prefix(strip_ansi(line)[:160]).rank
                if rank is None:
                    rank = source.rank_hint
                if len(diff.new) < total and kept.get(rank, 0) < per_rank:
                    kept[rank] = kept.get(rank, 0) + 1
                    diff.new.append(NewLine(source.name, number, rank, strip_ansi(line)[:TEXT_CHARS]))
        return diff
