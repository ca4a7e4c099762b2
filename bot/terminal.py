"""What the CLI prints, fitted to where it goes: colour on a terminal only (`--color=auto|always|never`, `NO_COLOR`),
the terminal's width, ASCII symbols for a terminal that cannot show more (`PYTHONIOENCODING=ascii`), and a
progress bar (rich) that counts the bytes read from disk: a gzipped log is measured in compressed bytes against
its compressed size."""

from __future__ import annotations

import codecs
import os
import shutil
import stat
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)
from rich.table import Table
from rich.text import Text

import signatures

COLOR_CHOICES = ("auto", "always", "never")
REPORT_WIDTH = 100  # when the output is not a terminal (a file, a pipe): the same text every time
MIN_WIDTH, MAX_WIDTH = 40, 140  # a report narrower is unreadable, wider is hard to follow
SYMBOLS = "✖✓…±→–"  # what the text report prints beyond ASCII
# the report's kinds of line (signatures.render_lines) as colours
STYLES = {
    "failure": "bold red",
    "unrecognised": "bold yellow",
    "healthy": "bold green",
    "not_a_log": "bold",
    "heading": "bold",
    "start": "bold",
    "context": "dim",
    "dim": "dim",
    "command": "cyan",
}
PROGRESS_REFRESH_SECONDS = 0.1


def wants_color(choice: str, stream: TextIO) -> bool:
    """--color: always, never, or (auto) on a terminal when NO_COLOR is not set and TERM is not dumb, as rich and
    ripgrep decide. An explicit --color=always wins over NO_COLOR (https://no-color.org: a user's default)."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return stream.isatty()


def can_show(stream: TextIO, text: str = SYMBOLS) -> bool:
    try:
        text.encode(stream.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def is_unicode(stream: TextIO) -> bool:
    """The stream can carry any character (UTF-8): JSON may then keep them as they are."""
    try:
        return codecs.lookup(stream.encoding or "ascii").name.startswith("utf")
    except LookupError:
        return False


def never_crash_on_encoding() -> None:
    """A terminal or a pipe whose encoding cannot show a character (a log line in Cyrillic on an ASCII terminal)
    gets "?" for it instead of a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        if not is_unicode(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def width(stream: TextIO) -> int:
    """The terminal's columns ($COLUMNS first), within MIN_WIDTH..MAX_WIDTH; REPORT_WIDTH when it is no terminal."""
    if not stream.isatty():
        return REPORT_WIDTH
    columns = shutil.get_terminal_size((REPORT_WIDTH, 24)).columns
    return max(MIN_WIDTH, min(columns, MAX_WIDTH))


def console(stream: TextIO, color: str, width: int | None = None, soft_wrap: bool = False) -> Console:
    """rich's console for `stream`: coloured as --color and NO_COLOR say, and with no escape code for colour or
    style at all when it is not (rich's own no_color would still print bold)."""
    colored = wants_color(color, stream)
    return Console(
        file=stream,
        force_terminal=True if colored else None,  # --color=always: a pipe gets colour too
        color_system=("auto" if stream.isatty() else "standard") if colored else None,
        no_color=False if colored else None,
        width=width,
        soft_wrap=soft_wrap,
        highlight=False,
        markup=False,
        emoji=False,
    )


class Printer:
    """Lines for one stream, each of a kind (a style of STYLES), coloured or not, in ASCII when it must be."""

    def __init__(self, stream: TextIO, color: str = "auto"):
        self.stream = stream
        self.width = width(stream)
        self.ascii = not can_show(stream)
        # soft_wrap: the lines are wrapped already, and a command is never wrapped
        self.console = console(stream, color, self.width, soft_wrap=True) if wants_color(color, stream) else None

    def lines(self, lines: Iterable[tuple[str, str]]) -> None:
        for kind, text in lines:
            self.line(text, kind)

    def line(self, text: str, kind: str = "text") -> None:
        if self.ascii:
            text = signatures.to_ascii(text)
        if self.console is None:
            self.stream.write(text + "\n")
        else:
            self.console.print(Text(text, style=STYLES.get(kind, "")))

    def flush(self) -> None:
        self.stream.flush()


class ReadProgress:
    """rich's progress bar on stderr, fed by the scan's callback: the bytes of the inputs read from disk so far,
    against their size on disk, the speed and the time left; cleared when it stops (done, an error, Ctrl-C).

    The bytes read from disk are the offsets of our own open descriptors of the input files (lseek(fd, 0,
    SEEK_CUR), the way `pv -d` and coreutils' `progress` watch a process), so compressed input counts compressed
    bytes; a file seen open and then closed counts whole. Where descriptors cannot be listed (no /proc/self/fd
    or /dev/fd), the scanned bytes are counted, which on compressed input runs ahead of the size on disk."""

    def __init__(self, files: dict[tuple[int, int], int], console: Console):
        self.files = files  # (device, inode) of each input file -> its size on disk
        self.total = sum(files.values())
        self.at: dict[tuple[int, int], int] = {}  # input files seen open -> the furthest offset seen
        self.scanned = 0
        self.last = 0.0
        self.fd_dir = next((d for d in ("/proc/self/fd", "/dev/fd") if os.path.isdir(d)), None)
        self.bar = Progress(
            TextColumn("scanning"),
            BarColumn(bar_width=None),  # what the other columns leave of the terminal's width, read at each redraw
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        self.task = self.bar.add_task("scan", total=self.total)

    @classmethod
    def for_inputs(cls, paths: list[str], min_bytes: int, console: Console) -> ReadProgress | None:
        """A bar when the inputs on disk add up to min_bytes or more; stdin counts when it is a file."""
        files: dict[tuple[int, int], int] = {}
        for path in paths:
            if path == "-":
                info = os.fstat(sys.stdin.fileno())
                if stat.S_ISREG(info.st_mode):
                    files[(info.st_dev, info.st_ino)] = info.st_size
                continue
            p = Path(path)
            for f in [p] if p.is_file() else (sorted(p.rglob("*")) if p.is_dir() else []):
                try:
                    info = f.stat()
                except OSError:
                    continue  # gone, or unreadable: the scan says so
                if stat.S_ISREG(info.st_mode):
                    files[(info.st_dev, info.st_ino)] = info.st_size
        if sum(files.values()) < min_bytes:
            return None
        return cls(files, console)

    def __enter__(self) -> ReadProgress:
        self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()  # transient: the bar's line is erased, whatever ended the scan

    def __call__(self, n: int) -> None:
        """The scan read n more bytes (decompressed): look at where our descriptors of the inputs stand."""
        self.scanned += n
        self._look()
        now = time.monotonic()
        if now - self.last >= PROGRESS_REFRESH_SECONDS:
            self.last = now
            self.bar.update(self.task, completed=min(self.read(), self.total))

    def _look(self) -> None:
        if self.fd_dir is None:
            return
        try:
            fds = [int(name) for name in os.listdir(self.fd_dir)]
        except OSError:
            self.fd_dir = None
            return
        for fd in fds:
            try:
                info = os.fstat(fd)
                key = (info.st_dev, info.st_ino)
                if key in self.files:
                    self.at[key] = max(self.at.get(key, 0), os.lseek(fd, 0, os.SEEK_CUR))
            except OSError:
                continue  # the directory's own descriptor, or one closed meanwhile

    def read(self) -> int:
        """Bytes of the inputs read from disk: files left behind count whole, the open one up to its offset."""
        if self.fd_dir is None:
            return self.scanned
        open_now = set()
        for fd in os.listdir(self.fd_dir):
            try:
                info = os.fstat(int(fd))
            except OSError:
                continue
            open_now.add((info.st_dev, info.st_ino))
        return sum(offset if key in open_now else self.files[key] for key, offset in self.at.items())


def signature_table(rows: list[signatures.Signature], columns: int) -> Table:
    """`denpex signatures list` on a terminal, fitted to its width: the id whole (it is what one copies), the
    title cut with "…"; class, then severity and role only where they fit."""
    id_width = max(len(s.id) for s in rows)
    shown = [("class", 28, lambda s: s.cls), ("severity", 8, lambda s: s.severity), ("role", 10, lambda s: s.role)]
    room = columns - id_width - 2 - 24  # what is left once the id and a readable title are placed
    extra = []
    for name, size, value in shown:
        if room >= size + 2:
            extra.append((name, value))
            room -= size + 2
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", width=columns)
    table.add_column("id", no_wrap=True, min_width=id_width)
    for name, _ in extra:
        table.add_column(name, no_wrap=True)
    table.add_column("title", no_wrap=True, overflow="ellipsis", ratio=1)
    for s in rows:
        table.add_row(s.id, *(value(s) for _, value in extra), s.title)
    return table
