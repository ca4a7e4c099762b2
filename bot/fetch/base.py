"""What every fetcher returns and how it stays within its byte and time budget (how it fails: bot.fetch.errors)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bot.fetch.errors import FetchError, FetchTimeout

__all__ = [
    "Budget",
    "FetchError",
    "FetchResult",
    "FetchedLog",
    "JobFacts",
    "JobRef",
    "copy_tail_of_file",
    "elapsed",
    "fair_shares",
    "new_workdir",
    "utc_iso",
    "write_tail_of_stream",
]

COPY_CHUNK = 1 << 20


@dataclass
class JobRef:
    cluster: str
    kind: str
    job_id: str
    raw: str


@dataclass
class LogFollow:
    """Where a watch of a job whose logs come from an API (Kubernetes) keeps them: `spool`, a directory of files
    the watch reads as they grow, and `cursors`, how far each log was read (JSON: the watch stores it)."""

    spool: Path
    cursors: dict


@dataclass
class JobFacts:
    job_id: str
    name: str | None = None
    state: str | None = None
    exit_code: str | None = None
    reason: str | None = None
    nodes: list[str] = field(default_factory=list)
    start: str | None = None
    end: str | None = None
    elapsed: str | None = None
    user: str | None = None
    workdir: str | None = None
    array_tasks: list[str] = field(default_factory=list)

    def line(self) -> str:
        """One line for a report: `job 812345 (train) FAILED exit 1:0 on node[1-2], 00:12:31`."""
        parts = [f"job {self.job_id}" + (f" ({self.name})" if self.name else "")]
        if self.state:
            parts.append(self.state)
        if self.exit_code:
            parts.append(f"exit {self.exit_code}")
        if self.nodes:
            parts.append("on " + ",".join(self.nodes[:8]) + ("…" if len(self.nodes) > 8 else ""))
        if self.elapsed:
            parts.append(f"ran {self.elapsed}")
        if self.reason and self.reason not in ("None", "(null)"):
            parts.append(f"reason {self.reason}")
        return ", ".join(parts)

    def as_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v not in (None, [], "")}


@dataclass
class FetchedLog:
    name: str
    path: Path
    size: int  # bytes kept
    original_size: int  # bytes the log had
    truncated: bool  # True when only the newest bytes were kept


@dataclass
class FetchResult:
    cluster: str
    facts: JobFacts
    logs: list[FetchedLog]
    notes: list[str]
    workdir: Path

    def cleanup(self) -> None:
        shutil.rmtree(self.workdir, ignore_errors=True)


class Budget:
    """Bytes and seconds left for one job's fetch."""

    def __init__(self, max_bytes: int, seconds: float):
        self.max_bytes = max_bytes
        self.used = 0
        self.deadline = time.monotonic() + seconds
        self.seconds = seconds

    @property
    def remaining(self) -> int:
        return max(0, self.max_bytes - self.used)

    def check_time(self, what: str) -> None:
        if time.monotonic() > self.deadline:
            raise FetchTimeout(
                f"fetching {what} took longer than {self.seconds:.0f}s; the scheduler or the "
                "filesystem is slow. Try again, or diagnose the files directly."
            )

    def time_left(self) -> float:
        return max(0.1, self.deadline - time.monotonic())


def fair_shares(sizes: list[int], total: int) -> list[int]:
    """Split `total` bytes over logs of `sizes`: small logs whole, the rest share what is left equally."""
    shares = [0] * len(sizes)
    left = total
    pending = sorted(range(len(sizes)), key=lambda i: sizes[i])
    while pending:
        each = left // len(pending)
        i = pending[0]
        if sizes[i] <= each:
            shares[i] = sizes[i]
            left -= sizes[i]
            pending.pop(0)
        else:
            for j in pending:
                shares[j] = each
            break
    return shares


def utc_iso(dt: datetime | None) -> str | None:
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if dt else None


def elapsed(seconds: float) -> str:
    """Slurm's wording of a duration: `1-02:03:04`, `00:12:31`."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    return (f"{days}-" if days else "") + f"{h:02d}:{m:02d}:{s:02d}"


def new_workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="denpex-fetch-"))


def copy_tail_of_file(src: Path, dest: Path, keep: int) -> tuple[int, int]:
    """Copy the newest `keep` bytes of a local file (starting at a line boundary). Returns (kept, original)."""
    with open(src, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        start = max(0, size - keep)
        fh.seek(start)
        if start:
            fh.readline()  # drop the partial first line
        with open(dest, "wb") as out:
            shutil.copyfileobj(fh, out, COPY_CHUNK)
            kept = out.tell()
    return kept, size


def write_tail_of_stream(chunks: Iterable[bytes], dest: Path, keep: int) -> tuple[int, int]:
    """Stream into `dest` keeping only the newest `keep` bytes (disk use stays under 2 x keep)."""
    total = 0
    with open(dest, "w+b") as out:
        for chunk in chunks:
            out.write(chunk)
            total += len(chunk)
            if keep and out.tell() > 2 * keep:
                _compact(out, keep)
        if out.tell() > keep:
            _compact(out, keep)
        return out.tell(), total


def _compact(out, keep: int) -> None:
    end = out.tell()
    out.seek(end - keep)
    out.readline()
    tail = out.read()
    out.seek(0)
    out.write(tail)
    out.truncate()
