"""Which lines matter to a watch: training steps, checkpoint saves, the end of a run, failure candidates.

Save and progress lines are the library's own patterns (the `[absence]` rules of its checkpoint
signatures: the save's start, its completion, and the training progress that shows it is over), so
a format the library learns is watched too. Blocks are searched whole, in RE2 on bytes (linear time,
no line-by-line loop); only the few lines found are looked at one by one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import re2

from signatures import COMPLETION_MARKERS, Library, Matcher, Signature

PREFIX_BYTES = 160
BACK_LINES = 4096  # lines looked at from the end of new output for each rank's last step
BACK_BYTES = 4 << 20
RANKS_SETTLE = 64  # ... stopping once this many lines in a row named no new rank
BAR_REDRAWS = 64  # redraws of a \r progress bar looked at, from the newest

# Formats the library's absence rules do not name: Lightning's ModelCheckpoint (verbose) announces
# a save and prints nothing when it is done; the next step shows it.
EXTRA_SAVE_STARTS = [(r"saving model to '?(?P<what>[^'\s]+)", "saving model to")]

# A run that ended on its own.

_RANK = [
    re.compile(rb"\[rank\s*(\d{1,6})\]"),
    re.compile(rb"\[default\s*(\d{1,6})\]"),
    re.compile(rb"^\s{0,3}(\d{1,6}): "),
]
_STEP_NUMBER = re.compile(
    rb"(?i)\b(?:global[_ ]?)?(?:step|iter(?:ation)?s?|it)\b\s*[:=]?\s*\[?\s*(\d{1,12})"
    rb"|(\d{1,12})\s*/\s*\d{1,12}\s*\["
)
_KEYWORD_NUMBER = re.compile(rb"(?i)(?:step|iter(?:ation)?|checkpoint)[_\-= ]*(\d{1,12})")
_LAST_NUMBER = re.compile(rb"(\d{1,12})\D*$")


_PRESENT = ("failure", "failure", "save", "completion")  # the patterns of Recognisers._present, in order


def compile_bytes(pattern: str, caseless: bool = False):
    options = re2.Options()
    options.case_sensitive = not caseless
    options.log_errors = False
    options.max_mem = 256 << 20
    return re2.compile(pattern.encode(), options)


def diagnosed(library: Library) -> Library:
    """The signatures a watch diagnoses new output with. Not absence rules: mid-run, the log always stops
    somewhere, and a save under way is judged by its duration. Not trends: a loss is followed over the
    whole run, not over one poll's lines."""
    return library.subset(
        {s.id for s in library.signatures if s.status != "deprecated" and s.absence is None and s.trend is None}
    )


def _set(patterns: list[str]):
    options = re2.Options()
    options.log_errors = False
    options.max_mem = 256 << 20
    found = re2.Set.SearchSet(options)
    for pattern in patterns:
        found.Add(pattern.encode())
    found.Compile()
    return found


def escape(literal: str) -> str:
    """A literal as RE2 reads it (RE2 takes a backslash before any ASCII punctuation)."""
    return "".join("\\" + ch if not ch.isalnum() and ch != " " and ch.isascii() else ch for ch in literal)


def union(patterns: list[str], caseless: bool = False):
    """One regex that finds any of `patterns` (multi-line: ^ and $ are line boundaries)."""
    return compile_bytes("(?m)" + "|".join(f"(?:{p})" for p in dict.fromkeys(patterns)), caseless)


def line_at(data: bytes, start: int, end: int | None = None) -> tuple[int, int]:
    """The bounds of the line holding [start, end)."""
    begin = data.rfind(b"\n", 0, start) + 1
    stop = data.find(b"\n", start if end is None else max(start, end - 1))
    return begin, len(data) if stop < 0 else stop


def rank_of(line: bytes, default: int | None) -> int | None:
    """The rank a launcher put in front of a line ([rank3]:, [default3]:, srun's 3: ), else the file's."""
    head = line[:PREFIX_BYTES]
    for pattern in _RANK:
        m = pattern.search(head)
        if m:
            return int(m.group(1))
    return default


def step_number(line: bytes) -> int | None:
    m = _STEP_NUMBER.search(line)
    return int(m.group(1) or m.group(2)) if m else None


@dataclass(frozen=True)
class SaveLine:
    start: int  # offset of the line in the chunk's data
    end: int
    done: bool  # a completion; else a start
    rank: int | None
    what: str  # where or what is saved, when the line says
    step: int | None  # the step or iteration being saved, when the line says


@lru_cache(maxsize=8)
def recognisers_of(matcher: Matcher) -> Recognisers:
    """Recognisers(matcher.library), built once per matcher (a watch is rebuilt from its state at every look)."""
    return Recognisers(matcher.library)


class Recognisers:
    """The patterns a watch needs, compiled once per library."""

    def __init__(self, library: Library):
        absences = [(s, s.absence) for s in library.signatures if s.absence is not None]
        saves = [(s, a) for s, a in absences if "checkpoint" in s.tags]
        self.progress = union([p.regex for _, a in absences for p in a.progress])
        self.saving = [_SavePattern.of(p, s, done=False) for s, a in saves for p in a.start]
        self.saving += [_SavePattern.of(p, s, done=True) for s, a in saves for p in a.complete]
        self.saving += [_SavePattern(compile_bytes(rx, True), (lit,), True, (), False) for rx, lit in EXTRA_SAVE_STARTS]
        self.save_literals = union([escape(lit) for p in self.saving for lit in p.literals], caseless=True)
        self.completion = union(COMPLETION_MARKERS)
        # what a block holds, in one pass: a literal of a signature the diagnosis may fire, a save, an end
        failing = [p for s in diagnosed(library).signatures for p in s.patterns]
        self._present = _set(
            [
                "|".join(escape(lit) for p in failing if not p.caseless for lit in p.all_literals),
                "(?i:" + "|".join(escape(lit) for p in failing if p.caseless for lit in p.all_literals) + ")",
                "(?i:" + "|".join(escape(lit) for p in self.saving for lit in p.literals) + ")",
                "(?m)" + "|".join(f"(?:{p})" for p in COMPLETION_MARKERS),
            ]
        )

    def present(self, data: bytes) -> set[str]:
        """Which kinds of line `data` may hold ("failure", "save", "completion"), in one pass over it."""
        return {_PRESENT[i] for i in self._present.Match(data) or ()}

    def progress_between(self, data: bytes, start: int, end: int) -> bool:
        return start < end and self.progress.search(data, start, end) is not None

    def saves(self, data: bytes, default_rank: int | None) -> list[SaveLine]:
        """Every checkpoint start and completion line in `data`, in order."""
        found: list[SaveLine] = []
        pos = 0
        while True:
            m = self.save_literals.search(data, pos)
            if m is None:
                return found
            begin, stop = line_at(data, m.start(), m.end())
            pos = stop + 1
            line = data[begin:stop]
            match = _most_specific(self.saving, line)
            if match:
                pattern, m = match
                what, step = ("", None) if pattern.done else _what(m, line)
                found.append(SaveLine(begin, stop, pattern.done, rank_of(line, default_rank), what, step))

    def last_steps(
        self, data: bytes, tail: bytes, default_rank: int | None, known: set[int | None]
    ) -> dict[int | None, int | None]:
        """Each rank's last training step in new output (None: a progress line without a number, such as
        Hugging Face's {'loss': ...}). Read backwards from the end until every rank known so far is seen."""
        lines = [seg for seg in tail.split(b"\r")[:-1][-BAR_REDRAWS:] if seg][::-1]  # a bar redrawn with \r
        window_start = max(0, len(data) - BACK_BYTES)
        if not lines and self.progress.search(data, window_start) is None:
            return {}
        steps: dict[int | None, int | None] = {}
        for line in lines:
            self._step_of(line, default_rank, steps)
        end = len(data) - 1
        since_new = 0
        for _ in range(BACK_LINES):
            # enough: every rank seen before has its step, and a while has passed without a new one
            if end < 0 or (steps and known <= steps.keys() and since_new >= RANKS_SETTLE):
                break
            newline = data.rfind(b"\n", window_start, end)
            if newline < 0 and window_start:
                break
            before = len(steps)
            self._step_of(data[newline + 1 : end].rsplit(b"\r", 1)[-1], default_rank, steps)
            since_new = 0 if len(steps) > before else since_new + 1
            end = newline
        return steps

    def _step_of(self, line: bytes, default_rank: int | None, steps: dict[int | None, int | None]) -> None:
        if self.progress.search(line) is None:
            return
        rank = rank_of(line, default_rank)
        if steps.get(rank) is None:  # the newest line with a number wins over newer ones without
            steps[rank] = step_number(line)

    def completed(self, data: bytes) -> str | None:
        """The last completion marker line in `data`, if any."""
        last = None
        pos = 0
        while (m := self.completion.search(data, pos)) is not None:
            last = m
            pos = line_at(data, m.start(), m.end())[1] + 1
        if last is None:
            return None
        begin, stop = line_at(data, last.start(), last.end())
        return data[begin:stop].decode(errors="replace").strip()


@dataclass(frozen=True)
class _SavePattern:
    regex: Any  # an re2 pattern (google-re2 ships no types)
    literals: tuple[str, ...]  # one must be in the line for the regex to apply, as in the library
    caseless: bool
    excludes: tuple = ()
    done: bool = False

    @classmethod
    def of(cls, pattern, sig: Signature, done: bool) -> _SavePattern:
        """From one of the signature's absence patterns; its excludes veto starts only, as in the library."""
        excludes = () if done else tuple(compile_bytes(x.regex, x.caseless) for x in sig.exclude)
        return cls(
            compile_bytes(pattern.regex, pattern.caseless),
            tuple(pattern.all_literals),
            pattern.caseless,
            excludes,
            done,
        )

    def match(self, line: bytes, lowered: bytes):
        text = lowered if self.caseless else line
        if not any((lit.lower() if self.caseless else lit).encode() in text for lit in self.literals):
            return None
        m = self.regex.search(line)
        return m if m and not any(x.search(line) for x in self.excludes) else None


def _most_specific(patterns: list[_SavePattern], line: bytes):
    """The pattern with the longest literal among those that match: a loose completion ("checkpoint ... saved")
    yields to "is about to be saved!", a loose start ("saving ... checkpoint") to "Finished saving the checkpoint"."""
    lowered = line.lower()
    best = None
    for pattern in patterns:
        m = pattern.match(line, lowered)
        if m and (best is None or max(map(len, pattern.literals)) > max(map(len, best[0].literals))):
            best = (pattern, m)
    return best


def _what(m, line: bytes) -> tuple[str, int | None]:
    """What a save start names (a path, a tag) and the step it saves, when it says."""
    # a bytes pattern names its groups in bytes
    groups = {(k.decode() if isinstance(k, bytes) else k): v for k, v in m.groupdict().items() if v}
    what = groups.get("what") or b""
    if groups.get("iteration"):
        return what.decode(errors="replace"), int(groups["iteration"])
    number = _KEYWORD_NUMBER.search(what) or _KEYWORD_NUMBER.search(line) or _LAST_NUMBER.search(what)
    return what.decode(errors="replace"), int(number.group(1)) if number else None
