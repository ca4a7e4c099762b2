"""What a watch says: one small typed object per alert, each posted once."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from signatures import Report

# problems and the end of the run, in the order a reader meets them
KINDS = ("diagnosis", "diverging", "slow_save", "stall", "silence", "slow_steps", "end")
# about the files themselves: worth a line on stderr, not a post in an incident thread
NOTICES = ("file_new", "file_reset")


@dataclass(frozen=True)
class Alert:
    kind: str
    message: str  # one line that says what was measured
    time: float  # when the watch saw it (seconds since the epoch)
    file: str | None = None
    rank: int | None = None
    facts: dict[str, Any] = field(default_factory=dict)  # the measured values, JSON-able
    report: Report | None = field(default=None, compare=False, repr=False)  # kind "diagnosis": the whole report

    def __post_init__(self):
        if self.kind not in KINDS + NOTICES:
            raise ValueError(f"unknown alert kind {self.kind!r}")

    @property
    def notice(self) -> bool:
        return self.kind in NOTICES

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "time": iso(self.time),
            "file": self.file,
            "rank": self.rank,
            "message": self.message,
            "facts": self.facts,
        }


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def span(seconds: float) -> str:
    """0.25 -> '250 ms', 12.3 -> '12 s', 660 -> '11 min', 3900 -> '1 h 5 min'; under 10 s with one decimal."""
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 120:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min" if minutes % 60 else f"{minutes // 60} h"


def span_range(values: list[float]) -> str:
    """[38.2, 51.9] -> '38–52 s'; [40, 700] -> '40 s–12 min'."""
    low, high = span(min(values)), span(max(values))
    if low == high:
        return low
    low_number, _, low_unit = low.partition(" ")
    return f"{low_number}–{high}" if high.partition(" ")[2] == low_unit else f"{low}–{high}"


def ranks_text(ranks: list[int]) -> str:
    """[3] -> 'rank 3'; [0, 1, 2, 5] -> 'ranks 0-2, 5'."""
    ranks = sorted(set(ranks))
    runs: list[list[int]] = []
    for r in ranks:
        if runs and r == runs[-1][1] + 1:
            runs[-1][1] = r
        else:
            runs.append([r, r])
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
    return f"rank {text}" if len(ranks) == 1 else f"ranks {text}"
