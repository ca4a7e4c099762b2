"""What surrounds an event line: the lines above it, the time it happened, its traceback, its continuation.

The scan asks for context only for the events it keeps (capped per signature and rank), and each
answer costs a bounded amount of work, not a walk through the 80 lines above every event: the lines
above events are decoded once each into rows indexed by rank (a traceback is then a few
bisections), the time of an unstamped line comes from the state kept across requests (the last
stamped line examined), and a line below is decoded once per block. Also here: a line prefix's rank
and host, read without parse_prefix's ten regexes, and remembered by the prefix's shape.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from ._lines import _HOST_PATTERNS, _RANK_PATTERNS, _SRUN_LABEL, EXCEPTION_LINE, PREFIX_CHARS, parse_time, strip_ansi

TRACEBACK_LOOKBACK = 80  # lines searched above an exception for its traceback
MAX_FRAMES = 40  # `File "` lines of a traceback kept as an event's frames
TIME_LOOKBACK = 40  # lines searched above an unstamped event for a timestamp
CONTINUATION_LINES = 4  # lines kept below an exception that continue its message
CONTINUATION_SCAN = 12  # lines looked at for them (other ranks' lines may interleave)
RAISED_SCAN = 160  # lines looked at below a traceback's header for the exception that ends it
ROWS_KEPT = 4 * TRACEBACK_LOOKBACK  # decoded lines above events kept before the oldest are dropped
SHAPES_KEPT = 4096  # line-head shapes whose prefix spans are remembered

ZERO_DIGITS = bytes.maketrans(b"123456789", b"000000000")  # a text's shape: its digits zeroed
_SHAPES: dict[bytes, tuple] = {}  # see prefix_of

_TRACEBACK = "Traceback (most recent call last)"
# a log record that announces a failure ("ERROR ... step failed:"), which can have printed the traceback under it
# (see Surroundings._record_rank)
_ANNOUNCES_FAILURE = re.compile(r"\b(?:CRITICAL|FATAL)\b|(?i:exception|error|fail|crash)")
# a Python logging record at WARNING ("2026-12-03 13:13:53,997 rank=2 WARNING upload: skipped"), which is how
# logger.warning(..., exc_info=True) introduces a traceback it caught (C++ "W1203 ..." lines are not it), or
# any record saying the operation is retried ("failed (attempt 1/5), retrying in 0.5s"), or Python's own "Exception
# ignored in atexit callback: <function ...>" (sys.unraisablehook prints it; the exit status is unchanged)
_LAUNCHER_PREFIX = re.compile(r"^\s*(?:\d{1,6}: |\[(?:rank|default)\d{1,6}\]:)")
_RECOVERS = (
    r"\b(?:[Rr]etrying|[Ww]ill retry|[Rr]etry(?:ing)? in \d)"
    r"|\b(?:[Ss]kipping|[Ii]gnoring|[Cc]ontinuing|[Ff]alling back|[Dd]isabling)\b"  # logged, and the work goes on (without it)
)
_HANDLED_RECORD = re.compile(
    r"^.{0,80}?\b(?:WARNING|WARN)\b"
    r"|^.{0,40}?\bException ignored in\b"  # Python's unraisable hook: a __del__'s or an atexit callback's, ignored
    # torchelastic's agent after its workers ended: _exit_barrier logs a failed barrier with logger.exception and
    # returns (torch/distributed/elastic/agent/server/api.py), so the run's outcome is its workers'; only when the
    # barrier failed within 30 s (the store's host left once its own workers were done): a barrier that waited out
    # its timeout (300 s by default) says a peer node never finished
    r"|\bError waiting on exit barrier\. Elapsed: (?:[0-9]|[12][0-9])(?:\.\d+)? seconds"
    r"|" + _RECOVERS
)
# Above an exception chain printed without its first header (a bare "httpx.ConnectError: ..." first), which an
# uncaught chain can start with too, right under a library's last WARNING before it gave up, only a record at
# WARNING that says the work goes on without what failed vouches for it (logger.warning("...; falling back to the
# local copy", exc_info=True)): not one at ERROR, not a negation ("not retrying", "giving up"), not the word inside a
# path (/data/skipping-rope/)
_WARNING_LEVEL = re.compile(r"^.{0,80}?\b(?:WARNING|WARN)\b")
_RECOVERY_WORDS = re.compile(
    r"(?<![/\w.-])(?:[Rr]etrying in \d|[Ww]ill retry|[Ss]kipping|[Ii]gnoring|[Cc]ontinuing without|[Ff]alling back"
    r"|[Dd]isabling)(?![\w/-])"
)
_GIVES_UP = re.compile(r"(?i)\bnot retrying|giving up|gave up|no longer|\b(?:ERROR|CRITICAL|FATAL)\b")


def vouches_for_bare_chain(record: str) -> bool:
    """A record that can have printed an exception chain whose first exception came without a traceback header."""
    return bool(_WARNING_LEVEL.search(record) and _RECOVERY_WORDS.search(record) and not _GIVES_UP.search(record))


def _body(text: str, prefix: str) -> str | None:
    """A line's text after the launcher prefix `prefix` (and the space torch puts after "[rank1]:"), or None when it
    does not carry that prefix (another rank's line)."""
    if not text.startswith(prefix):
        return None
    body = text[len(prefix) :]
    return body[1:] if prefix.endswith(":") and body.startswith(" ") else body


def _bare_exception(body: str, text: str) -> bool:
    """An exception line on its own ("httpx.ConnectError: [Errno 111] ..."): not indented, a dotted name and a colon."""
    return not body.startswith((" ", "\t")) and bool(_RAISED.match(body)) and bool(EXCEPTION_LINE.search(text))


def introduces(above: str, header: str) -> bool:
    """Whether the line `above` a traceback's header can be the log record that printed it: a record and the
    traceback it prints go to the same stream, so they carry the same launcher prefix."""
    prefix = header[: header.find(_TRACEBACK)]
    return above.startswith(prefix) and bool(prefix or not _LAUNCHER_PREFIX.match(above))


_THREAD_NAME = re.compile(r"Exception in thread ([^\s:()]{1,80})(?: \(([\w.]{1,80})\))?")


def thread_name(introduced_by: str) -> str:
    """The name in "Exception in thread prefetch-0:" (Python's threading.excepthook), or the target function's in
    Python 3.10+'s default "Thread-2 (prefetch_loop)"; '' when none."""
    found = _THREAD_NAME.search(introduced_by)
    return (found.group(2) or found.group(1)) if found else ""


def handled_record(line: str) -> bool:
    """A warning, or a record saying the operation is retried: what prints a traceback it caught."""
    return bool(_HANDLED_RECORD.search(line))


@dataclass
class TracebackFacts:
    frames: list[str] = field(default_factory=list)  # every `File "` line
    # the record that printed the traceback: the line right above "Traceback (most recent call last)", or above the
    # first exception of the chain it ends (see Surroundings._chain_record)
    introduced_by: str | None = None
    # the rank a log record's prefix names on the traceback's header ("[2025-02-21 22:59:28 TP0] Scheduler hit an
    # exception: Traceback ...") or on the record right above it, when the header and the frames below carry none of
    # their own: a logger printed the traceback under its record, so the exception is that rank's (see traceback)
    record_rank: int | None = None

    @property
    def in_thread(self) -> bool:
        """Raised in a thread ("Exception in thread prefetch:"): the process goes on, the thread's work does not."""
        return self.introduced_by is not None and "Exception in thread " in self.introduced_by

    @property
    def handled(self) -> bool:
        """Printed by a warning of the same process (logger.warning(..., exc_info=True)) or by a record saying
        the operation is retried: caught, not fatal."""
        return self.introduced_by is not None and handled_record(self.introduced_by)


_UNSET = object()
CHAIN_DEPTH = 3  # chained tracebacks looked through for the record that printed the first
CHAIN_SCAN = 6  # lines looked through below a bare exception line for the chained words
_CHAINED = re.compile(r"During handling of the above exception|direct cause of the following exception")
# a launcher prefix ("0: ", "[rank3]: ", "[default3]:") before the message
# the line that ends a traceback, once its prefix is removed: `KeyError: 'label'`, `pkg.WidgetJam: ...`, `MemoryError`
_RAISED = re.compile(r"[A-Za-z_][\w.]*(?::\s|\s*$)")
_CONTINUATION_BODY = re.compile(r"^(?:\s{0,3}\d{1,6}: )?(?:\[(?:rank|default)\d{1,6}\]:\s?)?")
# every timestamp parse_time knows (ISO, glog, syslog) has one
_CLOCK = re.compile(r"\d:\d\d:\d")
# a line that starts a new log record rather than continuing a message: a timestamp, a glog or level prefix
_NEW_RECORD = re.compile(
    r"^(?:\[?\d{4}-\d\d-\d\d|[IWEF]\d{4} |\[?(?:INFO|WARNING|ERROR|DEBUG)\b|\w[\w.-]*:\d+:\d+ \[\d+\] NCCL)"
)


def prefix_spans(head: str) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """Where parse_prefix finds the rank and the host in a line's head.

    A pattern runs only when the head holds the text it needs, so most lines cost a few
    substring tests and one regex (parse_prefix runs about ten regexes on each)."""
    found = None
    if "[rank" in head:
        found = _RANK_PATTERNS[0].search(head)
    if found is None and "[default" in head:
        found = _RANK_PATTERNS[1].search(head)
    if found is None and "Worker_" in head:
        found = _RANK_PATTERNS[11].search(head)
    if found is None and " TP" in head:
        found = _RANK_PATTERNS[12].match(head)
    nccl = "NCCL" in head
    if found is None and nccl:
        found = _RANK_PATTERNS[2].search(head)
    if found is None and "rank" in head.lower():
        found = _RANK_PATTERNS[3].search(head)
        if found is None and "rank" in head:
            found = _RANK_PATTERNS[4].search(head)
        if found is None and '"' in head:
            found = _RANK_PATTERNS[6].search(head)
    if found is None and "[r" in head:
        found = _RANK_PATTERNS[5].search(head)
    if found is None and "(worker " in head:
        found = _RANK_PATTERNS[7].search(head)
    if found is None and "[worker" in head:
        found = _RANK_PATTERNS[8].search(head)
    if found is None and "][" in head:
        found = _RANK_PATTERNS[9].search(head)
    if found is None and "]<std" in head:
        found = _RANK_PATTERNS[10].match(head)
    if found is None and (head[:1].isspace() or head[:1].isdigit()):
        found = _SRUN_LABEL.match(head)
    rank = found.span("rank") if found is not None else None
    for pattern, present in (
        (_HOST_PATTERNS[0], nccl),
        (_HOST_PATTERNS[1], "slurmstepd" in head),
        (_HOST_PATTERNS[2], "A" <= head[:1] <= "Z"),
        (_HOST_PATTERNS[3], "srun: error: " in head),
    ):
        if present:
            found = pattern.search(head)
            if found and found.group("host"):
                return rank, found.span("host")
    return rank, None


def rank_and_host(text: str) -> tuple[int | None, str | None]:
    """parse_prefix(text)'s rank and host, without its timestamp parsing."""
    head = text[:PREFIX_CHARS]
    rank, host = prefix_spans(head)
    return int(head[rank[0] : rank[1]]) if rank else None, head[host[0] : host[1]] if host else None


def prefix_of(line: bytes) -> tuple[int | None, str | None]:
    """rank_and_host of a line whose first PREFIX_CHARS bytes are ASCII without escape codes (so they are its text).

    Remembered by the line's head with every digit zeroed: the prefix patterns treat all digits
    alike, so the spans they find depend on the head's shape, not on its digits."""
    head = line[:PREFIX_CHARS]
    shape = head.translate(ZERO_DIGITS)
    spans = _SHAPES.get(shape)
    if spans is None:
        if len(_SHAPES) >= SHAPES_KEPT:
            _SHAPES.clear()
        spans = _SHAPES[shape] = prefix_spans(head.decode())
    rank, host = spans
    return int(head[rank[0] : rank[1]]) if rank else None, head[host[0] : host[1]].decode() if host else None


def has_clock(head: str) -> bool:
    """Whether parse_time could find a timestamp in `head`: each one it knows has a clock time."""
    return _CLOCK.search(head) is not None


def time_of(head: str, year: int | None) -> float | None:
    """parse_time(head, year), skipping its regexes when the head holds no clock time (most lines)."""
    return parse_time(head, year) if _CLOCK.search(head) else None


def _decode(raw) -> str:
    raw = bytes(raw)
    if raw.isascii() and b"\x1b" not in raw:  # most lines: their text is their bytes
        return raw.decode().rstrip("\r")
    return strip_ansi(raw.decode("utf-8", "replace")).rstrip("\r")


def _text_and_rank(raw) -> tuple[str, int | None]:
    """A line's text (as _decode) and the rank its prefix names: for most lines (ASCII, no escape codes) by
    prefix_of's shapes, without a regex."""
    raw = bytes(raw)
    if raw.isascii() and b"\x1b" not in raw:
        return raw.decode().rstrip("\r"), prefix_of(raw)[0]
    text = strip_ansi(raw.decode("utf-8", "replace")).rstrip("\r")
    return text, rank_and_host(text)[0]


class _Row:
    """A line above an event, decoded once, with its rank; its time is parsed when asked for."""

    __slots__ = ("number", "text", "rank", "_time", "_year")

    def __init__(self, number: int | None, raw):
        self.number = number
        self.text, self.rank = _text_and_rank(raw)
        self._time: float | None = None
        self._year: int | None | object = _UNSET  # the year _time was parsed with; _UNSET: not parsed yet

    def time(self, year: int | None) -> float | None:
        if self._year != year:  # the source's year is learnt once, early
            self._time, self._year = time_of(self.text[:PREFIX_CHARS], year), year
        return self._time


class _NumberedRow(_Row):
    """A row kept by Surroundings: a whole line, so it has a number (only a \r-segment's row has none)."""

    __slots__ = ()
    number: int


_ALL = object()  # the index key of every row, whatever its rank


class Surroundings:
    """The context of the event lines of one source, block by block.

    Lines are numbered as the scan numbers them: the caller gives the number and the start
    offset (in the current block) of the line it asks about. Lines above the block's first
    come from `tail`, the end of the previous block.

    The lines above the events are decoded once each, into consecutive rows indexed by rank:
    which lines each rank wrote, and which of them are traceback headers and `File "` frames.
    A traceback is then a few bisections, not a walk through the 80 lines above."""

    def __init__(self):
        self.data: bytes | bytearray = b""
        self.n = 0
        self._tail = b""
        self._rows: list[_NumberedRow] = []  # consecutive lines: _rows[i].number == _rows[0].number + i
        self._index: dict[object, tuple[list[int], list[int], list[int]]] = {}  # rank -> line, header, frame numbers
        self._below: dict[int, tuple[str, int | None]] = {}  # continuation views of this block's lines, by offset
        self._mark = 0  # lines up to this number were examined for a timestamp ...
        self._stamp: tuple[int, float] | None = None  # ... and this is the last stamped one among them

    def new_block(self, data: bytes | bytearray, n: int, tail: bytes) -> None:
        """The scan moves on to data[:n]; `tail` ends where the previous block ended."""
        self.data, self.n, self._tail = data, n, tail
        self._below.clear()

    # -- rows ------------------------------------------------------------------

    def _up(self, ls: int):
        """The bytes of the whole lines above the line holding data[ls], nearest first, up through the
        top of the tail (whose first line may be cut). A line longer than a block, which the block
        boundary cut, comes whole as far as the tail holds it."""
        data, tail = self.data, self._tail
        cut = bool(tail) and not tail.endswith(b"\n")  # the block began inside a line begun in the tail
        sep = data.rfind(b"\n", 0, ls)  # the newline that ends the line above
        while sep >= 0:
            start = data.rfind(b"\n", 0, sep) + 1
            if start == 0 and cut:
                begun = tail.rfind(b"\n") + 1
                yield tail[begun:] + bytes(data[:sep])
                sep = begun - 1
                break
            yield data[start:sep]
            sep = start - 1
        else:
            if not tail:
                return
            sep = tail.rfind(b"\n") if cut else len(tail) - 1  # a cut line is the asking line's own start
        while sep >= 0:
            start = tail.rfind(b"\n", 0, sep) + 1
            yield tail[start:sep]
            sep = start - 1

    def _cover(self, line_no: int, ls: int) -> None:
        """Make the rows reach from TRACEBACK_LOOKBACK lines above line `line_no` (or the top of the tail) to the line above it."""
        rows = self._rows
        last = rows[-1].number if rows else 0
        if last >= line_no - 1:
            return
        top = line_no - TRACEBACK_LOOKBACK
        if last < top - 1:  # nothing kept is near: start afresh
            rows.clear()
            self._index.clear()
        new = []
        number = line_no - 1
        for raw in self._up(ls):
            if number <= last or number < top:
                break
            new.append(_NumberedRow(number, raw))
            number -= 1
        if new and rows and new[-1].number != last + 1:  # the tail ran out before reaching the kept rows
            rows.clear()
            self._index.clear()
        for row in reversed(new):
            rows.append(row)
            self._index_row(row)
        if len(rows) > ROWS_KEPT:
            del rows[: len(rows) - TRACEBACK_LOOKBACK]
            self._index.clear()
            for row in rows:
                self._index_row(row)

    def _index_row(self, row: _NumberedRow) -> None:
        number, text, index = row.number, row.text, self._index
        header, frame = _TRACEBACK in text, 'File "' in text[:300]
        for key in (row.rank, _ALL):
            found = index.get(key)
            if found is None:
                found = index[key] = ([], [], [])
            found[0].append(number)
            if header:
                found[1].append(number)
            if frame:
                found[2].append(number)

    def _row(self, number: int) -> _NumberedRow:
        return self._rows[number - self._rows[0].number]

    def _above(self, line_no: int, ls: int):
        """The lines above line `line_no` (starting at data[ls]), nearest first, as rows: a \r-segment's
        earlier segments first, as one unnumbered row (they are part of line `line_no`)."""
        if ls > 0 and self.data[ls - 1] != 0x0A:
            start = self.data.rfind(b"\n", 0, ls - 1) + 1
            yield _Row(None, self.data[start : ls - 1])
        self._cover(line_no, ls)
        rows = self._rows
        if rows:
            for i in range(line_no - 1 - rows[0].number, -1, -1):
                yield rows[i]

    # -- what the scan asks --------------------------------------------------

    def lines_before(self, line_no: int, ls: int, count: int) -> list[str]:
        """The texts of the `count` lines above, oldest first."""
        out: list[str] = []
        for row in self._above(line_no, ls):
            if len(out) == count:
                break
            out.append(row.text)
        return out[::-1]

    def header_introducer(self, line_no: int, ls: int, rank: int | None, header: str) -> str | None:
        """The record that printed the traceback whose header `header` is line `line_no` (starting at data[ls]):
        the line right above it, or, below a chained exception's words, the record above the first traceback of
        the chain (see _introducer)."""
        above = self.lines_before(line_no, ls, 3)
        if not above:
            return None
        words = [t for t in above if _LAUNCHER_PREFIX.sub("", t, count=1).strip()]
        if not words or not _CHAINED.search(words[-1]):
            return above[-1] if introduces(above[-1], header) else None
        return self._chain_record(line_no, header[: header.find(_TRACEBACK)], rank)

    def lines_just_above(self, ls: int, count: int) -> list[str]:
        """lines_before(..., ls, count), read directly instead of as rows: for a line whose rows would be covered
        afresh (TRACEBACK_LOOKBACK lines decoded) only for these few, as bulk counting asks about a window's first."""
        out: list[str] = []
        if count and ls > 0 and self.data[ls - 1] != 0x0A:  # a \r-segment's earlier segments, as _above gives them
            out.append(_decode(self.data[self.data.rfind(b"\n", 0, ls - 1) + 1 : ls - 1]))
        if len(out) < count:
            for raw in self._up(ls):
                out.append(_decode(raw))
                if len(out) == count:
                    break
        return out[::-1]

    def saw_time(self, line_no: int, time: float | None) -> None:
        """The scan parsed line `line_no`'s own timestamp (None: it has none)."""
        if time is not None and line_no > self._mark:
            self._mark, self._stamp = line_no, (line_no, time)
        elif time is None and line_no == self._mark + 1:
            self._mark = line_no

    def time_above(self, line_no: int, ls: int, year: int | None) -> float | None:
        """The time of the nearest stamped line among the TIME_LOOKBACK lines above, or None.

        Lines already examined by an earlier request are not read again: below `_mark` the
        answer is the kept `_stamp`, so each line is looked at about once per source."""
        for i, row in enumerate(self._above(line_no, ls)):
            if i == TIME_LOOKBACK:
                break
            number = row.number
            if number is not None and number <= self._mark:
                stamp = self._stamp
                self._mark = max(self._mark, line_no - 1)
                if stamp is not None and stamp[0] <= number and i + number - stamp[0] < TIME_LOOKBACK:
                    return stamp[1]
                return None
            time = row.time(year)
            if time is not None:
                if number is not None:
                    self._mark, self._stamp = line_no - 1, (number, time)
                return time
        self._mark, self._stamp = max(self._mark, line_no - 1), None
        return None

    def _frame(self, number: int, before: int) -> str:
        """A `File "` line, and the code line printed under it when there is one (same rank, above `before`)."""
        frame = self._row(number)
        text = frame.text[:200]
        if number + 1 < before and number + 1 <= self._rows[-1].number:
            code = self._row(number + 1)
            if code.rank == frame.rank and 'File "' not in code.text and _TRACEBACK not in code.text:
                text += "\n" + code.text[:200]
        return text

    def traceback(self, line_no: int, ls: int, rank: int | None, facts: TracebackFacts | None = None) -> list[str]:
        """The frames above an exception line, from its rank (or no rank), after that rank's last
        "Traceback (most recent call last)" among the TRACEBACK_LOOKBACK lines above: from the
        third-last `File "` frame on, at most 12 lines. `facts`, when given, gets every `File "` line of
        the traceback (at most MAX_FRAMES, the innermost), which say where the exception passed, and the
        line right above its header (a log record that printed the traceback says how bad it was)."""
        keys = (_ALL,) if rank is None else (rank, None)
        nearest = None  # a \r-segment's earlier segments: the nearest line of all, numbered line_no here
        if ls > 0 and self.data[ls - 1] != 0x0A:
            row = next(self._above(line_no, ls))
            if rank is None or row.rank is None or row.rank == rank:
                if _TRACEBACK in row.text:
                    return []
                nearest = row.text[:300]
        self._cover(line_no, ls)
        top = line_no - TRACEBACK_LOOKBACK + (nearest is not None)
        header = None
        for key in keys:
            headers = self._numbers(key, 1)
            i = bisect_left(headers, line_no) - 1
            if i >= 0 and headers[i] >= top:
                top, header = headers[i] + 1, headers[i]
        if facts is not None and header is not None:
            facts.introduced_by = self._introducer(header, rank)
            if rank is None:
                facts.record_rank = self._record_rank(header, line_no)
        elif facts is not None and self._rows and line_no - 1 >= self._rows[0].number:
            facts.introduced_by = self._bare_introducer(line_no, ls, rank)
        files = sorted(n for key in keys for n in _between(self._numbers(key, 2), top, line_no))
        if nearest is not None and 'File "' in nearest:
            files.append(line_no)
        if not files:
            return []
        if facts is not None:  # each frame with its code line below it (what a refinement may need to see)
            facts.frames += [self._frame(n, line_no) for n in files[-MAX_FRAMES:]]
        first = files[max(0, len(files) - 3)]
        chosen = sorted(n for key in keys for n in _between(self._numbers(key, 0), first, line_no))[:12]
        texts = [self._row(n).text[:300] for n in chosen]
        if nearest is not None and len(texts) < 12:
            texts.append(nearest)
        return texts

    def _record_rank(self, header: int, line_no: int) -> int | None:
        """The rank of the log record that printed the traceback whose header is row `header`, for an exception line
        (`line_no`) with no rank: named by the header's own prefix, or by the record right above an unprefixed header,
        when no row from the header down to the exception names a rank (the traceback's lines are that record's,
        not another rank's stream) and the rank is a logger's, not a launcher label that prefixes every line."""
        rows = [self._row(n) for n in range(header + 1, line_no) if n <= self._rows[-1].number]
        if any(r.rank is not None for r in rows):
            return None
        head = self._row(header)
        if head.rank is not None:
            return None if _LAUNCHER_PREFIX.match(head.text) else head.rank
        first = self._rows[0].number
        if header - 1 < first:
            return None
        above = self._row(header - 1)
        if above.rank is None or _LAUNCHER_PREFIX.match(above.text) or not introduces(above.text, head.text):
            return None
        # a record that announces a failure ("ERROR ... step failed:"), not another rank's routine line that an
        # unprefixed traceback of some other process happened to follow
        return above.rank if _ANNOUNCES_FAILURE.search(above.text) else None

    def _introducer(self, header: int, rank: int | None) -> str | None:
        """The line right above a traceback's header when it can be the record that printed it. A chained
        exception's header ("During handling of the above exception, another exception occurred:") is printed
        with the first one: its introducer is the first exception's, found by walking up the chain (_chain_record)."""
        first = self._rows[0].number
        if header - 1 < first:
            return None
        above = self._row(header - 1).text
        blank = not _LAUNCHER_PREFIX.sub("", above, count=1).strip()  # "0: " under srun --label is blank too
        words = self._row(header - 2).text if blank and header - 2 >= first else above
        text = self._row(header).text
        if _CHAINED.search(words):  # printed after the exception before it: that one's introducer is this one's
            return self._chain_record(header, text[: text.find(_TRACEBACK)], rank)
        return above[:300] if introduces(above, text) else None

    def _bare_introducer(self, line_no: int, ls: int, rank: int | None) -> str | None:
        """For an exception line printed with no traceback above it (a bare "httpx.ConnectError: ...") that the
        chained words follow: the record that printed the chain it begins, when that record vouches for it."""
        end = self.data.find(b"\n", ls, self.n)
        end = self.n if end < 0 else end
        text = _decode(self.data[ls:end])
        launcher = _LAUNCHER_PREFIX.match(text)
        prefix = launcher.group(0) if launcher else ""
        body = _body(text, prefix)
        if body is None or not _bare_exception(body, text) or not self._chained_below(end, prefix):
            return None
        return self._chain_record(line_no, prefix, rank, bare=True)

    def _chained_below(self, le: int, prefix: str) -> bool:
        """The next non-blank line with `prefix` below the line ending at data[le] is a chained exception's words."""
        pos = le + 1
        for _ in range(CHAIN_SCAN):
            if pos >= self.n:
                return False
            text, _, end = self._view_below(pos, le)
            pos = end + 1
            body = _body(text, prefix)
            if body is not None and body.strip():
                return bool(_CHAINED.search(body))
        return False

    def _chain_record(self, start: int, prefix: str, rank: int | None, bare: bool = False) -> str | None:
        """The record above the first exception of the chain whose element begins at row `start` (a traceback's
        header, or a bare exception line when `bare`), when it can have printed the chain: walked up element by
        element (the chained words, then the earlier exception: its message lines, frames and code up to its
        header, or a bare exception line) over rows with `prefix` and of `rank` only, and given up at any other
        record inside (a chain must be whole: an earlier, unrelated traceback is not its start). A chain whose
        first exception is bare is vouched for only by a warning that says the work went on (see
        vouches_for_bare_chain); one that starts with a header by the line right above that header (introduces)."""
        rows = self._own_rows(start - 1, prefix, rank)
        head = start
        for _ in range(CHAIN_DEPTH + 1):
            above = next(rows, None)
            if above is None:
                return None
            n, text, body = above
            if not _CHAINED.search(body):  # the chain's first element: what printed it is right above
                if bare:
                    return text[:300] if vouches_for_bare_chain(body) else None
                return text[:300] if introduces(text, self._row(head).text) else None
            # the earlier element ends above its chained words: up through its lines to its first
            element = self._element_top(rows)
            if element is None:
                return None
            head, bare, rows = element[0], element[1], self._own_rows(element[0] - 1, prefix, rank)
        return None

    def _element_top(self, rows) -> tuple[int, bool, object] | None:
        """Up through one exception of a chain, from the rows above its chained words (nearest first): its first
        row and whether it is bare (an exception line with nothing of a traceback above it), or None when another
        record comes first."""
        pending: tuple[int, str] | None = None  # an exception line that is the element's first row unless frames
        for n, text, body in rows:
            if _TRACEBACK in body:
                return n, False, None
            if pending is not None:
                if body.startswith((" ", "\t")) or 'File "' in body:
                    pending = None  # a traceback's frames above it: go on up to its header
                else:
                    return pending[0], True, None
            if _NEW_RECORD.match(body):
                return None
            if _bare_exception(body, text):
                pending = (n, body)
        return (pending[0], True, None) if pending is not None else None

    def _own_rows(self, n: int, prefix: str, rank: int | None):
        """The non-blank rows from `n` up (nearest first) that carry `prefix` and are not another rank's, each as
        (number, text, body without the prefix), at most TRACEBACK_LOOKBACK of them."""
        if not self._rows:
            return
        first = self._rows[0].number
        for number in range(n, max(first, n - TRACEBACK_LOOKBACK) - 1, -1):
            row = self._row(number)
            if rank is not None and row.rank is not None and row.rank != rank:
                continue
            body = _body(row.text, prefix)
            if body is None or not body.strip():
                continue
            yield number, row.text, body

    def _numbers(self, key: object, kind: int) -> list[int]:
        """The numbers of the rows of rank `key`: all (kind 0), traceback headers (1), `File "` frames (2)."""
        found = self._index.get(key)
        return found[kind] if found is not None else []

    def raised_below(self, header: str, le: int, line_no: int) -> tuple[int, str] | None:
        """The line that ends the traceback whose header `header` (line `line_no`) ends at data[le]: the first line
        below with the header's prefix that is neither a frame, its code, nor a chained traceback's words (other
        ranks' lines may interleave). Looked for within RAISED_SCAN lines of this block; None past them."""
        prefix = header[: header.find(_TRACEBACK)] if _TRACEBACK in header else ""
        pos, number = le + 1, line_no
        for _ in range(RAISED_SCAN):
            if pos >= self.n:
                return None
            text, _, end = self._view_below(pos, le)
            number += 1
            pos = end + 1
            if not text.startswith(prefix):
                continue
            body = text[len(prefix) :]
            if body.startswith(("File ", "During handling", "The above exception", "Traceback")):
                continue
            if _RAISED.match(body):
                return number, text[:300]
        return None

    def _view_below(self, pos: int, le: int) -> tuple[str, int | None, int]:
        """The text and rank of the line starting at data[pos] (below the event ending at data[le]), decoded once
        for every event that looks below it, and where it ends."""
        data, n = self.data, self.n
        end = data.find(b"\n", pos, n)
        end = n if end < 0 else end
        seen = self._below.get(pos)
        if seen is None:
            if len(self._below) >= ROWS_KEPT + RAISED_SCAN:  # lines above this event's are not asked for again
                self._below = {at: view for at, view in self._below.items() if at > le}
            seen = self._below[pos] = _text_and_rank(data[pos : min(end, pos + 400)])
        return seen[0], seen[1], end

    def continuation(self, le: int, rank: int | None) -> list[str]:
        """Lines right below the line ending at data[le] that continue its message (load_state_dict lists keys there)."""
        n = self.n
        out: list[str] = []
        pos = le + 1
        for _ in range(CONTINUATION_SCAN):
            if pos >= n or len(out) >= CONTINUATION_LINES:
                break
            line, other, end = self._view_below(pos, le)
            pos = end + 1
            if rank is not None and other is not None and other != rank:
                continue  # another rank's line interleaved
            body = _CONTINUATION_BODY.sub("", line, count=1)
            if (
                not body.strip()
                or body.startswith(("Traceback", "During handling", "The above exception"))
                or _NEW_RECORD.match(body)
            ):
                break
            out.append(line[:300])
        return out


def _between(numbers: list[int], lo: int, hi: int) -> list[int]:
    """The numbers in the sorted list with lo <= number < hi."""
    return numbers[bisect_left(numbers, lo) : bisect_left(numbers, hi)]
