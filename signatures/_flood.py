"""Plans for the lines of a flood: what a line of a given shape does, worked out once per shape.

A log where most lines are error lines (a watchdog timeout printed by every rank at every
step, a traceback repeated a million times) repeats a few messages with other numbers in
them. A line's *shape* is its bytes with every digit zeroed. For a shape, the plan says
which of the library's literals its lines hold, where their prefix names the rank and the
host, which signatures their lines confirm, and which tests depend on the digits (and
must run on each line). The scan counts a window of lines in bulk with these plans
(_engine._Scan._bulk) when no line of it can add an event; the plans are what make that
cheap. Everything here is exact: a regex that treats all digits alike (see `digit_blind`)
matches a line exactly when it matches the line's shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ._context import ZERO_DIGITS, has_clock, prefix_spans
from ._lines import PREFIX_CHARS

if TYPE_CHECKING:
    from ._schema import Signature

SHAPE_CHARS = 1024  # longer lines are left to the line path
PLANS_KEPT = 4096  # shapes whose plans are remembered; all are forgotten when full

# a counted repetition in RE2 syntax: {n}, {n,}, {n,m}
_REPEAT = re.compile(r"\{\d+(?:,\d*)?\}")


def digit_blind(regex: str) -> bool:
    """Whether `regex` treats all ASCII digits alike: it names none (a `0-9` range and `{m,n}` counts aside),
    so zeroing every digit of a text cannot change whether it matches. Conservative: unsure means no."""
    i, n, in_class = 0, len(regex), False
    while i < n:
        c = regex[i]
        if c == "\\":
            if regex[i + 1 : i + 2] in ("x", "Q", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"):
                return False  # a character by its code, quoted text, or a backreference
            i += 2
        elif in_class and regex.startswith("0-9", i):
            i += 3
        elif in_class:
            in_class = c != "]"
            if c.isdigit():
                return False
            i += 1
        elif c == "[":
            i += 1
            i += regex.startswith("^", i)
            i += regex.startswith("]", i)  # a leading ] is a member, not the end
            in_class = True
        elif c == "{" and (repeat := _REPEAT.match(regex, i)):
            i = repeat.end()
        elif c.isdigit():
            return False
        else:
            i += 1
    return True


@dataclass(frozen=True, eq=False)
class Test:
    """A regex to run on each line of a shape (it sees digits), on the line and the `before` lines above it."""

    regex: object  # an _engine._Lazy
    before: int = 0


@dataclass(frozen=True, eq=False)
class Firing:
    """A signature some of whose patterns the shape's literals name.

    Its lines fire it when `always`, or when one of `tests` matches, unless one of `vetoes` (its
    digit-seeing excludes) matches. `kind` is "plain" (kept or counted per rank) or "all"."""

    sig: Signature
    kind: str
    always: bool
    tests: tuple[Test, ...]
    vetoes: tuple[Test, ...]


@dataclass(frozen=True, eq=False)
class Plan:
    errorlike: bool = False  # it holds an error-like literal
    may_err: bool = False  # ... and may be an error-like line (then each line is checked)
    clock: bool = False  # its head may hold a timestamp
    rank: slice | None = None  # where its prefix names the rank
    host: slice | None = None  # ... and the host
    firings: tuple[Firing, ...] = ()


NO_LITERAL = Plan()  # a line with none of the library's literals: the scan does nothing with it
LINE_PATH = Plan()  # a line only the line path can take: a count rule, an absence start, a literal with digits...


class Plans:
    """The plans of the shapes seen so far, for one compiled library.

    `scan_shape(shape)` gives the ids (in _engine's numbering) of the literals a shape holds, or
    None when a literal with digits in it is among them (then the shape says too little)."""

    def __init__(self, scan_shape, by_literal, runtime):
        self.scan_shape = scan_shape
        self.by_literal = by_literal
        self.runtime = runtime
        self.known: dict[bytes, Plan] = {}

    def __getstate__(self):
        return self.scan_shape, self.by_literal, self.runtime

    def __setstate__(self, state):
        Plans.__init__(self, *state)

    def of(self, shapes: list[bytes], most_new: int) -> list[Plan] | None:
        """The plans of `shapes`, or None when more than `most_new` of them are new (too varied to be a flood)."""
        known = self.known
        new = set(shapes).difference(known)
        if len(new) > most_new:
            return None
        if len(known) + len(new) > PLANS_KEPT:  # a new dict, not clear(): another thread may be reading this one
            self.known = known = {}
            new = set(shapes)
        for shape in new:
            known[shape] = self._plan(shape)
        return list(map(known.__getitem__, shapes))

    def _plan(self, shape: bytes) -> Plan:
        ids = self.scan_shape(shape)
        if ids is None:
            return LINE_PATH
        if not ids:
            return NO_LITERAL
        errorlike = may_err = False
        order: dict[str, list] = {}  # signature id -> its patterns named by the shape's literals
        for lid in ids:
            for cp in self.by_literal[lid]:
                if cp.kind == "errorlike":
                    errorlike = True
                    may_err = may_err or not cp.regex.blind or cp.regex.hit(shape)
                elif cp.names_rank or not (cp.plain or (cp.kind == "match" and cp.sig.count is None)):
                    return LINE_PATH  # count rules, absence starts, a rank read by the regex: line by line
                else:
                    order.setdefault(cp.sig.id, []).append(cp)
        text = shape.decode()
        firings = []
        for sig_id, cps in order.items():
            firing = self._firing(self.runtime[sig_id], cps, shape)
            if firing is not None:
                firings.append(firing)
        head = text[:PREFIX_CHARS]
        rank, host = prefix_spans(head)
        return Plan(errorlike, may_err, has_clock(head), rank and slice(*rank), host and slice(*host), tuple(firings))

    @staticmethod
    def _firing(rt, cps, shape: bytes) -> Firing | None:
        always, tests = False, []
        for cp in cps:
            if cp.lines_before or not cp.regex.blind:
                tests.append(Test(cp.regex, cp.lines_before))
            elif cp.regex.hit(shape):
                always = True
        if not always and not tests:
            return None
        vetoes = []
        for x in rt.exclude:
            if not x.blind:
                vetoes.append(Test(x))
            elif x.hit(shape):
                return None  # excluded on every line of the shape
        kind = "plain" if cps[0].plain else "all"
        return Firing(rt.sig, kind, always, () if always else tuple(tests), tuple(vetoes))


def shapes_of(raw: bytes) -> list[bytes]:
    """The shapes of the lines of `raw`, which ends with a newline."""
    shapes = raw.translate(ZERO_DIGITS).split(b"\n")
    shapes.pop()
    return shapes
