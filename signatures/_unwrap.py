"""Pastes hard-wrapped at a fixed width (a terminal's copy, a quote in an issue thread): their cut lines rejoined.

A log copied out of a terminal or a web page often comes back with every long line broken at the same column:
"...Process group watchdog thread terminat" / "ed with exception: [Rank 2] Watchdog caught ...". No signature can
match a line cut in two. A source is read as wrapped when, in its head, no line is longer than some width of 60
columns or more and at least MIN_CUTS lines are exactly that wide and followed by a line that does not start a record
(a timestamp, a log level, a rank prefix, a traceback's frame), most of them cut inside a word, at different places
(not the same message repeated), and they are a good share of the long lines (not a log's few longest). Its lines of exactly
that width are then joined to the line after them, unless that line starts a record: a log whose lines were cut at a
width by a tool (`cut -c1-200`) keeps each record on its own line.

A terminal's screen copied whole (tmux, screen, a console in a browser) also pads every line with spaces to the
terminal's width, the short ones and the cut ones alike. Such a paste (most lines of its head exactly one width of
60 or more, many of them ending in a space) is read with the padding stripped first; its cut lines are then those
whose text reaches the edge.

A paste quoted as markdown (nearly every line behind "> ", as an issue comment quotes a log) is read without the
quote marks.

Line numbers then count the rejoined lines; the report says so (Source.note)."""

from __future__ import annotations

import io
import re
from typing import IO, cast

MIN_WIDTH = 60  # narrower than any terminal a log is copied from
MIN_CUTS = 3  # lines exactly at the width and continued on the next line, in the head
CUT_SHARE = 0.6  # ... and at least this share of the lines at the width
MID_WORD_SHARE = 0.5  # ... and at least this share of those cut inside a word (no space either side of the cut)
LONG_SHARE = 0.1  # the lines at the width: at least this share of the lines half as wide or wider
DISTINCT_SHARE = 0.5  # the cut lines' ends: at least this share of them differ (a wrap cuts anywhere)
CHUNK = 1 << 20

# the start of a record: a line that begins one is never the rest of the line above
_RECORD_START = re.compile(
    rb"^(?:\[?\d{4}[-/]\d\d[-/]\d\d|\d\d:\d\d:\d\d|[IWEF]\d{4} |\[?(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL)\b"
    rb"|\[(?:rank|default|RANK)\d+\]|\[\d+\]:|Traceback|  File \"|During handling|The above exception"
    rb"|\w[\w.-]*:\d+:\d+ \[\d+\] NCCL|\(\w+ pid=\d+|srun: |slurmstepd: |\*\*\* |==+|--+|#|\{\"|\[\d\d:\d\d:\d\d)"
)
_TABLE = b"|+"  # a table's border: fixed-width rows, never a wrap
# srun --label's "3: ", unless the line above ends in a digit: then it is a number cut in two (":249" / "69: ...")
_LABEL = re.compile(rb"^\d+: ")


def _width(line: bytes) -> int:
    return len(line) if line.isascii() else len(line.decode("utf-8", "replace"))


def _continues(line: bytes, after: bytes) -> bool:
    """Whether `after`, the line below a line cut at the width, is its rest: not empty, not the start of a record
    or of a line made like this one (records of one format: `{"t": ...`, `Gradient overflow. ...`), not a table."""
    return (
        bool(after.strip())
        and not _RECORD_START.match(after)
        and not (_LABEL.match(after) and not line[-1:].isdigit())
        and after[:4] != line[:4]
        and line[-1:] not in _TABLE
        and after[:1] not in _TABLE
    )


PADDED_SHARE = 0.8  # a padded screen: at least this share of the head's lines exactly one width ...
PADDED_SPACES = 0.5  # ... and at least this share of those ending in a space


def _head_lines(head: bytes, whole: bool) -> list[bytes]:
    """The lines of `head` without their \r; its last one too only when it is the whole text (else the head's end
    may have cut it)."""
    lines = head.split(b"\n")
    if not whole:
        lines = lines[:-1]
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def padded_width(head: bytes, whole: bool) -> int | None:
    """The width a terminal padded every line of `head` to with spaces, or None when it did not."""
    lines = _head_lines(head, whole)
    if len(lines) < MIN_CUTS + 1:
        return None
    width = max(_width(line) for line in lines)
    at_width = [line for line in lines if _width(line) == width]
    if width < MIN_WIDTH or len(at_width) < PADDED_SHARE * len(lines):
        return None
    return width if sum(line.endswith(b" ") for line in at_width) >= PADDED_SPACES * len(at_width) else None


QUOTED_SHARE = 0.9  # a markdown quote: at least this share of the head's non-empty lines start with ">"


def quoted(head: bytes, whole: bool) -> bool:
    """Whether `head` is a paste quoted as markdown ("> [rank10]: ..."), every line behind a "> " to strip."""
    lines = [line for line in head.split(b"\n")[: None if whole else -1] if line.strip()]
    return len(lines) >= MIN_CUTS and sum(line.startswith(b">") for line in lines) >= QUOTED_SHARE * len(lines)


def unquoted(line: bytes) -> bytes:
    """`line` without a markdown quote's "> " (or ">")."""
    return line[2:] if line.startswith(b"> ") else line[1:] if line.startswith(b">") else line


def unpadded(head: bytes) -> bytes:
    """`head` with each line's trailing spaces (a terminal's padding) stripped."""
    return b"\n".join(
        line.rstrip(b" ") if not line.endswith(b"\r") else line[:-1].rstrip(b" ") + b"\r" for line in head.split(b"\n")
    )


def wrap_width(head: bytes, whole: bool) -> int | None:
    """The column the text in `head` (the whole text when `whole`) was hard-wrapped at, or None when it was not."""
    lines = _head_lines(head, whole)
    if len(lines) < MIN_CUTS + 1:
        return None
    widths = [_width(line) for line in lines]
    width = max(widths)
    if width < MIN_WIDTH:
        return None
    at_width = [i for i, w in enumerate(widths) if w == width and i + 1 < len(lines)]
    cuts = [i for i in at_width if _continues(lines[i], lines[i + 1])]
    if len(cuts) < MIN_CUTS or len(cuts) < CUT_SHARE * len(at_width):
        return None
    if len(at_width) < LONG_SHARE * sum(1 for w in widths if w * 2 >= width):
        return None  # a few longest lines among many long ones: a log's own longest message, not a wrap
    if len({lines[i][-6:] for i in cuts}) < DISTINCT_SHARE * len(cuts):
        return None  # the same message repeated (a warning, a progress line): whole lines of one length
    mid_word = sum(1 for i in cuts if not lines[i][-1:].isspace() and not lines[i + 1][:1].isspace())
    return width if mid_word >= MID_WORD_SHARE * len(cuts) else None


class Unwrapped(io.RawIOBase):
    """The stream with each line of exactly `width` columns joined to the line after it, when that one continues it;
    with `quote`, each line's markdown quote mark is dropped first, and with `strip` its trailing spaces (a
    terminal's padding)."""

    def __init__(self, stream: IO[bytes], width: int | None, strip: bool = False, quote: bool = False):
        self._stream, self._width, self._strip, self._quote = stream, width, strip, quote
        self._carry = b""  # the text after the last line decided
        self._out = bytearray()
        self._eof = False

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        while len(self._out) < len(b) and not self._eof:
            self._fill()
        n = min(len(b), len(self._out))
        b[:n] = self._out[:n]
        del self._out[:n]
        return n

    def _fill(self) -> None:
        chunk = self._stream.read(CHUNK)
        if not chunk:
            self._eof = True
            self._emit(self._carry.split(b"\n"), 1)  # the last line has no successor: as it is
            self._out += self._clean([self._carry])[0]
            self._carry = b""
            return
        # the last piece has no newline yet, and the line before it waits for it: a successor's start decides
        self._emit((self._carry + chunk).split(b"\n"), 2)

    def _clean(self, lines: list[bytes]) -> list[bytes]:
        """`lines` without a markdown quote's marks and a terminal's padding, as this paste needs."""
        if self._quote:
            lines = [unquoted(line) for line in lines]
        return [unpadded(line) for line in lines] if self._strip else lines

    def _emit(self, lines: list[bytes], keep: int) -> None:
        """Write out all but the last `keep` lines (joined where cut), and carry those."""
        keep = min(keep, len(lines))
        self._carry = b"\n".join(lines[len(lines) - keep :])
        out = self._out
        lines = self._clean(lines[: len(lines) - keep + 1])  # the decided lines and the first one kept
        for i in range(len(lines) - 1):
            line, after = lines[i], lines[i + 1]
            body = line[:-1] if line.endswith(b"\r") else line
            out += body if _width(body) == self._width and _continues(body, after) else line + b"\n"


def unwrapped(stream: IO[bytes], width: int | None, strip: bool = False, quote: bool = False) -> IO[bytes]:
    return cast(IO[bytes], Unwrapped(stream, width, strip, quote))
