"""The scan: one pass over every source, literal prefilter, RE2 confirmation.

The hot loop never visits a line in Python unless it contains one of the
library's literals. Hyperscan finds those literals in large blocks (linear
time); RE2 then confirms the full pattern on the candidate line only (linear
time too). A match is made into an Event only while its (signature, rank) has
room in the capped event lists; past that it is only counted, and the context
an event needs (time, traceback, the lines around it) costs bounded work (see
_context). A block is taken a window at a time: when most lines of a window are
candidates and none can add an event any more (a flood of the same errors), the
window is counted in bulk from the plans of its lines' shapes (see _flood), with
the same result as line by line. Memory is bounded by the block size plus capped
event lists and caches, whatever the input size.
"""

from __future__ import annotations

import lzma
import re
import threading
import zlib
from bisect import bisect_left, bisect_right
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import compress, count, groupby, islice, repeat
from operator import and_, is_not, itemgetter, not_, or_
from typing import Callable, Iterable

import hyperscan
from re2 import _re2

from ._context import ZERO_DIGITS, Surroundings, prefix_of, rank_and_host, time_of
from ._flood import LINE_PATH, NO_LITERAL, SHAPE_CHARS, Firing, Plan, Plans, digit_blind, shapes_of
from ._library import Library
from ._lines import _ANSI, PREFIX_CHARS, parse_prefix, strip_ansi, year_of
from ._schema import Pattern, Signature, compile_regex
from ._sources import InputError, Source, looks_binary
from . import _trend

BLOCK = 8 << 20          # bytes read and scanned at a time
MAX_LINE = 1 << 20       # room for the partial line carried into the next block
TAIL = 64 << 10          # bytes of the previous block kept for look-back context
EVENTS_KEPT = 8          # events kept per (signature, rank); the rest are only counted
SIG_EVENTS_SOFT = 64     # past this many kept events of one signature, a rank keeps only its first FIRST_KEPT
FIRST_KEPT = 1           # ... (a 256-rank flood keeps every rank's first line, not 16 repeats of each)
SIG_EVENTS_MAX = 4096    # and past this many, only counted
ERRORLIKE_PER_RANK = 5
ERRORLIKE_RANKS = 64
HEAD_SAMPLE_LINES = 400  # lines at the start of a source parsed for ranks, hosts, times
TEXT_CHARS = 2000        # evidence text is cut to this length
MEMO_CHARS = 512         # lines up to this long have their regex results remembered by shape (see _Scan._hit)
MEMO_ENTRIES = 1 << 14
WINDOW = 1 << 20         # bytes of a block decided at a time: line by line, or in bulk (see _Scan._bulk)
FIRST_WINDOW = 64 << 10  # ... while a flood may still add events
MIN_WINDOW = 16 << 10
FLOOD_BYTES = 1024       # a window with a candidate line per this many bytes is part of a flood: try _bulk
FLOOD_HITS = 64          # ... and so are this many literals found that close together

# How many ranks the job has, as launchers and libraries print it at start-up: "world_size=4",
# "WORLD_SIZE: 8", NCCL's "comm 0x... rank 0 nranks 8". (group_world_size and role_world_size are not it.)
_WORLD_SIZE = re.compile(rb"(?<![A-Za-z_])(?:world[_ ]size|WORLD_SIZE)['\"]?\s*[:=]\s*['\"]?(\d{1,7})\b|\bnranks (\d{1,7})\b")

# Lines that look like an error even when no signature explains them.
_ERRORLIKE = [
    ("Traceback (most recent call last)", r"Traceback \(most recent call last\)"),
    ("Error", r"(?:^|[\s:\]>])[A-Za-z_][\w.]*Error(?::\s|:?\s*$)"),
    ("Exception", r"(?:^|[\s:\]>])[A-Za-z_][\w.]*Exception(?::\s|:?\s*$)"),
    ("FAILED", r"\bFAILED\b"),
    ("ERROR", r"\bERROR\b"),
    ("error: ", r"\berror: "),
    ("Segmentation fault", r"Segmentation fault"),
    ("core dumped", r"core dumped"),
    ("Aborted", r"\bAborted\b"),
    ("fatal", r"\bfatal\b"),
    ("exitcode", r"exitcode\s*:\s*-?[1-9]"),
    ("exit code", r"exit code [1-9]"),
    ("Killed", r"\bKilled\b"),
]
_NON_ASCII = re.compile(rb"[\x80-\xff]")
_ANSI_BYTES = re.compile(_ANSI.pattern.encode())
# what precedes a message: launcher labels, then a timestamp (ISO, logging, glog)
_LINE_PREFIX = re.compile(r"^\s*(?:\d{1,6}: )?(?:\[(?:rank|default)\d{1,6}\]:?\s*)?"
                          r"(?:\[?\d{4}-\d\d-\d\d[ T][\d:.,]+(?:Z|[+-]\d\d:?\d\d)?\]?\s*|[IWEF]\d{4} [\d:.]+\s+\d+ \S+\]\s*)?")


@dataclass
class Event:
    sig_id: str
    kind: str                 # "line", "absence", "count" or "trend"
    source: str
    source_index: int
    line: int
    rank: int | None
    host: str | None
    time: float | None        # the line's own timestamp
    eff_time: float | None    # own timestamp, else the last one seen earlier in the source
    text: str
    values: dict[str, str] = field(default_factory=dict)
    context: list[str] = field(default_factory=list)   # lines above (traceback frames)
    after: list[str] = field(default_factory=list)     # the message's continuation lines below
    seq: int = 0              # order of discovery: source order, then line order


@dataclass
class ErrorLine:
    source: str
    line: int
    rank: int | None
    text: str


@dataclass
class ScanResult:
    events: list[Event]
    counts: dict[tuple[str, int | None], int]
    errorlike: dict[int | None, list[ErrorLine]]
    ranks: set[int]
    hosts: set[str]
    bytes: int
    lines: int
    sources: list[str]
    skipped: list[str]
    completed: dict[str, int] = field(default_factory=dict)
    # per (source index, rank): the last training progress seen (line, step, time), from the sampled loss lines
    progress: dict[tuple[int, int | None], tuple[int, int | None, float | None]] = field(default_factory=dict)
    world_size: int | None = None  # as the job printed it (world_size=, WORLD_SIZE, NCCL's nranks)


class _Lazy:
    """An RE2 regex compiled on first use: a scan only ever touches the few patterns its log contains.

    Picklable (the compiled object is dropped), so a compiled Matcher can be cached."""

    __slots__ = ("source", "caseless", "blind", "_compiled", "_names")

    def __init__(self, source: str, caseless: bool):
        self.source, self.caseless, self._compiled, self._names = source, caseless, None, None
        self.blind = digit_blind(source)

    def _regex(self):
        if self._compiled is None:
            compiled = compile_regex(self.source, self.caseless)
            self._names = list(compiled.groupindex.items())  # before _compiled: another thread may be reading
            self._compiled = compiled
        return self._compiled

    def search(self, text: str):
        return self._regex().search(text)

    def hit(self, subject: bytes) -> bool:
        """Whether it matches the UTF-8 text `subject`. This calls RE2 itself (google-re2's _regexp): its search()
        would also build a match object and map offsets back to a str, at two to five times the cost."""
        return self._regex()._regexp.Match(_UNANCHORED, subject, 0, len(subject))[0][0] >= 0

    def hits(self, subjects: list[bytes]) -> list[bool]:
        """hit() of each subject, with no Python frame per subject."""
        spans = map(self._regex()._regexp.Match, repeat(_UNANCHORED), subjects, repeat(0), map(len, subjects))
        return [found[0][0] >= 0 for found in spans]

    def groups(self, text: str) -> dict[str, str] | None:
        """search(text).groupdict() less its None values, or None: read from RE2's spans, without a match object."""
        subject = text.encode()
        spans = self._regex()._regexp.Match(_UNANCHORED, subject, 0, len(subject))
        if spans[0][0] < 0:
            return None
        return {name: subject[spans[i][0]:spans[i][1]].decode() for name, i in self._names if spans[i][0] >= 0}

    def __getstate__(self):
        return self.source, self.caseless

    def __setstate__(self, state):
        self.__init__(*state)


_UNPARSED = object()
_UNANCHORED = _re2.RE2.Anchor.UNANCHORED
_BENIGN = _Lazy(r"(?i)warn(?:ing)?\b|\bwarnings?\.warn|deprecat|error_file|error_file:|errors\.html|0 errors?\b", False)


@dataclass
class _Compiled:
    kind: str                  # "match", "start", "errorlike"
    regex: _Lazy
    lines_before: int = 0
    sig: Signature | None = None
    pattern_index: int = 0
    names_rank: bool = False   # a `rank` group overrides the rank of the line's prefix
    plain: bool = False        # a match of a signature with no count, all or absence rule: kept or counted


class _Database:
    """A Hyperscan literal database that any number of threads may scan at once.

    A Hyperscan scratch space may serve one scan at a time, so each thread gets its own
    (allocated on its first scan); the compiled database itself is read-only and shared.
    Survives pickling (serialized with hs_serialize_database)."""

    def __init__(self, db: hyperscan.Database):
        self.db = db
        self._local = threading.local()

    def scan(self, data, match_event_handler) -> None:
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = hyperscan.Scratch(self.db)
        self.db.scan(data, match_event_handler=match_event_handler, scratch=scratch)

    def __getstate__(self):
        return hyperscan.dumpb(self.db)

    def __setstate__(self, state):
        self.__init__(hyperscan.loadb(state, mode=hyperscan.HS_MODE_BLOCK))


class _SigRuntime:
    """Per-signature compiled state."""

    def __init__(self, sig: Signature):
        self.sig = sig
        self.exclude = [_Lazy(e.regex, e.caseless) for e in sig.exclude]
        self.patterns = [_Lazy(p.regex, p.caseless) for p in sig.patterns if not p.lines_before]
        self.progress_db = None
        self.progress: dict[int, list[_Compiled]] = {}
        if sig.absence is not None:
            self.progress_db, self.progress, _ = _build_db(
                [("match", p, sig, i) for i, p in enumerate(sig.absence.complete + sig.absence.progress)])

    def excluded(self, subject: bytes) -> bool:
        return any(r.hit(subject) for r in self.exclude)


def _build_db(entries: Iterable[tuple[str, Pattern, Signature | None, int]]):
    """(database, the patterns of each literal id, the literal ids)"""
    literal_ids: dict[tuple[bytes, bool], int] = {}
    by_literal: dict[int, list[_Compiled]] = {}
    for kind, pat, sig, index in entries:
        plain = kind == "match" and sig is not None and sig.count is None and sig.condition == "any"
        compiled = _Compiled(kind, _Lazy(pat.regex, pat.caseless), pat.lines_before, sig, index,
                             "(?P<rank>" in pat.regex, plain)
        for literal in pat.all_literals:
            lid = literal_ids.setdefault((literal.encode(), pat.caseless), len(literal_ids))
            by_literal.setdefault(lid, []).append(compiled)
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    exprs = [lit for lit, _ in literal_ids]
    flags = [hyperscan.HS_FLAG_CASELESS if caseless else 0 for _, caseless in literal_ids]
    db.compile(expressions=exprs, ids=list(range(len(exprs))), elements=len(exprs), flags=flags, literal=True)
    return _Database(db), by_literal, literal_ids


class _ShapeScanner:
    """Finds the library's literals in a line shape (its digits zeroed) by looking for them with their digits zeroed."""

    def __init__(self, literal_ids: dict[tuple[bytes, bool], int]):
        zeroed: dict[tuple[bytes, bool], list[int]] = {}
        for (literal, caseless), lid in literal_ids.items():
            zeroed.setdefault((literal.translate(ZERO_DIGITS), caseless), []).append(lid)
        self.lids = list(zeroed.values())
        self.digits = [literal.translate(None, b"0123456789") != literal for literal, _ in zeroed]
        db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        db.compile(expressions=[lit for lit, _ in zeroed], ids=list(range(len(zeroed))), elements=len(zeroed),
                   flags=[hyperscan.HS_FLAG_CASELESS if caseless else 0 for _, caseless in zeroed], literal=True)
        self.db = _Database(db)

    def __call__(self, shape: bytes) -> list[int] | None:
        """The literal ids the lines of this shape hold; None when a literal with digits may be among them."""
        found: list[int] = []
        self.db.scan(shape, lambda zid, _s, _e, _f, _c: found.append(zid))
        if any(self.digits[zid] for zid in found):
            return None
        return list(dict.fromkeys(lid for zid in found for lid in self.lids[zid]))


class Matcher:
    """A compiled library. Build once, scan many inputs."""

    def __init__(self, library: Library):
        self.library = library
        self.runtime = {s.id: _SigRuntime(s) for s in library.signatures if s.status != "deprecated"}
        entries: list[tuple[str, Pattern, Signature | None, int]] = []
        trend: list[tuple[str, Pattern, Signature | None, int]] = []  # loss lines: sampled, in their own database
        for rt in self.runtime.values():
            sig = rt.sig
            if sig.absence is not None:
                entries += [("start", p, sig, i) for i, p in enumerate(sig.absence.start)]
            if sig.trend is not None:
                trend += [("trend", p, sig, i) for i, p in enumerate(sig.patterns)]
            else:
                entries += [("match", p, sig, i) for i, p in enumerate(sig.patterns)]
        entries += [("errorlike", Pattern(literal=lit, regex=rx), None, 0) for lit, rx in _ERRORLIKE]
        self.db, self.by_literal, literal_ids = _build_db(entries)
        self.literal_bits = max(1, (len(self.by_literal) - 1).bit_length())
        self.errorlike = [c.regex for cs in self.by_literal.values() for c in cs if c.kind == "errorlike"]
        self.plans = Plans(_ShapeScanner(literal_ids), self.by_literal, self.runtime)
        self.trend_db, by_literal, _ = _build_db(trend) if trend else (None, {}, {})
        self.trend_patterns = list({id(c): c for cs in by_literal.values() for c in cs}.values())

    def scan(self, sources: Iterable[Source], progress: Callable[[int], None] | None = None) -> ScanResult:
        scan = _Scan(self, progress)
        for index, source in enumerate(sources):
            scan.scan_source(index, source)
        return scan.result()


class _Reader:
    """Yields blocks of whole lines. Reads ahead in a thread.

    Two buffers alternate: while the scan works on one, a thread fills the other
    (the read system call and decompression release the GIL). A line longer
    than the buffer is handed over in pieces, so memory stays bounded.
    """

    def __init__(self, source: Source, on_bytes: Callable[[int], None]):
        self.source = source
        self.on_bytes = on_bytes

    def _read(self, buf: bytearray, start: int) -> int:
        """Fill buf from `start`; return how many bytes of buf are valid."""
        pos = start
        stream = self.source.stream
        with memoryview(buf) as view:
            while pos < len(buf):
                try:
                    got = stream.readinto(view[pos:]) if hasattr(stream, "readinto") else _read_into(stream, view[pos:])
                except (OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
                    raise InputError(f"{self.source.name}: cannot read: {exc}") from None
                if not got:
                    break
                pos += got
        return pos

    def _fill(self, buf: bytearray, start: int) -> tuple[int, int, list[int]]:
        """Read into buf after `start` carried bytes; return (filled, cut, marks).

        marks[i] counts the newlines in buf[:i * width] for the trend sampler's windows (see
        _trend.windows), and marks[-1] those in buf[:cut]. Runs in the reader thread: counting
        newlines here overlaps with the Hyperscan scan of the other buffer, which releases the GIL.
        """
        filled = self._read(buf, start)
        eof = filled < len(buf)
        cut = filled if eof else buf.rfind(b"\n", 0, filled) + 1
        if cut == 0:
            cut = filled  # one line longer than the buffer: hand it over in pieces
        width = _trend.windows(cut, self.source.size)[0]
        marks, total = [0], 0
        for lo in range(0, cut, width):
            total += buf.count(b"\n", lo, min(lo + width, cut))
            marks.append(total)
        return filled, cut, marks

    def __iter__(self):
        """Yield (buffer, n, marks): buffer[:n] holds whole lines; marks[-1] is how many (see _fill)."""
        head = self.source.head
        size = BLOCK + MAX_LINE
        if self.source.size is not None:  # a small file needs small buffers (one more byte tells EOF)
            size = min(size, max(self.source.size + 1, len(head) + 1, 1 << 16))
        bufs = [bytearray(size), bytearray(size)]
        cur = 0
        bufs[cur][:len(head)] = head
        with ThreadPoolExecutor(max_workers=1) as pool:
            filled, cut, marks = self._fill(bufs[cur], len(head))
            self.on_bytes(filled)
            while filled:
                buf = bufs[cur]
                carry = filled - cut
                nxt = bufs[1 - cur]
                nxt[:carry] = buf[cut:filled]
                eof = filled < len(buf)
                future = None if eof else pool.submit(self._fill, nxt, carry)
                yield buf, cut, marks
                if future is None:
                    return
                filled, cut, marks = future.result()
                self.on_bytes(filled - carry)
                cur = 1 - cur


def _read_into(stream, view: memoryview) -> int:
    data = stream.read(len(view))
    view[:len(data)] = data
    return len(data)


class _SourceState:
    def __init__(self, source: Source, index: int):
        self.source = source
        self.index = index
        self.last_time: float | None = None          # of the last stamped candidate line before those `untimed`
        self.untimed: list[tuple[int, int]] = []     # candidate lines of this block whose time is not parsed yet
        self.year: int | None = None
        self.context = Surroundings()
        self.pending: dict[str, Event] = {}          # absence rules waiting for completion
        self.hosts: set[str] = set()                 # hosts this source's lines name
        self.events: list[Event] = []                # events kept from this source
        self.completed: dict[str, int] = {}          # absence operations seen completing in this source
        self.last_error_line = 0                     # the last error-like line of this source
        self.late_errors: list[tuple[int, int, int]] = []  # error-like lines of ranks past the caps, this block
        self.counts: dict[str, int] = {}             # count rules
        self.count_texts: dict[str, set[str]] = {}   # count rules with distinct = true: lines counted so far
        self.all_seen: dict[str, dict[int, Event]] = {}  # condition = "all"
        self.series: dict[tuple[str, int | None, str], _trend.Series] = {}  # trend rules
        self.flood = False                           # the last window was dense with candidate lines: try _bulk
        self.window = FIRST_WINDOW                   # the size of the next window (see _Scan._scan_block)


@dataclass
class _Window:
    """Lines of a block that bulk counting can take (see _Scan._plan_window)."""
    end: int                        # where they end
    rest: int                       # the lines from `end` to here go line by line
    lines: list[bytes]              # their texts
    shapes: list[bytes]
    plans: list[Plan]
    groups: dict[Plan, list[int]]   # the lines of each plan that holds a literal
    at: Callable[[int], int]        # where line i starts in the block


class _Scan:
    def __init__(self, matcher: Matcher, progress: Callable[[int], None] | None):
        self.m = matcher
        self.progress = progress
        self.events: dict[tuple[str, int | None], list[Event]] = {}
        self.counts: dict[tuple[str, int | None], int] = {}
        self.errorlike: dict[int | None, list[ErrorLine]] = {}
        self.ranks: set[int] = set()
        self.hosts: set[str] = set()
        self.bytes = 0
        self.lines = 0
        self.sources: list[str] = []
        self.skipped: list[str] = []
        self.completed: dict[str, int] = {}  # absence rules whose operation was seen to complete
        self.rank_progress: dict[tuple[int, int | None], tuple[int, int | None, float | None]] = {}
        self.world_size: int | None = None
        self.seq = 0
        self.kept_by_sig: dict[str, int] = {}  # events kept per signature (see _room)
        self.numbered = (0, 1)  # (offset, number) of the last line numbered in the block (see _number)
        self.candidates = 0     # lines that the last _scan_lines gave to _candidate
        self.hits: dict[_Lazy, dict[bytes, bool]] = {}  # see _hit
        self.remembered = 0

    # -- reading -------------------------------------------------------------

    def scan_source(self, index: int, source: Source) -> None:
        if looks_binary(source.head):
            self.skipped.append(f"{source.name}: binary data, not a text log")
            return
        self.sources.append(source.name)
        st = _SourceState(source, index)
        if source.rank_hint is not None:
            self.ranks.add(source.rank_hint)
        if source.host_hint:
            self.hosts.add(source.host_hint)
        tail = b""
        line_base = 1
        first = True
        last_byte = 0x0A
        for data, n, marks in _Reader(source, self._count_bytes):
            if not n:
                continue
            if first:
                self._sample_head(st, data, n)
                first = False
            self._scan_block(st, data, n, line_base, tail)
            if self.m.trend_db is not None:
                self._scan_trend(st, data, n, line_base, marks)
            line_base += marks[-1]
            tail = bytes(data[max(0, n - TAIL):n])
            last_byte = data[n - 1]
        if last_byte != 0x0A:
            line_base += 1  # the last line had no newline
        self.lines += line_base - 1
        self._finish_source(st)

    def _count_bytes(self, n: int) -> None:
        self.bytes += n
        if self.progress and n:
            self.progress(n)

    def _sample_head(self, st: _SourceState, data: bytearray, n: int) -> None:
        end = 0
        for _ in range(HEAD_SAMPLE_LINES):
            nxt = data.find(b"\n", end, n)
            if nxt < 0:
                break
            pre = parse_prefix(bytes(data[end:min(nxt, end + 200)]).decode("utf-8", "replace"))
            end = nxt + 1
            if pre.rank is not None:
                self.ranks.add(pre.rank)
            if pre.host:
                self.hosts.add(pre.host)
                st.hosts.add(pre.host)
            if pre.time is not None and st.year is None:
                st.year = year_of(pre.time)
        for found in _WORLD_SIZE.finditer(bytes(data[:end])):  # printed at start-up, if at all
            size = int(next(g for g in found.groups() if g))
            if 0 < size <= 1 << 20:
                self.world_size = max(self.world_size or 0, size)

    # -- the block scan ------------------------------------------------------

    def _scan_block(self, st: _SourceState, data: bytearray, n_bytes: int, line_base: int, tail: bytes) -> None:
        """Scan data[:n_bytes], which ends at a line boundary (or is one cut giant line): line by line, and where
        candidate lines come thick (a flood), a window at a time, in bulk when it can be (see _bulk)."""
        if st.pending:
            self._check_pending(st, data, 0, n_bytes)
        st.context.new_block(data, n_bytes, tail)
        self.numbered = (0, line_base)
        lo = 0
        while lo < n_bytes:
            if not st.flood:
                lo = self._scan_lines(st, data, lo, n_bytes, watch=True)
                continue
            width = st.window
            hi = n_bytes if lo + width >= n_bytes else data.rfind(b"\n", lo, lo + width) + 1
            if hi <= lo:  # a line longer than the window
                hi = data.find(b"\n", lo + width, n_bytes) + 1 or n_bytes
            done, rest = self._bulk(st, data, lo, hi)
            if rest > done:
                self._scan_lines(st, data, done, rest)
                if done == lo and rest == hi:
                    st.flood = self.candidates * FLOOD_BYTES >= hi - lo
            if not st.flood or done == hi:
                st.window = min(2 * width, WINDOW)
            elif rest < hi:  # bulk counting stopped at a line it cannot take: resume with a window like what it took
                st.window = min(max(2 * (done - lo), MIN_WINDOW), WINDOW)
            else:  # a flood still adding events: small windows, so bulk counting resumes soon after it stops
                st.window = FIRST_WINDOW
            lo = max(done, rest)
        self._settle(st)

    def _number(self, data: bytearray, ls: int) -> int:
        """The number of the line starting at data[ls]: the newlines since the last line numbered are counted
        (the scan numbers lines in order, so each byte of a block is counted at most once)."""
        pos, line_no = self.numbered
        line_no += data.count(b"\n", pos, ls)
        self.numbered = (ls, line_no)
        return line_no

    def _scan_lines(self, st: _SourceState, data: bytearray, lo: int, hi: int, watch: bool = False) -> int:
        """Scan data[lo:hi] line by line: every line holding a literal goes to _candidate (self.candidates counts
        them). Returns where it stopped: hi, or, when watching for a flood, the start of the line where one begins."""
        bits = self.m.literal_bits
        hits: list[int] = []  # end << bits | literal id: plain ints, which the garbage collector does not track
        append = hits.append

        def on_hit(lid: int, _start: int, end: int, _flags: int, _ctx: object) -> bool:
            append(end << bits | lid)
            # FLOOD_HITS hits within FLOOD_HITS lines' worth of bytes: stop, a flood begins
            return watch and len(hits) >= FLOOD_HITS and end - (hits[-FLOOD_HITS] >> bits) <= FLOOD_HITS * FLOOD_BYTES

        try:
            with memoryview(data) as view:
                self.m.db.scan(view[lo:hi], on_hit)
        except hyperscan.ScanTerminated:  # the line path takes what comes before it, and the windows the rest
            stop = max(lo, data.rfind(b"\n", lo, lo + (hits[-FLOOD_HITS] >> bits)) + 1)
            st.flood = True
            self._scan_lines(st, data, lo, stop)
            return stop
        hits.sort()
        n = len(hits)
        mask = (1 << bits) - 1
        i = lines = 0
        while i < n:
            end = lo + (hits[i] >> bits)
            ls = data.rfind(b"\n", 0, end) + 1
            le = data.find(b"\n", end, hi)
            if le < 0:
                le = hi
            j = bisect_right(hits, (le - lo) << bits | mask, i + 1)  # hits[i:j] are this line's
            ids = [hits[i] & mask] if j == i + 1 else list(dict.fromkeys([h & mask for h in hits[i:j]]))
            i = j
            lines += 1
            line_no = self._number(data, ls)
            raw = bytes(data[ls:le])
            if b"\r" in raw:
                offset = ls
                for seg in raw.split(b"\r"):
                    if seg:
                        self._candidate(st, offset, offset + len(seg), seg, line_no, ids)
                    offset += len(seg) + 1
            else:
                self._candidate(st, ls, le, raw, line_no, ids)
        self.candidates = lines
        return hi

    # -- floods: windows counted in bulk -------------------------------------

    def _bulk(self, st: _SourceState, data: bytearray, lo: int, hi: int) -> tuple[int, int]:
        """Count lines of data[lo:hi] in bulk, from the plans of their shapes (see _flood), up to the first line
        that can add an event (its signature lacks events for its rank, or the error-like list does). Such lines
        do only what _candidate would do to them: be counted, name their rank and host, and perhaps be the last
        error-like line or the last stamped prefix.

        Returns (done, rest): the lines of [lo, done) were counted, those of [done, rest) are to go line by line
        next (a line that can add an event or that no plan decides, or all of the window if it is too varied)."""
        w = self._plan_window(data, lo, hi)
        if w is None:
            return lo, hi
        line_no = self._number(data, lo)
        hint = st.source.rank_hint
        special: set[int] = set()  # lines that may add an event (a superset): they go line by line
        work = []
        stacked: dict[int, list[bytes]] = {}
        for plan, idxs in w.groups.items():
            picked = list(map(w.lines.__getitem__, idxs))
            ranks = list(map(int, map(itemgetter(plan.rank), picked))) if plan.rank else [None] * len(idxs)
            if plan.errorlike:
                for rank in set(ranks):
                    rank_ = hint if rank is None else rank
                    if not self._errorlike_full(rank_):
                        room = ERRORLIKE_PER_RANK - len(self.errorlike.get(rank_, ()))
                        special.update(islice((i for i, r in zip(idxs, ranks) if r == rank), room))
            firings = []
            for f in plan.firings:
                fires = self._fires(st, f, idxs, picked, w.lines, w.shapes, stacked, lo, line_no)
                for rank in set(compress(ranks, fires)):
                    key = (f.sig.id, hint if rank is None else rank)
                    if f.kind == "plain":
                        room = self._quota(key)
                    else:
                        room = len(idxs) if -1 not in st.all_seen.get(f.sig.id, {}) else 0
                    if room:
                        special.update(islice((i for i, hit, r in zip(idxs, fires, ranks) if hit and r == rank), room))
                firings.append((f, fires))
            work.append((plan, idxs, picked, ranks, firings))
        if len(special) > len(w.shapes) // 4:  # lines that add events are still common: all of the window goes line by line
            return lo, hi
        candidates = sum(len(idxs) for _, idxs, *_ in work)
        start = 0
        for stop in sorted(special):  # counted in bulk up to the line, which the line path takes, and so on
            self._count_in_bulk(st, w, work, start, stop, line_no)
            self.numbered = (w.at(stop), line_no + stop)
            self._scan_lines(st, data, w.at(stop), w.at(stop + 1))
            start = stop + 1
        self._count_in_bulk(st, w, work, start, len(w.shapes), line_no)
        self.numbered = (w.end, line_no + len(w.shapes))
        st.flood = candidates * FLOOD_BYTES >= w.end - lo
        return w.end, w.rest

    def _count_in_bulk(self, st: _SourceState, w: "_Window", work: list, start: int, stop: int, line_no: int) -> None:
        """What _candidate would do to lines start..stop-1 of window `w`, none of which adds an event: count them,
        note their ranks and hosts, and perhaps the last error-like line or the last stamped prefix."""
        if start >= stop:
            return
        hint = st.source.rank_hint
        prefixed: list[int] = []  # the lines whose prefix _candidate would parse
        for plan, idxs, picked, ranks, firings in work:
            a, b = bisect_left(idxs, start), bisect_left(idxs, stop)
            if a == b:
                continue
            who = [plan.errorlike] * (b - a)
            for f, fires in firings:
                if f.kind == "plain":
                    for rank, many in Counter(compress(ranks[a:b], fires[a:b])).items():
                        key = (f.sig.id, hint if rank is None else rank)
                        self.counts[key] = self.counts.get(key, 0) + many
                who = list(map(or_, who, fires[a:b]))
            self.ranks.update(r for r in set(compress(ranks[a:b], who)) if r is not None)
            if plan.host:
                hosts = {h.decode() for h in map(itemgetter(plan.host), compress(picked[a:b], who))}
                st.hosts |= hosts
                self.hosts |= hosts
            prefixed.extend(compress(idxs[a:b], who))
        self._last_lines(st, w.lines, w.plans, prefixed, line_no, start, stop)

    def _plan_window(self, data: bytearray, lo: int, hi: int) -> _Window | None:
        """What bulk counting can take of data[lo:hi]: the lines of [lo, end), which it can plan, up to those of
        [end, rest), which it cannot (a carriage return, a non-ASCII byte, longer than SHAPE_CHARS, of plan
        LINE_PATH) and which go line by line. None when the window is too varied to be a flood: then all of it does."""
        end, rest = max(lo, data.rfind(b"\n", lo, hi) + 1), hi  # whole lines
        raw = bytes(data[lo:end])
        odd = raw.find(b"\r")  # a \r splits a line; a non-ASCII byte makes its text differ from its bytes
        if not raw.isascii():
            first = _NON_ASCII.search(raw).start()
            odd = first if odd < 0 else min(odd, first)
        if odd >= 0:  # bulk counting stops at that line, the line path takes it, and bulk counting resumes
            end = lo + raw.rfind(b"\n", 0, odd) + 1
            rest = data.find(b"\n", lo + odd, hi) + 1 or hi
            raw = raw[:end - lo]
        stripped = b"\x1b" in raw
        if stripped:  # the text of a line is its bytes less its escape codes
            raw = _ANSI_BYTES.sub(b"", raw)
        shapes = shapes_of(raw)
        sizes = list(map(len, data[lo:end].split(b"\n") if stripped else shapes))  # the lines' lengths in data

        def at(i: int) -> int:
            """Where line i of the window starts in data."""
            return lo + sum(sizes[:i]) + i

        long = next(compress(count(), map(SHAPE_CHARS.__lt__, map(len, shapes))), None)
        if long is not None:  # likewise
            end, rest = at(long), at(long + 1)
            del shapes[long:]
        plans = self.m.plans.of(shapes, max(1, len(shapes) // 8)) if shapes else []  # a flood repeats a few shapes
        if plans is None:
            return None
        if LINE_PATH in plans:  # the line path takes this line and the like of it that follow, then bulk counting resumes
            cut = plans.index(LINE_PATH)
            after = next(compress(count(cut), map(is_not, plans[cut:], repeat(LINE_PATH))), len(plans))
            end, rest = at(cut), at(after)
            del shapes[cut:], plans[cut:]
        keys = list(map(id, plans))
        order = sorted(range(len(plans)), key=keys.__getitem__)
        groups = {plans[idxs[0]]: idxs for idxs in (list(g) for _, g in groupby(order, key=keys.__getitem__))}
        groups.pop(NO_LITERAL, None)
        return _Window(end, rest, raw.split(b"\n"), shapes, plans, groups, at)

    def _last_lines(self, st: _SourceState, lines: list[bytes], plans: list[Plan], prefixed: list[int],
                    line_no: int, start: int, stop: int) -> None:
        """After lines start..stop-1 of a window were counted in bulk: their last error-like line and their last
        stamped prefix, looked for from the end (and the source's year from its first stamped prefix, if this is
        where it comes from)."""
        for i in range(stop - 1, start - 1, -1):
            if line_no + i <= st.last_error_line:
                break
            if plans[i].may_err and any(rx.hit(lines[i]) for rx in self.m.errorlike) and not _BENIGN.hit(lines[i]):
                st.last_error_line = line_no + i
                break
        prefixed.sort()
        for i in prefixed if st.year is None else ():
            if plans[i].clock:
                time = time_of(lines[i][:PREFIX_CHARS].decode(), None)
                if time is not None:
                    st.year = year_of(time)
                    break
        for i in reversed(prefixed):
            if plans[i].clock:
                time = time_of(lines[i][:PREFIX_CHARS].decode(), st.year)
                if time is not None:
                    st.last_time = time
                    st.untimed.clear()  # older
                    break

    def _fires(self, st: _SourceState, f: Firing, idxs: list[int], picked: list[bytes], lines: list[bytes],
               shapes: list[bytes], stacked: dict[int, list[bytes]], lo: int, line_no: int) -> list[bool]:
        """Which of the lines `picked` (lines[i] for i in idxs) fire the signature of Firing `f`.

        `stacked[n]` (made here when needed) holds, for each line i >= n, the shapes of lines i - n to i joined."""
        if f.always:
            fires = [True] * len(picked)
        else:
            fires = [False] * len(picked)
            for test in f.tests:
                if not test.before:
                    found = test.regex.hits(picked)
                else:
                    found = self._hits_with_above(st, test, idxs, lines, shapes, stacked, lo, line_no)
                fires = list(map(or_, fires, found))
        for veto in f.vetoes:
            fires = list(map(and_, fires, map(not_, veto.regex.hits(picked))))
        return fires

    def _hits_with_above(self, st: _SourceState, test, idxs: list[int], lines: list[bytes], shapes: list[bytes],
                         stacked: dict[int, list[bytes]], lo: int, line_no: int) -> list[bool]:
        """test.regex on each line lines[i] (i in idxs) joined to the test.before lines above it, as _candidate
        joins them: looked up by the joined shapes when the regex is digit-blind, the rest run in one batch."""
        n, regex = test.before, test.regex
        near = bisect_left(idxs, n)  # idxs[:near] have lines above from before the window
        found: list[bool | None] = [None] * len(idxs)
        if regex.blind:
            if n not in stacked:
                stacked[n] = list(map(b"\n".join, zip(*(shapes[k:len(shapes) - n + k] for k in range(n + 1)))))
            keys = list(map(stacked[n].__getitem__, map((-n).__add__, idxs[near:])))
            found[near:] = map(self._known(regex).get, keys)
        missing = [k for k in range(near, len(idxs)) if found[k] is None]
        subjects = [b"\n".join(lines[idxs[k] - n:idxs[k] + 1]) for k in missing]
        for k, hit in zip(missing, regex.hits(subjects)):
            found[k] = hit
            if regex.blind:
                self._remember(regex, keys[k - near], hit)
        for k in range(near):
            i, ls = idxs[k], lo
            for _ in range(i):  # where line i starts in data (its text may have lost escape codes)
                ls = st.context.data.index(b"\n", ls) + 1
            above = st.context.lines_before(line_no + i, ls, n)
            subject = "\n".join(above + [lines[i].decode()]).encode()
            found[k] = self._hit(regex, subject, subject.translate(ZERO_DIGITS))
        return found

    def _candidate(self, st: _SourceState, ls: int, le: int, raw: bytes, line_no: int, ids: list[int]) -> None:
        """Confirm the patterns whose literals the line holds; act on those that match."""
        if raw.isascii() and b"\x1b" not in raw:
            text, subject = raw.decode(), raw
        else:
            text = strip_ansi(raw.decode("utf-8", "replace"))
            subject = text.encode()  # what RE2 reads: the text, as UTF-8
        shape = subject.translate(ZERO_DIGITS) if len(subject) <= MEMO_CHARS else None
        who = None  # the line's prefix, parsed when the first pattern needs it
        fired = ()
        late = False  # the line went to _settle as a candidate for the last error-like line: done with those
        for lid in ids:
            for cp in self.m.by_literal[lid]:
                if cp.kind == "errorlike":
                    if not late:
                        if who is None:
                            who = self._who(st, subject, text, ls, le, line_no)
                        late = self._errorlike(st, cp, subject, shape, text, line_no, who[0], ls, le)
                    continue
                sig = cp.sig
                if sig.id in fired:
                    continue
                if cp.lines_before:
                    target = "\n".join(st.context.lines_before(line_no, ls, cp.lines_before) + [text])
                    encoded = target.encode()
                    if not self._hit(cp.regex, encoded, encoded.translate(ZERO_DIGITS)):
                        continue
                elif not self._hit(cp.regex, subject, shape):
                    continue
                else:
                    target = text
                rt = self.m.runtime[sig.id]
                if rt.exclude and any(self._hit(x, subject, shape) for x in rt.exclude):
                    continue
                fired = (*fired, sig.id)
                if who is None:
                    who = self._who(st, subject, text, ls, le, line_no)
                self._match(st, rt, cp, text, target, ls, le, line_no, who)

    def _hit(self, regex: _Lazy, subject: bytes, shape: bytes | None) -> bool:
        """regex.hit(subject), remembered by the subject's shape (digits zeroed) when the regex is digit-blind:
        a flood of one message with other numbers costs one RE2 call."""
        if shape is None or not regex.blind:
            return regex.hit(subject)
        found = self._known(regex).get(shape)
        if found is None:
            found = regex.hit(subject)
            self._remember(regex, shape, found)
        return found

    def _remember(self, regex: _Lazy, shape: bytes, hit: bool) -> None:
        if len(shape) <= MEMO_CHARS:
            if self.remembered >= MEMO_ENTRIES:
                self.hits.clear()
                self.remembered = 0
            self._known(regex)[shape] = hit
            self.remembered += 1

    def _known(self, regex: _Lazy) -> dict[bytes, bool]:
        """What a digit-blind regex was found to do on the shapes seen so far."""
        known = self.hits.get(regex)
        if known is None:
            known = self.hits[regex] = {}
        return known

    def _who(self, st: _SourceState, subject: bytes, text: str, ls: int, le: int, line_no: int) -> list:
        """[rank, host, time] of a candidate line's prefix; the time stays _UNPARSED until an event needs it,
        as one more line for _last_time to look at."""
        head = subject[:PREFIX_CHARS]
        rank, host = prefix_of(head) if head.isascii() else rank_and_host(text)
        if host:
            st.hosts.add(host)
            self.hosts.add(host)
        if rank is not None:
            self.ranks.add(rank)
        who = [rank, host, _UNPARSED]
        if st.year is None:  # the source's year comes from its first stamped line: look now
            self._own_time(st, who, text, line_no)
        else:
            st.untimed.append((ls, le))
        return who

    def _own_time(self, st: _SourceState, who: list, text: str, line_no: int) -> float | None:
        if who[2] is _UNPARSED:
            who[2] = time_of(text[:PREFIX_CHARS], st.year)
            st.context.saw_time(line_no, who[2])
            if who[2] is not None:
                st.last_time = who[2]
                st.untimed.clear()  # all above this line
                if st.year is None:
                    st.year = year_of(who[2])
        return who[2]

    def _time_above(self, st: _SourceState, line_no: int, ls: int) -> float | None:
        """A line without a timestamp (a traceback) happened at about the time of the last stamped line above it:
        within TIME_LOOKBACK lines, else the last stamped candidate line of the source."""
        time = st.context.time_above(line_no, ls, st.year)
        return time if time is not None else self._last_time(st)

    def _last_time(self, st: _SourceState) -> float | None:
        """st.last_time, after looking at the untimed candidate lines from the newest down to a stamped one."""
        data = st.context.data
        for ls, le in reversed(st.untimed):
            head = bytes(data[ls:min(le, ls + PREFIX_CHARS)])
            if head.isascii() and b"\x1b" not in head:  # then it is the start of the line's text
                text = head.decode()
            else:
                text = strip_ansi(bytes(data[ls:le]).decode("utf-8", "replace"))
            time = time_of(text[:PREFIX_CHARS], st.year)
            if time is not None:
                st.last_time = time
                break
        st.untimed.clear()
        return st.last_time

    def _match(self, st: _SourceState, rt: _SigRuntime, cp: _Compiled, text: str, target: str, ls: int, le: int,
               line_no: int, who: list) -> None:
        """A confirmed match. An Event is built only when it can be kept: past the caps a match is only counted."""
        sig = rt.sig
        rank = who[0] if who[0] is not None else st.source.rank_hint
        found = cp.regex.groups(target) if cp.names_rank else None
        if found is not None:
            named = found.get("rank")
            if named is not None and named.isdigit():
                rank = int(named)
                self.ranks.add(rank)
        if cp.plain:
            key = (sig.id, rank)
            if self._room(key):
                self._add(self._event(st, rt, cp, found, text, target, ls, le, line_no, who, rank), st)
            else:
                self.counts[key] += 1  # as _add would: counted, not kept
            return

        def event() -> Event:
            return self._event(st, rt, cp, found, text, target, ls, le, line_no, who, rank)

        if sig.count is not None:
            self._count(st, sig, rank, text, event)
        elif cp.kind == "start":
            if sig.id not in st.pending:  # a save still pending keeps its first line as evidence
                st.pending[sig.id] = e = event()
                e.kind = "absence"
                self._check_pending(st, st.context.data, le, st.context.n)
        elif sig.condition == "all":
            seen = st.all_seen.setdefault(sig.id, {})
            if cp.pattern_index in seen:
                return
            seen[cp.pattern_index] = event()
            if len(seen) == len(sig.patterns):  # every pattern seen: their first line stands for them all
                ordered = sorted(seen.values(), key=lambda e: e.line)
                first = ordered[0]
                first.context = [f"{e.line}: {e.text}" for e in ordered[1:]] + first.context
                for e in ordered[1:]:
                    first.values = {**e.values, **first.values}
                seen[-1] = first
                self._add(first, st)

    def _event(self, st: _SourceState, rt: _SigRuntime, cp: _Compiled, found, text: str, target: str, ls: int,
               le: int, line_no: int, who: list, rank: int | None) -> Event:
        sig = rt.sig
        values = dict(found) if found is not None else cp.regex.groups(target)
        if values.get("rank", "").isdigit():
            del values["rank"]  # already the event's rank
        host = values.pop("host") if "host" in values else who[1] or st.source.host_hint
        time = self._own_time(st, who, text, line_no)
        eff_time = time if time is not None else self._time_above(st, line_no, ls)
        event = Event(sig.id, "line", st.source.name, st.index, line_no, rank, host, time, eff_time,
                      text[:TEXT_CHARS], values)
        if sig.context == "traceback":
            event.context = st.context.traceback(line_no, ls, rank)
            event.after = st.context.continuation(le, rank)
            for line in event.after:  # the message's continuation can carry the values
                for rx in rt.patterns:
                    for k, v in (rx.groups(line) or {}).items():
                        if k not in ("rank", "host"):
                            event.values.setdefault(k, v)
        return event

    def _count(self, st: _SourceState, sig: Signature, rank: int | None, text: str, event: Callable[[], Event]) -> None:
        """A count rule: the event is built when the threshold is reached; later matches update its count."""
        rule = sig.count
        if rule.distinct:
            seen = st.count_texts.setdefault(sig.id, set())
            body = _LINE_PREFIX.sub("", text[:TEXT_CHARS], count=1)  # the same message at another time is a repeat
            if body in seen:
                return
            if len(seen) <= rule.ignore_first + rule.threshold:
                seen.add(body)
        n = st.counts.get(sig.id, 0) + 1
        st.counts[sig.id] = n
        if n == rule.ignore_first + rule.threshold:
            e = event()
            e.kind = "count"
            e.values["count"] = str(n)
            self._add(e, st)
        elif n > rule.ignore_first + rule.threshold:
            for kept in self.events.get((sig.id, rank), []):
                if kept.source_index == st.index and kept.kind == "count":
                    kept.values["count"] = str(n)

    def _room(self, key: tuple) -> bool:
        """Whether another event of (signature, rank) is kept: every rank's first ones are, repeats while the
        signature has few, nothing past a hard cap."""
        kept, of_sig = len(self.events.get(key, ())), self.kept_by_sig.get(key[0], 0)
        if kept < FIRST_KEPT:
            return of_sig < SIG_EVENTS_MAX
        return kept < EVENTS_KEPT and of_sig < SIG_EVENTS_SOFT

    def _quota(self, key: tuple) -> int:
        """At most how many more events of (signature, rank) can be kept (see _room)."""
        kept, of_sig = len(self.events.get(key, ())), self.kept_by_sig.get(key[0], 0)
        if of_sig >= SIG_EVENTS_MAX:
            return 0
        return max(0, FIRST_KEPT - kept, min(EVENTS_KEPT - kept, SIG_EVENTS_SOFT - of_sig))

    def _add(self, event: Event, st: _SourceState) -> None:
        key = (event.sig_id, event.rank)
        self.counts[key] = self.counts.get(key, 0) + 1
        if self._room(key):
            kept = self.events.setdefault(key, [])
            self.kept_by_sig[event.sig_id] = self.kept_by_sig.get(event.sig_id, 0) + 1
            self.seq += 1
            event.seq = self.seq
            kept.append(event)
            st.events.append(event)

    def _errorlike_full(self, rank: int | None) -> bool:
        kept = self.errorlike.get(rank, ())
        return len(kept) >= ERRORLIKE_PER_RANK or (rank not in self.errorlike and len(self.errorlike) >= ERRORLIKE_RANKS)

    def _errorlike(self, st: _SourceState, cp: _Compiled, subject: bytes, shape: bytes | None, text: str,
                   line_no: int, rank: int | None, ls: int, le: int) -> bool:
        """Keep the line if it is error-like and its rank has room; True when its rank has none (then only
        the last error-like line counts, and _settle finds it)."""
        rank = rank if rank is not None else st.source.rank_hint
        if self._errorlike_full(rank):
            if line_no > st.last_error_line:
                st.late_errors.append((line_no, ls, le))
            return True
        kept = self.errorlike.get(rank, [])
        if any(e.line == line_no and e.source == st.source.name for e in kept):
            return False
        if self._hit(cp.regex, subject, shape) and not self._hit(_BENIGN, subject, shape):
            st.last_error_line = max(st.last_error_line, line_no)
            kept.append(ErrorLine(st.source.name, line_no, rank, text[:TEXT_CHARS]))
            self.errorlike[rank] = kept
        return False

    def _settle(self, st: _SourceState) -> None:
        """Before the block's buffer is reused: the time of its last stamped candidate line, and its
        last error-like line past the caps, each found by looking from the end of the block."""
        if st.untimed:
            self._last_time(st)
        data = st.context.data
        for line_no, ls, le in reversed(st.late_errors):
            if line_no <= st.last_error_line:
                break
            subject = strip_ansi(bytes(data[ls:le]).decode("utf-8", "replace")).encode()
            # any error-like regex: each implies its literal, so these are the ones the line's literals name
            if any(rx.hit(subject) for rx in self.m.errorlike) and not _BENIGN.hit(subject):
                st.last_error_line = line_no
                break
        st.late_errors.clear()

    # -- trend rules ---------------------------------------------------------

    def _scan_trend(self, st: _SourceState, data: bytearray, n_bytes: int, line_base: int, marks: list[int]) -> None:
        """Sample the block's trend lines (see _trend) into per-rank, per-name series."""
        width, per_window = _trend.windows(n_bytes, st.source.size)
        with memoryview(data) as view:
            for w, lo in enumerate(range(0, n_bytes, width)):
                hi = min(lo + width, n_bytes)
                got: list[int] = []

                def on_hit(_lid: int, _s: int, end: int, _f: int, _c: object, got=got) -> bool:
                    got.append(end)
                    return len(got) >= per_window

                try:
                    self.m.trend_db.scan(view[lo:hi], on_hit)
                except hyperscan.ScanTerminated:
                    pass
                if not got:
                    continue
                pos, line_no, last_ls = lo, line_base + marks[w], -1
                for end in sorted(got):
                    ls = data.rfind(b"\n", 0, lo + end) + 1
                    if ls < pos:  # the line began in the previous window: it was sampled there, or skipped
                        continue
                    le = data.find(b"\n", lo + end, n_bytes)
                    le = n_bytes if le < 0 else le
                    # only the \r-segment holding the hit: a progress bar rewritten a million times on one
                    # "line" costs one segment, not a million
                    seg_start = max(ls, data.rfind(b"\r", ls, lo + end) + 1)
                    seg_end = data.find(b"\r", lo + end, le)
                    seg_end = le if seg_end < 0 else seg_end
                    if seg_start == last_ls:
                        continue
                    last_ls = seg_start
                    line_no += data.count(b"\n", pos, ls)
                    pos = ls
                    text = strip_ansi(bytes(data[seg_start:seg_end]).decode("utf-8", "replace"))
                    self._trend_line(st, text, line_no)

    def _trend_line(self, st: _SourceState, text: str, line_no: int) -> None:
        prefix = None
        for cp in self.m.trend_patterns:
            sig = cp.sig
            mt = cp.regex.search(text)
            if mt is None or self.m.runtime[sig.id].excluded(text.encode()):
                continue
            groups = mt.groupdict()
            name = (groups.get("series") or "").lower()
            value = _trend.parse_value(groups.get("value") or "")
            if value is None or value == 0 or name in sig.trend.ignore_series \
                    or (sig.trend.series and name not in sig.trend.series):
                continue
            if prefix is None:
                prefix = parse_prefix(text, st.year)
            rank = prefix.rank if prefix.rank is not None else st.source.rank_hint
            series = st.series.setdefault((sig.id, rank, name), _trend.Series())
            step = _trend.step_of(text)
            if line_no >= self.rank_progress.get((st.index, rank), (0,))[0]:
                self.rank_progress[(st.index, rank)] = (line_no, step, prefix.time)
            series.offer(_trend.Observation(line_no, value, text[:_trend.EVIDENCE_CHARS], prefix.time,
                                            prefix.host or st.source.host_hint, step))
            return

    def _finish_trends(self, st: _SourceState) -> None:
        for (sig_id, rank, name), series in st.series.items():
            sig = self.m.runtime[sig_id].sig
            found = _trend.diverged(series.observed(), sig.trend)
            if found is None:
                continue
            up = found.first_up
            values = _trend.describe(found)
            if name:
                values["series"] = name
            event = Event(sig_id, "trend", st.source.name, st.index, up.line, rank, up.host, up.time, up.time,
                          up.text, values)
            event.context = [f"{found.low.line}: {found.low.text}"]
            event.after = [f"{found.last.line}: {found.last.text}"] if found.last is not up else []
            self._add(event, st)

    # -- absence rules -------------------------------------------------------

    def _check_pending(self, st: _SourceState, data: bytearray, offset: int, n_bytes: int) -> None:
        """Clear pending absence rules that see completion or progress in data[offset:n_bytes]."""
        for sig_id in list(st.pending):
            rt = self.m.runtime[sig_id]
            view = memoryview(data)[offset:n_bytes]
            found = []

            def on_hit(lid: int, _s: int, end: int, _f: int, _c: object) -> bool | None:
                ls = data.rfind(b"\n", 0, offset + end) + 1
                le = data.find(b"\n", offset + end, n_bytes)
                line = strip_ansi(bytes(data[ls: le if le >= 0 else n_bytes]).decode("utf-8", "replace"))
                for cp in rt.progress[lid]:
                    if cp.regex.search(line):
                        found.append(cp.pattern_index < len(rt.sig.absence.complete))  # completion, not progress
                        return True
                return None

            try:
                rt.progress_db.scan(view, on_hit)
            except hyperscan.ScanTerminated:
                pass
            view.release()
            if found:
                del st.pending[sig_id]
                if found[0]:
                    self.completed[sig_id] = self.completed.get(sig_id, 0) + 1
                    st.completed[sig_id] = st.completed.get(sig_id, 0) + 1

    def _finish_source(self, st: _SourceState) -> None:
        if st.series:
            self._finish_trends(st)
        for sig_id, event in st.pending.items():
            # An operation missing its completion means something only when this log shows such operations
            # completing, or when errors follow the start (timeouts, teardown): an excerpt that merely ends
            # on a "Saving checkpoint" line is not a hang.
            completed_before = st.completed.get(sig_id, 0) > 0
            trouble_after = st.last_error_line > event.line or any(
                e.line > event.line and self.m.runtime[e.sig_id].sig.role != "root" for e in st.events)
            if not (completed_before or trouble_after):
                continue
            event.values.setdefault("status", "started, never completed")
            self._add(event, st)
        if len(st.hosts) == 1:  # a per-rank or per-node file: its lines all ran on that host
            (host,) = st.hosts
            for event in st.events:
                if event.host is None:
                    event.host = host

    def result(self) -> ScanResult:
        events = sorted((e for kept in self.events.values() for e in kept), key=lambda e: e.seq)
        return ScanResult(events, dict(self.counts), self.errorlike, self.ranks, self.hosts,
                          self.bytes, self.lines, self.sources, self.skipped, self.completed, self.rank_progress,
                          self.world_size)
