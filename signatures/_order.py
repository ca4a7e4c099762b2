"""When events happened relative to each other, as far as the logs tell: line order within one source, else the
clock. Untimed lines (a traceback) take the last stamp above them; a burst is lines close in the file or in time."""

from __future__ import annotations

import math

from ._events import Event
from ._lines import TORCHRUN_ATTEMPT

BURST_LINES = 400


BURST_SECONDS = 60.0


def _time_key(events: list[Event]):
    """Events in the order they happened: line order within one source; across sources by time. An event with no
    time at all (no stamped line above it) happened before the next timed event below it in its source: it sorts
    just before that one, not after every timed event (a first attempt's traceback printed before any timestamp)."""
    single_source = len({e.source_index for e in events}) <= 1
    bound: dict[int, float] = {}  # id(event) -> the time it happened at or before
    before_restart: set[int] = set()  # ids of untimed events bounded by a later torchrun attempt's first stamp
    if not single_source:
        later: dict[int, float] = {}  # per source, the earliest time of a timed event below the current line
        # torchrun --log-dir's attempt_N: an untimed event of one attempt happened before every event of a later one
        attempt = {id(e): int(found.group(1)) for e in events if (found := TORCHRUN_ATTEMPT.search(e.source))}
        first_of: dict[int, float] = {}
        for e in events:
            if id(e) in attempt and e.eff_time is not None:
                first_of[attempt[id(e)]] = min(e.eff_time, first_of.get(attempt[id(e)], math.inf))
        for e in sorted(events, key=lambda e: (e.source_index, -e.line)):
            if e.eff_time is not None:
                later[e.source_index] = min(e.eff_time, later.get(e.source_index, math.inf))
            else:
                restart = min((t for n, t in first_of.items() if n > attempt.get(id(e), math.inf)), default=math.inf)
                own = later.get(e.source_index, math.inf)
                bound[id(e)] = min(own, restart)
                if restart <= own and restart < math.inf:
                    before_restart.add(id(e))

    def key(e: Event):
        if single_source:
            return (0.0, 0, e.source_index, e.line)
        t = e.eff_time if e.eff_time is not None else bound.get(id(e), math.inf)
        # an untimed line of an earlier attempt comes before the later attempt's first stamp, even where another
        # source (the console) carries the same stamp; otherwise ties keep each source's line order
        return (t, 0 if id(e) in before_restart else 1, e.source_index, e.line)

    return key


def _before(a: Event, b: Event) -> bool:
    """a happened before b, as far as the logs tell (line order in one source, else time)."""
    if a.source_index == b.source_index:
        return a.line < b.line
    return a.eff_time is not None and b.eff_time is not None and a.eff_time <= b.eff_time


def _not_after(a: Event, b: Event, slack: float = 0.0) -> bool:
    """a is not shown to have happened after b: before it in one source, or not later by the clock, or untimed.
    `b` without a timestamp of its own (a traceback) happened at or after the last stamp above it: with
    `slack`, an `a` up to that many seconds later may still have come first."""
    if a.source_index == b.source_index:
        return a.line < b.line
    if a.eff_time is None or b.eff_time is None:
        return True
    return a.eff_time <= b.eff_time + (0.0 if b.time is not None else slack)


def _same_rank(a: Event, b: Event) -> bool:
    return a.rank is None or b.rank is None or a.rank == b.rank


def _close(a: Event, b: Event) -> bool:
    if not _same_rank(a, b):
        return False
    if a.source_index == b.source_index and abs(a.line - b.line) <= BURST_LINES:
        return True
    return a.eff_time is not None and b.eff_time is not None and abs(a.eff_time - b.eff_time) <= BURST_SECONDS


SIGN_SLACK = 5.0  # seconds a first sign may follow an untimed failure's last stamp and still come before it


def _plainly_before(a: Event, b: Event) -> bool:
    """a came before b as the logs show it: earlier in one source (a line's \r-segments in order), else stamped
    earlier."""
    if a.source_index == b.source_index:
        return (a.line, a.seq) < (b.line, b.seq)
    return a.time is not None and b.time is not None and a.time < b.time


def _plainly_after(e: Event, w: Event) -> bool:
    """e came after the launcher's record w by their own timestamps (an untimed line is not shown to)."""
    return e.at is not None and w.time is not None and e.at > w.time + 1.0
