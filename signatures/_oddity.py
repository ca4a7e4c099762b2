"""The rank that differs from the rest at the end, when no error line names it.

Two kinds of evidence a job leaves at its end, both read by _ends from each source's last lines:

- **Stacks.** A hung job killed by its time limit or by hand often prints where every rank was (faulthandler
  registered for SIGTERM or on a timer, py-spy dump). The ranks that wait on a peer all wait in the same place,
  inside a collective (DDP's all-reduce under backward, a barrier); the rank that holds them up is somewhere
  else (a lock, a read, its own code). With three ranks or more the lone stack among identical ones is that
  rank; with any number, so is the only rank not inside a collective or autograd.
- **Values.** Ranks that run the same code print the same lines with the same numbers in them ("buckets=32",
  "seq_len=512"), apart from what is each rank's own (its loss, its pid, its rank) or a measurement (a time,
  memory). A rank that printed a different number in the same line where all the others agree ("buckets=40")
  is where their collectives stopped matching (at least three ranks, so that a majority exists).

Both are evidence, not proof: they are used only where the log's errors cannot tell the rank (a size mismatch
seen by one receiver, peers lost with nobody named, a hang ended by the scheduler), and say so (medium).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cached_property

from ._ends import COUNT, VALUE
from ._events import ErrorLine, Event, LastWord, ScanResult
from ._lines import EXCEPTION_LINE

# a frame inside a collective or autograd's engine (DDP all-reduces gradients from backward's hooks)
WAITING = re.compile(
    r"torch/distributed/|torch/autograd/|torch/_tensor\.py|nn/parallel/distributed\.py|"
    r"^(?:wait|barrier|all_reduce|allreduce|broadcast|all_gather|reduce_scatter|recv|send|monitored_barrier) "
)
# a value's name that is each rank's own, or a measurement that differs between ranks anyway
_OWN = re.compile(
    r"rank|node|host|pid|tid|port|(?:^|_)id$|device|gpu|cuda|seed|worker|local|time|elapsed|sec|_ms$|^ms$|dur|"
    r"mem|rss|alloc|speed|throughput|per_s|_s$|eta|wall|clock|loss|grad|norm|ppl|acc",
    re.IGNORECASE,
)
# a count's unit of time, size or rate: a measurement, not a count of things
_UNIT = re.compile(
    r"(?:s|ms|us|ns|secs?|seconds?|mins?|minutes?|hours?|hrs?|days?|bytes?|[kmgtp]i?b|it|its|steps?|iters?|"
    r"iterations?|percent|pct|tokens?|samples?|examples?)$",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
MIN_RANKS = 3  # an odd one out needs a majority to differ from


@dataclass(frozen=True)
class Odd:
    """The rank that differs, where its evidence is (source, line), and what differs, in words."""

    rank: int
    source: str
    line: int
    text: str
    others_waiting: bool = False  # the other ranks' stacks are inside a collective (they waited for this one)

    def place(self, event: Event, scan: ScanResult, **changes) -> Event:
        """`event` moved onto this evidence: its rank, source, line and text (with `changes`)."""
        return dataclasses.replace(
            event,
            source=self.source,
            source_index=scan.source_index.get(self.source, event.source_index),
            line=self.line,
            rank=self.rank,
            time=None,
            text=self.text,
            **changes,
        )


class Oddities:
    """odd_stack and odd_value of one scan, each worked out when first asked for."""

    def __init__(self, scan: ScanResult):
        self.scan = scan

    @cached_property
    def stack(self) -> Odd | None:
        return odd_stack(self.scan)

    @cached_property
    def value(self) -> Odd | None:
        return odd_value(self.scan)

    @cached_property
    def skipped(self) -> Odd | None:
        return odd_skip(self.scan)

    def elsewhere(self, among: list[int]) -> Odd | None:
        return went_elsewhere(self.scan, among)

    def traceback_after(self, source: str, line: int) -> ErrorLine | None:
        return traceback_after(self.scan, source, line)


TRACEBACK_AFTER_LINES = 500  # how far below a line naming no rank its rank's traceback is looked for


def traceback_after(scan: ScanResult, source: str, line: int) -> ErrorLine | None:
    """The first error-like line below `line` in `source`, within TRACEBACK_AFTER_LINES, that names a rank, when
    it starts a Python traceback or is an exception: lines a GPU kernel or a C library printed without the
    launcher's prefix are followed by the traceback of the rank they stopped."""
    below = [
        e
        for rank, lines in scan.errorlike.items()
        if rank is not None
        for e in lines
        if e.source == source and line < e.line <= line + TRACEBACK_AFTER_LINES
    ]
    if not below:
        return None
    nearest = min(below, key=lambda e: e.line)
    return (
        nearest if "Traceback (most recent call last)" in nearest.text or EXCEPTION_LINE.search(nearest.text) else None
    )


def _name(scan: ScanResult, source: int) -> str:
    return scan.sources[source] if source < len(scan.sources) else "?"


def _ranks(ranks) -> str:
    ranks = sorted(ranks)
    return ", ".join(str(r) for r in ranks[:-1]) + f" and {ranks[-1]}" if len(ranks) > 1 else str(ranks[0])


def _all(ranks) -> str:
    return "both" if len(ranks) == 2 else "all"


def _lone(groups: dict) -> tuple[object, int, object, list[int]] | None:
    """Of ranks grouped by what they showed, the one rank alone against a group of two or more that agree:
    (its key, the rank, the others' key, the others), when there are exactly those two groups."""
    if len(groups) != 2:
        return None
    (lone, alone), (common, rest) = sorted(groups.items(), key=lambda kv: len(kv[1]))
    return (lone, alone[0], common, rest) if len(alone) == 1 and len(rest) >= 2 else None


def odd_stack(scan: ScanResult) -> Odd | None:
    """The rank whose stack at the end differs from the others' (see the module's docstring), or None."""
    per: dict[int, tuple[int, int, tuple[str, ...]]] = {}  # rank -> (source index, line, frames)
    for (source, rank), stack in sorted(scan.stacks.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        if rank is not None and rank not in per:
            per[rank] = (source, stack.line, stack.frames)
    groups: dict[tuple[str, ...], list[int]] = {}
    for rank, (_, _, frames) in per.items():
        groups.setdefault(frames, []).append(rank)
    waiting = sorted(r for r, (_, _, frames) in per.items() if any(WAITING.search(f) for f in frames))
    free = [r for r in per if r not in waiting]
    found = _lone(groups) if len(per) >= MIN_RANKS else None
    if found is not None:
        lone, rank, common, rest = found
        others_waiting = any(WAITING.search(f) for f in common)  # type: ignore[attr-defined]
        text = f"ranks {_ranks(rest)} {_all(rest)} at {common[0]} and rank {rank} alone at {lone[0]}"  # type: ignore[index]
    elif len(free) == 1 and waiting:
        rank, others_waiting = free[0], True
        text = (
            f"{'rank' if len(waiting) == 1 else 'ranks'} {_ranks(waiting)} waiting inside a collective and rank "
            f"{rank} alone outside one, at {per[rank][2][0]}"
        )
    else:
        return None
    source, line, _ = per[rank]
    return Odd(
        rank,
        _name(scan, source),
        line,
        f"the stacks printed at the end show {text}: the others waited for it",
        others_waiting,
    )


def odd_value(scan: ScanResult) -> Odd | None:
    """The rank that printed a different number where every other rank printed the same one, in the same line
    near their ends (see the module's docstring); None when no rank does, or several do."""
    # (the line's shape, the value's name) -> rank -> (value, as printed, source index, line, text): each rank's last
    seen: dict[tuple[str, str], dict[int, tuple[str, str, int, int, str]]] = {}
    for (source, rank), kept in scan.end_values.items():
        if rank is None:
            continue
        for line, text in kept:
            shape = _NUMBER.sub("#", text)
            pairs = [(*m.groups(), m.group(0)) for m in VALUE.finditer(text)]
            pairs += [(m.group(2), m.group(1), m.group(0)) for m in COUNT.finditer(text)]
            for name, value, shown in pairs:
                if not _OWN.search(name) and not _UNIT.match(name):
                    seen.setdefault((shape, name), {})[rank] = (value, shown, source, line, text)
    odd: dict[int, tuple[tuple[str, str, int, int, str], str, list[int]]] = {}
    for by_rank in seen.values():
        if len(by_rank) < MIN_RANKS:
            continue
        counts: dict[str, list[int]] = {}
        for rank, (value, *_) in by_rank.items():
            counts.setdefault(value, []).append(rank)
        alone = _lone(counts)
        if alone is not None:
            _, lone_rank, _, others = alone
            odd.setdefault(lone_rank, (by_rank[lone_rank], by_rank[others[0]][1], others))
    if len(odd) != 1:
        return None
    ((rank, ((_, shown, source, line, text), common, rest)),) = odd.items()
    return Odd(
        rank,
        _name(scan, source),
        line,
        f'rank {rank} printed "{shown}" where ranks {_ranks(rest)} {_all(rest)} printed "{common}": {text[:160]}',
    )


# a rank's own words that it left out a collective the others then ran: "skipping metric sync", "skipped the
# all_reduce for this batch", "skip barrier (no data)"
_SKIPPED = re.compile(
    r"(?i)\bskip(?:s|ping|ped)?\b[^\n]{0,60}?\b(?:sync(?:hroni[sz]\w*)?|all[_ -]?reduce|all[_ -]?gather|reduce[_ -]?scatter|"
    r"barrier|broadcast|collective)s?\b"
)


def odd_skip(scan: ScanResult) -> Odd | None:
    """The one rank whose last word says it skipped a collective or a sync (its code took a branch the others did
    not: they went into the collective it left out); None when no rank or several ranks say so."""
    said = [
        (rank, source, word)
        for (source, rank), word in scan.last_words.items()
        if rank is not None and _SKIPPED.search(word.text)
    ]
    if len({rank for rank, _, _ in said}) != 1:
        return None
    rank, source, word = said[0]
    return Odd(
        rank, _name(scan, source), word.line, f"rank {rank}'s last word says it skipped a collective: {word.text[:160]}"
    )


def went_elsewhere(scan: ScanResult, among: list[int]) -> Odd | None:
    """Of the ranks `among` (those that did not report a timeout the others did), the one whose last word is not
    its last training step: it logged a step like the others, then printed something else (a flush, a save, an
    eval) and nothing more, while the others' last word is that step. It went somewhere the others did not follow,
    and stayed there. None unless exactly one such rank, and at least one other whose last word is its step."""
    gone: list[tuple[int, int, LastWord]] = []
    stayed: list[tuple[int, int, LastWord]] = []
    for (source, rank), word in scan.last_words.items():
        if rank not in among:
            continue
        mine = scan.progress.get((source, rank))
        if mine is None:
            continue
        (gone if word.line > mine[0] else stayed).append((rank, source, word))
    if len({rank for rank, _, _ in gone}) != 1 or not stayed:
        return None
    rank, source, word = gone[0]
    return Odd(
        rank,
        _name(scan, source),
        word.line,
        f"rank {rank} logged its last step like the others, then printed this and nothing more: {word.text[:160]}",
    )
