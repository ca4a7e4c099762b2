"""What a scan finds: events, error-like lines, and the result of a scan."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class LastWord:
    """A rank's last line near the end of a source (not the launcher's or the scheduler's)."""

    line: int
    time: float | None
    text: str


@dataclass(frozen=True)
class Stack:
    """A rank's stack as a dump at a source's end printed it (faulthandler on a signal or a timer, py-spy dump):
    its main thread (py-spy's MainThread; faulthandler's last listed, the oldest) as frames "func (file:line)",
    innermost first; `line` is its header's."""

    line: int
    frames: tuple[str, ...]
    timer: float | None = None  # seconds of faulthandler's "Timeout (0:00:15)!" above it: a stall watchdog dumped it


@dataclass
class Event:
    sig_id: str
    kind: str  # "line", "absence", "count" or "trend"
    source: str
    source_index: int
    line: int
    rank: int | None
    host: str | None
    time: float | None  # the line's own timestamp
    eff_time: float | None  # own timestamp, else the last one seen earlier in the source
    text: str
    values: dict[str, str] = field(default_factory=dict)
    context: list[str] = field(default_factory=list)  # lines above (traceback frames)
    after: list[str] = field(default_factory=list)  # the message's continuation lines below
    frames: list[str] = field(default_factory=list)  # every `File "` line of its traceback (see _refine)
    handled: bool = False  # its traceback was printed by a warning: caught, and the process went on
    in_thread: bool = False  # raised in a thread: the process went on without what the thread did
    seq: int = 0  # order of discovery: source order, then line order

    @property
    def at(self) -> float | None:
        """When it happened as far as the log tells: its own timestamp, else the last one above it."""
        return self.time if self.time is not None else self.eff_time


@dataclass
class ErrorLine:
    source: str
    line: int
    rank: int | None
    text: str
    # a traceback's header: the line that ends that traceback, naming what was raised (line number, text)
    raised: tuple[int, str] | None = None


@dataclass
class ScanResult:
    events: list[Event]
    counts: dict[tuple[str, int | None], int]
    errorlike: dict[int | None, list[ErrorLine]]
    ranks: set[int]
    hosts: set[str]
    bytes: int
    lines: int
    sources: list[str]
    skipped: list[str]
    completed: dict[str, int] = field(default_factory=dict)
    # per (source index, rank): the last training progress seen (line, step, time), from the sampled loss lines
    progress: dict[tuple[int, int | None], tuple[int, int | None, float | None]] = field(default_factory=dict)
    world_size: int | None = None  # as the job printed it (world_size=, WORLD_SIZE, NCCL's nranks)
    # per (count signature, rank): its first match, kept whether or not the count reached its threshold: a rank's
    # first sign of a failure that other ranks then show too (one non-finite loss before every rank's NaN error)
    precursors: dict[tuple[str, int | None], Event] = field(default_factory=dict)
    # per (source index, rank): the last line near the source's end saying training finished
    finished: dict[tuple[int, int | None], int] = field(default_factory=dict)
    source_index: dict[str, int] = field(default_factory=dict)  # a source's name -> the index its events carry
    # absence events held back: an operation started as the source's last word, with no completion and no trouble
    # in that source (an excerpt that merely ends there); the job's other sources may still show trouble
    unfinished: list[Event] = field(default_factory=list)
    # per (source index, rank): its last line near the source's end that is not the launcher's or the
    # scheduler's (see _ends.last_words)
    last_words: dict[tuple[int, int | None], LastWord] = field(default_factory=dict)
    # per (source index, rank): the time of its first timed training-progress line and how many it printed
    pace: dict[tuple[int, int | None], tuple[float, int]] = field(default_factory=dict)
    # per (source index, rank): its last loss reading (line, value) from the trend rules' lines
    losses: dict[tuple[int, int | None], tuple[int, float]] = field(default_factory=dict)
    # per (source index, rank): the last timed line near the source's end saying training finished (line, time)
    finished_at: dict[tuple[int, int | None], tuple[int, float]] = field(default_factory=dict)
    # per (source index, rank): its stack as a dump near the source's end printed it (see _ends.stacks)
    stacks: dict[tuple[int, int | None], Stack] = field(default_factory=dict)
    # per (source index, rank): its last lines near the source's end holding name=number values (line, text)
    end_values: dict[tuple[int, int | None], list[tuple[int, str]]] = field(default_factory=dict)
    # per (source index, rank) whose progress lines carry a time of day but no date: (seconds since midnight of
    # the last one, of the first one, how many) (see _stall.stopped_before)
    clocks: dict[tuple[int, int | None], tuple[float, float, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # how sources were read, when not as they came (Source.note)
    # the last frame of each traceback a source ends inside, cut before its exception (see _ends.cut_traceback)
    cut_tracebacks: list[ErrorLine] = field(default_factory=list)
    # events attribution found did not stop the run, each with why (see _attribution.attribute): a healthy verdict's
    # account of what it went past
    set_aside: list[tuple[Event, str]] = field(default_factory=list)
