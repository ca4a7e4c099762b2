"""Floods: windows of a block counted in bulk from the plans of their lines' shapes, with the result of line by line."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, count, islice, repeat
from operator import and_, is_, is_not, itemgetter, not_, or_, sub
from typing import TYPE_CHECKING, cast

from ._compiled import _BENIGN
from ._context import ZERO_DIGITS, time_of
from ._flood import LINE_PATH, NO_LITERAL, SHAPE_CHARS, Firing, Plan, shapes_of
from ._limits import ERRORLIKE_PER_RANK, FLOOD_BYTES, MEMO_ENTRIES, SHAPE_IDS_KEPT
from ._lines import _ANSI, PREFIX_CHARS, RAISE_LINE, year_of
from ._required import required

if TYPE_CHECKING:
    from ._compiled import _Lazy
    from ._engine import Matcher, _SourceState
    from ._events import ErrorLine

_NON_ASCII = re.compile(rb"[\x80-\xff]")
# anchors in a regex's source: ^ (not a class's negation), $, \A, \z (conservatively: also escaped, or in a class)
_ANCHOR = re.compile(r"(?<!\[)\^|\$|\\[AzZ]")
_ANSI_BYTES = re.compile(_ANSI.pattern.encode())


@dataclass
class _Window:
    """Lines of a block that bulk counting can take (see _Scan._plan_window)."""

    end: int  # where they end
    rest: int  # the lines from `end` to here go line by line
    raw: bytes  # the lines of [lo, end) as one text, escape codes removed
    lines: list[bytes]  # their texts
    shapes: list[bytes]
    plans: list[Plan]
    groups: dict[Plan, list[int]]  # the lines of each plan that holds a literal
    at: Callable[[int], int]  # where line i starts in the block


FEW_PLANS = 6  # up to this many distinct plans in a window, its lines are grouped by one C pass per plan


def _by_plan(plans: list[Plan]) -> dict[Plan, list[int]]:
    """The indices of each plan's lines, in order (NO_LITERAL's left out): a pass in C per distinct plan when a
    window has few (a flood of one rank's lines), else one pass in Python (a flood over many ranks has a shape, and
    so a plan, per width of the rank number and per kind of line)."""
    distinct = dict.fromkeys(plans)
    distinct.pop(NO_LITERAL, None)
    if len(distinct) <= FEW_PLANS:
        return {plan: list(compress(count(), map(is_, plans, repeat(plan)))) for plan in distinct}
    groups: dict[Plan, list[int]] = {plan: [] for plan in distinct}
    for i, plan in enumerate(plans):
        if plan is not NO_LITERAL:
            groups[plan].append(i)
    return groups


class BulkCounting:
    """_Scan's counting of flood windows in bulk (a mixin: it uses _Scan's state)."""

    # what it uses of _Scan, declared for the type checker
    m: Matcher
    counts: Counter[tuple[str, int | None]]
    errorlike: dict[int | None, list[ErrorLine]]
    ranks: set[int]
    hosts: set[str]
    full_ranks: dict[str, set[int | None]]
    full_errorlike: set[int | None]
    numbered: tuple[int, int]
    shape_ids: dict[bytes, int]  # see _shape_ids
    id_shapes: list[bytes]
    window_ids: tuple[list[bytes] | None, list[int]]
    window_hits: tuple[bytes | None, dict[object, bool]]  # see _anywhere: regexes and literals -> found
    above_hits: dict[tuple, dict[tuple[int, ...], bool]]  # (regex, lines above) -> run of shape ids -> hit

    if TYPE_CHECKING:

        def _number(self, data: bytearray, ls: int) -> int: ...
        def _scan_lines(self, st: _SourceState, data: bytearray, lo: int, hi: int, watch: bool = False) -> int: ...
        def _hit(self, regex: _Lazy, subject: bytes, shape: bytes | None) -> bool: ...
        def _remember(self, regex: _Lazy, shape: bytes, hit: bool) -> None: ...
        def _known(self, regex: _Lazy) -> dict[bytes, bool]: ...
        def _quota(self, key: tuple) -> int: ...
        def _errorlike_full(self, rank: int | None) -> bool: ...

    def _bulk(self, st: _SourceState, data: bytearray, lo: int, hi: int) -> tuple[int, int]:
        """Count lines of data[lo:hi] in bulk, from the plans of their shapes (see _flood), up to the first line
        that can add an event (its signature lacks events for its rank, or the error-like list does). Such lines
        do only what _candidate would do to them: be counted, name their rank and host, and perhaps be the last
        error-like line or the last stamped prefix.

        Returns (done, rest): the lines of [lo, done) were counted, those of [done, rest) are to go line by line
        next (a line that can add an event or that no plan decides, or all of the window if it is too varied)."""
        w = self._plan_window(data, lo, hi)
        if w is None:
            return lo, hi
        line_no = self._number(data, lo)
        hint = st.source.rank_hint
        special: set[int] = set()  # lines that may add an event (a superset): they go line by line
        work = []
        for plan, idxs in w.groups.items():
            picked = list(map(w.lines.__getitem__, idxs))
            ranks = list(map(int, map(itemgetter(plan.rank), picked))) if plan.rank else [None] * len(idxs)
            eff = ranks if plan.rank else [hint] * len(idxs)  # the rank an event of the line would have
            if plan.errorlike:  # ranks whose error-like list is full stay full: skipped as a set
                for rank in set(eff) - self.full_errorlike:
                    if self._errorlike_full(rank):
                        self.full_errorlike.add(rank)
                        continue
                    room = ERRORLIKE_PER_RANK - len(self.errorlike.get(rank, ()))
                    special.update(islice((i for i, r in zip(idxs, eff, strict=True) if r == rank), room))
            firings = []
            for f in plan.firings:
                fires = self._fires(st, f, idxs, picked, w, lo, line_no)
                full = self.full_ranks.setdefault(f.sig.id, set()) if f.kind == "plain" else set()
                for rank in set(compress(eff, fires)) - full:  # a quota only ever shrinks: a full rank stays full
                    if f.kind == "plain":
                        room = self._quota((f.sig.id, rank))
                        if not room:
                            full.add(rank)
                    else:
                        room = len(idxs) if -1 not in st.all_seen.get(f.sig.id, {}) else 0
                    if room:
                        special.update(
                            islice((i for i, hit, r in zip(idxs, fires, eff, strict=True) if hit and r == rank), room)
                        )
                firings.append((f, fires))
            work.append((plan, idxs, picked, ranks, firings))
        if (
            len(special) > len(w.shapes) // 4
        ):  # lines that add events are still common: all of the window goes line by line
            return lo, hi
        candidates = sum(len(idxs) for _, idxs, *_ in work)
        start = 0
        for stop in sorted(special):  # counted in bulk up to the line, which the line path takes, and so on
            self._count_in_bulk(st, w, work, start, stop, line_no)
            self.numbered = (w.at(stop), line_no + stop)
            self._scan_lines(st, data, w.at(stop), w.at(stop + 1))
            start = stop + 1
        self._count_in_bulk(st, w, work, start, len(w.shapes), line_no)
        self.numbered = (w.end, line_no + len(w.shapes))
        st.flood = candidates * FLOOD_BYTES >= w.end - lo
        return w.end, w.rest

    def _count_in_bulk(self, st: _SourceState, w: _Window, work: list, start: int, stop: int, line_no: int) -> None:
        """What _candidate would do to lines start..stop-1 of window `w`, none of which adds an event: count them,
        note their ranks and hosts, and perhaps the last error-like line or the last stamped prefix."""
        if start >= stop:
            return
        hint = st.source.rank_hint
        prefixed: list[int] = []  # the lines whose prefix _candidate would parse
        for plan, idxs, picked, ranks, firings in work:
            a, b = bisect_left(idxs, start), bisect_left(idxs, stop)
            if a == b:
                continue
            who = [plan.errorlike] * (b - a)
            for f, fires in firings:
                if f.kind == "plain":
                    if plan.rank:  # (signature, rank) of each line that fires, counted in one pass
                        self.counts.update(zip(repeat(f.sig.id), compress(ranks[a:b], fires[a:b])))
                    elif many := sum(fires[a:b]):
                        self.counts[(f.sig.id, hint)] += many
                who = list(map(or_, who, fires[a:b]))
            if plan.rank:
                self.ranks.update(compress(ranks[a:b], who))
            if plan.host:
                hosts = {h.decode() for h in map(itemgetter(plan.host), compress(picked[a:b], who))}
                st.hosts |= hosts
                self.hosts |= hosts
            prefixed.extend(compress(idxs[a:b], who))
        self._last_lines(st, w.lines, w.plans, prefixed, line_no, start, stop)

    def _plan_window(self, data: bytearray, lo: int, hi: int) -> _Window | None:
        """What bulk counting can take of data[lo:hi]: the lines of [lo, end), which it can plan, up to those of
        [end, rest), which it cannot (a carriage return, a non-ASCII byte, longer than SHAPE_CHARS, of plan
        LINE_PATH) and which go line by line. None when the window is too varied to be a flood: then all of it does."""
        end, rest = max(lo, data.rfind(b"\n", lo, hi) + 1), hi  # whole lines
        raw = bytes(data[lo:end])
        odd = raw.find(b"\r")  # a \r splits a line; a non-ASCII byte makes its text differ from its bytes
        if not raw.isascii():
            non_ascii = _NON_ASCII.search(raw)
            assert non_ascii is not None  # raw is not ASCII
            first = non_ascii.start()
            odd = first if odd < 0 else min(odd, first)
        if odd >= 0:  # bulk counting stops at that line, the line path takes it, and bulk counting resumes
            end = lo + raw.rfind(b"\n", 0, odd) + 1
            rest = data.find(b"\n", lo + odd, hi) + 1 or hi
            raw = raw[: end - lo]
        stripped = b"\x1b" in raw
        if stripped:  # the text of a line is its bytes less its escape codes
            raw = _ANSI_BYTES.sub(b"", raw)
        shapes = shapes_of(raw)
        sizes = list(map(len, data[lo:end].split(b"\n") if stripped else shapes))  # the lines' lengths in data

        def at(i: int) -> int:
            """Where line i of the window starts in data."""
            return lo + sum(sizes[:i]) + i

        long = next(compress(count(), map(SHAPE_CHARS.__lt__, map(len, shapes))), None)
        if long is not None:  # likewise
            end, rest = at(long), at(long + 1)
            del shapes[long:]
        plans = self.m.plans.of(shapes, max(1, len(shapes) // 8)) if shapes else []  # a flood repeats a few shapes
        if plans is None:
            return None
        if (
            LINE_PATH in plans
        ):  # the line path takes this line and the like of it that follow, then bulk counting resumes
            cut = plans.index(LINE_PATH)
            after = next(compress(count(cut), map(is_not, plans[cut:], repeat(LINE_PATH))), len(plans))
            end, rest = at(cut), at(after)
            del shapes[cut:], plans[cut:]
        groups = _by_plan(plans)
        lines = raw.split(b"\n")
        if b"raise" in raw:  # a `raise` quoted in a traceback is skipped, as the line path skips it
            groups = {
                plan: kept
                for plan, idxs in groups.items()
                if (kept := [i for i in idxs if not (b"raise" in lines[i] and RAISE_LINE.match(lines[i]))])
            }
        return _Window(end, rest, raw, lines, shapes, plans, groups, at)

    def _last_lines(
        self,
        st: _SourceState,
        lines: list[bytes],
        plans: list[Plan],
        prefixed: list[int],
        line_no: int,
        start: int,
        stop: int,
    ) -> None:
        """After lines start..stop-1 of a window were counted in bulk: their last error-like line and their last
        stamped prefix, looked for from the end (and the source's year from its first stamped prefix, if this is
        where it comes from)."""
        for i in range(stop - 1, start - 1, -1):
            if line_no + i <= st.last_error_line:
                break
            if plans[i].may_err and any(rx.hit(lines[i]) for rx in self.m.errorlike) and not _BENIGN.hit(lines[i]):
                st.last_error_line = line_no + i
                break
        prefixed.sort()
        for i in prefixed if st.year is None else ():
            if plans[i].clock:
                time = time_of(lines[i][:PREFIX_CHARS].decode(), None)
                if time is not None:
                    st.year = year_of(time)
                    break
        for i in reversed(prefixed):
            if plans[i].clock:
                time = time_of(lines[i][:PREFIX_CHARS].decode(), st.year)
                if time is not None:
                    st.last_time = time
                    st.untimed.clear()  # older
                    break

    def _fires(
        self,
        st: _SourceState,
        f: Firing,
        idxs: list[int],
        picked: list[bytes],
        w: _Window,
        lo: int,
        line_no: int,
    ) -> list[bool]:
        """Which of the lines `picked` (lines[i] for i in idxs) fire the signature of Firing `f`."""
        shapes = w.shapes
        if f.always:
            fires = [True] * len(picked)
        else:
            fires = [False] * len(picked)
            for test in f.tests:
                if not test.before:
                    found = self._hits_by_shape(test.regex, picked, list(map(shapes.__getitem__, idxs)))
                else:
                    found = self._hits_with_above(st, test, idxs, w, lo, line_no)
                fires = list(map(or_, fires, found))
        for veto in f.vetoes:
            vetoed = self._hits_by_shape(veto.regex, picked, list(map(shapes.__getitem__, idxs)))
            fires = list(map(and_, fires, map(not_, vetoed)))
        return fires

    def _hits_by_shape(self, regex, picked: list[bytes], shapes: list[bytes]) -> list[bool]:
        """regex.hits(picked); a digit-blind regex runs once per distinct shape (a flood has few), remembered."""
        if not regex.blind:
            return regex.hits(picked)
        known = self._known(regex)
        found = list(map(known.get, shapes))
        missing = [k for k, hit in enumerate(found) if hit is None]
        if missing:
            distinct = list(dict.fromkeys(map(shapes.__getitem__, missing)))
            now = dict(zip(distinct, regex.hits(distinct), strict=True))
            for shape, hit in now.items():
                self._remember(regex, shape, hit)
            for k in missing:
                found[k] = now[shapes[k]]
        return cast(list[bool], found)  # every None was filled in just above

    def _anywhere(self, regex: _Lazy, raw: bytes) -> bool:
        """Whether `regex` may match a piece of `raw` that starts and ends at line boundaries: False only when it
        has no ^ or $ (which match at a piece's ends, not inside the whole) and matches nowhere in `raw`."""
        if _ANCHOR.search(regex.source):
            return True
        if self.window_hits[0] is not raw:
            self.window_hits = (raw, {})
        known = self.window_hits[1]
        if regex not in known:
            literals = required(regex.source, regex.caseless)  # one of them in every match: a substring test first
            known[regex] = (literals is None or any(map(self._in_window, literals))) and regex.hit(raw)
        return known[regex]

    def _in_window(self, literal: bytes) -> bool:
        """Whether `literal` is in the current window's text (window_hits' own), remembered: the regexes a window
        asks _anywhere about share literals."""
        raw, known = self.window_hits
        assert raw is not None  # set by _anywhere before it asks
        found = known.get(literal)
        if found is None:
            found = known[literal] = literal in raw
        return found

    def _shape_ids(self, shapes: list[bytes]) -> list[int]:
        """Small numbers standing for `shapes` (a window's), the same for the same shape in every window: a run of
        lines' shapes is then a tuple of ints, quick to hash (see _hits_with_above)."""
        if self.window_ids[0] is not shapes:
            known = self.shape_ids
            new = set(shapes).difference(known)
            if len(known) + len(new) > SHAPE_IDS_KEPT:  # forget them all, and what was remembered by them
                known.clear()
                self.id_shapes.clear()
                self.above_hits.clear()
                new = set(shapes)
            for shape in new:
                known[shape] = len(self.id_shapes)
                self.id_shapes.append(shape)
            self.window_ids = (shapes, list(map(known.__getitem__, shapes)))
        return self.window_ids[1]

    def _hits_with_above(
        self, st: _SourceState, test, idxs: list[int], w: _Window, lo: int, line_no: int
    ) -> list[bool]:
        """test.regex on each line lines[i] (i in idxs) joined to the test.before lines above it, as _candidate
        joins them: looked up by the joined shapes when the regex is digit-blind, the rest run in one batch.
        A line joined to the lines above it is a piece of the window's text between newlines: a regex without
        anchors that matches nowhere in the window matches none of them (one RE2 search instead of a test each)."""
        n, regex = test.before, test.regex
        lines, shapes = w.lines, w.shapes
        near = bisect_left(idxs, n)  # idxs[:near] have lines above from before the window
        found: list[bool | None] = [None] * len(idxs)
        if not self._anywhere(regex, w.raw):
            found[near:] = [False] * (len(idxs) - near)
        elif regex.blind:  # the joined shapes decide: each distinct run of shapes is tested once, and remembered
            ids, picked = self._shape_ids(shapes), idxs[near:]
            keys = list(
                zip(*(map(ids.__getitem__, map(sub, picked, repeat(n - j))) for j in range(n + 1)), strict=True)
            )
            memo = self.above_hits.setdefault((regex, n), {})
            got = list(map(memo.get, keys))
            if None in got:
                if len(memo) > MEMO_ENTRIES:  # forget, and test all of these anew
                    memo.clear()
                    got = [None] * len(keys)
                new = list(dict.fromkeys(compress(keys, map(is_, got, repeat(None)))))
                joined = [b"\n".join(map(self.id_shapes.__getitem__, key)) for key in new]
                memo.update(zip(new, self._hits_by_shape(regex, joined, joined), strict=True))
                got = list(map(memo.__getitem__, keys))
            found[near:] = got
        else:
            subjects = [b"\n".join(lines[i - n : i + 1]) for i in idxs[near:]]
            found[near:] = regex.hits(subjects)
        for k in range(near):
            i, ls = idxs[k], lo
            for _ in range(i):  # where line i starts in data (its text may have lost escape codes)
                ls = st.context.data.index(b"\n", ls) + 1
            above = st.context.lines_just_above(ls, n)
            subject = "\n".join(above + [lines[i].decode()]).encode()
            found[k] = self._hit(regex, subject, subject.translate(ZERO_DIGITS))
        return cast(list[bool], found)  # filled: idxs[near:] in one batch, idxs[:near] one by one
