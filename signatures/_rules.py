"""Rule kinds beyond a plain line match: count thresholds, trends over a value, and absence (an operation that never completes)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

import hyperscan

from . import _trend
from ._context import rank_and_host
from ._events import Event
from ._limits import PRECURSORS_KEPT, TEXT_CHARS
from ._lines import PREFIX_CHARS, parse_clock, parse_prefix, strip_ansi
from ._schema import Count, Signature

if TYPE_CHECKING:
    from ._compiled import _SigRuntime
    from ._engine import Matcher, _SourceState

# what precedes a message: launcher labels, then a timestamp (ISO, logging, glog)
_LINE_PREFIX = re.compile(
    r"^\s*(?:\d{1,6}: )?(?:\[(?:rank|default)\d{1,6}\]:?\s*)?"
    r"(?:\[?\d{4}-\d\d-\d\d[ T][\d:.,]+(?:Z|[+-]\d\d:?\d\d)?\]?\s*|[IWEF]\d{4} [\d:.]+\s+\d+ \S+\]\s*)?"
)


@lru_cache(maxsize=64)
def _skip_regex(source: str) -> re.Pattern[str]:
    """A count rule's `skipped_after`, compiled once."""
    return re.compile(source)


_IT_STEP = re.compile(r"(?i)\b(?:it|iters?)\s*[:=#]?\s*(\d{1,9})\b")


@dataclass(slots=True)
class Track:
    """A rank's training progress in one source, from its loss lines: the last one (line, step, time, loss), and
    the time of the first timed one with how many were timed (its pace)."""

    line: int = 0
    step: int | None = None
    time: float | None = None
    loss: float = 0.0
    first_time: float | None = None
    timed: int = 0
    # the same from time-of-day stamps with no date (see _lines.parse_clock), when the lines carry no full time
    clock: float | None = None
    first_clock: float | None = None
    clocked: int = 0


class RuleKinds:
    """_Scan's rule kinds beyond a plain match: count, trend and absence rules (a mixin: it uses _Scan's state)."""

    # what it uses of _Scan, declared for the type checker
    m: Matcher
    events: dict[tuple[str, int | None], list[Event]]
    completed: dict[str, int]
    precursors: dict[tuple[str, int | None], Event]
    skipped_seen: dict[tuple[int, str, int | None], int]
    seq: int
    tracks: dict[tuple[int, int | None], Track]  # see _trend_line

    if TYPE_CHECKING:

        def _add(self, event: Event, st: _SourceState) -> None: ...

    def _count(
        self,
        st: _SourceState,
        sig: Signature,
        rule: Count,
        rank: int | None,
        text: str,
        event: Callable[[], Event],
        ls: int,
    ) -> None:
        """A count rule (sig's): the event is built when the threshold is reached; later matches update its count.
        The first match of each rank is kept aside too (see ScanResult.precursors). A match right under a line that
        says the step was skipped (the rule's `skipped_after`, same rank or none) is not counted, up to the rule's
        `skipped_max` such matches per rank and source."""
        if rule.skipped_after is not None and self._skipped(st, rule, rank, ls):
            # the first skipped_max such steps are the scaler at work; past them the overflow never stopped (torch.amp's
            # GradScaler has no floor to raise at): count them
            skip_key = (st.index, sig.id, rank)
            self.skipped_seen[skip_key] = self.skipped_seen.get(skip_key, 0) + 1
            if self.skipped_seen[skip_key] <= rule.skipped_max:
                return
        if (sig.id, rank) not in self.precursors and len(self.precursors) < PRECURSORS_KEPT:
            first = self.precursors[(sig.id, rank)] = event()
            self.seq += 1  # in the order of discovery, as kept events are (a line's \r-segments in order)
            first.seq = self.seq
        key = (sig.id, rank) if rule.per_rank else sig.id
        if rule.distinct:
            seen = st.count_texts.setdefault(key, set())
            body = _LINE_PREFIX.sub("", text[:TEXT_CHARS], count=1)  # the same message at another time is a repeat
            if body in seen:
                return
            if len(seen) <= rule.ignore_first + rule.threshold:
                seen.add(body)
        n = st.counts.get(key, 0) + 1
        st.counts[key] = n
        if n == rule.ignore_first + rule.threshold:
            e = event()
            e.kind = "count"
            e.values["count"] = str(n)
            self._add(e, st)
        elif n > rule.ignore_first + rule.threshold:
            for kept in self.events.get((sig.id, rank), []):
                if kept.source_index == st.index and kept.kind == "count":
                    kept.values["count"] = str(n)

    def _skipped(self, st: _SourceState, rule: Count, rank: int | None, ls: int) -> bool:
        assert rule.skipped_after is not None
        said = _skip_regex(rule.skipped_after)
        for line in st.context.lines_just_above(ls, rule.skipped_lines):
            if said.search(line):
                other = rank_and_host(line)[0]
                if other is None or rank is None or other == rank:
                    return True
        return False

    def _scan_trend(self, st: _SourceState, data: bytearray, n_bytes: int, line_base: int, marks: list[int]) -> None:
        """Sample the block's trend lines (see _trend) into per-rank, per-name series."""
        db = self.m.trend_db
        assert db is not None  # scan_source samples trends only when the library has trend rules
        width, per_window = _trend.windows(n_bytes, st.source.size)
        with memoryview(data) as view:
            for w, lo in enumerate(range(0, n_bytes, width)):
                hi = min(lo + width, n_bytes)
                got: list[int] = []

                def on_hit(_lid: int, _s: int, end: int, _f: int, _c: object, got=got) -> bool:
                    got.append(end)
                    return len(got) >= per_window

                try:
                    db.scan(view[lo:hi], on_hit)
                except hyperscan.ScanTerminated:
                    pass
                if not got:
                    continue
                pos, line_no, last_ls = lo, line_base + marks[w], -1
                for end in sorted(got):
                    ls = data.rfind(b"\n", 0, lo + end) + 1
                    if ls < pos:  # the line began in the previous window: it was sampled there, or skipped
                        continue
                    le = data.find(b"\n", lo + end, n_bytes)
                    le = n_bytes if le < 0 else le
                    # only the \r-segment holding the hit: a progress bar rewritten a million times on one
                    # "line" costs one segment, not a million
                    seg_start = max(ls, data.rfind(b"\r", ls, lo + end) + 1)
                    seg_end = data.find(b"\r", lo + end, le)
                    seg_end = le if seg_end < 0 else seg_end
                    if seg_start == last_ls:
                        continue
                    last_ls = seg_start
                    line_no += data.count(b"\n", pos, ls)
                    pos = ls
                    text = strip_ansi(bytes(data[seg_start:seg_end]).decode("utf-8", "replace"))
                    self._trend_line(st, text, line_no)

    def _trend_line(self, st: _SourceState, text: str, line_no: int) -> None:
        prefix = None
        for cp in self.m.trend_patterns:
            sig = cp.sig
            assert sig is not None and sig.trend is not None  # trend patterns belong to trend rules
            mt = cp.regex.search(text)
            if mt is None or self.m.runtime[sig.id].excluded(text.encode()):
                continue
            groups = mt.groupdict()
            value = _trend.parse_value(groups.get("value") or "")
            if value is None:
                continue
            if prefix is None:
                prefix = parse_prefix(text, st.year)
            rank = prefix.rank if prefix.rank is not None else st.source.rank_hint
            step = _trend.step_of(text)
            at = step
            if at is None:  # "it 40 loss=0.78": a step for the rank's progress (not for the trend's series)
                it = _IT_STEP.search(text)
                at = int(it.group(1)) if it else None
            # any training loss the rank printed shows it going on (a "contrastive_loss" too, which the rule
            # does not follow); only the series the rule follows are judged
            track = self.tracks.get((st.index, rank))
            if track is None:
                track = self.tracks[(st.index, rank)] = Track()
            if line_no >= track.line:
                track.line, track.step, track.time, track.loss = line_no, at, prefix.time, value
            if prefix.time is not None:  # the pace of progress: from the first timed line, how many
                if track.first_time is None:
                    track.first_time = prefix.time
                track.timed += 1
            elif (clock := parse_clock(text[:PREFIX_CHARS])) is not None:  # a time of day, no date
                if line_no >= track.line:
                    track.clock = clock
                if track.first_clock is None:
                    track.first_clock = clock
                track.clocked += 1
            read = _trend.reading(sig.trend, groups)
            if read is None:
                continue
            name, value = read
            series = st.series.setdefault((sig.id, rank, name), _trend.Series())
            series.offer(
                _trend.Observation(
                    line_no, value, text[: _trend.EVIDENCE_CHARS], prefix.time, prefix.host or st.source.host_hint, step
                )
            )
            return

    def _finish_trends(self, st: _SourceState) -> None:
        for (sig_id, rank, name), series in st.series.items():
            sig = self.m.runtime[sig_id].sig
            assert sig.trend is not None  # only trend rules have series
            found = _trend.diverged(series.observed(), sig.trend)
            if found is None:
                continue
            up = found.first_up
            values = _trend.describe(found)
            if name:
                values["series"] = name
            event = Event(
                sig_id, "trend", st.source.name, st.index, up.line, rank, up.host, up.time, up.time, up.text, values
            )
            event.context = [f"{found.low.line}: {found.low.text}"]
            event.after = [f"{found.last.line}: {found.last.text}"] if found.last is not up else []
            self._add(event, st)

    def _check_pending(self, st: _SourceState, data: bytes | bytearray, offset: int, n_bytes: int) -> None:
        """Clear pending absence rules that see completion or progress in data[offset:n_bytes]."""
        for sig_id in list(st.pending):
            seen = self._progress_seen(self.m.runtime[sig_id], data, offset, n_bytes)
            if seen is not None:
                del st.pending[sig_id]
                if seen == "complete":
                    self.completed[sig_id] = self.completed.get(sig_id, 0) + 1
                    st.completed[sig_id] = st.completed.get(sig_id, 0) + 1

    @staticmethod
    def _progress_seen(
        rt: _SigRuntime, data: bytes | bytearray, offset: int, n_bytes: int
    ) -> Literal["complete", "progress"] | None:
        """What the first line of data[offset:n_bytes] that shows rt's absence rule moving shows, or None."""
        assert rt.sig.absence is not None and rt.progress_db is not None  # only absence rules are pending
        n_complete = len(rt.sig.absence.complete)  # the progress patterns come after the completion ones
        view = memoryview(data)[offset:n_bytes]
        found = []

        def on_hit(lid: int, _s: int, end: int, _f: int, _c: object) -> bool | None:
            ls = data.rfind(b"\n", 0, offset + end) + 1
            le = data.find(b"\n", offset + end, n_bytes)
            line = strip_ansi(bytes(data[ls : le if le >= 0 else n_bytes]).decode("utf-8", "replace"))
            for cp in rt.progress[lid]:
                if cp.regex.search(line):
                    found.append(cp.pattern_index < n_complete)  # completion, not progress
                    return True
            return None

        try:
            rt.progress_db.scan(view, on_hit)
        except hyperscan.ScanTerminated:
            pass
        view.release()
        if not found:
            return None
        return "complete" if found[0] else "progress"
