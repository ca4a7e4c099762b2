"""The scan: one pass over every source, literal prefilter, RE2 confirmation.

The hot loop never visits a line in Python unless it contains one of the
library's literals. Hyperscan finds those literals in large blocks (linear
time); RE2 then confirms the full pattern on the candidate line only (linear
time too). A match is made into an Event only while its (signature, rank) has
room in the capped event lists; past that it is only counted, and the context
an event needs (time, traceback, the lines around it) costs bounded work (see
_context). A block is taken a window at a time: when most lines of a window are
candidates (a flood of the same errors), the window is counted in bulk from the
plans of its lines' shapes, and only the lines that may still add an event go
line by line, with the same result as line by line throughout. Memory is bounded
by the block size plus capped event lists and caches, whatever the input size.

The stages, one module each (DESIGN.md's pipeline, up to attribution):
  _reader    reading a source in blocks that end at a line boundary
  _compiled  the library compiled: literal database, lazy RE2 patterns, per-signature runtime
  _engine    this module: the block scan, candidate lines, plain matches into events, error-like lines
  _bulk      floods counted in bulk
  _rules     rule kinds beyond a plain match: count, trend, absence
  _events    what a scan finds (Event, ErrorLine, ScanResult); _limits: the scan's bounds
Then _ranks (the per-rank view), _attribution (which failure started it), _rank_rules (on which rank) and _report (the JSON contract).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable

import hyperscan

from . import _trend
from ._bulk import BulkCounting
from ._compiled import _BENIGN, _build_db, _Compiled, _Database, _Lazy, _ShapeScanner, _SigRuntime
from ._context import (
    _TRACEBACK,
    ZERO_DIGITS,
    Surroundings,
    TracebackFacts,
    handled_record,
    prefix_of,
    rank_and_host,
    thread_name,
    time_of,
)
from ._ends import EndFacts
from ._events import ErrorLine, Event, ScanResult
from ._flood import Plans
from ._library import Library
from ._limits import (
    ERRORLIKE_PER_RANK,
    ERRORLIKE_RANKS,
    EVENTS_KEPT,
    FIRST_KEPT,
    FIRST_WINDOW,
    FLOOD_BYTES,
    FLOOD_HITS,
    HEAD_SAMPLE_LINES,
    MEMO_CHARS,
    MEMO_ENTRIES,
    MIN_WINDOW,
    RANKLESS_KEPT,
    SIG_EVENTS_MAX,
    SIG_EVENTS_SOFT,
    TAIL,
    TEXT_CHARS,
    WINDOW,
)
from ._lines import EXCEPTION_LINE, PREFIX_CHARS, RAISE_LINE, TORCHRUN_ATTEMPT, glued_rank, strip_ansi, year_of
from ._reader import _Reader
from ._rules import RuleKinds, Track
from ._schema import Pattern, Signature
from ._sources import Source, looks_binary

# How many ranks the job has, as launchers and libraries print it at start-up: "world_size=4",
# "WORLD_SIZE: 8", NCCL's "comm 0x... rank 0 nranks 8", torchrun's rendezvous result
# "global_world_sizes=[8, 8, ...]", Slurm's "SLURM_NTASKS=8" in an environment dump, c10d's store
# "2/3 clients joined", a script's own "world=3".
# (group_world_size and role_world_size are not it.)
_WORLD_SIZE = re.compile(
    rb"(?<![A-Za-z_])(?:world[_ ]size|WORLD_SIZE|SLURM_NTASKS|world)['\"]?\s*[:=]\s*['\"]?"
    rb"(\d{1,7})\b|\bnranks (\d{1,7})\b|\bglobal_world_sizes=\[(\d{1,7})[,\]]"
    rb"|\b\d{1,7}/(\d{1,7}) clients joined"
)
# ... or torchrun's launch configuration: "nproc_per_node   : 4" times "max_nodes        : 2"
_NPROC = re.compile(rb"\bnproc_per_node\s*[:=]\s*(\d{1,5})\b")
_NNODES = re.compile(rb"\bmax_nodes\s*[:=]\s*(\d{1,5})\b")

# Lines that look like an error even when no signature explains them.
ERRORLIKE = [
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
    # DeepSpeed's launcher (deepspeed/launcher/launch.py): sigkill_handler runs only when a worker exited non-zero or
    # the launcher got SIGINT/SIGTERM, and ends it with that code or 1: never part of a run that finished
    ("Killing subprocess", r"sigkill_handler\] Killing subprocess \d+"),
]

_UNPARSED = object()
MAX_UNFINISHED = 64  # absence events held back for the job-level look (see _finish_source)


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
        entries += [("errorlike", Pattern(literal=lit, regex=rx), None, 0) for lit, rx in ERRORLIKE]
        self.db, self.by_literal, literal_ids = _build_db(entries)
        self.literal_bits = max(1, (len(self.by_literal) - 1).bit_length())
        self.errorlike = [c.regex for cs in self.by_literal.values() for c in cs if c.kind == "errorlike"]
        self.plans = Plans(_ShapeScanner(literal_ids), self.by_literal, self.runtime)
        self.trend_db: _Database | None = None
        by_literal: dict[int, list[_Compiled]] = {}
        if trend:
            self.trend_db, by_literal, _ = _build_db(trend)
        self.trend_patterns = list({id(c): c for cs in by_literal.values() for c in cs}.values())

    def scan(self, sources: Iterable[Source], progress: Callable[[int], None] | None = None) -> ScanResult:
        scan = _Scan(self, progress)
        for index, source in enumerate(sources):
            scan.scan_source(index, source)
        return scan.result()


_SAYS_RANK = re.compile(r"(?i)\b(?:global_)?rank\s*[=:]\s*\d|\[rank\d")


class _SourceState:
    def __init__(self, source: Source, index: int):
        self.source = source
        self.index = index
        self.last_time: float | None = None  # of the last stamped candidate line before those `untimed`
        self.untimed: list[tuple[int, int]] = []  # candidate lines of this block whose time is not parsed yet
        self.year: int | None = None
        self.context = Surroundings()
        self.pending: dict[str, Event] = {}  # absence rules waiting for completion
        self.hosts: set[str] = set()  # hosts this source's lines name
        self.events: list[Event] = []  # events kept from this source
        self.completed: dict[str, int] = {}  # absence operations seen completing in this source
        self.last_error_line = 0  # the last error-like line of this source
        self.late_errors: list[tuple[int, int, int]] = []  # error-like lines of ranks past the caps, this block
        self.counts: dict[str | tuple[str, int | None], int] = {}  # count rules: by signature, or (signature, rank)
        # count rules with distinct = true: lines counted so far, by the same keys
        self.count_texts: dict[str | tuple[str, int | None], set[str]] = {}
        self.all_seen: dict[str, dict[int, Event]] = {}  # condition = "all"
        self.series: dict[tuple[str, int | None, str], _trend.Series] = {}  # trend rules
        self.flood = False  # the last window was dense with candidate lines: try _bulk
        self.window = FIRST_WINDOW  # the size of the next window (see _Scan._scan_block)


class _Scan(BulkCounting, RuleKinds):
    def __init__(self, matcher: Matcher, progress: Callable[[int], None] | None):
        self.m = matcher
        self.progress = progress
        self.events: dict[tuple[str, int | None], list[Event]] = {}
        self.counts: Counter[tuple[str, int | None]] = Counter()  # (signature, rank) -> matches
        self.errorlike: dict[int | None, list[ErrorLine]] = {}
        self.ranks: set[int] = set()
        self.hosts: set[str] = set()
        self.bytes = 0
        self.lines = 0
        self.sources: list[str] = []
        self.skipped: list[str] = []
        self.notes: list[str] = []  # how sources were read, when not as they came (see Source.note)
        self.completed: dict[str, int] = {}  # absence rules whose operation was seen to complete
        self.tracks: dict[tuple[int, int | None], Track] = {}  # per (source, rank): its progress (see _trend_line)
        self.world_size: int | None = None
        self.seq = 0
        self.kept_by_sig: dict[str, int] = {}  # events kept per signature (see _room)
        self.full_ranks: dict[str, set[int | None]] = {}  # per signature, ranks with no room left (see _bulk)
        self.full_errorlike: set[int | None] = set()  # ranks whose error-like list is full
        self.numbered = (0, 1)  # (offset, number) of the last line numbered in the block (see _number)
        self.candidates = 0  # lines that the last _scan_lines gave to _candidate
        self.hits: dict[_Lazy, dict[bytes, bool]] = {}  # see _hit
        self.remembered = 0
        self.precursors: dict[tuple[str, int | None], Event] = {}  # see RuleKinds._count
        self.skipped_seen: dict[tuple[int, str, int | None], int] = {}  # see RuleKinds._count (skipped_after)
        self.ends = EndFacts()  # what each source's end says
        self.cut_tracebacks: list[ErrorLine] = []  # tracebacks a source ends inside (see _ends.cut_traceback)
        self.unfinished: list[Event] = []  # see _finish_source
        self.source_index: dict[str, int] = {}  # a source's name -> its index (as events and progress give it)
        self.attempt_ranks: dict[str, tuple[int | None, int]] = {}  # torchrun attempt dir -> (local, global) rank
        self.shape_ids: dict[bytes, int] = {}  # see BulkCounting._shape_ids
        self.id_shapes: list[bytes] = []
        self.window_ids: tuple[list[bytes] | None, list[int]] = (None, [])
        self.window_hits: tuple[bytes | None, dict[object, bool]] = (None, {})
        self.above_hits: dict[tuple, dict[tuple[int, ...], bool]] = {}

    # -- reading -------------------------------------------------------------

    def scan_source(self, index: int, source: Source) -> None:
        if looks_binary(source.head):
            self.skipped.append(f"{source.name}: binary data, not a text log")
            return
        self.sources.append(source.name)
        self.source_index[source.name] = index
        if source.note:
            self.notes.append(f"{source.name}: {source.note}")
        st = _SourceState(source, index)
        attempt = TORCHRUN_ATTEMPT.search(source.name)
        local, known = self.attempt_ranks.get(source.name[: attempt.end()], (None, None)) if attempt else (None, None)
        if known is not None and local == source.rank_hint:
            source.rank_hint = known  # a sibling said which global rank this worker is (see _sample_head)
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
            tail = bytes(data[max(0, n - TAIL) : n])
            last_byte = data[n - 1]
        if last_byte != 0x0A:
            line_base += 1  # the last line had no newline
        self.lines += line_base - 1
        cut = self.ends.sample(st.index, tail, line_base - 1, st.year, st.source.rank_hint, st.source.name)
        if cut is not None and not self._errorlike_full(cut.rank) and cut not in self.errorlike.get(cut.rank, []):
            self.errorlike.setdefault(cut.rank, []).append(cut)
            self.cut_tracebacks.append(cut)
        self._finish_source(st)

    def _count_bytes(self, n: int) -> None:
        self.bytes += n
        if self.progress and n:
            self.progress(n)

    def _sample_head(self, st: _SourceState, data: bytearray, n: int) -> None:
        end = 0
        named: set[int] = set()  # the ranks the head's lines name
        said: set[int] = set()  # ... as a worker says its own: "rank=2", "RANK: 2", "[rank2]"
        for _ in range(HEAD_SAMPLE_LINES):
            nxt = data.find(b"\n", end, n)
            if nxt < 0:
                break
            raw = bytes(data[end : min(nxt, end + 200)])
            end = nxt + 1
            start = raw.decode("utf-8", "replace")
            # parse_prefix's rank and host: by the head's shape for most lines (see prefix_of), its time only
            # while the source's year is unknown
            rank, host = prefix_of(raw) if raw.isascii() and b"\x1b" not in raw[:PREFIX_CHARS] else rank_and_host(start)
            if rank is not None:
                self.ranks.add(rank)
                named.add(rank)
                if _SAYS_RANK.search(start):
                    said.add(rank)
            if host:
                self.hosts.add(host)
                st.hosts.add(host)
            if st.year is None:
                st.year = year_of(time_of(start[:PREFIX_CHARS], None))
        hint = st.source.rank_hint
        if len(named) == 1 and named == said and hint not in named and TORCHRUN_ATTEMPT.search(st.source.name):
            # torchrun --log-dir's attempt_N/<local rank>/: a worker that says which (global) rank it is, and
            # only that one, is that rank (on a second node, local rank 0 is not rank 0)
            st.source.rank_hint = named.pop()
            self.ranks.add(st.source.rank_hint)
            attempt = TORCHRUN_ATTEMPT.search(st.source.name)
            assert attempt is not None
            self.attempt_ranks[st.source.name[: attempt.end()]] = (hint, st.source.rank_hint)  # for its error file
        head = bytes(data[:end])
        sizes = [int(next(g for g in found.groups() if g)) for found in _WORLD_SIZE.finditer(head)]
        nproc, nnodes = _NPROC.search(head), _NNODES.search(head)  # printed at start-up, if at all
        if nproc and nnodes:
            sizes.append(int(nproc.group(1)) * int(nnodes.group(1)))
        for size in sizes:
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

    def _candidate(self, st: _SourceState, ls: int, le: int, raw: bytes, line_no: int, ids: list[int]) -> None:
        """Confirm the patterns whose literals the line holds; act on those that match."""
        if RAISE_LINE.match(raw):  # a `raise` quoted in a traceback is the code, not the error it raised
            return
        if raw.isascii() and b"\x1b" not in raw:
            text, subject = raw.decode(), raw
        else:
            text = strip_ansi(raw.decode("utf-8", "replace"))
            subject = text.encode()  # what RE2 reads: the text, as UTF-8
        shape = subject.translate(ZERO_DIGITS) if len(subject) <= MEMO_CHARS else None
        who = None  # the line's prefix, parsed when the first pattern needs it
        fired: tuple[str, ...] = ()
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
                assert sig is not None  # only the error-like patterns have no signature
                if sig.id in fired:
                    continue
                if cp.lines_before:
                    # the few lines it joins, read directly: no rows decoded for a traceback that may never be asked
                    target = "\n".join(st.context.lines_just_above(ls, cp.lines_before) + [text])
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
            who[2] = time = time_of(text[:PREFIX_CHARS], st.year)
            st.context.saw_time(line_no, time)
            if time is not None:
                st.last_time = time
                st.untimed.clear()  # all above this line
                if st.year is None:
                    st.year = year_of(time)
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
            head = bytes(data[ls : min(le, ls + PREFIX_CHARS)])
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

    def _match(
        self,
        st: _SourceState,
        rt: _SigRuntime,
        cp: _Compiled,
        text: str,
        target: str,
        ls: int,
        le: int,
        line_no: int,
        who: list,
    ) -> None:
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
            self._count(st, sig, sig.count, rank, text, event, ls)
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

    def _event(
        self,
        st: _SourceState,
        rt: _SigRuntime,
        cp: _Compiled,
        found,
        text: str,
        target: str,
        ls: int,
        le: int,
        line_no: int,
        who: list,
        rank: int | None,
    ) -> Event:
        sig = rt.sig
        values = dict(found) if found is not None else cp.regex.groups(target) or {}  # it matched: never None
        if values.get("rank", "").isdigit():
            del values["rank"]  # already the event's rank
        elif rank is not None and "]:" in text[12:]:
            rank = glued_rank(text, rank)
        host = values.pop("host") if "host" in values else who[1] or st.source.host_hint
        time = self._own_time(st, who, text, line_no)
        eff_time = time if time is not None else self._time_above(st, line_no, ls)
        event = Event(
            sig.id, "line", st.source.name, st.index, line_no, rank, host, time, eff_time, text[:TEXT_CHARS], values
        )
        if sig.context == "traceback":
            facts = TracebackFacts()
            event.context = st.context.traceback(line_no, ls, rank, facts)
            event.frames, event.handled, event.in_thread = facts.frames, facts.handled, facts.in_thread
            if event.rank is None and facts.record_rank is not None:  # the record that printed it names the rank
                event.rank = facts.record_rank
                self.ranks.add(event.rank)
            if facts.in_thread and facts.introduced_by is not None:  # the thread's name says what it did
                event.values.setdefault("thread", thread_name(facts.introduced_by))
            event.after = st.context.continuation(le, rank)
            for line in event.after:  # the message's continuation can carry the values
                for rx in rt.patterns:
                    for k, v in (rx.groups(line) or {}).items():
                        if k not in ("rank", "host"):
                            event.values.setdefault(k, v)
        elif EXCEPTION_LINE.search(text):  # a Python exception all the same: was it caught and logged?
            facts = TracebackFacts()
            st.context.traceback(line_no, ls, rank, facts)
            event.handled = facts.handled
        return event

    def _room(self, key: tuple) -> bool:
        """Whether another event of (signature, rank) is kept: every rank's first ones are, repeats while the
        signature has few, nothing past a hard cap."""
        return self._quota(key) > 0

    def _quota(self, key: tuple) -> int:
        """At most how many more events of (signature, rank) can be kept (see _room)."""
        kept, of_sig = len(self.events.get(key, ())), self.kept_by_sig.get(key[0], 0)
        if of_sig >= SIG_EVENTS_MAX:
            return 0
        room = RANKLESS_KEPT if key[1] is None else EVENTS_KEPT
        return max(0, FIRST_KEPT - kept, min(room - kept, SIG_EVENTS_SOFT - of_sig))

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
        return len(kept) >= ERRORLIKE_PER_RANK or (
            rank not in self.errorlike and len(self.errorlike) >= ERRORLIKE_RANKS
        )

    def _errorlike(
        self,
        st: _SourceState,
        cp: _Compiled,
        subject: bytes,
        shape: bytes | None,
        text: str,
        line_no: int,
        rank: int | None,
        ls: int,
        le: int,
    ) -> bool:
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
        if (
            self._hit(cp.regex, subject, shape)
            and not self._hit(_BENIGN, subject, shape)
            and not self._handled(st, text, line_no, ls, rank)
        ):
            st.last_error_line = max(st.last_error_line, line_no)
            raised = st.context.raised_below(text, le, line_no) if _TRACEBACK in text else None
            kept.append(ErrorLine(st.source.name, line_no, rank, text[:TEXT_CHARS], raised))
            self.errorlike[rank] = kept
        return False

    def _handled(self, st: _SourceState, text: str, line_no: int, ls: int, rank: int | None) -> bool:
        """A record saying it retries, or a traceback's header or exception line printed by a warning or a retry:
        caught, not an error."""
        if handled_record(text):
            return True
        if _TRACEBACK in text:
            record = st.context.header_introducer(line_no, ls, rank, text)
            return record is not None and handled_record(record)
        if EXCEPTION_LINE.search(text):
            facts = TracebackFacts()
            st.context.traceback(line_no, ls, rank, facts)
            return facts.handled
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

    # -- absence rules -------------------------------------------------------

    def _finish_source(self, st: _SourceState) -> None:
        if st.series:
            self._finish_trends(st)
        for sig_id, event in st.pending.items():
            # An operation missing its completion means something only when this log shows such operations
            # completing, or when errors follow the start (timeouts, teardown): an excerpt that merely ends
            # on a "Saving checkpoint" line is not a hang.
            completed_before = st.completed.get(sig_id, 0) > 0
            trouble_after = st.last_error_line > event.line or any(
                e.line > event.line and self.m.runtime[e.sig_id].sig.role != "root" for e in st.events
            )
            if not (completed_before or trouble_after):
                if len(self.unfinished) < MAX_UNFINISHED:
                    self.unfinished.append(event)
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
        return ScanResult(
            events,
            dict(self.counts),
            self.errorlike,
            self.ranks,
            self.hosts,
            self.bytes,
            self.lines,
            self.sources,
            self.skipped,
            self.completed,
            {key: (t.line, t.step, t.time) for key, t in self.tracks.items()},
            self.world_size,
            self.precursors,
            self.ends.finished,
            self.source_index,
            self.unfinished,
            self.ends.last_words,
            {key: (t.first_time, t.timed) for key, t in self.tracks.items() if t.first_time is not None},
            {key: (t.line, t.loss) for key, t in self.tracks.items()},
            self.ends.finished_at,
            self.ends.stacks,
            self.ends.values,
            {
                key: (t.clock, t.first_clock, t.clocked)
                for key, t in self.tracks.items()
                if t.time is None and t.clock is not None and t.first_clock is not None
            },
            self.notes,
            self.cut_tracebacks,
        )
