"""Trend rules: follow a number through a log (a training loss) and notice when it diverges.

A loss is printed on most lines of a training log, so trend patterns get their own Hyperscan
database and a bounded sample: each block is cut into windows and at most a few loss lines are
taken from each, so a 1 GB log costs a few thousand regex calls, not millions. Each series
(one per rank and per loss name) keeps at most SERIES_CAP observations, thinned evenly when full.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ._schema import Trend

SERIES_CAP = 2048       # observations kept per series; older ones are thinned evenly, never all dropped
FULL_SCAN = 1 << 20     # blocks up to this size: every trend line is read
FULL_HITS = 20_000      # ... up to this many per block
WINDOWS = 16            # larger blocks: cut into this many windows
WINDOW_HITS = 2         # ... and this many trend lines read from each
EVIDENCE_CHARS = 400
VALUES = frozenset({"low", "low_at", "value", "up_at", "rise", "peak", "last", "last_at", "series"})  # see describe()

_STEP = re.compile(r"(?i)\b(global[_ ]step|step|iter(?:ation)?|batch|update)\b['\"]?\s*[:=#]?\s*\[?\s*(\d{1,9})\b")
_EPOCH = re.compile(r"(?i)\bepoch['\"]?\s*[:=]?\s*\[?\s*(\d+(?:\.\d+)?)")


def windows(n_bytes: int) -> tuple[int, int]:
    """(window width, trend lines read per window) for a block of n_bytes."""
    if n_bytes <= FULL_SCAN:
        return max(n_bytes, 1), FULL_HITS
    return -(-n_bytes // WINDOWS), WINDOW_HITS


@dataclass
class Observation:
    line: int
    value: float
    text: str
    time: float | None        # the last timestamp the scan had seen (the line's own is parsed if it is kept)
    host: str | None


@dataclass
class Series:
    """A thinned, bounded sequence of observations: every `stride`-th offered value is kept."""

    points: list[Observation] = field(default_factory=list)
    stride: int = 1
    offered: int = 0

    def offer(self, obs: Observation) -> None:
        self.offered += 1
        if (self.offered - 1) % self.stride:
            return
        self.points.append(obs)
        if len(self.points) >= SERIES_CAP:
            self.points = self.points[::2]
            self.stride *= 2


def parse_value(raw: str) -> float | None:
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


@dataclass
class Divergence:
    low: Observation
    first_up: Observation
    peak: float
    last: Observation
    elevated: int   # consecutive elevated observations from first_up


def diverged(points: list[Observation], rule: Trend) -> Divergence | None:
    """The first sustained climb of the series above its running low, if it never came back down.

    Elevated means >= rise x the lowest value so far and >= min_rise above it; the low must be at
    most `progress` x the first value (1.0: any low, including the first value, since an excerpt
    often starts at the low, and a loss that explodes from the start has diverged too); and the series must still be up at its end (>= still_up x the low): a spike the
    run recovered from is not a diverged run."""
    if len(points) < rule.min_points or any(p.value < 0 for p in points):
        return None
    first = points[0].value
    low = points[0]
    i = 1
    while i < len(points):
        p = points[i]
        threshold = max(low.value * rule.rise, low.value + rule.min_rise)
        if p.value >= threshold and low.value <= first * rule.progress:
            run = 1
            while i + run < len(points) and points[i + run].value >= threshold:
                run += 1
            last = points[-1]
            if run >= rule.sustain and last.value >= low.value * rule.still_up and last.value >= low.value + rule.min_rise:
                peak = max(q.value for q in points[i:])
                return Divergence(low, p, peak, last, run)
            i += run
            continue
        if p.value < low.value:
            low = p
        i += 1
    return None


def describe(d: Divergence) -> dict[str, str]:
    """Values for the diagnosis: where the loss bottomed out, where it climbed, where it ended."""
    def at(obs: Observation) -> str:
        step = _STEP.search(obs.text)
        if step:
            return f"{step.group(1).lower().replace('_', ' ')} {step.group(2)}"
        epoch = _EPOCH.search(obs.text)
        if epoch:
            return f"epoch {epoch.group(1)}"
        return f"line {obs.line}"

    return {
        "low": f"{d.low.value:.4g}", "low_at": at(d.low),
        "value": f"{d.first_up.value:.4g}", "up_at": at(d.first_up),
        "rise": f"{d.first_up.value / d.low.value:.1f}x" if d.low.value > 0 else "from 0",
        "peak": f"{d.peak:.4g}", "last": f"{d.last.value:.4g}", "last_at": at(d.last),
    }
