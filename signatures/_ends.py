"""What the end of each source says (its last TAIL bytes): the lines saying training finished, and each rank's last
word, where a rank that went silent was when it stopped (see _stall and _attribution._stopped_inside)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._context import prefix_of, rank_and_host, time_of
from ._events import LastWord
from ._lines import COMPLETION, PREFIX_CHARS, parse_prefix, strip_ansi

# the launcher's and the scheduler's own lines: not a rank's last word, even under its label ("0: slurmstepd: ...")
_CHATTER = re.compile(
    rb"\b(?:slurmstepd|srun|sbatch|salloc)(?:-[\w.-]+)?: |\*\*\* (?:JOB|STEP) \S+ ON |torch[./]distributed[./]elastic|"
    rb"\bSending process \d+ closing signal\b|\b(?:Terminated|Killed)$|^\W*$"
)
LAST_WORD_LINES = 400  # the lines at a source's end where ranks' last words are looked for
LAST_WORD_RANKS = 256  # ... and how many ranks' last words one source keeps


def last_words(
    into: dict[tuple[int, int | None], LastWord],
    source: int,
    lines: list[bytes],
    number: int,
    year: int | None,
    rank_hint: int | None,
) -> None:
    """Each rank's last line among the last LAST_WORD_LINES of `lines` (the end of source `source`, whose first
    line is number `number`), the launcher's, the scheduler's and rule lines left out. A rank's own file stops
    at its last line; a shared console reads each line's prefix by its shape (most lines: no regex)."""
    seen: set[int | None] = set()
    for i in range(len(lines) - 1, max(0, len(lines) - LAST_WORD_LINES) - 1, -1):
        raw = lines[i].rstrip(b"\r")
        if _CHATTER.search(raw):
            continue
        plain = raw.isascii() and b"\x1b" not in raw
        text = raw.decode() if plain else strip_ansi(raw.decode("utf-8", "replace"))
        rank = prefix_of(raw)[0] if plain else rank_and_host(text)[0]
        mine = rank if rank is not None else rank_hint
        if mine in seen:
            continue
        seen.add(mine)
        into[(source, mine)] = LastWord(number + i, time_of(text[:PREFIX_CHARS], year), text[:300])
        if (rank_hint is not None and mine == rank_hint) or len(seen) >= LAST_WORD_RANKS:
            return  # a rank's own file: its last line is all there is to know


@dataclass
class EndFacts:
    """What the end of each source says (its last TAIL bytes), per (source index, rank): the last line saying
    training finished (a rank that printed one after an error line went past it, see _attribution.Survival),
    the last such line with a time (line, time), and the rank's last word (see last_words)."""

    finished: dict[tuple[int, int | None], int] = field(default_factory=dict)
    finished_at: dict[tuple[int, int | None], tuple[int, float]] = field(default_factory=dict)
    last_words: dict[tuple[int, int | None], LastWord] = field(default_factory=dict)

    def sample(self, source: int, tail: bytes, last_line: int, year: int | None, rank_hint: int | None) -> None:
        lines = tail.split(b"\n")
        if tail.endswith(b"\n"):
            lines.pop()
        number = last_line - len(lines) + 1  # the first (perhaps cut) line of the tail
        last_words(self.last_words, source, lines, number, year, rank_hint)
        if not COMPLETION.search(tail):
            return
        for raw in lines:
            if COMPLETION.search(raw):
                prefix = parse_prefix(strip_ansi(raw.decode("utf-8", "replace"))[:PREFIX_CHARS], year)
                rank = rank_hint if prefix.rank is None else prefix.rank
                self.finished[(source, rank)] = max(number, self.finished.get((source, rank), 0))
                if prefix.time is not None:
                    self.finished_at[(source, rank)] = (number, prefix.time)
            number += 1
