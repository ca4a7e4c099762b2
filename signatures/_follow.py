"""Trend rules applied to a run as it goes (`denpex watch`, `/denpex watch`): the loss each rank prints is
followed across polls, and a divergence is said once, while the run still burns compute.

The scan follows trends over a whole log at once (_rules / _trend). A watch sees a log a few lines at a time
and keeps its state between polls as JSON, so this keeps smaller series (POINTS observations, thinned evenly
as _trend.Series thins them) with short texts, and remembers which divergences it has reported.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._compiled import _Lazy
from ._context import prefix_of, rank_and_host
from ._library import Library
from ._lines import PREFIX_CHARS
from ._schema import Signature
from ._trend import Divergence, Observation, Series, describe, diverged, reading, step_of

POINTS = 64  # observations kept per series (the scan keeps 2,048: a watch stores its state after every poll)
TEXT_CHARS = 160  # of each observation's line
SERIES_KEPT = 256  # series followed per watch: (signature, rank, loss name)
LINES_PER_BLOCK = 128  # trend lines read from one block of new output, evenly spread, the newest always (a series
# keeps POINTS: reading more lines per poll would only be thinned away) ...
EVERY_LINE_BYTES = 32 << 10  # ... but a block this small (a poll's few new lines) has every one of them read
TRIES = 4  # lines holding a trend literal tried per window for one the rule follows


@dataclass(frozen=True)
class Diverged:
    sig: Signature
    rank: int | None
    name: str  # the loss's name ("" when unnamed)
    divergence: Divergence
    values: dict[str, str]  # describe()'s


_COMPILED: dict[int, tuple[Library, list]] = {}  # id(library) -> (library, its trend rules compiled)


def _rules(library: Library) -> list:
    """The library's trend rules with their regexes compiled, once per library (a bot rebuilds a watch from its
    state at every look: 200 watches a tick must not compile 200 times)."""
    found = _COMPILED.get(id(library))
    if found is None or found[0] is not library:
        rules = [
            (
                sig,
                [_Lazy(p.regex, p.caseless) for p in sig.patterns],
                [_Lazy(x.regex, x.caseless) for x in sig.exclude],
                [
                    (lit.lower() if p.caseless else lit, p.caseless)
                    for p in sig.patterns
                    for lit in ([p.literal] if p.literal else p.literals)
                ],
            )
            for sig in library.signatures
            if sig.trend is not None and sig.status != "deprecated"
        ]
        if len(_COMPILED) > 8:
            _COMPILED.clear()
        found = _COMPILED[id(library)] = (library, rules)
    return found[1]


class TrendFollower:
    """The library's trend rules (a loss that diverged), fed line by line."""

    def __init__(self, library: Library):
        self.rules = _rules(library)
        self.series: dict[tuple[str, int | None, str], Series] = {}
        self.said: set[tuple[str, int | None, str]] = set()
        self.fresh: set[tuple[str, int | None, str]] = set()  # series offered a value since diverged() last ran

    def __bool__(self) -> bool:
        return bool(self.rules)

    def offer_block(self, data: bytes, first_line: int, default_rank: int | None) -> int:
        """The trend lines of `data` (whole lines, the first numbered `first_line`), sampled: `data` is cut into
        LINES_PER_BLOCK windows and the first trend line of each is read (up to TRIES lines holding a literal),
        and the newest trend line always (whether a loss is still up is read from the newest). A poll of
        10 MB of new output then costs a few hundred substring searches and regex calls, not one per line.
        Returns how many lines were offered."""
        if not self.rules or not data:
            return 0
        lits = {(lit.encode(), caseless) for *_, found in self.rules for lit, caseless in found}
        lowered = data.lower() if any(c for _, c in lits) else data  # lower() keeps every byte in its place

        def find(lo: int, hi: int) -> int:
            spots = [(lowered if c else data).find(lit, lo, hi + len(lit) - 1) for lit, c in lits]  # starts in it
            return min((p for p in spots if p >= 0), default=-1)

        def last() -> int:
            return max((lowered if c else data).rfind(lit) for lit, c in lits)

        offered, counted, line_no, done = 0, 0, first_line, -1  # lines counted up to offset `counted`
        width = 1 if len(data) <= EVERY_LINE_BYTES else -(-len(data) // LINES_PER_BLOCK)

        def offer_at(at: int) -> bool:
            nonlocal counted, line_no, done, offered
            ls = data.rfind(b"\n", 0, at) + 1
            if ls <= done:
                return False
            le = data.find(b"\n", at)
            le = len(data) if le < 0 else le
            line_no += data.count(b"\n", counted, ls)
            counted, done = ls, ls
            offered += 1
            return self.offer(data[ls:le].decode("utf-8", "replace").rstrip("\r"), line_no, default_rank)

        pos, tries, window = 0, 0, -1
        while pos < len(data):  # from hit to hit: a window without one costs nothing
            at = find(pos, len(data))
            if at < 0:
                break
            if at // width != window:
                window, tries = at // width, 0
            end = data.find(b"\n", at) + 1 or len(data)
            tries += 1
            if offer_at(at) or tries >= TRIES:  # this window is done: on to the next one
                pos = max(end, (window + 1) * width)
            else:
                pos = end
        newest = last()
        if newest >= 0:
            offer_at(newest)
        return offered

    def offer(self, text: str, line: int, default_rank: int | None) -> bool:
        """One line of the run's output (numbered `line` in its file); whether a series took its value."""
        lowered = None
        for sig, patterns, excludes, literals in self.rules:
            assert sig.trend is not None  # only trend rules are kept
            if lowered is None:
                lowered = text.lower()
            if not any((lit in lowered) if caseless else (lit in text) for lit, caseless in literals):
                continue
            for regex in patterns:
                groups = regex.groups(text)  # RE2's spans, without a match object
                if groups is None:
                    continue
                read = reading(sig.trend, groups)
                if read is None or any(x.hit(text.encode()) for x in excludes):
                    break
                name, value = read
                head = text[:PREFIX_CHARS]
                named = prefix_of(head.encode())[0] if head.isascii() else rank_and_host(head)[0]
                rank = named if named is not None else default_rank
                key = (sig.id, rank, name)
                series = self.series.get(key)
                if series is None:
                    if len(self.series) >= SERIES_KEPT:
                        return False
                    series = self.series[key] = Series(cap=POINTS)
                series.offer(Observation(line, value, text[:TEXT_CHARS], None, None, step_of(text)))
                self.fresh.add(key)
                return True
        return False

    def diverged(self) -> list[Diverged]:
        """Divergences not reported before."""
        sigs = {sig.id: sig for sig, *_ in self.rules}
        found = []
        fresh, self.fresh = self.fresh, set()
        for key in fresh:  # a series that took no new value cannot have diverged since the last look
            series = self.series[key]
            if key in self.said:
                continue
            sig = sigs[key[0]]
            assert sig.trend is not None
            d = diverged(series.observed(), sig.trend)
            if d is not None:
                self.said.add(key)
                found.append(Diverged(sig, key[1], key[2], d, describe(d)))
        return found

    def state(self) -> dict:
        """JSON, small (a bot stores it after every look of every watch): each series as [key, stride, offered,
        negative, points, last], an observation as [line, value, step, text], the text only for the newest (what
        an alert quotes; describe() reads a step from the number kept)."""

        def obs(o: Observation, text: bool = False) -> list:
            return [o.line, o.value, o.step, o.text if text else ""]

        return {
            "series": [
                [
                    list(key),
                    s.stride,
                    s.offered,
                    s.negative,
                    [obs(p) for p in s.points],
                    obs(s.last, text=True) if s.last else None,
                ]
                for key, s in self.series.items()
            ],
            "said": [list(k) for k in self.said],
        }

    def restore(self, saved: dict) -> None:
        def obs(row: list) -> Observation:
            return Observation(row[0], row[1], row[3], None, None, row[2])

        self.series = {}
        for key, stride, offered, negative, points, last in saved.get("series", []):
            self.series[(key[0], key[1], key[2])] = Series(
                [obs(p) for p in points], stride, offered, obs(last) if last else None, negative, cap=POINTS
            )
        self.said = {(k[0], k[1], k[2]) for k in saved.get("said", [])}
