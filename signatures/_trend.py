"""Trend rules: follow a number through a log (a training loss) and notice when it diverges.

A loss is printed on most lines of a training log, so trend patterns get their own Hyperscan
database and a bounded sample: each block is cut into windows and at most a few loss lines are
taken from each, so a 1 GB log costs a few thousand regex calls, not millions. Each series
(one per rank and per loss name) keeps at most SERIES_CAP observations, thinned evenly when full.
"""

from __future__ import annotations

import bisect
import math
import re
import statistics
from dataclasses import dataclass, field

from ._schema import Trend

SERIES_CAP = 2048  # observations kept per series; older ones are thinned evenly, never all dropped
FULL_SCAN = 1 << 20  # blocks up to this size: every trend line is read
FULL_HITS = 20_000  # ... up to this many per block
WINDOWS = 16  # larger blocks: cut into this many windows
WINDOW_HITS = 2  # ... and this many trend lines read from each
EVIDENCE_CHARS = 400
VALUES = frozenset({"low", "low_at", "value", "up_at", "rise", "peak", "last", "last_at", "series"})  # see describe()

_STEP = re.compile(
    r"(?i)\b(global[_ ]step|step|iter(?:ation)?|batch|update)\b['\"]?\s*[:=#]?\s*\[?\s*['\"]?(\d{1,9})\b"
)
_EPOCH = re.compile(r"(?i)\bepoch['\"]?\s*[:=]?\s*\[?\s*['\"]?(\d+(?:\.\d+)?)")


SMALL_SOURCE = 64 << 20  # sources up to this size are sampled densely
DENSE_WIDTH = 64 << 10  # ... one window per 64 KB


def windows(n_bytes: int, source_size: int | None = None) -> tuple[int, int]:
    """(window width, trend lines read per window) for a block of n_bytes of a source.

    Small blocks are read whole; blocks of small sources (a few MB: one block) get a window per
    64 KB, so a rank's few hundred loss lines still give it a series; blocks of large sources get
    WINDOWS windows, which bounds the cost at a few thousand lines per GB."""
    if n_bytes <= FULL_SCAN:
        return max(n_bytes, 1), FULL_HITS
    if source_size is not None and source_size <= SMALL_SOURCE:
        return DENSE_WIDTH, WINDOW_HITS
    return -(-n_bytes // WINDOWS), WINDOW_HITS


def step_of(text: str) -> int | None:
    m = _STEP.search(text)
    return int(m.group(2)) if m else None


@dataclass
class Observation:
    line: int
    value: float
    text: str
    time: float | None  # the line's own timestamp
    host: str | None
    step: int | None = None


@dataclass
class Series:
    """A thinned, bounded sequence of observations: every `stride`-th offered value is kept."""

    points: list[Observation] = field(default_factory=list)
    stride: int = 1
    offered: int = 0
    last: Observation | None = None  # the newest value, kept whatever the thinning dropped
    negative: bool = False  # a value below 0 was seen: not a loss this rule can judge
    cap: int = SERIES_CAP

    def offer(self, obs: Observation) -> None:
        if obs.value < 0:
            self.negative = True
        if self.last is not None and obs.step is not None and self.last.step is not None and obs.step < self.last.step:
            self.points, self.stride, self.offered = [], 1, 0  # the step went back: a new run in the same log
        self.last = obs
        self.offered += 1
        if (self.offered - 1) % self.stride:
            return
        self.points.append(obs)
        if len(self.points) >= self.cap:
            self.points = self.points[::2]
            self.stride *= 2

    def observed(self) -> list[Observation]:
        """The kept points, ending with the newest value; none when the series is not a loss to judge."""
        last = self.last
        if self.negative or not self.points or last is None:  # a kept point was offered: `last` is set
            return []
        return self.points if self.points[-1] is last else self.points + [last]


def reading(rule: Trend, groups: dict) -> tuple[str, float] | None:
    """(series name, value) of a trend pattern's match, or None when the rule does not follow it: no finite
    value (or 0), or a series it ignores or does not name."""
    name = (groups.get("series") or "").lower()
    value = parse_value(groups.get("value") or "")
    if value is None or value == 0 or name in rule.ignore_series or (rule.series and name not in rule.series):
        return None
    return name, value


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
    elevated: int  # consecutive elevated observations from first_up


def diverged(points: list[Observation], rule: Trend) -> Divergence | None:
    """The first sustained climb of the series above its running low, if it never came back down.

    Elevated means >= rise x the lowest value so far and >= min_rise above it; the low must be at
    most `progress` x the first value (1.0: any low, including the first value, since an excerpt
    often starts at the low, and a loss that explodes from the start has diverged too); the series must still be
    up at its end (>= still_up x the low): a spike the run recovered from is not a diverged run. A series of
    SMOOTH_FROM observations or more is judged on its running median (_smoothed): one batch far below the rest is
    not a low. And the climb must leave the loss's level (_level, _separated, on the values as logged): noise
    around a steady level is not a climb."""
    if len(points) < rule.min_points or any(p.value < 0 for p in points):
        return None
    raw = [p.value for p in points]
    half = 0 if len(points) < SMOOTH_FROM else min(SMOOTH_MAX, max(1, len(points) // SMOOTH_SPAN))
    values = _smoothed(raw, half) if half else raw
    first = values[0]
    low, at = values[0], 0
    i = 1
    while i < len(values):
        threshold = max(low * rule.rise, low + rule.min_rise)
        if values[i] >= threshold and low <= first * rule.progress:
            run = 1
            while i + run < len(values) and values[i + run] >= threshold:
                run += 1
            last = values[-1]
            if (
                run >= rule.sustain
                and last >= low * rule.still_up
                and last >= low + rule.min_rise
                and _level(raw, i, at == 0) >= rule.level
                and _separated(raw, i, run)
            ):
                # said with the values as logged at those lines (a running median is not a line to look up)
                return Divergence(points[at], points[i], max(raw[i:]), points[-1], run)
            i += run
            continue
        if values[i] < low:
            low, at = values[i], i
        i += 1
    return None


SMOOTH_FROM = 12  # a series this long or longer is judged on its running median (see _smoothed) ...
SMOOTH_SPAN = 20  # ... over one observation on each side per this many in the series ...
SMOOTH_MAX = 50  # ... and at most this many


def _smoothed(values: list[float], half: int) -> list[float]:
    """Each value replaced by the median of the values within `half` positions of it (fewer at the ends), kept
    in a sorted window as it slides. A per-batch loss is noisy: one batch far below the rest is not a low the run
    came down to, and a few batches above it are not a climb; the running median follows the loss's level, which
    a diverged run leaves and a noisy healthy one does not."""
    window = sorted(values[: half + 1])
    out = []
    for i in range(len(values)):
        n = len(window)
        out.append(window[n // 2] if n % 2 else (window[n // 2 - 1] + window[n // 2]) / 2)
        if i + half + 1 < len(values):
            bisect.insort(window, values[i + half + 1])
        if i - half >= 0:
            del window[bisect.bisect_left(window, values[i - half])]
    return out


LEVEL_WINDOW = 8  # observations before a climb whose median is the level it climbed from


def _level(values: list[float], i: int, from_start: bool) -> float:
    """How many times the median from the climb to the end (values[i:]) is the level it climbed from: the median of
    the LEVEL_WINDOW values before it. A per-batch loss that is mostly noise has one low value now and then and
    bounces back to where it was (about 1x its level); a diverged loss leaves its level (3x and more). When the low
    is the series' first value (nothing fell before the climb), the level is the highest value before the climb: a
    loss exploding from the start climbs past everything before it, noise does not."""
    before = values[max(0, i - LEVEL_WINDOW) : i]
    level = max(before) if from_start else statistics.median(before)
    after = statistics.median(values[i:])  # from the climb to the end: where the loss stayed
    return after / level if level > 0 else math.inf


SEPARATION_WINDOW = 16  # logged values before a climb that it must rise clear of


def _separated(values: list[float], i: int, run: int) -> bool:
    """The climb's values (values[i : i + run], as logged) rose clear of the values logged just before it: their
    lower quartile is above the upper quartile of the SEPARATION_WINDOW values before it. A diverged loss leaves
    its old range; a noisy one dips and comes back within it."""
    before = sorted(values[max(0, i - SEPARATION_WINDOW) : i])
    after = sorted(values[i : i + run])
    return not before or _quantile(after, 0.25) > _quantile(before, 0.75)


def _quantile(values: list[float], q: float) -> float:
    """The q-quantile of sorted `values`, by linear interpolation."""
    at = q * (len(values) - 1)
    lo = int(at)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (at - lo)


def describe(d: Divergence) -> dict[str, str]:
    """Values for the diagnosis: where the loss bottomed out, where it climbed, where it ended."""

    def at(obs: Observation) -> str:
        if not obs.text and obs.step is not None:  # kept without its text (a watch's stored series)
            return f"step {obs.step}"
        step = _STEP.search(obs.text)
        if step:
            return f"{step.group(1).lower().replace('_', ' ')} {step.group(2)}"
        epoch = _EPOCH.search(obs.text)
        if epoch:
            return f"epoch {epoch.group(1)}"
        return f"line {obs.line}"

    return {
        "low": f"{d.low.value:.4g}",
        "low_at": at(d.low),
        "value": f"{d.first_up.value:.4g}",
        "up_at": at(d.first_up),
        "rise": f"{d.first_up.value / d.low.value:.1f}x" if d.low.value > 0 else "from 0",
        "peak": f"{d.peak:.4g}",
        "last": f"{d.last.value:.4g}",
        "last_at": at(d.last),
    }
