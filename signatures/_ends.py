"""What the end of each source says (its last TAIL bytes): the lines saying training finished, and each rank's last
word, where a rank that went silent was when it stopped (see _stall and _attribution._stopped_inside)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._context import prefix_of, rank_and_host, time_of
from ._events import ErrorLine, LastWord, Stack
from ._limits import TEXT_CHARS
from ._lines import COMPLETION, MPI_TAG, PREFIX_CHARS, parse_prefix, strip_ansi

# the launcher's and the scheduler's own lines: not a rank's last word, even under its label ("0: slurmstepd: ...")
_CHATTER = re.compile(
    rb"\b(?:slurmstepd|srun|sbatch|salloc)(?:-[\w.-]+)?: |\*\*\* (?:JOB|STEP) \S+ ON |\b(?:JOB|STEP) [\w.+]+ ON \S+ "
    rb"CANCELLED AT\b|torch[./]distributed[./]elastic|"
    rb"\bSending process \d+ closing signal\b|\b(?:Terminated|Killed)$|^\W*$"
)
LAST_WORD_LINES = 400  # the lines at a source's end where ranks' last words are looked for
LAST_WORD_RANKS = 256  # ... and how many ranks' last words one source keeps
VALUE_LINES = 8  # a rank's last lines holding name=number values kept (see values)
VALUE_DEPTH = 60  # ... looked for among its last this many lines

# a stack dump's thread header: faulthandler's ("Current thread 0x7f.. (most recent call first):", "Thread 0x..",
# "Stack (most recent call first):") and py-spy dump's ('Thread 4242 (active): "MainThread"')
_DUMP = re.compile(rb"\(most recent call first\):|\((?:active|idle)[^)\n]*\): \"")
_THREAD = re.compile(
    r"^(?:Current thread|Thread|Stack)(?: 0x[0-9a-fA-F]+| \d+)?(?: \[[^\]\n]*\])? \(most recent call "
    r'first\):|^Thread (?:0x[0-9a-fA-F]+|\d+) \((?:active|idle)[^)]*\): "(?P<name>[^"]*)"'
)
# faulthandler.dump_traceback_later's header: the timer ran out before the program re-armed it (no progress)
_TIMER = re.compile(r"^Timeout \((\d+):(\d\d):(\d\d)(?:\.\d+)?\)!\s*$")
# its frames: faulthandler's '  File "/x/train.py", line 153 in <module>' (a traceback has ", in"), py-spy's
# "    backward (torch/_tensor.py:623)"
_FAULT_FRAME = re.compile(r'^\s+File "(?P<file>[^"]+)", line (?P<line>\d+) in (?P<func>\S+)')
_SPY_FRAME = re.compile(r"^\s+(?P<func>\S+) \((?P<file>[^()]+):(?P<line>\d+)\)")
_LABEL = re.compile(r"^(?:\s{0,3}\d{1,6}: |\[[^\]\n]{1,40}\]:\s?|" + MPI_TAG + ")+")  # srun, torchrun, mpirun labels
# a name=number value ("buckets=40", "seq_len: 512"); not a file:line, a time or a path
VALUE = re.compile(r"(?<![\w.:/-])([A-Za-z_]\w*)(?:=|: )(-?\d+(?:\.\d+)?)(?![\w.:])")
# ... or a count of something ("over 5 classes", "22 batches"), read as name=number ("classes=5")
COUNT = re.compile(r"(?<![\w.:/-])(\d+) ([a-z][a-z_]{2,})\b")


# a Python traceback's frame, after any launcher label: '  File "/x/train.py", line 88, in step'
_TRACEBACK_FRAME = re.compile(
    rb'^(?:\s{0,3}\d{1,6}: |\[[^\]\n]{1,40}\]:\s?|\[(?:\d{1,6},)?\d{1,6}\]<std(?:out|err)>:)*\s*File "[^"\n]+", line \d+, in \S'
)
CUT_TRACEBACK_LINES = 8  # a source that ends this near a traceback's frame, with only frames and code after it


def cut_traceback(lines: list[bytes], number: int) -> tuple[int, str] | None:
    """The last frame of a traceback the source ends inside (line number, text): a paste or a log cut before the
    exception that ends it. A failure all the same (a Python traceback is printed for an exception), though no
    line says which."""
    seen = 0
    for i in range(len(lines) - 1, -1, -1):
        raw = lines[i].rstrip(b"\r")
        if not raw.strip():
            continue
        seen += 1
        if seen > CUT_TRACEBACK_LINES:
            return None
        if _TRACEBACK_FRAME.match(raw):
            return number + i, raw.decode("utf-8", "replace").strip()[:300]
        if not _LABEL.sub("", raw.decode("utf-8", "replace"))[:1].isspace():
            return None  # a line that is not a frame's code (the exception, a log line): not cut inside
    return None


def last_words(
    into: dict[tuple[int, int | None], LastWord],
    source: int,
    lines: list[bytes],
    number: int,
    year: int | None,
    rank_hint: int | None,
) -> None:
    """Each rank's last line among the last LAST_WORD_LINES of `lines` (the end of source `source`, whose first
    line is number `number`), the launcher's, the scheduler's and rule lines left out. A rank's own file stops
    at its last line; a shared console reads each line's prefix by its shape (most lines: no regex)."""
    seen: set[int | None] = set()
    for i in range(len(lines) - 1, max(0, len(lines) - LAST_WORD_LINES) - 1, -1):
        raw = lines[i].rstrip(b"\r")
        if _CHATTER.search(raw):
            continue
        text, rank = _read(raw)
        mine = rank if rank is not None else rank_hint
        if mine in seen:
            continue
        seen.add(mine)
        into[(source, mine)] = LastWord(number + i, time_of(text[:PREFIX_CHARS], year), text[:300])
        if (rank_hint is not None and mine == rank_hint) or len(seen) >= LAST_WORD_RANKS:
            return  # a rank's own file: its last line is all there is to know


def _read(raw: bytes) -> tuple[str, int | None]:
    """A line's text and the rank its prefix names: a plain ASCII line by its head's shape (most lines: no regex)."""
    if raw.isascii() and b"\x1b" not in raw:
        return raw.decode(), prefix_of(raw)[0]
    text = strip_ansi(raw.decode("utf-8", "replace"))
    return text, rank_and_host(text)[0]


def _short(path: str) -> str:
    """A frame's file as its last three path parts ("torch/autograd/graph.py"): enough to tell torch from user code."""
    return "/".join([part for part in path.replace("\\", "/").split("/") if part][-3:])


def stacks(into: dict[tuple[int, int | None], Stack], source: int, lines: list[bytes], number: int, rank_hint) -> None:
    """Each rank's last stack dump in `lines` (see Stack); a rank's lines are told apart by their label, or are
    the file's own rank's. Lines from a rank that named no rank in a shared console are left out."""
    dumps: dict[int, list[tuple[bool, int, list[str]]]] = {}  # rank -> its dump's threads (main?, line, frames)
    inside: dict[int, bool] = {}
    armed: dict[int, float | None] = {}  # rank -> the watchdog timer of the line just above, then of its dump
    timers: dict[int, float | None] = {}
    for i, raw in enumerate(lines):
        text, rank = _read(raw.rstrip(b"\r"))
        mine = rank if rank is not None else rank_hint
        if mine is None:
            continue
        body = _LABEL.sub("", text, count=1)
        head = _THREAD.match(body)
        if head:
            threads = dumps.setdefault(mine, [])
            if not inside.get(mine):
                threads.clear()  # a later dump replaces an earlier one
                timers[mine] = armed.get(mine)
            threads.append((head.group("name") == "MainThread", number + i, []))
            inside[mine] = True
            continue
        timer = _TIMER.match(body.strip())
        armed[mine] = int(timer[1]) * 3600 + int(timer[2]) * 60 + int(timer[3]) if timer else None
        if not inside.get(mine):
            continue
        frame = _FAULT_FRAME.match(body) or _SPY_FRAME.match(body)
        if frame:
            threads = dumps[mine]
            threads[-1][2].append(f"{frame.group('func')} ({_short(frame.group('file'))}:{frame.group('line')})")
        elif body.strip():
            inside[mine] = False  # faulthandler puts a blank line between threads; anything else ends the dump
    for rank, threads in dumps.items():
        # the main thread: py-spy names it; faulthandler lists threads newest first, so the main thread last (its
        # "Current thread" is whichever thread dumped: a stall watchdog's own thread when it dumps from a timer)
        chosen = next((t for t in threads if t[0]), None) or threads[-1]
        if chosen[2]:
            into[(source, rank)] = Stack(chosen[1], tuple(chosen[2]), timers.get(rank))


def values(
    into: dict[tuple[int, int | None], list[tuple[int, str]]], source: int, lines: list[bytes], number: int, rank_hint
) -> None:
    """Each rank's last VALUE_LINES lines holding a name=number value (or a count) among its last VALUE_DEPTH lines in
    `lines`, oldest first, labels left out: what each rank said last in numbers (see _oddity.odd_value_out)."""
    depth: dict[int | None, int] = {}
    look = VALUE_DEPTH if rank_hint is not None else LAST_WORD_LINES  # a rank's own file: its last lines only
    for i in range(len(lines) - 1, max(0, len(lines) - look) - 1, -1):
        raw = lines[i].rstrip(b"\r")
        if _CHATTER.search(raw):
            continue
        text, rank = _read(raw)
        mine = rank if rank is not None else rank_hint
        seen = depth[mine] = depth.get(mine, 0) + 1
        if mine is None or seen > VALUE_DEPTH or not (b"=" in raw or b": " in raw):
            continue
        body = _LABEL.sub("", text, count=1)[:300]
        if len(into.get((source, mine), ())) < VALUE_LINES and (VALUE.search(body) or COUNT.search(body)):
            into.setdefault((source, mine), []).insert(0, (number + i, body))


@dataclass
class EndFacts:
    """What the end of each source says (its last TAIL bytes), per (source index, rank): the last line saying
    training finished (a rank that printed one after an error line went past it, see _attribution.Survival),
    the last such line with a time (line, time), and the rank's last word (see last_words)."""

    finished: dict[tuple[int, int | None], int] = field(default_factory=dict)
    finished_at: dict[tuple[int, int | None], tuple[int, float]] = field(default_factory=dict)
    last_words: dict[tuple[int, int | None], LastWord] = field(default_factory=dict)
    stacks: dict[tuple[int, int | None], Stack] = field(default_factory=dict)
    values: dict[tuple[int, int | None], list[tuple[int, str]]] = field(default_factory=dict)

    def sample(
        self, source: int, tail: bytes, last_line: int, year: int | None, rank_hint: int | None, name: str = ""
    ) -> ErrorLine | None:
        """Read the end of source `source` (called `name`); returns the error-like line of a source that ends inside
        a Python traceback (see cut_traceback), its last frame: a traceback is printed for an exception, so the log
        is a failure even when nothing explains it."""
        lines = tail.split(b"\n")
        if tail.endswith(b"\n"):
            lines.pop()
        number = last_line - len(lines) + 1  # the first (perhaps cut) line of the tail
        last_words(self.last_words, source, lines, number, year, rank_hint)
        cut = cut_traceback(lines, number) if b'File "' in tail else None
        values(self.values, source, lines, number, rank_hint)
        if _DUMP.search(tail):
            stacks(self.stacks, source, lines, number, rank_hint)
        if COMPLETION.search(tail):
            self._finished(source, lines, number, year, rank_hint)
        if cut is None:
            return None
        line, text = cut
        rank = rank_and_host(text)[0]
        return ErrorLine(name, line, rank if rank is not None else rank_hint, text[:TEXT_CHARS])

    def _finished(self, source: int, lines: list[bytes], number: int, year: int | None, rank_hint: int | None) -> None:
        for raw in lines:
            if COMPLETION.search(raw):
                prefix = parse_prefix(strip_ansi(raw.decode("utf-8", "replace"))[:PREFIX_CHARS], year)
                rank = rank_hint if prefix.rank is None else prefix.rank
                self.finished[(source, rank)] = max(number, self.finished.get((source, rank), 0))
                if prefix.time is not None:
                    self.finished_at[(source, rank)] = (number, prefix.time)
            number += 1
