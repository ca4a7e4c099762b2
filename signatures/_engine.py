"""The scan: one pass over every source, literal prefilter, RE2 confirmation.

The hot loop never visits a line in Python unless it contains one of the
library's literals. Hyperscan finds those literals in large blocks (linear
time); RE2 then confirms the full pattern on the candidate line only (linear
time too). Memory is bounded by the block size plus capped event lists, whatever
the input size.
"""

from __future__ import annotations

import lzma
import re
import threading
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterable

import hyperscan

from ._library import Library
from ._lines import parse_prefix, strip_ansi, year_of
from ._schema import Pattern, Signature, compile_regex
from ._sources import InputError, Source, looks_binary
from . import _trend

BLOCK = 8 << 20          # bytes read and scanned at a time
MAX_LINE = 1 << 20       # room for the partial line carried into the next block
TAIL = 64 << 10          # bytes of the previous block kept for look-back context
EVENTS_KEPT = 16         # events kept per (signature, rank); the rest are only counted
ERRORLIKE_PER_RANK = 5
ERRORLIKE_RANKS = 64
HEAD_SAMPLE_LINES = 400  # lines at the start of a source parsed for ranks, hosts, times
TEXT_CHARS = 2000        # evidence text is cut to this length
TRACEBACK_LOOKBACK = 80  # lines searched above an exception for its traceback
TIME_LOOKBACK = 40       # lines searched above an unstamped event for a timestamp
CONTINUATION_LINES = 4   # lines kept below an exception that continue its message
CONTINUATION_SCAN = 12   # lines looked at for them (other ranks' lines may interleave)

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
# a launcher prefix ("0: ", "[rank3]: ", "[default3]:") before the message
_CONTINUATION_BODY = re.compile(r"^(?:\s{0,3}\d{1,6}: )?(?:\[(?:rank|default)\d{1,6}\]:\s?)?")
# what precedes a message: launcher labels, then a timestamp (ISO, logging, glog)
_LINE_PREFIX = re.compile(r"^\s*(?:\d{1,6}: )?(?:\[(?:rank|default)\d{1,6}\]:?\s*)?"
                          r"(?:\[?\d{4}-\d\d-\d\d[ T][\d:.,]+(?:Z|[+-]\d\d:?\d\d)?\]?\s*|[IWEF]\d{4} [\d:.]+\s+\d+ \S+\]\s*)?")
# a line that starts a new log record rather than continuing a message: a timestamp, a glog or level prefix
_NEW_RECORD = re.compile(r"^(?:\[?\d{4}-\d\d-\d\d|[IWEF]\d{4} |\[?(?:INFO|WARNING|ERROR|DEBUG)\b|\w[\w.-]*:\d+:\d+ \[\d+\] NCCL)")


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

    __slots__ = ("source", "caseless", "_compiled")

    def __init__(self, source: str, caseless: bool):
        self.source, self.caseless, self._compiled = source, caseless, None

    def search(self, text: str):
        if self._compiled is None:
            self._compiled = compile_regex(self.source, self.caseless)
        return self._compiled.search(text)

    def __getstate__(self):
        return self.source, self.caseless

    def __setstate__(self, state):
        self.source, self.caseless = state
        self._compiled = None


_BENIGN = _Lazy(r"(?i)warn(?:ing)?\b|\bwarnings?\.warn|deprecat|error_file|error_file:|errors\.html|0 errors?\b", False)


@dataclass
class _Compiled:
    kind: str                  # "match", "start", "errorlike"
    regex: _Lazy
    lines_before: int = 0
    sig: Signature | None = None
    pattern_index: int = 0


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
            self.progress_db, self.progress = _build_db(
                [("match", p, sig, i) for i, p in enumerate(sig.absence.complete + sig.absence.progress)])

    def excluded(self, text: str) -> bool:
        return any(r.search(text) for r in self.exclude)


def _build_db(entries: Iterable[tuple[str, Pattern, Signature | None, int]]):
    literal_ids: dict[tuple[bytes, bool], int] = {}
    by_literal: dict[int, list[_Compiled]] = {}
    for kind, pat, sig, index in entries:
        compiled = _Compiled(kind, _Lazy(pat.regex, pat.caseless), pat.lines_before, sig, index)
        for literal in pat.all_literals:
            lid = literal_ids.setdefault((literal.encode(), pat.caseless), len(literal_ids))
            by_literal.setdefault(lid, []).append(compiled)
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    exprs = [lit for lit, _ in literal_ids]
    flags = [hyperscan.HS_FLAG_CASELESS if caseless else 0 for _, caseless in literal_ids]
    db.compile(expressions=exprs, ids=list(range(len(exprs))), elements=len(exprs), flags=flags, literal=True)
    return _Database(db), by_literal


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
        self.db, self.by_literal = _build_db(entries)
        self.trend_db, by_literal = _build_db(trend) if trend else (None, {})
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
        self.last_time: float | None = None
        self.year: int | None = None
        self.pending: dict[str, Event] = {}          # absence rules waiting for completion
        self.hosts: set[str] = set()                 # hosts this source's lines name
        self.events: list[Event] = []                # events kept from this source
        self.completed: dict[str, int] = {}          # absence operations seen completing in this source
        self.last_error_line = 0                     # the last error-like line of this source
        self.counts: dict[str, int] = {}             # count rules
        self.count_texts: dict[str, set[str]] = {}   # count rules with distinct = true: lines counted so far
        self.all_seen: dict[str, dict[int, Event]] = {}  # condition = "all"
        self.series: dict[tuple[str, int | None, str], _trend.Series] = {}  # trend rules


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
        """Scan data[:n_bytes], which ends at a line boundary (or is one cut giant line)."""
        if st.pending:
            self._check_pending(st, data, 0, n_bytes)
        hits: list[tuple[int, int]] = []
        append = hits.append

        def on_hit(lid: int, _start: int, end: int, _flags: int, _ctx: object) -> None:
            append((end, lid))

        with memoryview(data) as view:
            self.m.db.scan(view[:n_bytes], on_hit)
        if not hits:
            return
        hits.sort()
        n = len(hits)
        i = 0
        pos = 0
        line_no = line_base
        while i < n:
            end, lid = hits[i]
            ls = data.rfind(b"\n", 0, end) + 1
            le = data.find(b"\n", end, n_bytes)
            if le < 0:
                le = n_bytes
            ids = [lid]
            i += 1
            while i < n and hits[i][0] <= le:
                if hits[i][1] not in ids:
                    ids.append(hits[i][1])
                i += 1
            line_no += data.count(b"\n", pos, ls)
            pos = ls
            raw = bytes(data[ls:le])
            if b"\r" in raw:
                offset = ls
                for seg in raw.split(b"\r"):
                    if seg:
                        self._candidate(st, data, n_bytes, tail, offset, offset + len(seg), seg, line_no, ids)
                    offset += len(seg) + 1
            else:
                self._candidate(st, data, n_bytes, tail, ls, le, raw, line_no, ids)

    def _candidate(self, st: _SourceState, data: bytearray, n_bytes: int, tail: bytes, ls: int, le: int,
                   raw: bytes, line_no: int, ids: list[int]) -> None:
        text = strip_ansi(raw.decode("utf-8", "replace"))
        prefix = None
        fired: set[str] = set()
        for lid in ids:
            for cp in self.m.by_literal[lid]:
                if cp.kind == "errorlike":
                    if prefix is None:
                        prefix = self._prefix(st, text)
                    self._errorlike(st, cp, text, line_no, prefix)
                    continue
                sig = cp.sig
                if sig.id in fired or sig.id not in self.m.runtime:
                    continue
                subject = text
                if cp.lines_before:
                    subject = "\n".join(self._lines_before(data, tail, ls, cp.lines_before) + [text])
                mt = cp.regex.search(subject)
                if mt is None:
                    continue
                rt = self.m.runtime[sig.id]
                if rt.excluded(text):
                    continue
                fired.add(sig.id)
                if prefix is None:
                    prefix = self._prefix(st, text)
                values = {k: v for k, v in mt.groupdict().items() if v is not None}
                rank = prefix.rank if prefix.rank is not None else st.source.rank_hint
                host = prefix.host or st.source.host_hint
                if "rank" in values and values["rank"].isdigit():
                    rank = int(values.pop("rank"))
                    self.ranks.add(rank)
                if "host" in values:
                    host = values.pop("host")
                eff_time = prefix.time if prefix.time is not None else self._time_above(st, data, tail, ls)
                event = Event(sig.id, "line", st.source.name, st.index, line_no, rank, host,
                              prefix.time, eff_time, text[:TEXT_CHARS], values)
                if sig.context == "traceback":
                    event.context = self._traceback(data, tail, ls, rank, st)
                    event.after = self._continuation(data, n_bytes, le, rank, st)
                    for line in event.after:  # the message's continuation can carry the values
                        for rx in rt.patterns:
                            found = rx.search(line)
                            if found:
                                for k, v in found.groupdict().items():
                                    if v is not None and k not in ("rank", "host"):
                                        event.values.setdefault(k, v)
                if cp.kind == "start":
                    event.kind = "absence"
                    if sig.id not in st.pending:  # a save still pending keeps its first line as evidence
                        st.pending[sig.id] = event
                        self._check_pending(st, data, le, n_bytes)
                else:
                    self._on_match(st, rt, cp, event)

    def _prefix(self, st: _SourceState, text: str):
        prefix = parse_prefix(text, st.year)
        if prefix.host:
            st.hosts.add(prefix.host)
        if prefix.time is not None:
            st.last_time = prefix.time
            if st.year is None:
                st.year = year_of(prefix.time)
        if prefix.rank is not None:
            self.ranks.add(prefix.rank)
        if prefix.host:
            self.hosts.add(prefix.host)
        return prefix

    def _time_above(self, st: _SourceState, data: bytearray, tail: bytes, ls: int) -> float | None:
        """A line without a timestamp (a traceback) happened at about the time of the last stamped line above it."""
        for line in reversed(self._lines_before(data, tail, ls, TIME_LOOKBACK)):
            t = parse_prefix(line, st.year).time
            if t is not None:
                return t
        return st.last_time

    def _on_match(self, st: _SourceState, rt: _SigRuntime, cp: _Compiled, event: Event) -> None:
        sig = rt.sig
        if sig.count is not None:
            if sig.count.distinct:
                seen = st.count_texts.setdefault(sig.id, set())
                body = _LINE_PREFIX.sub("", event.text, count=1)  # the same message at another time is a repeat
                if body in seen:
                    return
                if len(seen) <= sig.count.ignore_first + sig.count.threshold:
                    seen.add(body)
            n = st.counts.get(sig.id, 0) + 1
            st.counts[sig.id] = n
            if n == sig.count.ignore_first + sig.count.threshold:
                event.kind = "count"
                event.values["count"] = str(n)
                self._add(event, st)
            elif n > sig.count.ignore_first + sig.count.threshold:
                key = (sig.id, event.rank)
                for kept in self.events.get(key, []):
                    if kept.source_index == st.index and kept.kind == "count":
                        kept.values["count"] = str(n)
            return
        if sig.condition == "all":
            seen = st.all_seen.setdefault(sig.id, {})
            seen.setdefault(cp.pattern_index, event)
            if len(seen) == len(sig.patterns) and not seen.get(-1):
                ordered = sorted(seen.values(), key=lambda e: e.line)
                first = ordered[0]
                first.context = [f"{e.line}: {e.text}" for e in ordered[1:]] + first.context
                for e in ordered[1:]:
                    first.values = {**e.values, **first.values}
                seen[-1] = first
                self._add(first, st)
            return
        self._add(event, st)

    def _add(self, event: Event, st: _SourceState) -> None:
        key = (event.sig_id, event.rank)
        self.counts[key] = self.counts.get(key, 0) + 1
        kept = self.events.setdefault(key, [])
        if len(kept) < EVENTS_KEPT:
            self.seq += 1
            event.seq = self.seq
            kept.append(event)
            st.events.append(event)

    def _errorlike(self, st: _SourceState, cp: _Compiled, text: str, line_no: int, prefix) -> None:
        rank = prefix.rank if prefix.rank is not None else st.source.rank_hint
        kept = self.errorlike.get(rank, [])
        if len(kept) >= ERRORLIKE_PER_RANK or (rank not in self.errorlike and len(self.errorlike) >= ERRORLIKE_RANKS):
            if cp.regex.search(text) and not _BENIGN.search(text):
                st.last_error_line = max(st.last_error_line, line_no)
            return
        if any(e.line == line_no and e.source == st.source.name for e in kept):
            return
        if cp.regex.search(text) and not _BENIGN.search(text):
            st.last_error_line = max(st.last_error_line, line_no)
            kept.append(ErrorLine(st.source.name, line_no, rank, text[:TEXT_CHARS]))
            self.errorlike[rank] = kept

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
            if mt is None or self.m.runtime[sig.id].excluded(text):
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

    # -- context -------------------------------------------------------------

    @staticmethod
    def _lines_before(data: bytearray, tail: bytes, ls: int, n: int) -> list[str]:
        start = ls
        for _ in range(n + 1):
            start = data.rfind(b"\n", 0, max(start - 1, 0))
            if start < 0:
                break
        if start >= 0:
            buf, end = bytes(data[start:ls]), ls - start
        else:
            buf, end = tail + bytes(data[:ls]), len(tail) + ls
        out = []
        pos = end - 1
        for _ in range(n):
            if pos < 0:
                break
            start = buf.rfind(b"\n", 0, pos) + 1
            out.append(strip_ansi(buf[start:pos].decode("utf-8", "replace")).rstrip("\r"))
            pos = start - 1
        return out[::-1]

    def _traceback(self, data: bytearray, tail: bytes, ls: int, rank: int | None, st: _SourceState) -> list[str]:
        """The frames above an exception line, from the same rank."""
        frames: list[str] = []
        for line in reversed(self._lines_before(data, tail, ls, TRACEBACK_LOOKBACK)):
            pre = parse_prefix(line, st.year)
            if rank is not None and pre.rank is not None and pre.rank != rank:
                continue
            if "Traceback (most recent call last)" in line:
                break
            frames.append(line[:300])
        frames.reverse()
        files = [i for i, f in enumerate(frames) if 'File "' in f]
        if not files:
            return []
        return frames[files[max(0, len(files) - 3)]:][:12]

    def _continuation(self, data: bytearray, n_bytes: int, le: int, rank: int | None, st: _SourceState) -> list[str]:
        """Lines right below an exception that continue its message (load_state_dict lists keys there)."""
        out: list[str] = []
        pos = le + 1
        for _ in range(CONTINUATION_SCAN):
            if pos >= n_bytes or len(out) >= CONTINUATION_LINES:
                break
            end = data.find(b"\n", pos, n_bytes)
            end = n_bytes if end < 0 else end
            line = strip_ansi(bytes(data[pos:min(end, pos + 400)]).decode("utf-8", "replace")).rstrip("\r")
            pos = end + 1
            pre = parse_prefix(line, st.year)
            if rank is not None and pre.rank is not None and pre.rank != rank:
                continue  # another rank's line interleaved
            body = _CONTINUATION_BODY.sub("", line, count=1)
            if not body.strip() or body.startswith(("Traceback", "During handling", "The above exception")) \
                    or _NEW_RECORD.match(body):
                break
            out.append(line[:300])
        return out

    def result(self) -> ScanResult:
        events = sorted((e for kept in self.events.values() for e in kept), key=lambda e: e.seq)
        return ScanResult(events, dict(self.counts), self.errorlike, self.ranks, self.hosts,
                          self.bytes, self.lines, self.sources, self.skipped, self.completed, self.rank_progress,
                          self.world_size)
